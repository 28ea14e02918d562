"""``asterion aster puzzles …``, ``asterion nacht puzzles …`` and ``asterion puzzles booklet``.

Generate solo puzzles with proven unique solutions, re-prove one, play one in the terminal,
and gather a folder of them into a printable booklet. Exit statuses as everywhere: 0 yes
(made, unique, solved), 1 no (not unique, given up), 2 bad input, 3 not within the limits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeVar

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from asterion.cli._common import (
    NO,
    UNKNOWN,
    YES,
    JsonOpt,
    console,
    finish,
    print_json,
    progress_bar,
    reports_input_errors,
    time_limit_option,
)
from asterion.errors import InputError
from asterion.render.words import counted

if TYPE_CHECKING:  # the puzzle modules load on use, so `asterion nacht verify` stays quick
    from asterion.puzzles.aster import AsterPuzzle
    from asterion.puzzles.batch import Made
    from asterion.puzzles.nacht import NachtPuzzle
    from asterion.puzzles.play import Session

aster_app = typer.Typer(
    help="Aster solo puzzles: form a constellation in the fewest actions (one way only).",
    no_args_is_help=True,
)
nacht_app = typer.Typer(
    help="Nacht der Sterne tile puzzles: arrange shuffled tiles (one arrangement only).",
    no_args_is_help=True,
)
app = typer.Typer(help="Puzzle collections: booklets.", no_args_is_help=True)

CountOpt = Annotated[int, typer.Option("--count", min=1, max=10_000, help="Puzzles to make.")]
DifficultyOpt = Annotated[str, typer.Option("--difficulty", help="easy, medium, hard or expert.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Same seed, same puzzles.")]
OutOpt = Annotated[
    Path, typer.Option("--out", metavar="DIR", help="Folder for the files (created if missing).")
]
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", min=1, max=256, help="Worker processes (default: one per core)."),
]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="process (local pool) or ray (a Ray cluster).")
]
DEFAULT_SEED: Final = 0
DEFAULT_DIFFICULTY: Final = "medium"
DEFAULT_SOURCE: Final = "edge"
BOOKLET_EACH: Final = 2
"""Puzzles of each game in the booklet made when no folder is given."""


def _puzzle_arg(first_id: str) -> Any:
    return typer.Argument(
        metavar="FILE",
        help="A puzzle JSON file (default: the first puzzle `generate` makes with its "
        f"defaults, {first_id}).",
    )


# The ids spelled as `puzzle_id` spells them: calling it would load the puzzle modules here.
AsterPuzzleArg = Annotated[Path | None, _puzzle_arg(f"aster-{DEFAULT_SEED}-0000")]
NachtPuzzleArg = Annotated[Path | None, _puzzle_arg(f"nacht-{DEFAULT_SOURCE}-{DEFAULT_SEED}-0000")]
ProofTimeOpt = Annotated[float, time_limit_option("Seconds for the proof.")]
ShowOpt = Annotated[bool, typer.Option("--show-solution", help="Print the solution too.")]


# -- generate -------------------------------------------------------------------------------------


def _generate(
    kind: str,
    count: int,
    difficulty: str,
    seed: int,
    out: Path,
    workers: int | None,
    backend: str,
    source: str,
    json_out: bool,
    chart: Path | None = None,
) -> None:
    from asterion.puzzles.aster import parse_difficulty
    from asterion.puzzles.batch import BACKENDS, run_batch

    try:
        level = parse_difficulty(difficulty)
    except InputError as error:
        raise error.located("--difficulty") from None
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r} (process or ray)", source="--backend")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create: {error.strerror}", source=str(out)) from None
    with _progress(f"{kind} {level.value} puzzles", quiet=json_out) as progress:
        batch = run_batch(
            "aster" if kind == "aster" else "nacht",
            count,
            level.value,
            seed,
            workers=workers,
            backend="ray" if backend == "ray" else "process",
            source=source,
            chart=None if chart is None else str(chart),
            progress=progress,
        )
    _write_files(batch.made, out)
    if json_out:
        print_json(
            {
                "count": len(batch.made),
                "asked": count,
                "difficulty": level.value,
                "seed": seed,
                "puzzles": [m.summary for m in batch.made],
                "failed_indices": batch.failed,
                "attempts": batch.attempts,
            }
        )
    else:
        for made in batch.made:
            console.print(f"{made.puzzle_id}: {_grade_words(made.summary['grade'])}")
        console.print(
            f"{len(batch.made)} of {count} {level.value} puzzles in {out} "
            f"({batch.attempts} candidates tried)"
        )
    finish(YES if len(batch.made) == count else UNKNOWN)


def _write_files(made: list[Made], out: Path) -> None:
    for one in made:
        for name, text in one.files:
            (out / name).write_text(text, encoding="utf-8")


@contextmanager
def _progress(description: str, *, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    """The shared progress bar (silent in a pipe or with --json), plus puzzles per minute."""
    if quiet or not console.is_terminal:
        with progress_bar(description, quiet=True) as silent:
            yield silent
        return
    columns: list[ProgressColumn] = [TextColumn("{task.description}"), BarColumn()]
    columns += [MofNCompleteColumn(), _PerMinute(), TimeElapsedColumn()]
    columns += [TextColumn("ETA"), TimeRemainingColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


class _PerMinute(ProgressColumn):
    """Puzzles per minute so far."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = 60 * task.completed / elapsed if elapsed > 0 and task.completed else 0.0
        return Text(f"{rate:.0f}/min")


def _grade_words(grade: dict[str, Any]) -> str:
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in grade.items())


@aster_app.command("generate")
@reports_input_errors
def aster_generate(
    count: CountOpt = 10,
    difficulty: DifficultyOpt = DEFAULT_DIFFICULTY,
    seed: SeedOpt = DEFAULT_SEED,
    out: OutOpt = Path("aster-puzzles"),
    workers: WorkersOpt = None,
    backend: BackendOpt = "process",
    json_out: JsonOpt = False,
) -> None:
    """Make puzzles: for each, a JSON file, a solution file and SVG pictures.

    Every puzzle kept has exactly one shortest plan, proven by an exact count. Exit 0 when
    all COUNT were made, 3 when fewer were found within the attempts.
    Example: `asterion aster puzzles generate --count 20 --difficulty hard --seed 7 --out p`.
    """
    _generate("aster", count, difficulty, seed, out, workers, backend, DEFAULT_SOURCE, json_out)


@nacht_app.command("generate")
@reports_input_errors
def nacht_generate(
    count: CountOpt = 10,
    difficulty: DifficultyOpt = DEFAULT_DIFFICULTY,
    seed: SeedOpt = DEFAULT_SEED,
    out: OutOpt = Path("nacht-puzzles"),
    source: Annotated[
        str, typer.Option(help="edge (Eternity II family) or sky (windows of the star chart).")
    ] = DEFAULT_SOURCE,
    chart: Annotated[
        Path | None,
        typer.Option(
            metavar="CHART", help="Cut sky puzzles from this star chart (implies --source sky)."
        ),
    ] = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = "process",
    json_out: JsonOpt = False,
) -> None:
    """Make tile puzzles with exactly one arrangement, graded by the search's effort.

    Example: `asterion nacht puzzles generate --count 5 --difficulty hard --source sky`.
    """
    if source not in ("edge", "sky"):
        raise InputError(f"unknown source {source!r} (edge or sky)", source="--source")
    if chart is not None:
        from asterion.puzzles.nacht import chart_at

        chart_at(str(chart))  # bad input is refused here, before any worker starts
        source = "sky"
    _generate("nacht", count, difficulty, seed, out, workers, backend, source, json_out, chart)


# -- check ----------------------------------------------------------------------------------------

_Puzzle = TypeVar("_Puzzle")


def _generated(puzzle: _Puzzle | None) -> _Puzzle:
    if puzzle is None:
        raise InputError("no FILE given, and the default puzzle could not be generated")
    return puzzle


def _aster_puzzle(path: Path | None) -> AsterPuzzle:
    """The puzzle in ``path``, or the first one `generate` makes with its defaults."""
    from asterion.puzzles import aster

    if path is not None:
        return aster.load_puzzle(path)
    level = aster.Difficulty(DEFAULT_DIFFICULTY)
    return _generated(aster.generate_puzzle(DEFAULT_SEED, 0, level).puzzle)


def _nacht_puzzle(path: Path | None) -> NachtPuzzle:
    """The tile puzzle in ``path``, or the first one `generate` makes with its defaults."""
    from asterion.puzzles import nacht
    from asterion.puzzles.aster import Difficulty

    if path is not None:
        return nacht.load_puzzle(path)
    level = Difficulty(DEFAULT_DIFFICULTY)
    made = nacht.generate_puzzle(DEFAULT_SEED, 0, level, source=DEFAULT_SOURCE)
    return _generated(made.puzzle)


@aster_app.command("check")
@reports_input_errors
def aster_check(
    puzzle_file: AsterPuzzleArg = None,
    show_solution: ShowOpt = False,
    time_limit: ProofTimeOpt = 60.0,
    json_out: JsonOpt = False,
) -> None:
    """Re-prove a puzzle: exactly one shortest plan? Exit 0 unique, 1 not, 3 undecided."""
    from asterion.cli.aster import describe_plan_item
    from asterion.puzzles.aster import decoys, describe, prove

    puzzle = _aster_puzzle(puzzle_file)
    verdict = prove(puzzle, time_limit=time_limit)
    count, unique = verdict.count, verdict.unique
    plan = count.certificate.plan_json() if count.certificate is not None else []
    if json_out:
        document: dict[str, Any] = {
            "id": puzzle.id,
            "unique": unique,
            "min_actions": count.min_actions,
            "shortest_plans": count.plans if count.complete else None,
            "near_misses": count.near_misses if count.complete else None,
            "effort": count.effort,
        }
        if show_solution:
            document["plan"] = plan
        print_json(document)
    else:
        console.print(describe(puzzle))
        if unique is None:
            console.print(f"undecided within the limits ({count.effort} states)")
        elif count.min_actions is None:
            console.print("NOT a puzzle: the target cannot be formed with these actions")
        elif unique:
            assert count.certificate is not None
            console.print(
                f"unique: one shortest plan of {counted(count.min_actions, 'action')}, proven "
                f"({count.near_misses} plans of {count.min_actions + 1}, "
                f"{decoys(count.certificate)} decoy stars, {count.effort} states)"
            )
        else:
            console.print(
                f"NOT unique: {count.plans} distinct shortest plans of "
                f"{counted(count.min_actions, 'action')}"
            )
        if show_solution and plan:
            for number, item in enumerate(plan, start=1):
                console.print(f"  {number}. {describe_plan_item(item)}")
    finish({True: YES, False: NO, None: UNKNOWN}[unique])


@nacht_app.command("check")
@reports_input_errors
def nacht_check(
    puzzle_file: NachtPuzzleArg = None,
    show_solution: ShowOpt = False,
    time_limit: ProofTimeOpt = 60.0,
    json_out: JsonOpt = False,
) -> None:
    """Re-prove a tile puzzle: exactly one arrangement? Exit 0 unique, 1 not, 3 undecided."""
    from asterion.puzzles.nacht import describe, prove, solution_to_data

    puzzle = _nacht_puzzle(puzzle_file)
    verdict = prove(puzzle.tileset, time_limit=time_limit)
    unique, result = verdict.unique, verdict.result
    solution = (
        solution_to_data(puzzle, verdict.arrangement) if verdict.arrangement is not None else None
    )
    if json_out:
        document: dict[str, Any] = {
            "id": puzzle.id,
            "unique": unique,
            "arrangements": result.count,
            "complete": result.complete,
            "nodes": result.nodes,
        }
        if show_solution and solution is not None:
            document["grid"] = solution["grid"]
            document["turns"] = solution["turns"]
        print_json(document)
    else:
        console.print(describe(puzzle))
        words = {
            True: f"unique: exactly one arrangement, proven ({result.nodes} search nodes)",
            False: f"NOT unique: {counted(result.count, 'arrangement')} found",
            None: "undecided within the time limit",
        }
        console.print(words[unique])
        if show_solution and solution is not None:
            for ids, turns in zip(solution["grid"], solution["turns"], strict=True):
                cells = (f"{t}+{k}" if k else t for t, k in zip(ids, turns, strict=True))
                console.print("  " + " ".join(f"{c:>6}" for c in cells))
    finish({True: YES, False: NO, None: UNKNOWN}[unique])


# -- play -----------------------------------------------------------------------------------------


def _play(game: Session) -> None:
    """Read lines until the game ends (or the input does); print every answer."""
    for line in game.opening():
        console.print(line)
    while not game.finished:
        console.print("> ", end="")
        typed = sys.stdin.readline()
        if typed == "":
            console.print()
            break
        for line in game.handle(typed.strip()):
            console.print(line)
    finish(YES if game.solved else NO)


@aster_app.command("play")
@reports_input_errors
def aster_play(puzzle_file: AsterPuzzleArg = None) -> None:
    """Play a puzzle in the terminal: type moves, see the board, learn when the target forms.

    Moves: `POINT` generates a star there; `FROM TO` moves a star (with the first slot that
    can); a symbol may be named first (`nudge 3N 3NE`). Also `end` (end the turn), `undo`,
    `help`, `quit`. Exit 0 when the target is formed, 1 otherwise.
    """
    from asterion.puzzles.play import AsterGame

    _play(AsterGame(_aster_puzzle(puzzle_file)))


@nacht_app.command("play")
@reports_input_errors
def nacht_play(puzzle_file: NachtPuzzleArg = None) -> None:
    """Arrange a tile puzzle in the terminal: `TILE ROW COL [TURNS]` lays a tile,
    `clear ROW COL` lifts one, `show`, `help`, `quit`. Exit 0 when every tile fits."""
    from asterion.puzzles.play import NachtGame

    _play(NachtGame(_nacht_puzzle(puzzle_file)))


# -- booklet --------------------------------------------------------------------------------------


@app.command("booklet")
@reports_input_errors
def booklet(
    folder: Annotated[
        Path | None,
        typer.Argument(
            metavar="DIR",
            help=f"A folder of puzzle files (default: the first {BOOKLET_EACH} Aster and "
            f"{BOOKLET_EACH} Nacht puzzles `generate` makes with its defaults).",
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="FILE",
            help="The file to write: HTML, or a PDF when it ends in .pdf (extra 'pdf').",
        ),
    ] = Path("booklet.html"),
    title: Annotated[str, typer.Option(help="The booklet's title.")] = "Star puzzles",
) -> None:
    """A printable booklet: a cover with the contents, every puzzle with its picture (two to
    a printed page), the solutions at the back in the same order.

    `--out booklet.pdf` prints it to PDF with WeasyPrint (`pip install 'asterion[pdf]'`).
    """
    from asterion.puzzles.booklet import write_booklet

    if folder is None:
        with TemporaryDirectory(prefix="asterion-booklet-") as temporary:
            _write_default_puzzles(Path(temporary))
            written = write_booklet(Path(temporary), out, title=title)
    elif not folder.is_dir():
        problem = "is a file, not a folder" if folder.exists() else "no such folder"
        raise InputError(problem, source=str(folder))
    else:
        written = write_booklet(folder, out, title=title)
    console.print(f"{out}: {counted(written, 'puzzle')}")


def _write_default_puzzles(out: Path) -> None:
    """The files `generate --count BOOKLET_EACH` writes with its defaults, for both games."""
    from asterion.puzzles.batch import run_batch

    for kind in ("aster", "nacht"):
        batch = run_batch(
            kind, BOOKLET_EACH, DEFAULT_DIFFICULTY, DEFAULT_SEED, workers=1, source=DEFAULT_SOURCE
        )  # in this process: starting a pool costs more than these few small puzzles take
        _write_files(batch.made, out)
