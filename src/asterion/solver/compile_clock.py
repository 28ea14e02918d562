"""How long numba spent compiling in this process, and the clock of the compiled searches'
deadlines, which stands still meanwhile. Kept apart from :mod:`.numba_loops` so that the
command line can ask to be told of a compile without loading numba."""

from __future__ import annotations

import time
from collections.abc import Callable


class CompileClock:
    """The seconds numba spent compiling in this process, and a clock that stops meanwhile.

    A machine's first solve compiles the loops it calls (10-30 s for the edge-matching
    search, once: numba caches them on disk). A deadline read on :meth:`search_clock` holds
    the search to its time limit without spending it on that compile, so a first run answers
    as every later one does instead of "unknown". Numba compiles one function at a time (under
    its global lock), callees within their caller: only the outermost compile is timed.
    """

    def __init__(self) -> None:
        self._depth = 0
        self._began = 0.0
        self._spent = 0.0
        self._notify: list[Callable[[], None]] = []

    def started(self) -> None:
        self._depth += 1
        if self._depth == 1:
            self._began = time.perf_counter()
            # each told once, at the first compile (after counting it: numba ends the event
            # even if a listener raises)
            while self._notify:
                self._notify.pop()()

    def ended(self) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._spent += time.perf_counter() - self._began

    def compiling(self) -> bool:
        return self._depth > 0

    def spent(self) -> float:
        """Seconds of compiling so far (the one under way included)."""
        ongoing = time.perf_counter() - self._began if self._depth else 0.0
        return self._spent + ongoing

    def search_clock(self) -> float:
        """``time.perf_counter()`` less the time spent compiling: still while numba compiles."""
        return time.perf_counter() - self.spent()

    def on_first_compile(self, tell: Callable[[], None]) -> None:
        """Call ``tell()`` (from the compiling thread) when a compile next starts."""
        self._notify.append(tell)


compile_clock = CompileClock()
"""This process's compile clock (no compile, so always zero spent, without numba)."""


def search_clock() -> float:
    """The clock of the compiled searches' deadlines: :meth:`CompileClock.search_clock`."""
    return compile_clock.search_clock()
