"""The ``asterion`` command: ``asterion GAME QUESTION [ARGS]``.

Parse, call the library, print or draw; no game logic lives here. Every command prints a
readable summary, or one JSON document with ``--json``; exit status 0 = yes, 1 = no,
2 = bad input or usage, 3 = not answered within the time limit.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from asterion import __version__
from asterion.cli._common import console, reports_input_errors
from asterion.solver.compile_clock import compile_clock

GROUPS = ("aster", "stellar", "nacht", "sky", "akelarre", "puzzles")
"""The command groups, each the ``app`` of the module ``asterion.cli.<name>``.

A group is imported only when it is used: each game's solvers take a second or more to load
(OR-Tools, sympy, numba), and ``asterion nacht verify`` should not wait for Akelarre's.
"""


def build_app(groups: tuple[str, ...] = GROUPS) -> typer.Typer:
    """The ``asterion`` command with the given groups (all by default: ``--help`` lists them)."""
    root = typer.Typer(
        name="asterion",
        help="Constraint-solving puzzles and analysis for star-themed board games.",
        no_args_is_help=True,
        pretty_exceptions_show_locals=False,
        add_completion=False,
        rich_markup_mode="markdown",  # docstrings' single line breaks are reflowed, not kept
    )
    root.callback()(_root)
    root.command()(demo)
    for name in groups:
        module = importlib.import_module(f"asterion.cli.{name}")
        root.add_typer(module.app, name=name)
    return root


def _show_version(value: bool) -> None:
    if value:
        console.print(f"asterion {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Constraint-solving puzzles and analysis for star-themed board games.

    Try `asterion demo`, then `asterion aster --help`.
    """


@reports_input_errors
def demo(
    out: Annotated[Path, typer.Option(help="Folder for the pictures (created if missing).")] = Path(
        "asterion-demo"
    ),
) -> None:
    """A short tour on the shipped data; pictures go to a folder."""
    from asterion.demo import run_demo

    for line in run_demo(out):
        console.print(line)


# click's base of usage and parameter errors: typer vendors click and exports only the
# subclass BadParameter, so the base is found through it rather than a private module.
_ClickException: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"
)


def groups_needed(args: list[str]) -> tuple[str, ...]:
    """The groups a command line needs: the one it names, none for ``--version`` alone (it
    answers before any group would run; loading them all took some 1.5 s), else all (the root's
    help lists them)."""
    wanted = args[0] if args else ""
    if wanted in GROUPS:
        return (wanted,)
    return () if args == ["--version"] else GROUPS


def main() -> None:
    """The console script: loads only the group named on the command line, if any."""
    if hasattr(signal, "SIGPIPE"):
        # A reader that stops early (`| head`) ends the command as it ends any Unix tool
        # (status 141 in the shell), not with status 1, which here means "no".
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    compile_clock.on_first_compile(functools.partial(_tell_compiling, os.getpid()))
    app = build_app(groups_needed(sys.argv[1:]))
    try:
        try:
            code = app(prog_name="asterion", standalone_mode=False)
        finally:
            sys.stdout.flush()  # (a full disk shows here, not at exit)
    except (OSError, UnicodeEncodeError) as error:
        _output_failed(error)
    except _ClickException as error:
        _usage_failed(error)
    except typer.Abort:
        sys.exit(1)
    # Without standalone mode, typer returns the status a command raised with typer.Exit.
    sys.exit(code if isinstance(code, int) else 0)


def _tell_compiling(command_pid: int) -> None:
    """Why a machine's first solve is slow (said once, on stderr, where ``--json`` readers do
    not look; not again by a worker process forked from the command's)."""
    if os.getpid() != command_pid or sys.stderr is None:  # (None: print would use stdout)
        return
    with contextlib.suppress(OSError, ValueError):  # stderr closed: no reason to stop a compile
        print(
            "asterion: compiling the search loops for this machine, once (some 10-30 s, not"
            " counted in --time-limit; numba caches them for later runs)",
            file=sys.stderr,
        )


def _usage_failed(error: Exception) -> None:
    """A usage error (an unknown command or option, a missing argument, a value of the wrong
    type): one line on stderr and its exit status (2), like every other bad input, instead of
    typer's five-line panel."""
    code = getattr(error, "exit_code", 2)
    if type(error).__name__ != "NoArgsIsHelpError":  # that one has printed the help already
        context = getattr(error, "ctx", None)
        where = context.command_path if context is not None else "asterion"
        message = " ".join(error.format_message().split())  # type: ignore[attr-defined]
        print(f"{where}: error: {message} (see {where} --help)", file=sys.stderr)
    sys.exit(code)


def _output_failed(error: OSError | UnicodeEncodeError) -> None:
    """The answer could not be written to stdout (files read and written by a command report
    their own errors): one line and exit status 2, not a traceback that exits with 1, which
    would read as "no"."""
    if isinstance(error, UnicodeEncodeError):
        problem = (
            f"stdout's encoding ({sys.stdout.encoding}) cannot write {error.object[error.start]!r};"
            " set PYTHONIOENCODING=utf-8"
        )
    else:
        problem = error.strerror or str(error)
    # Nothing more goes to stdout: what is left in its buffer would fail again at exit.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    print(f"asterion: error: cannot write the output: {problem}", file=sys.stderr)
    sys.exit(2)


def __getattr__(name: str) -> typer.Typer:
    """``asterion.cli.app``: the whole command, built on first use (tests drive it)."""
    if name != "app":
        raise AttributeError(name)
    whole = build_app()
    globals()["app"] = whole
    return whole
