"""An answer that cannot be written to stdout (a full disk, an encoding without the set's
letters) is one line on stderr and exit status 2, like bad input: a traceback would exit with
1, which a script reads as "inconsistent" or "no arrangement"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

RUN = "import sys; from asterion.cli import main; sys.argv = ['asterion', *sys.argv[1:]]; main()"

PUZZLE = "2 2\n0 1 2 0\n0 0 3 1\n2 4 0 0\n3 0 0 4\n"  # one arrangement, the pieces as given


def run_to(stdout: int | None, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, *args],
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | env,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["solve", "{puzzle}", "--json"], ["schema"]])
def test_a_full_disk_is_one_line_and_status_2(tmp_path: Path, command: list[str]) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PUZZLE)
    args = [arg.format(puzzle=puzzle) for arg in command]
    with open("/dev/full", "w") as full:
        done = run_to(full.fileno(), "nacht", *args)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "asterion: error: cannot write the output: No space left on device"
    ]


def test_letters_stdout_cannot_encode_are_one_line_and_status_2(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PUZZLE)
    named = tmp_path / "named.json"
    converted = run_to(None, "nacht", "convert", str(puzzle), str(named))
    assert converted.returncode == 0, converted.stderr
    text = named.read_text(encoding="utf-8")
    start = text.index('"id": "') + len('"id": "')
    named.write_text(text[:start] + "星" + text[start:], encoding="utf-8")  # a tile "星0"
    done = run_to(None, "nacht", "solve", str(named), "--json", PYTHONIOENCODING="ascii")
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "cannot write the output" in done.stderr and "PYTHONIOENCODING" in done.stderr
    readable = run_to(None, "nacht", "solve", str(named), "--json", PYTHONIOENCODING="utf-8")
    assert readable.returncode == 0 and "星0" in readable.stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command",
    [
        ["aster", "board"],
        ["aster", "show"],
        ["aster", "place", "Cru"],
        ["aster", "best-turn", "--time-limit", "3"],
        ["sky", "show", "Ori"],
        ["nacht", "verify"],
    ],
    ids=" ".join,
)
def test_a_picture_that_fails_to_write_leaves_no_answer_on_stdout(command: list[str]) -> None:
    # /dev/full opens (so the up-front check passes) but refuses the bytes: the picture is
    # written before the answer is printed, so a reader sees exit 2 and no document.
    done = run_to(None, *command, "--svg", "/dev/full", "--json")
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert (
        done.stderr
        == "asterion: error: /dev/full: cannot write the picture: No space left on device\n"
    )
