"""The Aster rules engine, one hand-worked example (or more) per rule of rules/aster.md.

Positions are built by hand on the default board (R = 4), whose coordinates are
(ring r has half-size 5 - r):

    1NW(-4,4)          1N(0,4)          1NE(4,4)
         2NW(-3,3)     2N(0,3)     2NE(3,3)
              3NW(-2,2) 3N(0,2) 3NE(2,2)
                  4NW    4N     4NE
    1W 2W 3W 4W          C          4E 3E 2E 1E
                  4SW    4S     4SE
              3SW       3S       3SE
         2SW           2S           2SE
    1SW                1S               1SE

Cards come from a small catalog built here, so every link and action is known exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import IllegalActionError, InputError
from asterion.models.aster import (
    COLORS,
    Action,
    AsterRules,
    AsterState,
    Claim,
    Color,
    EndTurn,
    Move,
    apply,
    claims,
    final_scores,
    is_legal,
    legal_actions,
    slot_actions,
    winners,
)
from asterion.models.aster_board import Board
from asterion.models.aster_cards import ActionKind, Card, Catalog, Deck, Links

RED, BLUE, GREEN, YELLOW = Color.RED, Color.BLUE, Color.GREEN, Color.YELLOW
GEN = ActionKind.GENERATE
TARGETED = ActionKind.GENERATE_TARGETED
LINE = ActionKind.MOVE_LINE
RING = ActionKind.MOVE_RING
NUDGE = ActionKind.NUDGE
NOVA = ActionKind.SUPERNOVA
HOLE = ActionKind.BLACK_HOLE
VP = ActionKind.VICTORY_POINT
GRAVITY = ActionKind.GRAVITY


def card(
    abbr: str,
    deck: str,
    pattern: Sequence[tuple[int, int]] = (),
    actions: Sequence[ActionKind] = (),
    *,
    left: bool = False,
    right: bool = False,
    up: bool = False,
    down: bool = False,
) -> Card:
    return Card(
        abbr=abbr,
        name=abbr,
        deck=Deck(deck),
        points=len(pattern),  # a card is worth its number of stars
        pattern=tuple(pattern),
        actions=tuple(actions),
        links=Links(left=left, right=right, up=up, down=down),
    )


DIAG5 = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]
CATALOG = Catalog(
    (
        # A6, standard side.
        card("Big", "base", actions=[GEN, RING], right=True),
        card("Bang", "base", actions=[LINE, NUDGE], left=True, right=True),
        # Diagonal pair: links both ways, adds victory_point.
        card("Dia", "small", [(0, 0), (1, 1)], [VP], left=True, right=True),
        # Three on a diagonal, no links at all: can never join a row.
        card("Tri", "small", [(0, 0), (1, 1), (2, 2)], [HOLE]),
        # Two side by side, left link only: joins a row but ends it.
        card("Bar", "small", [(0, 0), (1, 0)], [NOVA], left=True),
        # A host for gravity (vertical link).
        card("Hst", "small", [(0, 0), (2, 0)], [GRAVITY], left=True, right=True, up=True),
        # Deck cards.
        card("Agg", "small", [(0, 0), (0, 2)], [NOVA, HOLE], left=True, right=True),
        card("S1", "small", [(0, 0), (0, 3)], [VP], left=True, right=True),
        card("S2", "small", [(0, 0), (0, 4)], [VP], left=True, right=True),
        card("Pen", "large", DIAG5, [TARGETED], left=True, right=True),
        card("L1", "large", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], [RING]),
        card("L2", "large", [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)], [LINE]),
        card("L3", "large", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1)], [LINE]),
        # Row fillers, 2 points each, linking both ways.
        *(
            card(f"F{i}", "small", [(0, 0), (i, 0)], [VP], left=True, right=True)
            for i in range(1, 7)
        ),
    ),
    provenance="test catalog",
)
RULES = AsterRules(catalog=CATALOG)


def make_state(
    stars: Mapping[str, Color] | None = None,
    *,
    actions: Sequence[ActionKind] = (),
    player: Color = RED,
    players: Sequence[Color] = (RED, BLUE),
    reserve: Mapping[Color, int] | None = None,
    vp: Mapping[Color, int] | None = None,
    rows: Mapping[Color, Sequence[str]] | None = None,
    aside: Mapping[Color, Sequence[str]] | None = None,
    aggregated: Mapping[Color, Sequence[tuple[int, str]]] | None = None,
    offer: Sequence[str] = (),
    decks: tuple[Sequence[str], Sequence[str]] = ((), ()),
    rules: AsterRules = RULES,
) -> AsterState:
    """A position by hand. Reserves default to 10 minus the color's stars on the board."""
    board = rules.board
    cells: list[Color | None] = [None] * len(board.points)
    for point, color in (stars or {}).items():
        cells[board.index[point]] = color
    reserve = reserve or {}
    vp = vp or {}
    rows = rows or {}
    aside = aside or {}
    aggregated = aggregated or {}

    def per_color(values: Iterable[int]) -> tuple[int, int, int, int]:
        a, b, c, d = values
        return (a, b, c, d)

    return AsterState(
        stars=tuple(cells),
        reserve=per_color(reserve.get(c, 10 - cells.count(c)) for c in COLORS),
        players=tuple(players),
        active=list(players).index(player),
        actions=tuple(actions),
        vp=per_color(vp.get(c, 0) for c in COLORS),
        rows=tuple(tuple(rows.get(c, ("Big", "Bang") if c in players else ())) for c in COLORS),
        aside=tuple(tuple(aside.get(c, ())) for c in COLORS),
        aggregated=tuple(tuple(aggregated.get(c, ())) for c in COLORS),
        offer=tuple(offer),
        decks=(tuple(decks[0]), tuple(decks[1])),
        rules=rules,
    )


def play(state: AsterState, *moves: Move) -> AsterState:
    for move in moves:
        state = apply(state, move)
    return state


def targets(state: AsterState, kind: ActionKind, slot: int = 0, origin: str | None = None) -> set:
    """The targets (or generation points) of the legal uses of ``slot``."""
    result = set()
    for action in slot_actions(state, slot):
        assert action.kind is kind
        if origin is not None and action.origin != origin:
            continue
        result.add(action.target if action.target is not None else action.point)
    return result


def slot_moves(state: AsterState, slot: int) -> list[Action]:
    return [m for m in legal_actions(state) if isinstance(m, Action) and m.slot == slot]


# -- setup ---------------------------------------------------------------------------------------


def test_new_game_setup() -> None:
    # A3: starting stars; 8 stars left in each reserve; A6: Big + Bang give
    # [generate, move_ring, move_line, nudge]; 3 face-up cards from each deck.
    state = AsterState.new_game(players=(RED, BLUE, GREEN, YELLOW))
    assert state.star_map() == {
        "2NE": RED,
        "3NE": RED,
        "2NW": BLUE,
        "3NW": BLUE,
        "2SW": GREEN,
        "3SW": GREEN,
        "2SE": YELLOW,
        "3SE": YELLOW,
    }
    assert all(state.reserve_of(c) == 8 for c in COLORS)
    assert state.player is RED
    assert state.actions == (GEN, RING, LINE, NUDGE)
    assert len(state.offer) == 6
    decks = [state.rules.catalog[abbr].deck for abbr in state.offer]
    assert decks.count(Deck.SMALL) == 3 and decks.count(Deck.LARGE) == 3
    assert all(state.row_of(c) == ("Big", "Bang") for c in COLORS)


# -- generate ------------------------------------------------------------------------------------


def test_generate_on_an_empty_generation_point() -> None:
    state = make_state({"2NE": RED, "3NE": RED}, actions=[GEN])
    # A2: 1NE 1SE 1SW 1NW and C, empty or not.
    assert targets(state, GEN) == {"1NE", "1SE", "1SW", "1NW", "C"}
    after = apply(state, Action(GEN, 0, point="C"))
    assert after.star_at("C") is RED
    assert after.reserve_of(RED) == 7  # 10 - 2 on the board = 8, one generated
    assert after.stars_of(RED) == ["2NE", "3NE", "C"]


def test_generate_destroys_a_star_of_another_color() -> None:
    # Blue stands on 1NE: red's new star replaces it and the blue star goes back to blue.
    state = make_state({"2NE": RED, "1NE": BLUE}, actions=[GEN], reserve={RED: 5, BLUE: 3})
    after = apply(state, Action(GEN, 0, point="1NE"))
    assert after.star_at("1NE") is RED
    assert after.reserve_of(RED) == 4
    assert after.reserve_of(BLUE) == 4
    assert after.stars_of(BLUE) == []


def test_generate_destroys_a_star_of_ones_own_color() -> None:
    # Red on 1SW already: one red star leaves the reserve, the destroyed one comes back: the
    # reserve and the board look the same afterwards.
    state = make_state({"1SW": RED, "2NE": RED}, actions=[GEN], reserve={RED: 1})
    after = apply(state, Action(GEN, 0, point="1SW"))
    assert after.star_at("1SW") is RED
    assert after.reserve_of(RED) == 1
    assert after.stars_of(RED) == state.stars_of(RED)
    assert after.next_slot == 1  # the symbol was used


def test_generate_needs_a_star_in_reserve() -> None:
    # Even replacing its own star needs a reserve star before the action.
    state = make_state({"1SW": RED, "C": RED}, actions=[GEN], reserve={RED: 0})
    assert slot_moves(state, 0) == []
    for point in ("1SW", "C", "1NE"):
        with pytest.raises(IllegalActionError):
            apply(state, Action(GEN, 0, point=point))


def test_generate_only_on_generation_points() -> None:
    state = make_state({"2NE": RED}, actions=[GEN])
    for point in ("2N", "4NE", "1N"):
        with pytest.raises(IllegalActionError):
            apply(state, Action(GEN, 0, point=point))
    # A2 is a parameter: with generation point 2N only, 2N works and C does not.
    rules = AsterRules(board=Board(generation_points=("2N",)), catalog=CATALOG)
    custom = make_state({"2NE": RED}, actions=[GEN], rules=rules)
    assert targets(custom, GEN) == {"2N"}
    assert apply(custom, Action(GEN, 0, point="2N")).star_at("2N") is RED
    with pytest.raises(IllegalActionError):
        apply(custom, Action(GEN, 0, point="C"))


# -- generate_targeted ---------------------------------------------------------------------------


def test_generate_targeted_any_empty_point() -> None:
    stars = {"2NE": RED, "3NE": RED, "2NW": BLUE, "3NW": BLUE}
    state = make_state(stars, actions=[TARGETED])
    # 33 points, 4 occupied: 29 targets.
    assert targets(state, TARGETED) == set(state.board.points) - set(stars)
    assert len(targets(state, TARGETED)) == 29
    after = apply(state, Action(TARGETED, 0, point="4S"))
    assert after.star_at("4S") is RED and after.reserve_of(RED) == 7
    # An occupied point is not a target (no destruction, unlike generate).
    with pytest.raises(IllegalActionError):
        apply(state, Action(TARGETED, 0, point="2NW"))


def test_generate_targeted_needs_a_reserve_star() -> None:
    state = make_state({"2NE": RED}, actions=[TARGETED], reserve={RED: 0})
    assert slot_moves(state, 0) == []
    with pytest.raises(IllegalActionError):
        apply(state, Action(TARGETED, 0, point="4S"))


# -- move_line -----------------------------------------------------------------------------------


def test_move_line_without_blocking() -> None:
    # 2NE is (3, 3); the NE-SW line holds 9 points (1NE 2NE 3NE 4NE C 4SW 3SW 2SW 1SW), 3 of them
    # occupied (2NE, 3NE, C), so 6 targets. A4: the blue stars in between do not block.
    state = make_state({"2NE": RED, "3NE": BLUE, "C": BLUE}, actions=[LINE])
    assert targets(state, LINE) == {"1NE", "4NE", "4SW", "3SW", "2SW", "1SW"}
    after = apply(state, Action(LINE, 0, origin="2NE", target="1SW"))
    assert after.star_at("1SW") is RED and after.is_empty("2NE")
    assert after.reserve == state.reserve


def test_move_line_with_blocking() -> None:
    # line_blocking=True: from 2NE, 1NE is next door; every point past 3NE is blocked.
    rules = AsterRules(board=Board(line_blocking=True), catalog=CATALOG)
    state = make_state({"2NE": RED, "3NE": BLUE, "C": BLUE}, actions=[LINE], rules=rules)
    assert targets(state, LINE) == {"1NE"}
    with pytest.raises(IllegalActionError):
        apply(state, Action(LINE, 0, origin="2NE", target="4NE"))


def test_move_line_from_the_center_reaches_every_empty_point() -> None:
    # rules/aster.md worked example: every point lies on one of the four lines through C.
    stars = {"C": RED, "2NW": BLUE, "3NW": BLUE}
    state = make_state(stars, actions=[LINE])
    assert targets(state, LINE, origin="C") == set(state.board.points) - set(stars)
    assert len(targets(state, LINE, origin="C")) == 30
    # With blocking, only 1NW is cut off (behind 3NW and 2NW on the NW spoke): 29.
    rules = AsterRules(board=Board(line_blocking=True), catalog=CATALOG)
    blocked = make_state(stars, actions=[LINE], rules=rules)
    assert targets(blocked, LINE, origin="C") == set(state.board.points) - set(stars) - {"1NW"}


def test_move_line_not_off_the_line_and_only_own_stars() -> None:
    state = make_state({"2NE": RED, "3NW": BLUE}, actions=[LINE])
    # 2N shares only a side with 2NE (A1: not a straight line by default).
    for target in ("2N", "2E", "3N"):
        with pytest.raises(IllegalActionError):
            apply(state, Action(LINE, 0, origin="2NE", target=target))
    # Blue's star is not red's to move.
    with pytest.raises(IllegalActionError):
        apply(state, Action(LINE, 0, origin="3NW", target="4NW"))
    # An occupied target is not allowed.
    with pytest.raises(IllegalActionError):
        apply(state, Action(LINE, 0, origin="2NE", target="2NE"))


def test_move_line_along_sides_when_sides_are_lines() -> None:
    # A1 = True: 2NE also lies on the top side (2NW 2N 2NE) and the right side (2NE 2E 2SE).
    rules = AsterRules(board=Board(sides_are_lines=True), catalog=CATALOG)
    state = make_state({"2NE": RED, "3NE": BLUE, "C": BLUE}, actions=[LINE], rules=rules)
    diagonal = {"1NE", "4NE", "4SW", "3SW", "2SW", "1SW"}
    assert targets(state, LINE) == diagonal | {"2NW", "2N", "2E", "2SE"}
    # ...and with blocking too: blue on 2N hides 2NW; 3NE hides everything past it.
    rules = AsterRules(board=Board(sides_are_lines=True, line_blocking=True), catalog=CATALOG)
    state = make_state({"2NE": RED, "3NE": BLUE, "2N": BLUE}, actions=[LINE], rules=rules)
    assert targets(state, LINE) == {"1NE", "2E", "2SE"}


# -- move_ring -----------------------------------------------------------------------------------


def test_move_ring() -> None:
    # Red on 3N, blue on 3E: ring 3 has 8 points, 2 occupied, 6 targets.
    state = make_state({"3N": RED, "3E": BLUE}, actions=[RING])
    assert targets(state, RING) == {"3NE", "3SE", "3S", "3SW", "3W", "3NW"}
    after = apply(state, Action(RING, 0, origin="3N", target="3S"))
    assert after.star_at("3S") is RED and after.is_empty("3N")
    # Not to another ring, not onto a star, not the opponent's star.
    for origin, target in (("3N", "2N"), ("3N", "4N"), ("3N", "3E"), ("3E", "3W")):
        with pytest.raises(IllegalActionError):
            apply(state, Action(RING, 0, origin=origin, target=target))


def test_move_ring_not_from_the_center() -> None:
    state = make_state({"C": RED}, actions=[RING])
    assert slot_moves(state, 0) == []
    with pytest.raises(IllegalActionError):
        apply(state, Action(RING, 0, origin="C", target="4N"))


# -- nudge ---------------------------------------------------------------------------------------


def test_nudge_moves_any_star_one_edge() -> None:
    # Blue on 3N (0, 2): neighbours 3NW, 3NE (ring), 2N, 4N (line); 2N holds red: 3 targets.
    # Red on 2N: neighbours 2NW, 2NE (ring), 1N, 3N (line); 3N holds blue: 3 targets.
    state = make_state({"3N": BLUE, "2N": RED}, actions=[NUDGE])
    assert targets(state, NUDGE, origin="3N") == {"3NW", "3NE", "4N"}
    assert targets(state, NUDGE, origin="2N") == {"2NW", "2NE", "1N"}
    assert len(slot_moves(state, 0)) == 6
    # Red pushes blue's star along a line edge...
    along_line = apply(state, Action(NUDGE, 0, origin="3N", target="4N"))
    assert along_line.star_at("4N") is BLUE and along_line.is_empty("3N")
    # ...or along a ring edge.
    along_ring = apply(state, Action(NUDGE, 0, origin="3N", target="3NE"))
    assert along_ring.star_at("3NE") is BLUE
    # Only one step, only onto an empty point.
    for target in ("1N", "3E", "2N", "C"):
        with pytest.raises(IllegalActionError):
            apply(state, Action(NUDGE, 0, origin="3N", target=target))


def test_nudge_into_and_out_of_the_center() -> None:
    # 4N (0, 1) is joined to C by a line edge; C to all 8 points of ring 4.
    state = make_state({"4N": BLUE}, actions=[NUDGE])
    assert targets(state, NUDGE, origin="4N") == {"4NW", "4NE", "3N", "C"}
    after = apply(state, Action(NUDGE, 0, origin="4N", target="C"))
    assert after.star_at("C") is BLUE
    center = make_state({"C": GREEN}, actions=[NUDGE])
    assert targets(center, NUDGE, origin="C") == {
        f"4{d}" for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    }


# -- supernova, black hole, victory point --------------------------------------------------------


def test_supernova() -> None:
    # Red has 3 stars on the board and 7 in reserve: all 3 return, +3 VP; blue is untouched.
    state = make_state({"2NE": RED, "3NE": RED, "C": RED, "2NW": BLUE}, actions=[NOVA], vp={RED: 1})
    after = apply(state, Action(NOVA, 0))
    assert after.stars_of(RED) == []
    assert after.reserve_of(RED) == 10
    assert after.vp_of(RED) == 4
    assert after.stars_of(BLUE) == ["2NW"] and after.reserve_of(BLUE) == 9
    assert after.vp_of(BLUE) == 0


def test_supernova_with_a_limited_reserve_and_with_no_stars() -> None:
    # A puzzle may give red 2 stars on the board and none in reserve: afterwards 2 in reserve.
    state = make_state({"2NE": RED, "3NE": RED}, actions=[NOVA], reserve={RED: 0})
    after = apply(state, Action(NOVA, 0))
    assert (after.reserve_of(RED), after.vp_of(RED)) == (2, 2)
    # No star on the board: nothing returns, no VP.
    empty = apply(make_state({"2NW": BLUE}, actions=[NOVA]), Action(NOVA, 0))
    assert (empty.reserve_of(RED), empty.vp_of(RED)) == (10, 0)


def test_victory_point() -> None:
    state = make_state({}, actions=[VP], vp={RED: 4, BLUE: 2})
    after = apply(state, Action(VP, 0))
    assert (after.vp_of(RED), after.vp_of(BLUE)) == (5, 2)


@pytest.mark.parametrize(
    ("black_holes", "minutes", "expected"),
    [
        (0, 0, 3),  # the hourglass starts every turn on +3
        (0, 1, 2),  # one step per minute
        (0, 6, -3),
        (0, 60, -3),  # it stops at -3
        (1, 0, 3),  # back one position, at most +3
        (1, 2, 2),  # +1 after 2 minutes, back to +2
        (1, 10, -2),  # -3, back to -2
        (2, 4, 1),  # -1, back two positions: +1
        (2, 1, 3),  # +2, back two would be +4: at most +3
    ],
)
def test_black_hole_and_the_hourglass(black_holes: int, minutes: int, expected: int) -> None:
    # The toolkit has no clock: the black holes act on the position the hourglass reached.
    state = make_state({}, actions=[HOLE, HOLE], vp={RED: 10})
    for slot in range(black_holes):
        state = apply(state, Action(HOLE, slot))
    after = apply(state, EndTurn(minutes))
    assert after.vp_of(RED) == 10 + expected
    assert after.vp_of(BLUE) == 0


def test_black_holes_do_not_carry_over_to_the_next_turn() -> None:
    state = make_state({}, actions=[HOLE])
    state = play(state, Action(HOLE, 0), EndTurn(0))
    assert state.player is BLUE
    after = apply(state, EndTurn(6))
    assert after.vp_of(BLUE) == -3  # 6 minutes: -3, no black hole this turn


def test_a_turn_ended_at_once_scores_the_full_hourglass() -> None:
    # "it starts each turn on +3 and moves one step per minute": a turn that ends with no time
    # given (EndTurn(), as legal_actions offers it and the solvers play it) has used 0 minutes.
    state = make_state({}, vp={RED: 4})
    assert state.hourglass() == 3
    assert state.hourglass(2) == 1
    offered = list(legal_actions(state))[-1]
    assert offered == EndTurn()
    after = apply(state, offered)
    assert after.vp_of(RED) == 4 + 3


def test_end_turn_minutes_cannot_be_negative() -> None:
    with pytest.raises(IllegalActionError):
        apply(make_state({}), EndTurn(-1))


# -- gravity -------------------------------------------------------------------------------------


def gravity_state() -> AsterState:
    # Red's row: Big (generate, move_ring), Bang (move_line, nudge), Hst (gravity; up link),
    # Dia (victory_point). Only Hst (row index 2) has a vertical link.
    rows = {RED: ("Big", "Bang", "Hst", "Dia")}
    return make_state(
        {"2NE": RED},
        actions=[GEN, RING, LINE, NUDGE, GRAVITY, VP],
        rows=rows,
        decks=(("Agg", "S1"), ("L1",)),
    )


def test_gravity_options() -> None:
    state = gravity_state()
    # Either deck's top card, under the one host: 2 uses.
    assert set(slot_moves(state, 4)) == {
        Action(GRAVITY, 4, deck=Deck.SMALL, host=2),
        Action(GRAVITY, 4, deck=Deck.LARGE, host=2),
    }
    # Big (index 0) and Dia (index 3) have no vertical link.
    for host in (0, 1, 3):
        with pytest.raises(IllegalActionError):
            apply(state, Action(GRAVITY, 4, deck=Deck.SMALL, host=host))
    # With both decks empty there is nothing to aggregate.
    assert slot_moves(replace(state, decks=((), ())), 4) == []


def test_gravity_aggregates_the_top_card_under_the_host() -> None:
    state = apply(gravity_state(), Action(GRAVITY, 4, deck=Deck.SMALL, host=2))
    assert state.decks == (("S1",), ("L1",))  # Agg left the small deck
    assert state.aggregated[RED.number] == ((2, "Agg"),)
    assert state.row_of(RED) == ("Big", "Bang", "Hst", "Dia")  # not a row card
    # This turn's list is the one the turn started with.
    assert state.actions == (GEN, RING, LINE, NUDGE, GRAVITY, VP)
    # Red's next turn: Agg's actions (supernova, black_hole) right after Hst's (gravity).
    state = play(state, EndTurn(0), EndTurn(0))
    assert state.player is RED
    assert state.actions == (GEN, RING, LINE, NUDGE, GRAVITY, NOVA, HOLE, VP)


def test_gravity_from_the_large_deck() -> None:
    state = apply(gravity_state(), Action(GRAVITY, 4, deck=Deck.LARGE, host=2))
    assert state.decks == (("Agg", "S1"), ())
    # L1 adds move_ring after Hst's gravity.
    assert state.action_list_of(RED) == (GEN, RING, LINE, NUDGE, GRAVITY, RING, VP)


# -- the sequence --------------------------------------------------------------------------------


def test_slots_are_used_in_order_each_once_and_may_be_skipped() -> None:
    state = make_state({}, actions=[VP, HOLE, VP, NOVA])
    assert list(state.remaining_slots()) == [0, 1, 2, 3]
    # Skip slots 0 and 1, use slot 2.
    state = apply(state, Action(VP, 2))
    assert state.vp_of(RED) == 1
    assert list(state.remaining_slots()) == [3]
    # Slots 0, 1 were passed, slot 2 was used: all illegal now.
    for action in (Action(VP, 0), Action(HOLE, 1), Action(VP, 2)):
        assert not is_legal(state, action)
        with pytest.raises(IllegalActionError):
            apply(state, action)
    state = apply(state, Action(NOVA, 3))
    assert list(state.remaining_slots()) == []
    assert list(legal_actions(state)) == [EndTurn()]


def test_a_slot_holds_one_symbol() -> None:
    state = make_state({}, actions=[VP, HOLE])
    with pytest.raises(IllegalActionError):
        apply(state, Action(HOLE, 0))  # slot 0 is victory_point
    with pytest.raises(IllegalActionError):
        apply(state, Action(VP, 5))  # no slot 5
    # The same symbol twice in the list is two uses.
    twice = play(make_state({}, actions=[VP, VP]), Action(VP, 0), Action(VP, 1))
    assert twice.vp_of(RED) == 2


WHY = [
    # (stars, actions, move, why): apply quotes the move and says why it is not legal.
    ({}, [GEN], Action(GEN, 0, point="C"), "no star left in the reserve"),
    ({}, [GEN], Action(GEN, 0, point="2N"), "2N is not a generation point"),
    ({"4S": BLUE}, [TARGETED], Action(TARGETED, 0, point="4S"), "4S is not empty"),
    ({}, [TARGETED], Action(TARGETED, 0, point="9Z"), "unknown point '9Z'"),
    ({}, [LINE], Action(LINE, 0, origin="2NE", target="1NE"), "no star on 2NE"),
    ({"2NE": RED}, [LINE], Action(LINE, 0, origin="2NE"), "needs an origin and a target"),
    ({"3NW": BLUE}, [LINE], Action(LINE, 0, origin="3NW", target="4NW"), "blue's, not red's"),
    ({"2NE": RED, "C": BLUE}, [LINE], Action(LINE, 0, origin="2NE", target="C"), "C is not empty"),
    ({"2NE": RED}, [LINE], Action(LINE, 0, origin="2NE", target="2N"), "by straight line"),
    ({"3N": RED}, [RING], Action(RING, 0, origin="3N", target="2N"), "by ring"),
    ({"3N": BLUE}, [NUDGE], Action(NUDGE, 0, origin="3N", target="1N"), "by one edge"),
    ({}, [GRAVITY], Action(GRAVITY, 0, deck=Deck.SMALL, host=0), "vertical link"),
    ({}, [VP], Action(VP, 0, point="C"), "extra details"),
]


@pytest.mark.parametrize(("stars", "actions", "move", "why"), WHY)
def test_an_illegal_action_says_why(
    stars: dict[str, Color], actions: list[ActionKind], move: Action, why: str
) -> None:
    # Each reason is the rule the move breaks (rules/aster.md, "Actions"): generate needs a
    # reserve star and a generation point, moves need an own star (nudge: any star), an empty
    # target on the right route; gravity needs a host with a vertical link (Big has none).
    reserve = {RED: 0} if move.kind is GEN and move.point == "C" else None
    state = make_state(stars, actions=actions, reserve=reserve, decks=(("S1",), ()))
    with pytest.raises(IllegalActionError) as caught:
        apply(state, move)
    assert why in str(caught.value)


def test_no_action_after_a_claim_says_why() -> None:
    state = claim_state({"2NE": RED, "3NE": RED}, actions=[VP])
    after = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    with pytest.raises(IllegalActionError, match="a constellation was claimed"):
        apply(after, Action(VP, 0))


def test_legal_actions_follow_the_remaining_slots() -> None:
    state = make_state({}, actions=[VP, HOLE])
    assert list(legal_actions(state)) == [Action(VP, 0), Action(HOLE, 1), EndTurn()]
    after = apply(state, Action(HOLE, 1))
    assert list(legal_actions(after)) == [EndTurn()]


# -- claims --------------------------------------------------------------------------------------

OFFER = ("Dia", "Tri", "Bar", "Pen", "L1", "L2")
DECKS = (("S1", "S2"), ("L3",))


def claim_state(stars: Mapping[str, Color], **kwargs: object) -> AsterState:
    kwargs.setdefault("offer", OFFER)
    kwargs.setdefault("decks", DECKS)
    return make_state(stars, **kwargs)  # type: ignore[arg-type]


def test_claims_offered_are_the_present_placements() -> None:
    # Red 2NE (3,3), 3NE (2,2); blue 4NE (1,1). Dia (diagonal pair): {2NE,3NE}, {3NE,4NE}.
    # Tri (3 on a diagonal): {2NE,3NE,4NE}. Bar (side by side), Pen (5 on a diagonal), L1, L2:
    # none.
    state = claim_state({"2NE": RED, "3NE": RED, "4NE": BLUE})
    assert set(claims(state)) == {
        Claim("Dia", frozenset({"2NE", "3NE"})),
        Claim("Dia", frozenset({"3NE", "4NE"})),
        Claim("Tri", frozenset({"2NE", "3NE", "4NE"})),
    }


def test_claim_scores_each_color_and_sets_an_unlinkable_card_aside() -> None:
    state = claim_state({"2NE": RED, "3NE": RED, "4NE": BLUE}, vp={RED: 1, BLUE: 1})
    after = apply(state, Claim("Tri", frozenset({"2NE", "3NE", "4NE"})))
    # 2 red stars used, 1 blue star used.
    assert (after.vp_of(RED), after.vp_of(BLUE)) == (3, 2)
    # Tri has no left link: set aside.
    assert after.row_of(RED) == ("Big", "Bang")
    assert after.aside[RED.number] == ("Tri",)
    # Replaced in place by the small deck's top card.
    assert after.offer == ("Dia", "S1", "Bar", "Pen", "L1", "L2")
    assert after.decks == (("S2",), ("L3",))
    # The stars stay on the board.
    assert after.star_map() == state.star_map()


def test_claim_joins_the_row_when_the_links_allow() -> None:
    # Bang links right and Dia links left (A7): Dia joins the row.
    state = claim_state({"2NE": RED, "3NE": RED}, actions=[VP])
    after = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    assert after.row_of(RED) == ("Big", "Bang", "Dia")
    assert after.aside[RED.number] == ()
    assert after.vp_of(RED) == 2
    assert after.offer == ("S1", "Tri", "Bar", "Pen", "L1", "L2")
    # From red's next turn on, Dia's victory_point follows Bang's actions.
    later = play(after, EndTurn(0), EndTurn(0))
    assert later.actions == (GEN, RING, LINE, NUDGE, VP)


def test_claim_goes_aside_when_the_last_card_has_no_right_link() -> None:
    # Red's row ends with Bar (left link only): even Dia (left link) cannot follow it.
    state = claim_state({"2NE": RED, "3NE": RED}, rows={RED: ("Big", "Bang", "Bar")})
    after = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    assert after.row_of(RED) == ("Big", "Bang", "Bar")
    assert after.aside[RED.number] == ("Dia",)


def test_claim_of_a_large_card_with_three_colors() -> None:
    # Pen: 5 on a diagonal, here 2NE 3NE (red), 4NE C (blue), 4SW (green).
    stars = {"2NE": RED, "3NE": RED, "4NE": BLUE, "C": BLUE, "4SW": GREEN}
    state = claim_state(stars, players=(RED, BLUE, GREEN))
    after = apply(state, Claim("Pen", frozenset(stars)))
    assert (after.vp_of(RED), after.vp_of(BLUE), after.vp_of(GREEN)) == (2, 2, 1)
    assert after.row_of(RED) == ("Big", "Bang", "Pen")
    # Replaced from the large deck, in place.
    assert after.offer == ("Dia", "Tri", "Bar", "L3", "L1", "L2")
    assert after.decks == (("S1", "S2"), ())


def test_a_claimed_large_card_takes_one_card_off_the_large_deck() -> None:
    # "the claimed card ... is replaced from its deck": Pen (large) is replaced in place by the
    # large deck's top card L3; L2 stays in the deck, and the small deck is untouched.
    stars = {"2NE": RED, "3NE": RED, "4NE": RED, "C": RED, "4SW": RED}
    offer = ("Dia", "Tri", "Bar", "Pen", "L1")
    state = claim_state(stars, offer=offer, decks=(("S1", "S2"), ("L3", "L2")))
    after = apply(state, Claim("Pen", frozenset(stars)))
    assert after.offer == ("Dia", "Tri", "Bar", "L3", "L1")
    assert after.decks == (("S1", "S2"), ("L2",))


def test_no_actions_and_no_second_claim_after_a_claim() -> None:
    state = claim_state({"2NE": RED, "3NE": RED, "4NE": BLUE}, actions=[VP, HOLE])
    after = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    assert list(after.remaining_slots()) == []
    with pytest.raises(IllegalActionError):
        apply(after, Action(VP, 0))
    with pytest.raises(IllegalActionError):
        apply(after, Claim("Tri", frozenset({"2NE", "3NE", "4NE"})))
    assert list(legal_actions(after)) == [EndTurn()]


def test_claiming_what_is_not_there_is_illegal() -> None:
    state = claim_state({"2NE": RED, "3NE": RED})
    bad = [
        Claim("Dia", frozenset({"1NE", "2NE"})),  # a placement, but 1NE is empty
        Claim("Dia", frozenset({"2NE", "4NE"})),  # (3,3)-(1,1) is no placement of Dia
        Claim("Dia", frozenset({"2NE"})),  # too few points
        Claim("S1", frozenset({"2NE", "3NE"})),  # S1 is in the deck, not face up
        Claim("Zzz", frozenset({"2NE", "3NE"})),  # no such card
        Claim("Bar", frozenset({"2NE", "3NE"})),  # Bar is side by side
    ]
    for claim in bad:
        assert not is_legal(state, claim)
        with pytest.raises(IllegalActionError):
            apply(state, claim)


# -- end of turn ---------------------------------------------------------------------------------


def test_end_turn_passes_to_the_next_player_with_a_new_list() -> None:
    rows = {BLUE: ("Big", "Bang", "Dia"), GREEN: ("Big", "Bang", "Bar")}
    state = make_state({}, actions=[VP, HOLE], players=(RED, BLUE, GREEN), rows=rows)
    state = play(state, Action(VP, 0), EndTurn(2))
    assert state.vp_of(RED) == 1 + 1  # victory_point + hourglass at +1 after 2 minutes
    assert state.player is BLUE
    assert state.actions == (GEN, RING, LINE, NUDGE, VP)  # Big + Bang + Dia
    assert list(state.remaining_slots()) == [0, 1, 2, 3, 4]
    state = apply(state, EndTurn(5))
    assert state.vp_of(BLUE) == -2
    assert state.player is GREEN
    assert state.actions == (GEN, RING, LINE, NUDGE, NOVA)  # Big + Bang + Bar
    state = apply(state, EndTurn(0))
    assert state.vp_of(GREEN) == 3
    assert state.player is RED  # clockwise order wraps around
    assert state.actions == (GEN, RING, LINE, NUDGE)


def test_end_turn_after_a_claim_lets_the_next_player_claim() -> None:
    state = claim_state({"2NE": RED, "3NE": RED, "4NE": BLUE})
    state = play(state, Claim("Dia", frozenset({"2NE", "3NE"})), EndTurn(0))
    assert state.player is BLUE and not state.claimed
    assert state.vp_of(RED) == 2 + 3
    # Blue claims Tri with 2 red stars and 1 blue star: red +2 even in blue's turn.
    state = apply(state, Claim("Tri", frozenset({"2NE", "3NE", "4NE"})))
    assert (state.vp_of(RED), state.vp_of(BLUE)) == (7, 1)
    assert state.aside[BLUE.number] == ("Tri",)
    assert state.aside[RED.number] == ()


# -- end of the game -----------------------------------------------------------------------------

SEVEN = ("Big", "Bang", "F1", "F2", "F3", "F4", "F5")


def test_the_eighth_card_ends_the_game() -> None:
    players = (RED, BLUE, GREEN)
    state = claim_state({"2NE": RED, "3NE": RED}, players=players, rows={RED: SEVEN})
    state = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    assert len(state.row_of(RED)) == 8
    assert state.vp_of(RED) == 2 + 10  # 2 stars used + 10 for the 8th card
    state = apply(state, EndTurn(0))  # + 3
    assert state.vp_of(RED) == 15
    # Every other player has exactly one more turn.
    assert state.player is BLUE and not state.is_over
    state = apply(state, Action(GEN, 0, point="C"))  # blue plays normally
    state = apply(state, EndTurn(1))
    assert state.player is GREEN and not state.is_over
    state = apply(state, EndTurn(0))
    assert state.is_over
    assert list(legal_actions(state)) == []
    for move in (EndTurn(0), Action(GEN, 0, point="C")):
        with pytest.raises(IllegalActionError):
            apply(state, move)
    # Final: red 15 VP + F1..F5 (2 each) + Dia (2) = 27; blue +2 from the hourglass; green +3.
    assert final_scores(state) == {RED: 27, BLUE: 2, GREEN: 3}
    assert winners(state) == [RED]


def test_the_eighth_card_by_the_second_player() -> None:
    # Blue completes its row; red (the only other player) has one more turn.
    state = claim_state({"2NE": RED, "3NE": RED}, player=BLUE, rows={BLUE: SEVEN})
    state = play(state, Claim("Dia", frozenset({"2NE", "3NE"})), EndTurn(0))
    assert state.vp_of(RED) == 2 and state.vp_of(BLUE) == 13
    assert state.player is RED and not state.is_over
    state = apply(state, EndTurn(0))
    assert state.is_over


def test_nothing_is_left_to_play_once_the_game_is_over() -> None:
    # Blue completes its row; red's one more turn is the last one ("every other player has one
    # more turn"). Red ends it without using its 4 symbols (Big + Bang): once the game is over
    # no slot remains and no final turn is left.
    state = claim_state({"2NE": RED, "3NE": RED}, player=BLUE, rows={BLUE: SEVEN})
    state = play(state, Claim("Dia", frozenset({"2NE", "3NE"})), EndTurn(0))
    assert state.player is RED and state.final_turns_left == 1
    assert list(state.remaining_slots()) == [0, 1, 2, 3]
    state = apply(state, EndTurn(0))
    assert state.is_over
    assert state.final_turns_left == 0
    assert list(state.remaining_slots()) == []


def test_a_seventh_card_or_a_card_aside_does_not_end_the_game() -> None:
    six = SEVEN[:-1]
    state = claim_state({"2NE": RED, "3NE": RED}, rows={RED: six})
    state = play(state, Claim("Dia", frozenset({"2NE", "3NE"})), EndTurn(0))
    assert state.vp_of(RED) == 2 + 3
    state = play(state, EndTurn(0), EndTurn(0), EndTurn(0))
    assert not state.is_over
    # Row of 7 plus a card set aside (Tri has no left link): still 7 in the row.
    stars = {"2NE": RED, "3NE": RED, "4NE": RED}
    state = claim_state(stars, rows={RED: SEVEN})
    state = play(state, Claim("Tri", frozenset(stars)), EndTurn(0))
    assert state.vp_of(RED) == 3 + 3
    assert state.aside[RED.number] == ("Tri",)
    state = play(state, EndTurn(0), EndTurn(0), EndTurn(0))
    assert not state.is_over


def test_quick_variant_ends_at_six_cards() -> None:
    quick = AsterRules.quick(catalog=CATALOG)
    five = ("Big", "Bang", "F1", "F2", "F3")
    state = claim_state({"2NE": RED, "3NE": RED}, rows={RED: five}, rules=quick)
    state = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    assert state.vp_of(RED) == 2 + 10
    state = play(state, EndTurn(0), EndTurn(0))
    assert state.is_over
    # The same sixth card in a standard game is just a card.
    state = claim_state({"2NE": RED, "3NE": RED}, rows={RED: five})
    state = play(state, Claim("Dia", frozenset({"2NE", "3NE"})), EndTurn(0), EndTurn(0))
    assert state.vp_of(RED) == 2 + 3
    assert not state.is_over


# -- final scoring -------------------------------------------------------------------------------


def test_final_scores_count_row_and_aside_cards_not_aggregated_ones() -> None:
    state = make_state(
        {},
        players=(RED, BLUE),
        vp={RED: 5, BLUE: 10},
        rows={RED: ("Big", "Bang", "Hst", "Dia")},
        aside={RED: ("Tri",)},
        aggregated={RED: ((2, "Pen"),)},
    )
    # Red: 5 VP + Hst 2 + Dia 2 + Tri 3 (aside) = 12; Pen (5, aggregated) and Big/Bang score 0.
    # Blue: 10 VP, only Big and Bang.
    assert final_scores(state) == {RED: 12, BLUE: 10}
    assert winners(state) == [RED]


def test_ties_share_the_win() -> None:
    state = make_state(
        {},
        players=(RED, BLUE, GREEN),
        vp={RED: 5, BLUE: 9, GREEN: 7},
        rows={RED: ("Big", "Bang", "Dia", "F1")},  # 5 + 2 + 2 = 9
    )
    assert final_scores(state) == {RED: 9, BLUE: 9, GREEN: 7}
    assert winners(state) == [RED, BLUE]
    everyone = make_state({}, players=(RED, BLUE, GREEN, YELLOW))
    assert winners(everyone) == [RED, BLUE, GREEN, YELLOW]


def test_new_game_rejects_bad_players() -> None:
    for players in ((), (RED, RED)):
        with pytest.raises(InputError):
            AsterState.new_game(players=players)


# -- invariants under random play ----------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(1, 60), players=st.integers(1, 4))
def test_random_play_conserves_stars_and_keeps_moves_legal(
    seed: int, moves: int, players: int
) -> None:
    # Stars are conserved: every color always owns 10 (board + reserve); a point holds one star;
    # every move legal_actions offers applies; the active player is always one of the players.
    rng = random.Random(seed)
    colors = COLORS[:players]
    state = AsterState.new_game(players=colors, seed=seed)
    for _ in range(moves):
        offered = list(legal_actions(state))
        if state.is_over:
            assert offered == []
            break
        assert offered[-1] == EndTurn()
        state = apply(state, rng.choice(offered))
        for color in COLORS:
            assert len(state.stars_of(color)) + state.reserve_of(color) == 10
        assert state.player in colors
        assert len(state.offer) <= 6


# -- claims at the edges of the rules (the checks a mutation audit found unguarded) --------------


def test_a_left_only_card_joins_a_row_that_links_right() -> None:
    # A7: Bang links right, Bar links left only: Bar joins the row (C = (0,0), 4E = (1,0)).
    state = claim_state({"C": RED, "4E": RED})
    after = apply(state, Claim("Bar", frozenset({"C", "4E"})))
    assert after.row_of(RED) == ("Big", "Bang", "Bar")
    assert after.aside[RED.number] == ()


def test_a_second_completed_row_does_not_extend_the_final_turns() -> None:
    # Red completes its row first: the others have one final turn each. Blue completing its
    # own in that turn scores its 10 but starts no new round of final turns.
    stars = {"2NE": RED, "3NE": RED, "C": BLUE, "4E": BLUE}
    state = claim_state(stars, players=(RED, BLUE, GREEN), rows={RED: SEVEN, BLUE: SEVEN})
    state = play(state, Claim("Dia", frozenset({"2NE", "3NE"})), EndTurn(0))
    state = play(state, Claim("Bar", frozenset({"C", "4E"})))
    assert len(state.row_of(BLUE)) == 8 and state.vp_of(BLUE) == 2 + 10
    state = play(state, EndTurn(0), EndTurn(0))  # blue's turn ends, then green's last turn
    assert state.is_over


def test_a_claimed_card_with_an_empty_deck_leaves_the_offer() -> None:
    state = claim_state({"2NE": RED, "3NE": RED}, decks=((), ()))
    after = apply(state, Claim("Dia", frozenset({"2NE", "3NE"})))
    assert after.offer == ("Tri", "Bar", "Pen", "L1", "L2")
    assert not any(isinstance(m, Claim) and m.abbr == "Dia" for m in legal_actions(after))
