"""Solo Stellar: the puzzle file, and the optimum by search and by CP-SAT against a plain
exhaustive enumeration over the rules engine's own legal moves.

The enumeration below uses nothing but ``legal_moves``, ``apply_unchecked`` and ``score``
from the rules engine, with no pruning and no memory, so it is slow but obviously right: it
decides 1- and 2-turn puzzles (a 2-turn puzzle has about 40,000 games). On 3 and 4 turns the
two engines are checked against each other.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from asterion.errors import IllegalActionError, InputError
from asterion.models.stellar import (
    FinalNote,
    Move,
    StellarState,
    Turn,
    apply_unchecked,
    legal_moves,
    score,
)
from asterion.models.stellar_cards import CelestialType, Deck, StellarCard
from asterion.models.stellar_solo import (
    SoloPuzzle,
    deal_solo_puzzle,
    load_solo_puzzle,
    parse_solo_puzzle,
    solo_puzzle_from_data,
    solo_puzzle_to_data,
)
from asterion.solver import stellar_solo
from asterion.solver.result import Status
from asterion.solver.stellar_solo import (
    METHODS,
    BranchAndBound,
    Compiled,
    Node,
    SoloAnswer,
    cp_sat_solo,
    replay,
    search_solo,
    solve_solo,
    type_score,
)

SOURCE = "solo.json"


def plain_best(state: StellarState) -> int:
    """The best final score by trying every legal move sequence (no pruning, no memory)."""
    if state.is_over:
        return score(state)[0].total
    return max(plain_best(apply_unchecked(state, move)) for move in legal_moves(state))


def check_answer(puzzle: SoloPuzzle, answer: SoloAnswer, optimum: int) -> None:
    assert answer.status is Status.OPTIMAL
    assert answer.best_score == answer.bound == optimum
    final, total = replay(puzzle, answer.plan)
    assert total == optimum and final.is_over and final == answer.final
    assert isinstance(answer.plan[-1], FinalNote)
    assert all(isinstance(move, Turn) for move in answer.plan[:-1])
    assert len(answer.plan) == puzzle.turns + 1


# -- hand-worked ---------------------------------------------------------------------------------

HAND_WORKED: dict[str, Any] = {
    "format": "asterion.stellar-solo/1",
    "deck_order": ["S3", "A2b"],
    "telescope_start": "M3s",
    "notebook_start": "M4a",
    "hand": ["M5b", "P1b"],
    "display": ["M0a", "P2b", "C4b", "B5b", "A1b"],
    "targets": {"top": 100, "middle": 100, "bottom": 100},
    "turns": 1,
}


def test_hand_worked_one_turn() -> None:
    # Sections are out of reach (targets 100) and so is diversity (4 types missing, 1 turn).
    # Only moons carry stars: the starter (1) and M0a (3) if it joins the telescope, next to
    # the starter (slot 3, the only neighbour of slot 1). Playing a 0/6 sends the player to
    # the deck: the satellite S3 goes to the notebook as a moon 3; the final note M5b makes
    # the moons 3, 4, 5: 4 stars x 3 = 12. No 3 notebook cards make a longer run, and moons
    # cannot have more stars, so 12 is the best.
    puzzle = solo_puzzle_from_data(HAND_WORKED, SOURCE)
    expected_plan: list[Move] = [Turn(1, "M0a", "telescope", 3, None), FinalNote("M5b")]
    assert replay(puzzle, expected_plan)[1] == 12
    assert plain_best(puzzle.start_state()) == 12
    for method in METHODS:
        answer = solve_solo(puzzle, method=method)
        check_answer(puzzle, answer, 12)
        assert answer.plan == expected_plan


# -- exhaustive enumeration on 1 and 2 turns -----------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_one_turn_agrees_with_plain_enumeration(seed: int) -> None:
    puzzle = deal_solo_puzzle(seed, turns=1)
    optimum = plain_best(puzzle.start_state())
    check_answer(puzzle, search_solo(puzzle), optimum)
    check_answer(puzzle, cp_sat_solo(puzzle), optimum)


@pytest.mark.parametrize("seed", [0, 2])
def test_two_turns_agree_with_plain_enumeration(seed: int) -> None:
    puzzle = deal_solo_puzzle(seed, turns=2)
    optimum = plain_best(puzzle.start_state())
    check_answer(puzzle, search_solo(puzzle), optimum)
    check_answer(puzzle, cp_sat_solo(puzzle), optimum)
    check_answer(puzzle, solve_solo(puzzle), optimum)
    check_answer(puzzle, solve_solo(puzzle, method="portfolio"), optimum)


# -- 3 and 4 turns: the two engines agree ----------------------------------------------------------


@pytest.mark.parametrize(("turns", "seed"), [(3, 0), (3, 1), (3, 2), (3, 5), (4, 2), (4, 8)])
def test_search_and_cp_sat_agree(turns: int, seed: int) -> None:
    puzzle = deal_solo_puzzle(seed, turns=turns)
    by_search = search_solo(puzzle, time_limit=60)
    by_cp_sat = cp_sat_solo(puzzle, time_limit=60)
    by_both = solve_solo(puzzle, method="portfolio", time_limit=60)
    assert by_search.best_score is not None
    check_answer(puzzle, by_search, by_search.best_score)
    check_answer(puzzle, by_cp_sat, by_search.best_score)
    check_answer(puzzle, by_both, by_search.best_score)


# -- the compiled rules and the bound -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_compiled_moves_are_the_engines_moves(seed: int) -> None:
    """Perft-style: along a random 11-turn game, the compiled turns are exactly the engine's
    legal moves, and every finished game scores the same both ways."""
    puzzle = deal_solo_puzzle(seed)
    compiled = Compiled(puzzle)
    node, state = compiled.root, puzzle.start_state()
    rng = random.Random(seed)
    for _ in range(puzzle.turns):
        ours = {compiled.to_moves([step], 0)[0]: child for step, child in compiled.children(node)}
        theirs = list(legal_moves(state))
        assert set(ours) == set(theirs)
        move = rng.choice(theirs)
        node, state = ours[move], apply_unchecked(state, move)
    for card in state.area.hand:
        notebook, satellites = compiled.noted(
            node.notebook, node.satellites, compiled.ids.index(card)
        )
        ours_total = type_score(node.stars, notebook, satellites) + compiled.fixed_points(node)
        assert ours_total == score(apply_unchecked(state, FinalNote(card)))[0].total


def _exact(compiled: Compiled, node: Node) -> int:
    if node.k == compiled.turns:
        return compiled.final_note(node)[0]
    return max(_exact(compiled, child) for _, child in compiled.children(node))


@pytest.mark.parametrize("seed", range(3))
def test_the_bound_is_never_below_the_best(seed: int) -> None:
    compiled = Compiled(deal_solo_puzzle(seed, turns=2))
    search = BranchAndBound(compiled)
    assert search.bound(compiled.root) >= _exact(compiled, compiled.root)
    for _, child in compiled.children(compiled.root):
        assert search.bound(child) >= _exact(compiled, child)


def test_last_turn_in_closed_form_is_exact() -> None:
    compiled = Compiled(deal_solo_puzzle(4, turns=2))
    search = BranchAndBound(compiled)
    for _, child in list(compiled.children(compiled.root))[::7]:
        assert search.last_turn(child, 10**6)[0] == _exact(compiled, child)


# -- bounded and honest ----------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["search", "cp-sat", "split", "auto", "portfolio"])
def test_a_full_game_past_the_time_limit_is_not_called_optimal(method: str) -> None:
    puzzle = deal_solo_puzzle(3)
    answer = solve_solo(puzzle, method=method, time_limit=0.5)  # type: ignore[arg-type]
    assert answer.status in (Status.FEASIBLE, Status.UNKNOWN, Status.OPTIMAL)
    if answer.status is not Status.OPTIMAL:
        assert answer.bound is not None
    if answer.best_score is not None:
        assert replay(puzzle, answer.plan)[1] == answer.best_score
        assert answer.bound is None or answer.bound >= answer.best_score


def test_search_past_its_deadline_stops_at_the_next_node(monkeypatch: pytest.MonkeyPatch) -> None:
    # A node bounds every child (milliseconds on a full game), so the clock is read at each,
    # not every CHECK_EVERY nodes: a full game's first dive alone overran 0.01 s by 0.2 s.
    # A clock that gains a second a reading: the deadline passes during the first dive.
    readings = iter(range(10**6))
    monkeypatch.setattr(stellar_solo, "time", SimpleNamespace(perf_counter=lambda: next(readings)))
    compiled = Compiled(deal_solo_puzzle(1))
    search = BranchAndBound(compiled, deadline=3)
    search.run()
    assert search.stopped and search.best < 0  # stopped before the dive's leaf: no plan
    assert search.nodes < compiled.turns


def test_search_stopped_by_its_node_budget_keeps_a_certified_plan() -> None:
    puzzle = deal_solo_puzzle(0)
    answer = search_solo(puzzle, max_nodes=20)
    assert answer.status is Status.FEASIBLE and answer.best_score is not None
    assert answer.bound is not None and answer.bound >= answer.best_score
    assert replay(puzzle, answer.plan)[1] == answer.best_score


def test_an_interrupt_stops_cp_sat() -> None:
    # A whole game takes CP-SAT minutes to prove (docs/benchmarks.md); asked to stop at its
    # first look, it ends long before its limit and does not call its plan optimal.
    asked = []

    def interrupt() -> bool:
        asked.append(True)
        return True

    answer = cp_sat_solo(deal_solo_puzzle(3), time_limit=120, interrupt=interrupt)
    assert asked and answer.wall_time < 60
    assert answer.status in (Status.FEASIBLE, Status.UNKNOWN)


def test_cp_sat_starts_from_a_hint_and_is_reproducible() -> None:
    puzzle = deal_solo_puzzle(5, turns=3)
    hint = search_solo(puzzle, max_nodes=5).plan
    first = cp_sat_solo(puzzle, seed=7, hint=hint)
    again = cp_sat_solo(puzzle, seed=7, hint=hint)
    assert first.status is Status.OPTIMAL and first.plan == again.plan
    assert first.best_score == search_solo(puzzle).best_score


def test_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        solve_solo(deal_solo_puzzle(0, turns=1), method="magic")  # type: ignore[arg-type]


def test_answer_as_json() -> None:
    answer = solve_solo(solo_puzzle_from_data(HAND_WORKED, SOURCE))
    document = answer.to_json()
    assert document["status"] == "optimal" and document["best_score"] == 12
    assert document["plan"] == [
        {"take": 1, "play": "M0a", "to": "telescope", "slot": 3, "second_slot": None},
        {"final_note": "M5b"},
    ]
    assert document["score"] == {
        "total": 12,
        "types": {"planet": 0, "moon": 12, "asteroid": 0, "interstellar_cloud": 0, "black_hole": 0},
        "sections": {"top": 0, "middle": 0, "bottom": 0},
        "diversity": 0,
    }
    json.dumps(document)


def test_replay_refuses_a_plan_that_stops_early() -> None:
    puzzle = solo_puzzle_from_data(HAND_WORKED, SOURCE)
    with pytest.raises(IllegalActionError, match="before the end"):
        replay(puzzle, [Turn(1, "M0a", "telescope", 3, None)])


# -- the puzzle file -------------------------------------------------------------------------------


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    puzzle = deal_solo_puzzle(11, turns=7)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(solo_puzzle_to_data(puzzle)), encoding="utf-8")
    loaded = load_solo_puzzle(path)
    assert loaded == puzzle
    assert solo_puzzle_to_data(loaded) == solo_puzzle_to_data(puzzle)


def test_start_state_is_the_puzzle() -> None:
    puzzle = deal_solo_puzzle(2, turns=5)
    state = puzzle.start_state()
    area = state.area
    assert area.telescope[0][0] == 1 and area.telescope[0][1].card == puzzle.telescope_start
    assert area.notebook == (puzzle.notebook_start,)
    assert area.hand == puzzle.hand and state.display == puzzle.display
    assert state.deck == puzzle.deck_order
    assert state.rules.turns == 5 and state.rules.solo_targets == puzzle.targets


def test_deals_are_reproducible_and_use_each_card_once() -> None:
    first, again, other = deal_solo_puzzle(4), deal_solo_puzzle(4), deal_solo_puzzle(5)
    assert first == again and first != other
    cards = first.placed_cards()
    assert len(cards) == len(set(cards)) == len(first.deck.cards)
    assert first.deck[first.telescope_start].starter
    assert first.deck[first.notebook_start].starter


def test_targets_grow_with_the_turns() -> None:
    short, full = dict(deal_solo_puzzle(1, turns=2).targets), dict(deal_solo_puzzle(1).targets)
    assert set(full) == {"top", "middle", "bottom"}
    assert all(short[name] < full[name] for name in full)
    assert 10 <= full["top"] <= 22 and 6 <= full["middle"] <= 14 and 8 <= full["bottom"] <= 18


# A deck whose mean telescope number is 3 exactly: starters 1-5 (sum 15) and 30 planets 3
# (sum 90), 105 / 35 = 3.
EVEN_DECK = Deck(
    tuple(StellarCard(f"S{n}", CelestialType.MOON, n, 0, starter=True) for n in range(1, 6))
    + tuple(StellarCard(f"P{i}", CelestialType.PLANET, 3, 0) for i in range(30))
)


def test_dealt_targets_are_the_typical_sums_give_or_take_two() -> None:
    # deal_solo_puzzle: each target is the mean telescope number (3) times the section's share
    # of the cards played (11 open slots: top 4, middle 3, bottom 4), plus the telescope
    # starter's number in the top, give or take 2 (TARGET_SPREAD), never below 0.
    # 11 turns: top s + 3 x 4 = s + 12, middle 3 x 3 = 9, bottom 3 x 4 = 12.
    offsets: dict[str, set[int]] = {"top": set(), "middle": set(), "bottom": set()}
    for seed in range(60):
        puzzle = deal_solo_puzzle(seed, deck=EVEN_DECK)
        start = EVEN_DECK[puzzle.telescope_start].number
        typical = {"top": start + 12, "middle": 9, "bottom": 12}
        for name, target in puzzle.targets:
            offsets[name].add(target - typical[name])
    assert offsets == {name: {-2, -1, 0, 1, 2} for name in offsets}
    # 1 turn: top s + 12/11 (rounds to s + 1), middle 9/11 and bottom 12/11 (both round to
    # 1): 1 - 2 = -1 is raised to 0, so middle and bottom range over 0-3.
    low: dict[str, set[int]] = {"top": set(), "middle": set(), "bottom": set()}
    for seed in range(60):
        puzzle = deal_solo_puzzle(seed, turns=1, deck=EVEN_DECK)
        start = EVEN_DECK[puzzle.telescope_start].number
        for name, target in puzzle.targets:
            low[name].add(target - (start if name == "top" else 0))
    assert low == {"top": {-1, 0, 1, 2, 3}, "middle": {0, 1, 2, 3}, "bottom": {0, 1, 2, 3}}


def small_deck(starters: int, others: int) -> Deck:
    return Deck(
        tuple(StellarCard(f"S{i}", CelestialType.MOON, 3, 0, starter=True) for i in range(starters))
        + tuple(StellarCard(f"P{i}", CelestialType.PLANET, 3, 0) for i in range(others))
    )


def test_a_deal_needs_two_starters_and_enough_cards() -> None:
    # Setup for one seat: two starters (slot 1 and the notebook), 2 cards to the hand, 5 to
    # the display, and 2 deck cards a turn: 2 turns need 2 + 5 + 2 x 2 = 11 more cards.
    puzzle = deal_solo_puzzle(0, turns=2, deck=small_deck(2, 11))
    assert len(puzzle.hand) == 2 and len(puzzle.display) == 5 and len(puzzle.deck_order) == 4
    with pytest.raises(InputError):
        deal_solo_puzzle(0, turns=2, deck=small_deck(2, 10))
    with pytest.raises(InputError):
        deal_solo_puzzle(0, turns=2, deck=small_deck(1, 12))


@pytest.mark.parametrize(("turns", "fine"), [(0, False), (1, True), (11, True), (12, False)])
def test_a_deal_has_one_to_eleven_turns(turns: int, fine: bool) -> None:
    # "11 turns each after setup": a puzzle plays 1 to 11 of them.
    if fine:
        assert deal_solo_puzzle(0, turns=turns).turns == turns
    else:
        with pytest.raises(InputError):
            deal_solo_puzzle(0, turns=turns)


def test_default_turns_is_the_whole_game() -> None:
    data = dict(HAND_WORKED)
    del data["turns"]
    data["deck_order"] = list(deal_solo_puzzle(0).deck_order)
    for card in ("M3s", "M4a", "M5b", "P1b", "M0a", "P2b", "C4b", "B5b", "A1b"):
        if card in data["deck_order"]:
            data["deck_order"].remove(card)
    assert solo_puzzle_from_data(data, SOURCE).turns == 11


def _error(data: object) -> InputError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(InputError) as caught:
        parse_solo_puzzle(text, SOURCE)
    return caught.value


def _changed(**fields: object) -> dict[str, Any]:
    return {**HAND_WORKED, **fields}


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (_changed(deck_order=["S3", "XX9"]), "deck_order.1", "unknown card 'XX9'"),
        (_changed(deck_order=["S3", "M0a"]), "deck_order.1", "appears twice (also at display.0)"),
        (_changed(hand=["M5b", "M5b"]), "hand.1", "appears twice (also at hand.0)"),
        (_changed(notebook_start="M3s"), "notebook_start", "appears twice"),
        (_changed(hand=["M5b"]), "hand", "at least 2"),
        (_changed(display=["M0a", "P2b", "C4b", "B5b"]), "display", "at least 5"),
        (_changed(turns=0), "turns", "greater than or equal to 1"),
        (_changed(turns=12), "turns", "less than or equal to 11"),
        (_changed(turns=2), "deck_order", "2 turns draw 4"),
        (_changed(format="asterion.stellar-game/1"), "format", "asterion.stellar-solo/1"),
        (_changed(targets={"top": 5, "middle": 5}), "targets.bottom", "required field"),
        (_changed(targets={"top": 5, "middle": 5, "bottom": -1}), "targets.bottom", "0"),
        (_changed(colour="red"), "colour", "unknown field"),
        ({k: v for k, v in HAND_WORKED.items() if k != "hand"}, "hand", "required field"),
    ],
)
def test_bad_files_name_the_file_and_field(data: object, field: str, words: str) -> None:
    error = _error(data)
    assert error.source == SOURCE and error.field == field
    assert words in error.problem
    assert str(error).startswith(f"{SOURCE}: {field}: ")
    assert "\n" not in str(error)


def test_bad_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.json: not valid JSON"):
        load_solo_puzzle(path)
    with pytest.raises(InputError, match="no such file"):
        load_solo_puzzle(tmp_path / "missing.json")


def test_a_target_of_nought_is_a_target() -> None:
    # A section is won by beating its target: 0 is beaten by any card there, so it is a fair
    # target; below 0 is refused (the rows above check the bottom).
    data = _changed(targets={"top": 0, "middle": 0, "bottom": 0})
    assert dict(solo_puzzle_from_data(data, SOURCE).targets) == {"top": 0, "middle": 0, "bottom": 0}
    for name in ("top", "middle"):
        targets = {"top": 5, "middle": 5, "bottom": 5, name: -1}
        assert _error(_changed(targets=targets)).field == f"targets.{name}"
