"""``asterion nacht …``: tile sets of Nacht der Sterne and generic edge-matching puzzles."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from asterion.cli._common import (
    NO,
    SEARCH_TIME_HELP,
    UNKNOWN,
    YES,
    JsonOpt,
    SvgOpt,
    console,
    finish,
    print_json,
    progress_bar,
    reports_input_errors,
    save_svg,
    solver_seed_option,
    time_limit_option,
    typed_as,
    write_json,
)
from asterion.errors import InputError
from asterion.models.edges import MAX_SIDE, MIN_SIDE, Arrangement
from asterion.models.nacht import TileSet
from asterion.models.nacht_files import (
    default_tileset,
    load_tileset,
    tileset_schema,
    tileset_to_data,
)
from asterion.render.words import counted
from asterion.solver.nacht_solve import ENGINES, solve_tileset
from asterion.solver.nacht_verify import DEFAULT_COUNT_LIMIT, Report, verify
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status

if TYPE_CHECKING:  # the cutter loads on use (asterion.cli.GROUPS says why)
    from collections.abc import Sequence

    from asterion.models.nacht_cut import Viewport

app = typer.Typer(
    help="Nacht der Sterne: tile sets that assemble into one sky; edge-matching puzzles.",
    no_args_is_help=True,
)

TilesetArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="TILESET",
        help="A tile set: JSON (asterion.tileset/1) or edge-matching text (default: the "
        "shipped sky).",
    ),
]
MAX_COUNT_LIMIT = 10**18
"""Counts are kept in 64-bit words; a limit of 10^18 is as good as none (solve keeps one
arrangement and verify two, so a large limit costs no memory; the time limit bounds the work)."""
CountOpt = Annotated[
    int,
    typer.Option("--count-limit", min=1, max=MAX_COUNT_LIMIT, help="Count arrangements up to N."),
]
TimeOpt = Annotated[float, time_limit_option(SEARCH_TIME_HELP)]
EngineOpt = Annotated[
    str,
    typer.Option(
        help="auto, propagate (designed sets, no set-up), cp-sat (designed sets) or search "
        "(few colors)."
    ),
]


def _load(path: Path | None) -> TileSet:
    return default_tileset() if path is None else load_tileset(path)


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise InputError(
            f"unknown engine {engine!r} (one of {', '.join(ENGINES)})", source="--engine"
        )


@app.command("verify")
@reports_input_errors
def verify_command(
    tileset_file: TilesetArg = None,
    count_limit: Annotated[
        int,
        typer.Option(
            "--count-limit",
            min=1,
            max=MAX_COUNT_LIMIT,
            help="Count arrangements up to N (1 counts to 2 all the same: uniqueness needs a "
            "second one).",
        ),
    ] = DEFAULT_COUNT_LIMIT,
    time_limit: Annotated[
        float, time_limit_option("Seconds before answering 'undecided' (exit 3).")
    ] = DEFAULT_TIME_LIMIT,
    engine: EngineOpt = "auto",
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """Is the tile set consistent? Chamfers, dangling fragments, an arrangement, its
    uniqueness, whole constellations, markers (rules/nacht.md, "verify").

    Exit status 0 consistent, 1 inconsistent (each problem listed), 3 undecided within the
    time limit, 2 bad input. Example: `asterion nacht verify sky.json --svg sky.svg`.
    """
    _check_engine(engine)
    tileset = _load(tileset_file)
    with progress_bar("verifying", quiet=json_out, counted=False):  # the time so far
        report = verify(tileset, count_limit=count_limit, time_limit=time_limit, engine=engine)
    save_svg(svg, lambda: _report_picture(tileset, report), quiet=json_out)
    if json_out:
        print_json(report.to_json())
    else:
        _print_report(tileset, report)
    finish(YES if report.consistent else UNKNOWN if report.consistent is None else NO)


def _report_picture(tileset: TileSet, report: Report) -> str:
    from asterion.render import nacht_svg

    if len(report.placements) >= 2:
        return nacht_svg.arrangements_svg(
            tileset, report.placements[:2], titles=["arrangement 1", "arrangement 2"]
        )
    if report.placements:
        return nacht_svg.sky_svg(tileset, report.placements[0], title=tileset.name or None)
    return nacht_svg.tiles_svg(tileset)


_TURNS_KEY = " (tile id, +k = turned k quarter turns clockwise)"
"""How the printed grids read when tiles turn (solve and verify alike)."""


def _print_report(tileset: TileSet, report: Report) -> None:
    name = tileset.name or "tile set"
    console.print(
        f"{name}: {tileset.width}x{tileset.height}, {len(tileset.tiles)} tiles, "
        f"rotations {'on' if tileset.rotations else 'off'}"
    )
    verdict = {True: "consistent", False: "INCONSISTENT", None: "undecided (time limit)"}
    count = f"{report.solutions}" + ("" if report.solutions_exact else "+")
    console.print(
        f"{verdict[report.consistent]}; arrangements found: {count} ({report.wall_time:.2f} s)"
    )
    for finding in report.problems:
        console.print(f"  [{finding.code}] {finding.message}")
    if report.constellations:
        spans = ", ".join(f"{s.abbr} {len(s.tiles)}" for s in report.constellations)
        found = counted(len(report.constellations), "constellation")
        console.print(f"{found} (tiles spanned): {spans}")
    if report.placements:
        shown = report.placements[:2]
        what = "two arrangements, side by side" if len(shown) == 2 else "the arrangement"
        console.print(f"{what}, row 0 = north{_TURNS_KEY if tileset.rotations else ''}:")
        _print_grids(tileset, shown)


def _print_grids(tileset: TileSet, arrangements: Sequence[Arrangement]) -> None:
    """Arrangements side by side, each cell the tile's id and its turns (``+k``, none for 0)."""
    grids = [
        [[tileset.tiles[p.piece].id + (f"+{p.turns}" if p.turns else "") for p in row] for row in a]
        for a in arrangements
    ]
    width = max(len(cell) for grid in grids for row in grid for cell in row)
    for rows in zip(*grids, strict=True):
        console.print("   |   ".join(" ".join(f"{t:>{width}}" for t in row) for row in rows))


def solve_to_json(
    tileset: TileSet, status: Status, count: int, arrangement: Arrangement | None
) -> dict[str, Any]:
    """The documented ``solve --json`` shape."""
    grid = turns = None
    if arrangement is not None:
        grid = [[tileset.tiles[p.piece].id for p in row] for row in arrangement]
        turns = [[p.turns for p in row] for row in arrangement]
    return {"status": status.value, "solutions": count, "grid": grid, "rotations": turns}


@app.command()
@reports_input_errors
def solve(
    tileset_file: TilesetArg = None,
    rotations: Annotated[
        bool | None,
        typer.Option(
            "--rotations/--no-rotations",
            help="Let tiles turn (default: the set's own setting; on for text puzzles).",
        ),
    ] = None,
    count_limit: CountOpt = 1,
    time_limit: TimeOpt = DEFAULT_TIME_LIMIT,
    engine: EngineOpt = "auto",
    seed: Annotated[int, solver_seed_option("Seed of the CP-SAT engine.")] = 0,
    json_out: JsonOpt = False,
    svg: SvgOpt = None,
) -> None:
    """Arrange the tiles; with --count-limit N, count the arrangements up to N (with
    rotations, up to turning the whole picture). Every arrangement is re-checked edge by edge.

    Exit status 0 arranged, 1 proved impossible, 3 unknown within the time limit, 2 bad input.
    Example: `asterion nacht solve puzzle.txt --count-limit 100 --json`.
    """
    _check_engine(engine)
    tileset = _load(tileset_file)
    # On a terminal a bar: a count's progress, or a first arrangement's time so far.
    label = "counting" if count_limit > 1 else "searching"
    with progress_bar(label, quiet=json_out, counted=count_limit > 1) as progress:
        solved = solve_tileset(
            tileset,
            engine=engine,
            count_limit=count_limit,
            keep=1,
            time_limit=time_limit,
            seed=seed,
            rotations=rotations,
            progress=progress,
        )
    result = solved.result
    first = result.solutions[0] if result.solutions else None
    picture = None if first is None else (lambda: _sky(solved.tileset, first))
    save_svg(svg, picture, quiet=json_out, nothing="no arrangement to draw")
    if json_out:
        print_json(solve_to_json(solved.tileset, result.status, result.count, first))
    else:
        _print_solved(
            solved.tileset,
            result.status,
            result.count,
            result.complete,
            result.engine,
            result.wall_time,
            first,
        )
    if result.status is Status.INFEASIBLE:
        finish(NO)
    finish(YES if first is not None else UNKNOWN)


def _sky(tileset: TileSet, arrangement: Arrangement) -> str:
    from asterion.render.nacht_svg import sky_svg

    return sky_svg(tileset, arrangement, title=tileset.name or None)


def _print_solved(
    tileset: TileSet,
    status: Status,
    count: int,
    complete: bool,
    engine: str,
    seconds: float,
    first: Arrangement | None,
) -> None:
    if first is None and status is Status.INFEASIBLE:
        console.print(f"no arrangement exists ({engine}, {seconds:.2f} s)")
        return
    if first is None:
        console.print(
            f"unknown: no arrangement found within the time limit, and none ruled out"
            f" ({engine}, {seconds:.2f} s); a longer --time-limit may decide it"
        )
        return
    exact = "exactly" if complete else "at least"
    up_to = ", up to turning the whole picture" if tileset.rotations else ""
    console.print(
        f"{exact} {counted(count, 'arrangement')}{up_to} ({engine}, {seconds:.2f} s); "
        f"the first, row 0 = north{_TURNS_KEY if tileset.rotations else ''}:"
    )
    _print_grids(tileset, [first])


def parse_grid(text: str) -> tuple[int, int]:
    """``"5x5"`` as (width, height), each within the grid limits."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise InputError(f"expected WxH such as 5x5, got {text!r}", source="--grid") from None
    for value in (width, height):
        if not MIN_SIDE <= value <= MAX_SIDE:
            raise InputError(
                f"{text}: each side must lie in {MIN_SIDE}..{MAX_SIDE}", source="--grid"
            )
    return width, height


def parse_viewport(text: str | None) -> Viewport | None:
    if text is None:
        return None
    try:
        x0, y0, x1, y1 = (float(part) for part in text.split(","))
    except ValueError:
        raise InputError(
            f"expected x0,y0,x1,y1 (west, south, east, north), got {text!r}", source="--viewport"
        ) from None
    return (x0, y0, x1, y1)


@app.command("cut")
@reports_input_errors
def cut_command(
    chart_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="CHART", help="A star chart JSON file (default: the shipped chart)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", metavar="TILESET", help="Where to write it (default: print it on stdout)."
        ),
    ] = None,
    grid: Annotated[str, typer.Option(help="Tiles across x down, e.g. 5x5.")] = "5x5",
    viewport: Annotated[
        str | None,
        typer.Option(help="x0,y0,x1,y1 in chart units (default: the chart's extent)."),
    ] = None,
    allow_border_fragments: Annotated[
        bool, typer.Option(help="N3: lines may leave the picture (clipped).")
    ] = False,
    shuffle: Annotated[
        int | None, typer.Option(metavar="SEED", help="List the tiles in a shuffled order.")
    ] = None,
) -> None:
    """Cut a star chart (asterion.chart/1) into W x H chamfered tiles with their fragments.

    Example: `asterion nacht cut chart.json --grid 5x5 --shuffle 1 --out sky.json`, then
    `asterion nacht verify sky.json`. With no CHART, `--viewport 0,0,5,5 --shuffle 1` gives
    the shipped sky's tiles.
    """
    from asterion.models.nacht_cut import cut, load_chart, shipped_chart

    width, height = parse_grid(grid)
    chart = shipped_chart() if chart_file is None else load_chart(chart_file)
    with typed_as("--viewport" if viewport is not None else None, field="viewport"):
        tileset = cut(
            chart,
            width,
            height,
            parse_viewport(viewport),
            allow_border_fragments=allow_border_fragments,
            shuffle_seed=shuffle,
        )
    if write_json(out, tileset_to_data(tileset)):
        console.print(
            f"{out}: {len(tileset.tiles)} tiles, "
            f"{counted(len(tileset.constellations), 'constellation')}"
        )


@app.command()
@reports_input_errors
def convert(
    source: Annotated[Path, typer.Argument(metavar="IN", help="A tile set in either format.")],
    target: Annotated[
        Path | None,
        typer.Argument(metavar="OUT", help="The JSON file to write (default: print it on stdout)."),
    ] = None,
) -> None:
    """Write a tile set (e.g. an edge-matching text puzzle) in the JSON format."""
    tileset = load_tileset(source)
    if write_json(target, tileset_to_data(tileset)):
        console.print(f"{target}: {len(tileset.tiles)} tiles")


@app.command()
def schema() -> None:
    """Print the JSON Schema of the tile-set format."""
    print_json(tileset_schema())


from asterion.cli import nacht_play  # noqa: E402,F401  (registers the play commands)
from asterion.cli.puzzles import nacht_app as _puzzles_app  # noqa: E402

app.add_typer(_puzzles_app, name="puzzles")
