"""Nacht der Sterne tile puzzles: shuffled tiles with exactly one arrangement.

Two sources (rules/nacht.md):

``edge``
    the Eternity II family (:mod:`asterion.models.edge_puzzles`): a random W x H grid of colored
    sides, cut into pieces, shuffled and turned; rotations on.
``sky``
    a random square window of the shipped star chart cut into W x H chamfered tiles
    (:mod:`asterion.models.nacht_cut`), shuffled; lines may leave the window (N3 clipping on).

A candidate is kept only when the exact search engine (:mod:`asterion.solver.edge_search`,
through :func:`asterion.solver.nacht_solve.arrange`) proves that it has exactly one
arrangement: asked to count up to two, it finishes with one (with rotations, arrangements are
counted up to turning the whole picture). The engine's effort, the search nodes it needed to
find the arrangement and rule out a second, grades the puzzle (:func:`label_of`); the node
count does not depend on the machine, so the same seed gives the same puzzles everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.edges import Arrangement
from asterion.models.files import read_json_file, validate
from asterion.models.nacht import Tile, TileSet, derived_chamfers, edge_problem
from asterion.models.nacht_cut import (
    MIN_TILE_SIDE,
    Chart,
    cut,
    load_chart,
    shipped_chart,
)
from asterion.models.nacht_files import tileset_from_data, tileset_to_data
from asterion.puzzles.aster import Difficulty, check_format, inside
from asterion.solver.edge_result import EdgeSearchResult
from asterion.solver.nacht_solve import arrange
from asterion.solver.result import Status

PUZZLE_FORMAT = "asterion.nacht-puzzle/1"
SOLUTION_FORMAT = "asterion.nacht-solution/1"
Source = Literal["edge", "sky"]
SOURCES: tuple[Source, ...] = ("edge", "sky")

PROOF_TIME_LIMIT = 60.0
"""Seconds the engine may take to prove a candidate unique (a safety net: the sizes drawn
are settled in well under a second)."""
MAX_ATTEMPTS = 400
ENGINE = "search"
"""The exact engine whose node count grades the puzzles (deterministic, machine-independent)."""

NODE_FLOORS: dict[Source, tuple[tuple[Difficulty, int], ...]] = {
    "edge": ((Difficulty.EXPERT, 5_000), (Difficulty.HARD, 300), (Difficulty.MEDIUM, 30)),
    "sky": ((Difficulty.EXPERT, 40), (Difficulty.HARD, 30), (Difficulty.MEDIUM, 20)),
}
"""(label, fewest search nodes) per source: the first row met is the label, none met is easy.
Sky windows carry line fragments that nearly force every tile (a 5 x 5 window takes some 25
nodes, one per cell), so their floors are far lower than the edge family's, where few colors
leave the search many dead ends."""


@dataclass(frozen=True)
class Profile:
    """Candidate sizes for one difficulty: grid side with (frame colors, inner colors) for
    the edge family; grid side with rotations on or off for sky windows."""

    edge: tuple[tuple[int, int, int], ...]
    sky: tuple[tuple[int, bool], ...]


PROFILES: dict[Difficulty, Profile] = {
    Difficulty.EASY: Profile(((3, 4, 6),), ((3, False), (4, False))),
    Difficulty.MEDIUM: Profile(((4, 3, 5), (4, 4, 8)), ((4, True), (5, False))),
    Difficulty.HARD: Profile(((5, 4, 8), (6, 4, 10)), ((5, True), (6, False))),
    Difficulty.EXPERT: Profile(((6, 4, 10), (7, 5, 12)), ((5, True), (6, False), (6, True))),
}


LARGEST_SKY_SIDE = max(side for profile in PROFILES.values() for side, _ in profile.sky)
LEAST_WINDOW = 0.5
"""A sky window's side, at the least, as a share of the chart's extent (its stars' bounding
box, the smaller way)."""


def label_of(nodes: int, source: Source = "edge") -> Difficulty:
    """The label of a proof that took ``nodes`` search nodes (:data:`NODE_FLOORS`).

    >>> label_of(12).value, label_of(400).value, label_of(33, "sky").value
    ('easy', 'hard', 'hard')
    """
    for label, floor in NODE_FLOORS[source]:
        if nodes >= floor:
            return label
    return Difficulty.EASY


@dataclass(frozen=True)
class NachtPuzzle:
    """A shuffled tile set to arrange, with what it was graded on."""

    id: str
    tileset: TileSet
    source: Source
    difficulty: Difficulty | None = None
    nodes: int | None = None
    generator: dict[str, int] | None = None


@dataclass(frozen=True)
class NachtVerdict:
    result: EdgeSearchResult

    @property
    def unique(self) -> bool | None:
        """True exactly one arrangement, False none or several, None undecided."""
        result = self.result
        if result.status is Status.INFEASIBLE:
            return False
        if result.count >= 2:
            return False
        if result.complete:
            return result.count == 1
        return None

    @property
    def arrangement(self) -> Arrangement | None:
        return self.result.solutions[0] if self.result.solutions else None


def prove(tileset: TileSet, *, time_limit: float = PROOF_TIME_LIMIT) -> NachtVerdict:
    """Count the arrangements up to two with the exact engine."""
    encoding = edge_problem(tileset)
    engine = ENGINE if encoding.problem.near is None else "auto"  # (the search takes no chain)
    result = arrange(tileset, encoding, engine, count_limit=2, keep=2, time_limit=time_limit)
    return NachtVerdict(result)


# -- generation ----------------------------------------------------------------------------------


def edge_tileset(width: int, height: int, frame: int, inner: int, seed: int, name: str) -> TileSet:
    """A shuffled Eternity II-family puzzle as a generic tile set (side labels)."""
    from asterion.models.edge_puzzles import generate

    problem = generate(width, height, frame, inner, seed)
    tiles = []
    for i, piece in enumerate(problem.pieces):
        edges = (str(piece[0]), str(piece[1]), str(piece[2]), str(piece[3]))
        tiles.append(Tile(id=f"P{i + 1:02d}", chamfers=derived_chamfers(edges), edges=edges))
    return TileSet(name, width, height, tuple(tiles), rotations=True, generic=True)


@cache
def chart_at(path: str | None) -> Chart:
    """The chart of a file (``asterion.chart/1``), or the shipped one for ``None``.

    :raises InputError: naming the file, for a chart that breaks the format or whose
        stars span too little to cut windows from.
    """
    if path is None:
        return shipped_chart()
    chart = load_chart(path)
    _check_extent(chart, path)
    return chart


def _check_extent(chart: Chart, source: str) -> None:
    """Refuse a chart whose stars span too little to cut windows from (one star, or stars
    all but on one point), naming the file, before any puzzle is drawn."""
    x0, y0, x1, y1 = chart.bounds()
    need = MIN_TILE_SIDE * LARGEST_SKY_SIDE / LEAST_WINDOW
    if min(x1 - x0, y1 - y0) < need:
        raise InputError(
            f"the stars span {x1 - x0:.3g} x {y1 - y0:.3g} chart units; sky puzzles need"
            f" {need:g} or more each way (windows down to {LEAST_WINDOW:g} of that, cut into"
            f" up to {LARGEST_SKY_SIDE} tiles a side of {MIN_TILE_SIDE:g} or more)",
            source=source,
            field="constellations",
        )


def sky_tileset(
    rng: random.Random, side: int, rotations: bool, name: str, chart: Chart | None = None
) -> TileSet:
    """A random square window of a chart (default: the shipped one), cut into ``side`` x
    ``side`` tiles."""
    chart = chart or shipped_chart()
    x0, y0, x1, y1 = chart.bounds()
    span = min(x1 - x0, y1 - y0) * rng.uniform(LEAST_WINDOW, 1.0)
    left = rng.uniform(x0, x1 - span)
    bottom = rng.uniform(y0, y1 - span)
    window = (left, bottom, left + span, bottom + span)
    tileset = cut(
        chart,
        side,
        side,
        window,
        allow_border_fragments=True,
        shuffle_seed=rng.randrange(1 << 30),
        name=name,
    )
    return replace(tileset, rotations=rotations)


@dataclass(frozen=True)
class Generated:
    index: int
    puzzle: NachtPuzzle | None
    solution: Arrangement | None
    attempts: int
    states: int


def puzzle_id(source: Source, seed: int, index: int) -> str:
    return f"nacht-{source}-{seed}-{index:04d}"


def generate_puzzle(
    seed: int,
    index: int,
    difficulty: Difficulty,
    *,
    source: Source = "edge",
    chart: str | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    time_limit: float = PROOF_TIME_LIMIT,
) -> Generated:
    """Draw candidates from the stream ``(source, seed, index)`` until one is proven unique
    and its proof's effort earns the label asked for; sky windows come from the chart file
    ``chart`` (default: the shipped chart)."""
    rng = random.Random(f"nacht-puzzle/{source}/{seed}/{index}/{difficulty.value}")
    profile = PROFILES[difficulty]
    name = puzzle_id(source, seed, index)
    nodes_total = 0
    for attempt in range(1, max_attempts + 1):
        if source == "edge":
            side, frame, inner = rng.choice(profile.edge)
            tileset = edge_tileset(side, side, frame, inner, rng.randrange(1 << 30), name)
        else:
            side, rotations = rng.choice(profile.sky)
            tileset = sky_tileset(rng, side, rotations, name, chart_at(chart))
        if edge_problem(tileset).chains:
            continue  # fragments in a chain of near misses: a player could not tell them apart
        verdict = prove(tileset, time_limit=time_limit)
        nodes = verdict.result.nodes
        nodes_total += nodes
        if verdict.unique is not True or verdict.arrangement is None:
            continue
        if label_of(nodes, source) is not difficulty:
            continue
        generator = {"seed": seed, "index": index, "attempt": attempt}
        puzzle = NachtPuzzle(name, tileset, source, difficulty, nodes, generator)
        return Generated(index, puzzle, verdict.arrangement, attempt, nodes_total)
    return Generated(index, None, None, max_attempts, nodes_total)


# -- files --------------------------------------------------------------------------------------


class PuzzleSpec(BaseModel):
    """The schema of a Nacht puzzle file (see :func:`puzzle_to_data`)."""

    model_config = ConfigDict(extra="forbid")
    format: str
    id: str = Field(max_length=100)
    source: Source = "edge"
    tileset: dict[str, Any]
    difficulty: Difficulty | None = None
    grade: dict[str, int] | None = None
    generator: dict[str, int] | None = None


def puzzle_to_data(puzzle: NachtPuzzle) -> dict[str, Any]:
    """The puzzle document: ``format`` (:data:`PUZZLE_FORMAT`), ``id``, ``source`` (edge or
    sky), ``tileset`` (an ``asterion.tileset/1`` document, tiles shuffled), ``difficulty``,
    ``grade`` (``nodes``: search nodes of the uniqueness proof; ``cells``) and ``generator``
    (``seed``, ``index``, ``attempt``)."""
    data: dict[str, Any] = {
        "format": PUZZLE_FORMAT,
        "id": puzzle.id,
        "source": puzzle.source,
        "tileset": tileset_to_data(puzzle.tileset),
    }
    if puzzle.difficulty is not None:
        data["difficulty"] = puzzle.difficulty.value
    if puzzle.nodes is not None:
        cells = puzzle.tileset.width * puzzle.tileset.height
        data["grade"] = {"nodes": puzzle.nodes, "cells": cells}
    if puzzle.generator is not None:
        data["generator"] = dict(puzzle.generator)
    return data


def puzzle_from_data(data: Any, source: str) -> NachtPuzzle:
    """:raises InputError: for a wrong format version or a tile set that breaks the format."""
    check_format(data, PUZZLE_FORMAT, source)
    spec = validate(PuzzleSpec, data, source)
    with inside("tileset", source):
        tileset = tileset_from_data(spec.tileset, source)
    nodes = None if spec.grade is None else spec.grade.get("nodes")
    return NachtPuzzle(spec.id, tileset, spec.source, spec.difficulty, nodes, spec.generator)


def load_puzzle(path: Path | str) -> NachtPuzzle:
    return puzzle_from_data(read_json_file(path), str(path))


def solution_to_data(puzzle: NachtPuzzle, arrangement: Arrangement) -> dict[str, Any]:
    """``format`` (:data:`SOLUTION_FORMAT`), ``puzzle``, ``grid`` (tile ids by row, row 0 =
    north) and ``turns`` (quarter turns clockwise of each tile)."""
    tiles = puzzle.tileset.tiles
    return {
        "format": SOLUTION_FORMAT,
        "puzzle": puzzle.id,
        "grid": [[tiles[p.piece].id for p in row] for row in arrangement],
        "turns": [[p.turns for p in row] for row in arrangement],
    }


def puzzle_svg(puzzle: NachtPuzzle) -> str:
    """The shuffled tiles, unturned, in file order."""
    from asterion.render.nacht_svg import tiles_svg

    label = f" [{puzzle.difficulty.value}]" if puzzle.difficulty else ""
    return tiles_svg(puzzle.tileset, title=f"{puzzle.id}{label}")


def solution_svg(puzzle: NachtPuzzle, arrangement: Arrangement) -> str:
    from asterion.render.nacht_svg import sky_svg

    return sky_svg(puzzle.tileset, arrangement, title=f"{puzzle.id}: solution")


def describe(puzzle: NachtPuzzle) -> str:
    ts = puzzle.tileset
    turn = "tiles turn" if ts.rotations else "tiles keep their up"
    return f"{puzzle.id}: arrange {len(ts.tiles)} tiles in {ts.width}x{ts.height} ({turn})"
