"""What every command shares: exit statuses, error reporting, JSON and picture output.

Exit statuses (DESIGN.md, "Command line"): 0 answered yes, 1 answered no, 2 bad input or
usage, 3 not answered within the time limit.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, ParamSpec, Protocol, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from asterion.errors import IllegalActionError, InputError
from asterion.models.files import read_json_text
from asterion.render.svg import unwritable, write_svg

YES, NO, BAD_INPUT, UNKNOWN = 0, 1, 2, 3

JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document instead of a summary.")
]


MAX_TIME_LIMIT = 1_000_000.0
"""The longest ``--time-limit`` any command takes, in seconds (some eleven days): every
solve is bounded, and ``inf`` would run a search for ever, or overflow the arithmetic that
turns the seconds left into a budget of steps."""


MIN_TIME_LIMIT = 0.01


def time_limit_option(help: str) -> Any:
    """A ``--time-limit`` option: seconds, from :data:`MIN_TIME_LIMIT` to
    :data:`MAX_TIME_LIMIT` (the bounds shown in ``--help``, enforced by :func:`seconds`)."""
    return typer.Option(parser=seconds, min=MIN_TIME_LIMIT, max=MAX_TIME_LIMIT, help=help)


def record_argument(help: str) -> Any:
    """The GAME argument of the ``review`` commands: a played game's record, optional (each
    command has a shipped example)."""
    return typer.Argument(metavar="GAME", help=help)


def seconds(text: str) -> float:
    """A time limit typed by the user. typer's own range check would say ``nan`` is over the
    largest limit (a comparison with nan is false); and given a parser, typer skips it."""
    try:
        value = float(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a number of seconds") from None
    if math.isnan(value):
        raise typer.BadParameter("nan is not a number of seconds")
    if not MIN_TIME_LIMIT <= value <= MAX_TIME_LIMIT:
        raise typer.BadParameter(
            f"{text} is outside {MIN_TIME_LIMIT:g}..{MAX_TIME_LIMIT:.0f} seconds"
        )
    return value


def solver_seed_option(help: str) -> Any:
    """A ``--seed`` option for CP-SAT, which keeps its seed in a 32-bit integer (a larger
    one is a usage error naming the option, before any model is built)."""
    return typer.Option(min=-(2**31), max=2**31 - 1, help=help)


def picture_path(path: Path | None) -> Path | None:
    """A picture's path (``--svg``, ``--plot``), refused as the option is read if the
    picture could not be written: found out after a long search or many games, that would
    lose the answer (exit 2 instead of its summary)."""
    problem = None if path is None else unwritable(path)
    if problem is not None:
        raise typer.BadParameter(f"{path}: {problem}")
    return path


SvgOpt = Annotated[
    Path | None,
    typer.Option(
        "--svg",
        metavar="FILE",
        help="Also draw the answer as an SVG picture.",
        callback=picture_path,
    ),
]

console = Console(highlight=False, markup=False, soft_wrap=True)
"""Readable summaries go to stdout through rich (plain text when piped)."""

P = ParamSpec("P")
R = TypeVar("R")


def reports_input_errors(command: Callable[P, R]) -> Callable[P, R]:
    """User mistakes become one line on stderr and exit status 2, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (InputError, IllegalActionError) as error:
            print(f"asterion: error: {error}", file=sys.stderr)
            raise typer.Exit(BAD_INPUT) from None

    return wrapper


@contextmanager
def typed_as(option: str | None, field: str | None = None) -> Iterator[None]:
    """Errors the library raises about a value the user typed (about ``field`` only, when
    given) name the option, not the library's argument; ``option`` None: left as they are."""
    try:
        yield
    except InputError as error:
        if option is None or (field is not None and error.field != field):
            raise
        raise InputError(error.problem, source=option) from None


def print_json(document: Any) -> None:
    """One JSON document on stdout (keys in the documented order, stable across runs)."""
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def save_svg(
    path: Path | None, svg: Callable[[], str] | None, *, quiet: bool, nothing: str = ""
) -> None:
    """Write the picture if ``--svg`` was given (built only then); say so unless ``quiet``.
    ``svg`` None: the answer has nothing to draw, which ``nothing`` says on stderr (where a
    ``--json`` reader does not look), so that an asked-for picture is not missing unsaid.
    Called before the answer is printed: a write that fails (a full disk) then leaves no
    answer on stdout beside its exit status 2."""
    if path is None:
        return
    if svg is None:
        print(f"asterion: no picture written to {path}: {nothing}", file=sys.stderr)
        return
    write_svg(path, svg())
    if not quiet:
        console.print(f"picture: {path}")


class ProgressCallback(Protocol):
    """What :func:`progress_bar` yields: ``stage`` (optional) replaces the bar's label."""

    def __call__(self, done: int, total: int, stage: str | None = None) -> None: ...


SEARCH_TIME_HELP = (
    "Seconds before answering 'unknown' (a machine's first search also compiles its loops, "
    "once, uncounted)."
)
"""``--time-limit`` of the commands whose searches numba compiles (not counted: see
:mod:`asterion.solver.compile_clock`)."""


def _silent(done: int, total: int, stage: str | None = None) -> None:
    """A progress callback that shows nothing."""


@contextmanager
def progress_bar(
    description: str, *, quiet: bool = False, counted: bool = True
) -> Iterator[ProgressCallback]:
    """A ``progress(done, total[, stage])`` callback: a bar with rate and ETA on a terminal,
    silent in a pipe or with ``quiet`` (e.g. ``--json``). Not ``counted``: only the time so
    far, for work with no count to tell (a search for one answer)."""
    if quiet or not console.is_terminal:
        yield _silent
        return
    columns: tuple[ProgressColumn, ...] = (TextColumn("{task.description}"), BarColumn())
    if counted:
        columns += (MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    else:
        columns += (TimeElapsedColumn(),)
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(description, total=None)
        shown = [description]

        def update(done: int, total: int, stage: str | None = None) -> None:
            if stage is not None and stage != shown[0]:  # a new stage: its own rate and ETA
                shown[0] = stage
                progress.reset(task, total=total, completed=done, description=stage)
            progress.update(task, completed=done, total=total)

        yield update


def finish(code: int) -> None:
    """Leave with ``code`` (0 returns normally so that typer's own handling stays in charge)."""
    if code != YES:
        raise typer.Exit(code)


def parse_json_option(text: str, option: str) -> Any:
    """Parse a JSON command-line value, naming the option on error as a file's name is."""
    return read_json_text(text, option)


def write_json(path: Path | None, data: dict[str, Any]) -> bool:
    """Write ``data`` to ``path``, or print it on stdout for None; whether a file was
    written (so the caller may say so: stdout holds the document alone)."""
    try:
        # allow_nan=False: NaN and Infinity are not JSON, and the verifier would refuse them.
        text = json.dumps(data, indent=1, allow_nan=False)
    except ValueError:
        raise InputError(
            "not written: a value is NaN or infinite, which JSON cannot hold", source=str(path)
        ) from None
    if path is None:
        sys.stdout.write(text + "\n")
        return False
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", source=str(path)) from None
    return True
