"""The layout frontier of a telescope set (``stellar_solo_layout``) and the flow check that
uses it: the frontier against a brute-force enumeration of final layouts, against every
legal game of short deals (no game's telescope may beat the frontier), and on 11-turn deal
7, where the placement rule costs points (worked by hand below).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import permutations, product

import pytest
from test_stellar_solo_split import best_by_telescope

from asterion.models.stellar import StellarState, apply_unchecked, legal_moves, score
from asterion.models.stellar_cards import FACE_DOWN_NUMBER
from asterion.models.stellar_solo import deal_solo_puzzle
from asterion.solver.stellar_solo import KINDS, SATELLITE, Compiled, Node
from asterion.solver.stellar_solo_flow import Flow, FlowCheck, FlowMemo, SetFlows
from asterion.solver.stellar_solo_layout import LayoutOutcome, layout_frontier

MOST = 40  # three sections and diversity
Outcome = tuple[int, tuple[int, ...]]


def pareto(outcomes: dict[tuple[int, ...], int]) -> set[Outcome]:
    """The (points, stars lost) no other outcome beats in points while losing no more."""
    return {
        (points, lost)
        for lost, points in outcomes.items()
        if not any(
            other != lost
            and more >= points
            and all(o <= m for o, m in zip(other, lost, strict=True))
            for other, more in outcomes.items()
        )
    }


def connected(compiled: Compiled, region: int) -> bool:
    seen = frontier = region & -region
    while frontier:
        grown = 0
        for slot in range(len(compiled.slot_ids)):
            if frontier >> slot & 1:
                grown |= compiled.neighbors[slot]
        frontier = grown & region & ~seen
        seen |= frontier
    return seen == region


def brute_frontier(compiled: Compiled, cards: list[int]) -> set[Outcome]:
    """Every final layout of ``cards`` on the empty slots, each typed card face up or down."""
    c, root = compiled, compiled.root
    free = [s for s in range(len(c.slot_ids)) if not root.filled >> s & 1]
    outcomes: dict[tuple[int, ...], int] = {}
    for slots in permutations(free, len(cards)):
        for faces in product((True, False), repeat=len(cards)):
            if any(
                not up and c.kind[card] == SATELLITE for card, up in zip(cards, faces, strict=True)
            ):
                continue
            typed, sums, lost = list(root.typed), list(root.sums), [0] * len(KINDS)
            for card, slot, up in zip(cards, slots, faces, strict=True):
                kind = c.kind[card]
                if up and kind != SATELLITE:
                    typed[kind] |= 1 << slot
                elif not up:
                    lost[kind] += c.card_stars[card]
                number = c.telescope_number[card] if up else FACE_DOWN_NUMBER
                sums[c.section_of[slot]] += number
            if any(typed[k] != root.typed[k] and not connected(c, typed[k]) for k in KINDS):
                continue
            won = sum(total >= need for total, need in zip(sums, c.need, strict=True))
            points = 10 * won + 10 * all(typed)
            outcomes[tuple(lost)] = max(points, outcomes.get(tuple(lost), -1))
    return pareto(outcomes)


def grown_start(compiled: Compiled, rng: random.Random, cards: list[int]) -> Node:
    """The start with ``cards`` placed by the placement rule (random legal slots)."""
    c, root = compiled, compiled.root
    filled, typed, sums = root.filled, list(root.typed), list(root.sums)
    for card in cards:
        kind = c.kind[card]
        empty = [s for s in range(len(c.slot_ids)) if not filled >> s & 1]
        number = c.telescope_number[card]
        if kind != SATELLITE and typed[kind]:
            near = [s for s in empty if c.neighbors[s] & typed[kind]]
            if near:
                slot = rng.choice(near)
                typed[kind] |= 1 << slot
            else:
                slot, number = rng.choice(empty), FACE_DOWN_NUMBER
        else:
            slot = rng.choice(empty)
            if kind != SATELLITE:
                typed[kind] |= 1 << slot
        filled |= 1 << slot
        sums[c.section_of[slot]] += number
    capped = tuple(min(total, need) for total, need in zip(sums, c.need, strict=True))
    return root._replace(filled=filled, typed=tuple(typed), sums=capped)


@pytest.mark.parametrize("seed", range(8))
def test_the_frontier_matches_every_layout(seed: int) -> None:
    # A telescope half filled by the rule, then 5 cards for its 6-7 empty slots: the
    # CP-SAT frontier is exactly the brute-force Pareto frontier.
    rng = random.Random(seed)
    compiled = Compiled(deal_solo_puzzle(seed, turns=11))
    cards = list(range(len(compiled.ids)))
    rng.shuffle(cards)
    placed = rng.choice([5, 6])
    compiled.root = grown_start(compiled, rng, cards[:placed])
    telescope = cards[placed : placed + 5]
    found = layout_frontier(compiled, frozenset(telescope), MOST)
    assert {(o.points, o.lost) for o in found} == brute_frontier(compiled, telescope)


def final_states(state: StellarState) -> list[StellarState]:
    if state.is_over:
        return [state]
    return [
        end for move in legal_moves(state) for end in final_states(apply_unchecked(state, move))
    ]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_game_beats_the_frontier_of_its_set(seed: int) -> None:
    # Every legal 2-turn game: its sections and diversity, and the stars its face-down cards
    # lose, are bounded by an entry of its telescope set's frontier.
    puzzle = deal_solo_puzzle(seed, turns=2)
    compiled = Compiled(puzzle)
    index = {card_id: i for i, card_id in enumerate(compiled.ids)}
    start = puzzle.start_state()
    frontiers: dict[frozenset[int], list[LayoutOutcome]] = {}
    for end in final_states(start):
        placed = list(end.areas[0].telescope)[len(start.areas[0].telescope) :]
        cards = frozenset(index[p.card] for _, p in placed)
        if cards not in frontiers:
            frontiers[cards] = layout_frontier(compiled, cards, MOST)
        parts = score(end)[0]
        points = sum(parts.sections.values()) + parts.diversity
        lost = [0] * len(KINDS)
        for _, p in placed:
            card = index[p.card]
            if p.face_down:
                lost[compiled.kind[card]] += compiled.card_stars[card]
        assert any(
            o.points >= points and all(a <= b for a, b in zip(o.lost, lost, strict=True))
            for o in frontiers[cards]
        ), (sorted(cards), points, lost)


DEAL_7_SET = ["A0a", "A1a", "B4a", "C0a", "C1a", "M0a", "M1a", "M3a", "P0a", "P1a", "P3a"]


def deal_7_set(compiled: Compiled) -> frozenset[int]:
    """The telescope set worked by hand below, as compiled card indices."""
    return frozenset(compiled.ids.index(card) for card in DEAL_7_SET)


def test_deal_7_loses_a_section_or_stars_to_the_layout() -> None:
    # Worked by hand. Start B3s in slot 1; targets top 16, middle 10, bottom 12 (17, 11 and
    # 13 win). Slot 1's only neighbor is 3, so B4a goes to 3. Slots 4, 9 and 12 have one
    # neighbor each (5, 10, 11) and 2 has only 5 left, so type groups of 3 (moons, planets),
    # 2 (clouds, asteroids) and 2 fill the other ten slots only as {2, 4, 5}, {6, 7, 8},
    # {9, 10}, {11, 12}. The middle {6, 7, 8} then holds three moons or three planets, both
    # summing 10 (0/6 counts 6), below 11: with every card face up, top, bottom and
    # diversity at most, 30. A face-down card opens other layouts: A1a (2 stars) face down
    # on 9, moons on {2, 4, 5}, A0a on 6, clouds on {7, 8}, planets on {10, 11, 12} win all
    # three sections (17, 13, 13) with diversity: 40, losing 2 asteroid stars.
    compiled = Compiled(deal_solo_puzzle(7, turns=11))
    found = layout_frontier(compiled, deal_7_set(compiled), MOST)
    asteroid = 2  # planet, moon, asteroid, cloud, black hole
    assert LayoutOutcome(30, (0, 0, 0, 0, 0)) in found
    assert all(o.points <= 30 for o in found if not any(o.lost))
    assert any(o.points == 40 and o.lost[asteroid] <= 2 and sum(o.lost) <= 2 for o in found)


def test_the_flow_check_of_deal_7_sees_the_layout() -> None:
    # A flow found, the set is laid out: by the hand-worked frontier above, one check per
    # entry; no entry is bounded above the check with every card face up.
    compiled = Compiled(deal_solo_puzzle(7, turns=11))
    telescope = deal_7_set(compiled)
    memo = FlowMemo(18)
    flows = SetFlows(compiled, telescope, memo, 30)
    assert isinstance(flows.reach(0, 10**6), tuple)
    assert flows.laid_out and len(flows.checks) > 1
    assert all(check.fixed <= 40 for check in flows.checks)
    plain = FlowCheck(compiled, telescope, memo)
    assert rising_cap(flows.reach, 0) <= rising_cap(plain.reach, 0)


def rising_cap(reach: Callable[[int, int], object], floor: int) -> int:
    """The cap of a set, asking for flows of rising bound until none is left."""
    while True:
        found = reach(floor, 10**7)
        if isinstance(found, int):
            return found
        flow = found[1] if isinstance(found, tuple) else found
        assert isinstance(flow, Flow)
        floor = flow.bound + 1


@pytest.mark.parametrize("seed", [0, 3])
def test_set_flows_against_every_game_by_telescope_set(seed: int) -> None:
    # As the flow check's own test, with the layouts: the best 2-turn game of each set is
    # reached by a flow, and the set's cap is never below it.
    puzzle = deal_solo_puzzle(seed, turns=2)
    compiled = Compiled(puzzle)
    state = puzzle.start_state()
    index = {card_id: i for i, card_id in enumerate(compiled.ids)}
    memo = FlowMemo(12)
    for cards, top in best_by_telescope(state, len(state.areas[0].telescope)).items():
        flows = SetFlows(compiled, frozenset(index[card] for card in cards), memo, 30)
        found = flows.reach(top, 10**6)
        assert isinstance(found, tuple) and found[1].bound >= top
        assert rising_cap(flows.reach, top) >= top
