"""The compile clock: the compiled searches' deadlines stand still while numba compiles, so a
machine's first run (10-30 s of compiling) answers as later runs do instead of "unknown"."""

from __future__ import annotations

import time

import numpy as np
import pytest

from asterion.solver.compile_clock import CompileClock, compile_clock
from asterion.solver.numba_loops import HAVE_NUMBA


@pytest.fixture
def hand_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """``time.perf_counter`` reads the list's one value, which the test moves by hand."""
    now = [100.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    return now


def test_the_search_clock_stands_still_while_compiling(hand_clock: list[float]) -> None:
    clock = CompileClock()
    assert clock.search_clock() == 100.0
    hand_clock[0] = 103.0  # three seconds of search
    clock.started()
    hand_clock[0] = 110.0  # seven of compiling, a callee compiled within
    clock.started()
    hand_clock[0] = 112.0
    assert clock.compiling() and clock.spent() == 9.0
    assert clock.search_clock() == 103.0
    clock.ended()
    assert clock.compiling() and clock.search_clock() == 103.0
    clock.ended()
    hand_clock[0] = 114.0  # two more of search
    assert not clock.compiling()
    assert (clock.spent(), clock.search_clock()) == (9.0, 105.0)


def test_the_first_compile_is_told_once(hand_clock: list[float]) -> None:
    clock, told = CompileClock(), []
    clock.on_first_compile(lambda: told.append("compiling"))
    for _ in range(3):
        clock.started()
        clock.ended()
    assert told == ["compiling"]


def test_a_note_that_fails_leaves_the_clock_whole(hand_clock: list[float]) -> None:
    # Numba ends a compile's event even when a listener raised at its start: the clock must
    # have counted the start.
    clock = CompileClock()

    def fail() -> None:
        raise OSError("stderr gone")

    clock.on_first_compile(fail)
    with pytest.raises(OSError):
        clock.started()
    hand_clock[0] += 4.0
    clock.ended()
    assert not clock.compiling() and clock.spent() == 4.0
    hand_clock[0] += 10.0  # searching
    clock.started()
    hand_clock[0] += 2.0
    clock.ended()
    assert not clock.compiling() and clock.spent() == 6.0


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba missing: nothing is compiled")
def test_numba_compiles_are_timed() -> None:
    from numba import njit

    def triple(values: np.ndarray) -> int:
        return int(values.sum()) * 3

    compiled = njit(cache=False)(triple)  # a new function: numba must compile it here
    before = compile_clock.spent()
    assert compiled(np.arange(4)) == 18
    assert compile_clock.spent() > before
    assert not compile_clock.compiling()
