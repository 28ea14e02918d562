"""The flow check of a telescope set (``stellar_solo_flow`` and its compiled kernel): its
scoring against the solo search's exact ``type_score``, its notebook bound against brute force,
and its answers against every legal game of short deals grouped by telescope set (a bound
below the best game with the set, or a flow missed, would break ``split``'s proofs).
"""

from __future__ import annotations

import time
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stellar_solo import check_answer
from test_stellar_solo_split import best_by_telescope

from asterion.models.stellar_solo import deal_solo_puzzle
from asterion.solver import stellar_solo_split as split
from asterion.solver.compile_clock import CompileClock
from asterion.solver.stellar_flow_kernel import (
    NO_BOUND,
    add_number,
    notebook_bound,
    type_points,
)
from asterion.solver.stellar_solo import BranchAndBound, Compiled, search_solo, type_score
from asterion.solver.stellar_solo_flow import Flow, FlowCheck, FlowMemo, flow_search_ready

SMALL_MEMO = 12

stars_st = st.tuples(*[st.sampled_from([0, 0, 1, 2, 5]) for _ in range(5)])
groups_st = st.tuples(
    *[
        st.builds(
            lambda bits, ends: (bits & 0x3E) | ends * 256, st.integers(0, 63), st.integers(0, 2)
        )
        for _ in range(5)
    ]
)
noted_st = st.lists(st.integers(0, 2), min_size=6, max_size=6).filter(lambda s: sum(s) <= 4)
satellites_st = st.lists(st.integers(0, 1), min_size=6, max_size=6).filter(lambda s: sum(s) <= 4)
"""Noted satellites of distinct numbers, as the shipped deck has (the shared bound gives up
on two of one number)."""


def arrays(*values: tuple[int, ...] | list[int]) -> list[np.ndarray]:
    return [np.array(value, dtype=np.int64) for value in values]


@settings(max_examples=300, deadline=None)
@given(stars_st, groups_st, noted_st)
def test_type_points_agree_with_the_search(
    stars: tuple[int, ...], groups: tuple[int, ...], satellites: list[int]
) -> None:
    expected = type_score(stars, groups, tuple(satellites))
    assert type_points(*arrays(stars, groups, satellites)) == expected


# Spare cards for the bound: (type, number); type 5 is a satellite, number 0 a 0/6 card.
cards_st = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(stars_st, groups_st, satellites_st, cards_st, st.integers(0, 3))
def test_the_notebook_bounds_are_never_below_a_choice_of_cards(
    stars: tuple[int, ...],
    groups: tuple[int, ...],
    satellites: list[int],
    cards: list[tuple[int, int]],
    budget: int,
) -> None:
    kind, number = arrays([k for k, _ in cards], [n for _, n in cards])
    spare = np.arange(len(cards), dtype=np.int64)
    star_array, group_array, satellite_array = arrays(stars, groups, satellites)
    scratch = np.empty((6, 8), dtype=np.int64)
    arguments = (star_array, group_array, satellite_array, kind, number, spare, len(cards), budget)
    cheap = notebook_bound(*arguments, NO_BOUND, scratch)  # never reached: the cheap bound
    bound = notebook_bound(*arguments, 0, scratch)  # with the shared knapsack
    assert bound <= cheap
    for size in range(budget + 1):
        for chosen in combinations(range(len(cards)), size):
            noted_groups, noted_satellites = list(groups), list(satellites)
            for i in chosen:
                k, n = cards[i]
                if k == 5:
                    noted_satellites[n] += 1
                else:
                    noted_groups[k] = add_number(noted_groups[k], n)
            reached = type_score(stars, tuple(noted_groups), tuple(noted_satellites))
            assert bound >= reached


@pytest.mark.parametrize("seed", [0, 3])
def test_the_flow_check_against_every_game_by_telescope_set(seed: int) -> None:
    # For each telescope set some 2-turn game reaches, the best such game is itself a flow
    # (so asking for its score finds one) and no bound proven for the set is below it; a
    # set no game reaches has no flow at all.
    puzzle = deal_solo_puzzle(seed, turns=2)
    compiled = Compiled(puzzle)
    state = puzzle.start_state()
    best = best_by_telescope(state, len(state.areas[0].telescope))
    index = {card_id: i for i, card_id in enumerate(compiled.ids)}
    memo = FlowMemo(SMALL_MEMO)
    for cards, top in best.items():
        check = FlowCheck(compiled, frozenset(index[card] for card in cards), memo)
        assert isinstance(check.reach(-100, 10**6), Flow)  # a question from below: any flow
        found = check.reach(top, 10**6)
        assert isinstance(found, Flow) and found.bound >= top
        played = check.play(found, 60, 0)
        assert played.best_score is not None and played.best_score <= found.bound
        while isinstance(found, Flow):  # flows of rising bound, up to the set's cap
            highest = found.bound
            found = check.reach(highest + 1, 10**6)
        assert found is not None and top <= found <= highest
    pool = BranchAndBound(compiled).pool_cards(compiled.root)
    sets = {frozenset(index[card] for card in cards) for cards in best}
    never = next(frozenset(two) for two in combinations(pool, 2) if frozenset(two) not in sets)
    assert FlowCheck(compiled, never, memo).reach(0, 10**6) == -1


@pytest.mark.parametrize("seed", range(4))
def test_split_with_the_flow_check_agrees_with_the_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(split, "FLOW_FROM_TURNS", 1)
    monkeypatch.setattr(split, "FlowMemo", lambda: FlowMemo(16))
    assert flow_search_ready(wait=600)  # compiled (else split goes on without the check)
    puzzle = deal_solo_puzzle(seed, turns=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert optimum is not None
    check_answer(puzzle, split.split_solo(puzzle, time_limit=60), optimum)


@pytest.mark.skipif(not split.HAVE_NUMBA, reason="numba missing: the flow check is not used")
def test_the_first_wait_for_the_compile_is_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    # A machine's first run: numba compiles the flow search (13 s here, on a hand-moved
    # clock) while the solve waits. The deadline moves by those seconds, so the first run
    # has the time every later run has; a second ask does not wait.
    now, clock, waits = [50.0], CompileClock(), []
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(split, "compile_clock", clock)

    def compile_while_waiting(wait: float) -> bool:
        waits.append(wait)
        if len(waits) == 1:
            now[0] += 0.5  # numba starting up: counted
            clock.started()
            now[0] += 13.0
            clock.ended()
        return True

    monkeypatch.setattr(split, "flow_search_ready", compile_while_waiting)
    loop = split.SplitLoop(Compiled(deal_solo_puzzle(1, turns=split.FLOW_FROM_TURNS)), 60.0, 0)
    assert loop._flow_checked() and loop.deadline == 73.0
    assert loop._flow_checked() and loop.deadline == 73.0
    assert waits == [split.COMPILE_WAIT, 0.0]


def test_split_goes_on_while_the_flow_check_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    # On a machine that never ran it, the flow search is still compiling: sets go straight
    # to CP-SAT, and the answer is the same optimum.
    monkeypatch.setattr(split, "FLOW_FROM_TURNS", 1)
    monkeypatch.setattr(split, "flow_search_ready", lambda wait: False)
    monkeypatch.setattr(split.SplitLoop, "_by_flow", None)  # never reached
    puzzle = deal_solo_puzzle(2, turns=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert optimum is not None
    check_answer(puzzle, split.split_solo(puzzle, time_limit=60), optimum)
