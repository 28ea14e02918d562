"""The console script loads only the command group it runs (asterion.cli.GROUPS).

Each test runs ``asterion.cli.main`` in a fresh interpreter, as the installed script does, and
looks at what it imported: a Nacht command must not pay for OR-Tools, numba or sympy, which
the shipped sky's verification does not use (issue 4: verified in under 0.5 s end to end).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from asterion import __version__
from asterion.cli import GROUPS

HEAVY = ("ortools", "numba", "sympy", "pandas")

RUNNER = """
import json, sys
args, heavy = json.loads(sys.argv[1]), set(json.loads(sys.argv[2]))
sys.argv = ["asterion", *args]
from asterion.cli import main
try:
    main()
except SystemExit as stop:
    code = stop.code or 0
else:
    code = 0
loaded = sorted({name.split(".")[0] for name in sys.modules} & heavy)
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def run_main(*args: str, columns: int = 80) -> tuple[dict[str, Any], str]:
    report, out, _ = run_main_with_errors(*args, columns=columns)
    return report, out


def run_main_with_errors(*args: str, columns: int = 80) -> tuple[dict[str, Any], str, list[str]]:
    """The exit report, stdout, and the lines the command wrote to stderr."""
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(list(args)), json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": str(columns)},
    )
    *errors, last = done.stderr.strip().splitlines()
    return json.loads(last), done.stdout, errors


def test_verifying_the_shipped_sky_loads_no_heavy_solver() -> None:
    report, out = run_main("nacht", "verify", "--json")
    assert report == {"code": 0, "loaded": []}
    answer = json.loads(out)
    assert (answer["consistent"], answer["solutions"]) == (True, 1)


def test_a_small_puzzle_of_few_colors_is_solved_without_numba(tmp_path: Path) -> None:
    # 2x2, one color inside: the search's kind of set, settled by propagate (nacht_solve).
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2 2\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n")
    report, out = run_main("nacht", "solve", str(puzzle), "--json")
    assert report == {"code": 0, "loaded": []}
    assert json.loads(out)["status"] == "optimal"


def test_a_group_still_runs_its_heavy_solver_when_asked() -> None:
    report, _ = run_main("nacht", "verify", "--engine", "cp-sat", "--json")
    assert report["code"] == 0
    assert "ortools" in report["loaded"]  # the engine was really loaded and used


def test_the_version_loads_no_group() -> None:
    # It answers before any group would run; it used to load all six and their solvers.
    report, out = run_main("--version")
    assert report == {"code": 0, "loaded": []}
    assert out.strip() == f"asterion {__version__}"


@pytest.mark.parametrize("args", [("--help",), ()])
def test_the_top_level_help_lists_every_group(args: tuple[str, ...]) -> None:
    report, out = run_main(*args)
    assert report["code"] in (0, 2)  # no arguments: help, and the usage exit status
    for group in GROUPS:
        assert group in out
    assert "demo" in out


def test_help_reflows_docstrings_wrapped_in_the_source() -> None:
    # A terminal wide enough for any paragraph: each paragraph of a docstring, wrapped over
    # several source lines, should come out on one line (typer's rich mode keeps the breaks).
    _, out = run_main("nacht", "--help", columns=300)
    assert any("an arrangement, its uniqueness, whole" in line for line in out.splitlines())
    _, out = run_main("nacht", "verify", "--help", columns=300)
    assert any("undecided within the time limit" in line for line in out.splitlines())


@pytest.mark.parametrize(
    ("args", "command", "names"),
    [
        (("nacht", "convert"), "asterion nacht convert", "IN"),
        (
            ("nacht", "solve", "x.json", "--count-limit", "many"),
            "asterion nacht solve",
            "--count-limit",
        ),
        (("nacht", "solv"), "asterion nacht", "solv"),
        (("aster", "board", "--svg", "/no/such/folder/b.svg"), "asterion aster board", "--svg"),
        (
            ("stellar", "selfplay", "--plot", "/no/such/folder/p.svg"),
            "asterion stellar selfplay",
            "--plot",
        ),
        (("--bogus",), "asterion", "--bogus"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_command_and_what_is_wrong(
    args: tuple[str, ...], command: str, names: str
) -> None:
    report, out, errors = run_main_with_errors(*args, columns=40)
    assert report["code"] == 2
    assert out == ""
    assert len(errors) == 1  # not typer's panel of five lines, even on a narrow terminal
    assert errors[0].startswith(f"{command}: error: ")
    assert names in errors[0]
    assert errors[0].endswith(f"(see {command} --help)")


def test_a_tile_set_piped_in_as_dash_is_solved() -> None:
    # A 2x2 whose four corners meet one way: the same answer as from a file (docs/nacht.md).
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(["nacht", "solve", "-", "--json"]), "[]"],
        input="2 2\n0 1 1 0\n0 0 1 1\n1 1 0 0\n1 0 0 1\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["status"], answer["solutions"]) == ("optimal", 1)
    assert answer["grid"] == [["0", "1"], ["2", "3"]]


def test_a_command_s_own_exit_status_still_comes_through(tmp_path: Path) -> None:
    # Four corners whose colors cannot meet: verify answers "inconsistent", status 1.
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("2 2\n1 2 0 0\n0 1 2 0\n0 0 1 2\n2 0 0 1\n")
    report, _, _ = run_main_with_errors("nacht", "verify", str(puzzle))
    assert report["code"] == 1
    report, _, errors = run_main_with_errors("--version")
    assert (report["code"], errors) == (0, [])


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this system")
def test_a_reader_that_stops_early_ends_the_command_like_any_unix_tool() -> None:
    # The pipe is closed before the command has even loaded, so its first write fails.
    command = (
        "import sys; from asterion.cli import main;"
        " sys.argv = ['asterion', 'aster', '--help']; main()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    errors = child.stderr.read()
    assert child.wait(timeout=120) == -signal.SIGPIPE  # not 1, which would read as "no"
    assert errors == b""
