"""Every ``--time-limit`` is bounded: a command refuses ``inf`` (which would run a search for
ever, or overflow a budget of steps) as bad input, naming the option."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from clirun import run

from asterion.cli import app
from asterion.cli._common import MAX_TIME_LIMIT, MIN_TIME_LIMIT, seconds
from asterion.models.stellar_solo import deal_solo_puzzle
from asterion.solver.stellar_solo import solve_solo


def commands_with_time_limits() -> Iterator[list[str]]:
    """The path of every command that takes ``--time-limit``, walked from the root."""
    root = typer.main.get_command(app)

    def walk(command: Any, path: list[str]) -> Iterator[list[str]]:  # (typer's own click)
        if hasattr(command, "commands"):  # a group
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])
        elif any("--time-limit" in p.opts for p in command.params):
            yield path

    return walk(root, [])


COMMANDS = list(commands_with_time_limits())


def test_the_walk_finds_the_solving_commands() -> None:
    # (so that the test below cannot pass by finding nothing)
    for path in (["nacht", "solve"], ["stellar", "solve"], ["aster", "reach"]):
        assert path in COMMANDS
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("value", ["inf", "1e308", str(MAX_TIME_LIMIT * 2)])
def test_a_time_limit_past_the_bound_is_refused(path: list[str], value: str) -> None:
    code, out, err = run(*path, "--time-limit", value)
    assert code == 2
    assert out == ""
    assert "--time-limit" in err and "1000000" in err


def test_an_infinite_limit_given_to_the_library_still_solves() -> None:
    # The flow check turned the seconds left into a number of steps: int(inf) overflowed.
    puzzle = deal_solo_puzzle(1)
    bounded = solve_solo(puzzle, time_limit=60)
    unbounded = solve_solo(puzzle, time_limit=math.inf)
    assert unbounded.status == bounded.status == "optimal"
    assert unbounded.best_score == bounded.best_score


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("nan", "nan is not a number of seconds"),
        ("soon", "'soon' is not a number of seconds"),
        ("0", "0 is outside 0.01..1000000 seconds"),
        ("-5", "-5 is outside 0.01..1000000 seconds"),
    ],
)
def test_a_time_limit_that_is_no_duration_is_refused_as_what_it_is(
    path: list[str], value: str, problem: str
) -> None:
    # (nan compares false with both bounds: typer called it over the largest limit)
    code, out, err = run(*path, "--time-limit", value)
    assert code == 2 and out == ""
    assert "--time-limit" in err and problem in err


def test_the_bounds_themselves_are_accepted() -> None:
    assert seconds("0.01") == MIN_TIME_LIMIT
    assert seconds("1e6") == MAX_TIME_LIMIT
    with pytest.raises(typer.BadParameter):
        seconds("0.0099")
