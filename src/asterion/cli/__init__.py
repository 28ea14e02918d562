"""The ``asterion`` command: ``asterion GAME QUESTION [ARGS]``.

Parse, call the library, print or draw; no game logic lives here. Every command prints a
readable summary, or one JSON document with ``--json``; exit status 0 = yes, 1 = no,
2 = bad input or usage, 3 = not answered within the time limit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from asterion import __version__
from asterion.cli import akelarre, aster, nacht, sky, stellar
from asterion.cli._common import console, reports_input_errors

app = typer.Typer(
    name="asterion",
    help="Constraint-solving puzzles and analysis for star-themed board games.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)
app.add_typer(aster.app, name="aster")
app.add_typer(stellar.app, name="stellar")
app.add_typer(nacht.app, name="nacht")
app.add_typer(sky.app, name="sky")
app.add_typer(akelarre.app, name="akelarre")


def _show_version(value: bool) -> None:
    if value:
        console.print(f"asterion {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Constraint-solving puzzles and analysis for star-themed board games.

    Try `asterion demo`, then `asterion aster --help`.
    """


@app.command()
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


def main() -> None:
    app(prog_name="asterion")


from asterion.cli.puzzles import app as _puzzles_app  # noqa: E402

app.add_typer(_puzzles_app, name="puzzles")
