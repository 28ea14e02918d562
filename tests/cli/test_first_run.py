"""A machine's first search: numba compiles the loops (10-30 s, once), and the time limit
does not count it. Before, a 7x7 that later runs arrange in a tenth of a second answered
"unknown" after ten seconds of compiling under a one-second limit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import puzzle_text

from asterion.models.edge_puzzles import generate
from asterion.models.edges import Placement, check_arrangement
from asterion.solver.numba_loops import HAVE_NUMBA


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba missing: nothing is compiled")
def test_a_first_run_compiles_outside_the_time_limit(tmp_path: Path) -> None:
    puzzle = generate(7, 7, 3, 6, seed=0)
    text = tmp_path / "puzzle.txt"
    text.write_text(puzzle_text(puzzle))
    empty = {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "ASTERION_CACHE": str(tmp_path / "ours")}
    command = ["nacht", "solve", str(text), "--time-limit", "1", "--json"]
    done = subprocess.run(
        [sys.executable, "-c", "from asterion.cli import main; main()", *command],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **empty},
    )
    answer = json.loads(done.stdout)
    assert (done.returncode, answer["status"], answer["solutions"]) == (0, "optimal", 1)
    assert "compiling the search loops" in done.stderr
    assert any((tmp_path / "numba").rglob("*.nbi")), "numba cached nothing where it was told"
    grid, turns = answer["grid"], answer["rotations"]
    placed = tuple(
        tuple(Placement(int(grid[r][c]), turns[r][c]) for c in range(7)) for r in range(7)
    )
    assert check_arrangement(puzzle, placed) == []


def test_the_compile_note_never_reaches_stdout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # With stderr closed when Python started (`2>&-`), sys.stderr is None and print() would
    # write the note to stdout, into a --json document.
    from asterion.cli import _tell_compiling

    monkeypatch.setattr(sys, "stderr", None)
    _tell_compiling(os.getpid())
    assert capsys.readouterr().out == ""


def test_the_compile_note_is_said_by_the_command_not_its_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `stellar solve --method portfolio` forks a second solver, which compiles too: the note
    # came twice.
    from asterion.cli import _tell_compiling

    _tell_compiling(os.getpid() + 1)  # as in a forked worker
    assert capsys.readouterr().err == ""
    _tell_compiling(os.getpid())
    assert "compiling the search loops" in capsys.readouterr().err
