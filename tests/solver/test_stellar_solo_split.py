"""Solo Stellar by realizing the set relaxation (``split``): the optimum against plain
exhaustive enumeration (1 and 2 turns, ``test_stellar_solo.py``'s ``plain_best`` over the
rules engine) and against the exact search (3 turns, where some deals need the no-good cuts);
the cut removes exactly the telescope set it names.
"""

from __future__ import annotations

import time
from itertools import combinations

import pytest
from test_stellar_solo import check_answer, plain_best

from asterion.models.stellar import StellarState, apply_unchecked, legal_moves, score
from asterion.models.stellar_solo import deal_solo_puzzle
from asterion.solver import stellar_solo_split as split
from asterion.solver.result import Status
from asterion.solver.stellar_solo import (
    BranchAndBound,
    Compiled,
    SoloModel,
    cp_sat_solo,
    search_solo,
)
from asterion.solver.stellar_solo_relax import Relaxation
from asterion.solver.stellar_solo_split import split_solo

NO_CEILING = 10**6


@pytest.mark.parametrize(("turns", "seed"), [(1, 0), (1, 3), (2, 0), (2, 2)])
def test_split_agrees_with_plain_enumeration(turns: int, seed: int) -> None:
    puzzle = deal_solo_puzzle(seed, turns=turns)
    check_answer(puzzle, split_solo(puzzle, time_limit=60), plain_best(puzzle.start_state()))


@pytest.mark.parametrize("seed", range(8))
def test_split_agrees_with_the_search(seed: int) -> None:
    puzzle = deal_solo_puzzle(seed, turns=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert optimum is not None
    check_answer(puzzle, split_solo(puzzle, time_limit=60), optimum)


def test_some_deal_needs_a_cut() -> None:
    # 3-turn deal 2: the first split's telescope set cannot reach the relaxation's value,
    # so the answer above was proven only after a sound cut (rounds counts the relaxations).
    answer = split_solo(deal_solo_puzzle(2, turns=3), time_limit=60)
    assert answer.status is Status.OPTIMAL and answer.nodes > 2


def best_by_telescope(state: StellarState, start: int) -> dict[frozenset[str], int]:
    """Every legal game to the end: the best final score per set of cards that went to the
    telescope after ``start`` cards were there."""
    if state.is_over:
        placed = [placed.card for _, placed in state.areas[0].telescope]
        return {frozenset(placed[start:]): score(state)[0].total}
    best: dict[frozenset[str], int] = {}
    for move in legal_moves(state):
        for cards, total in best_by_telescope(apply_unchecked(state, move), start).items():
            best[cards] = max(total, best.get(cards, total))
    return best


@pytest.mark.parametrize("seed", [0, 3])
def test_a_realization_is_the_best_game_with_its_telescope_set(seed: int) -> None:
    # fix_telescope (with its redundant turn-by-turn constraints) against every legal 2-turn
    # game grouped by the cards it puts in the telescope; a set no game reaches: infeasible.
    puzzle = deal_solo_puzzle(seed, turns=2)
    compiled = Compiled(puzzle)
    pool = BranchAndBound(compiled).pool_cards(compiled.root)
    state = puzzle.start_state()
    best = best_by_telescope(state, len(state.areas[0].telescope))
    index = {card_id: i for i, card_id in enumerate(compiled.ids)}
    sets = [frozenset(index[card] for card in cards) for cards in best]
    never = next(frozenset(two) for two in combinations(pool, 2) if frozenset(two) not in sets)
    for cards in [*sets, never]:

        def restrict(built: SoloModel, cards: frozenset[int] = cards) -> None:
            built.fix_telescope(cards, pool)

        answer = cp_sat_solo(puzzle, time_limit=60, restrict=restrict)
        expected = best.get(frozenset(compiled.ids[i] for i in cards))
        if expected is None:
            assert answer.status is Status.INFEASIBLE
        else:
            assert answer.status is Status.OPTIMAL and answer.best_score == expected


def test_a_cut_removes_exactly_its_telescope_set() -> None:
    compiled = Compiled(deal_solo_puzzle(1, turns=3))
    search = BranchAndBound(compiled)
    relaxation = Relaxation(search.position(compiled.root), NO_CEILING)
    value, first = relaxation.solve(work=10.0)
    assert first is not None and len(first) == compiled.turns
    relaxation.exclude_telescope(first)
    again, second = relaxation.solve(work=10.0)
    assert second is not None and second != first and again <= value


def test_an_incumbent_at_the_bound_is_proven_at_once() -> None:
    puzzle = deal_solo_puzzle(4, turns=3)
    best = search_solo(puzzle, time_limit=60)
    assert best.best_score is not None
    answer = split_solo(puzzle, time_limit=60, incumbent=best, ceiling=best.bound)
    assert answer.status is Status.OPTIMAL and answer.plan == best.plan and answer.nodes == 1


def test_a_poor_incumbent_is_beaten() -> None:
    # The realizations then ask only for plans above the incumbent; the optimum must still
    # come back (the search's, exact on 3 turns).
    puzzle = deal_solo_puzzle(2, turns=3)
    poor = search_solo(puzzle, max_nodes=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert poor.best_score is not None and optimum is not None and poor.best_score < optimum
    answer = split_solo(puzzle, time_limit=60, incumbent=poor)
    check_answer(puzzle, answer, optimum)


def test_sets_left_unsettled_keep_the_bound_sound(monkeypatch: pytest.MonkeyPatch) -> None:
    # With almost no work per realization, CP-SAT settles nothing at first: every set keeps
    # its relaxation value as its cap, so no bound may fall below the optimum, and the sets
    # tried again with twice the work each time must still end at the proven optimum.
    monkeypatch.setattr(split, "REALIZE_WORK", 0.001)
    puzzle = deal_solo_puzzle(2, turns=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert optimum is not None
    loop = split.SplitLoop(Compiled(puzzle), time.perf_counter() + 120, seed=0)
    bounds: list[int] = []
    loop.on_bound = bounds.append
    loop.run()
    answer = loop.answer(0.0)
    check_answer(puzzle, answer, optimum)
    assert min(bounds) >= optimum and max(loop.tries.values()) > 1


def test_a_set_taken_elsewhere_holds_the_bound_until_it_is_settled() -> None:
    # Two loops share news (the portfolio): a set heard as started elsewhere is cut off here
    # but never tried here, and it holds the bound at its value until news of its cap comes.
    puzzle = deal_solo_puzzle(1, turns=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert optimum is not None
    compiled = Compiled(puzzle)
    first = split.SplitLoop(compiled, time.perf_counter() + 60, seed=0).first_split()
    assert first is not None and first[2] > optimum  # this deal's first split falls short
    loop = split.SplitLoop(compiled, time.perf_counter() + 2, seed=0)
    loop.hear(first)
    loop.run()
    assert first[1] not in loop.mine and loop.bound >= first[2]
    loop.hear(("done", first[1], optimum))
    loop.deadline = time.perf_counter() + 60
    loop.run()
    check_answer(puzzle, loop.answer(0.0), optimum)


def test_a_set_claimed_elsewhere_is_not_taken() -> None:
    puzzle = deal_solo_puzzle(2, turns=3)
    loop = split.SplitLoop(Compiled(puzzle), time.perf_counter() + 2, seed=0)
    first = loop.first_split()
    assert first is not None
    loop.claim = lambda telescope: telescope != first[1]
    loop.run()
    assert first[1] not in loop.mine and first[1] in loop.cut
