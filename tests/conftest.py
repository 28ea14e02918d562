"""Shared test setup."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from asterion.solver import stellar_solo_flow


@pytest.fixture(autouse=True)
def _no_compile_thread_left_running() -> Iterator[None]:
    """Let a test that started the flow search's background numba compile (``asterion demo``,
    a Stellar solve) finish it before the next test begins. On a fresh machine the compile
    takes seconds, and while it ran beside the next tests' in-process CLI runs, two of those
    lost their captured output (CliRunner: "I/O operation on closed file")."""
    yield
    thread = stellar_solo_flow._compiling
    if thread is not None and thread.is_alive():
        thread.join(stellar_solo_flow.COMPILE_WAIT)


@pytest.fixture
def fast_clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it, and from then on ``time.perf_counter`` runs one second each time it is read:
    any deadline passes after a few readings, however fast the machine, so a test can check
    that a solver reads its clock where it must (no timing asserts)."""

    def install() -> None:
        now = [0.0]

        def clock() -> float:
            now[0] += 1.0
            return now[0]

        monkeypatch.setattr(time, "perf_counter", clock)

    return install
