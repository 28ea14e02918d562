"""Arranging tile sets: the engines behind ``asterion nacht solve`` and ``verify``.

Two exact engines answer the same question (models/edges.py conventions):

- ``cp-sat`` (:mod:`asterion.solver.edge_cpsat`): strong on designed sets, where fragments
  make many distinct colors and propagation settles most cells at once;
- ``search`` (:mod:`asterion.solver.edge_search`): a backtracking search of our own, strong on
  the Eternity II family, where few colors leave CP-SAT wandering (issue 4's measurements).

``auto`` picks per instance by how many pieces share a color: when a typical inner side color
is shared by few pieces, CP-SAT; when many, the search.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from asterion.errors import InputError
from asterion.models.edges import BORDER, Arrangement, EdgeProblem
from asterion.models.nacht import Encoding, TileSet, edge_problem
from asterion.solver.edge_result import EdgeSearchResult
from asterion.solver.result import DEFAULT_TIME_LIMIT

ENGINES = ("auto", "cp-sat", "search")
CROWDED = 6.0
"""``auto`` uses the search when inner sides per distinct inner color exceed this."""

Engine = Callable[..., EdgeSearchResult]


def search_available() -> bool:
    return importlib.util.find_spec("asterion.solver.edge_search") is not None


def crowding(problem: EdgeProblem) -> float:
    """Inner sides per distinct inner color: how ambiguous a side is."""
    counts = Counter(color for piece in problem.pieces for color in piece if color != BORDER)
    return sum(counts.values()) / max(len(counts), 1)


def choose_engine(problem: EdgeProblem, engine: str = "auto") -> str:
    if engine not in ENGINES:
        raise InputError(
            f"unknown engine {engine!r} (one of {', '.join(ENGINES)})", field="--engine"
        )
    if engine != "auto":
        return engine
    if search_available() and crowding(problem) > CROWDED:
        return "search"
    return "cp-sat"


def run_engine(
    problem: EdgeProblem,
    engine: str = "auto",
    *,
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> EdgeSearchResult:
    """Arrange ``problem`` with the chosen engine; every kept arrangement is re-checked."""
    name = choose_engine(problem, engine)
    if name == "search":
        from asterion.solver.edge_search import search_arrangements

        return search_arrangements(
            problem, count_limit=count_limit, keep=keep, time_limit=time_limit
        )
    from asterion.solver.edge_cpsat import cp_arrangements

    return cp_arrangements(
        problem, count_limit=count_limit, keep=keep, time_limit=time_limit, seed=seed
    )


@dataclass(frozen=True)
class Solved:
    """A tile set's arrangements: the engine's answer and the tile ids per cell."""

    tileset: TileSet
    encoding: Encoding
    result: EdgeSearchResult

    def grids(self) -> list[list[list[str]]]:
        """Each kept arrangement as rows of tile ids (row 0 = north)."""
        return [self.ids(arrangement) for arrangement in self.result.solutions]

    def ids(self, arrangement: Arrangement) -> list[list[str]]:
        return [[self.tileset.tiles[p.piece].id for p in row] for row in arrangement]


def solve_tileset(
    tileset: TileSet,
    *,
    engine: str = "auto",
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    rotations: bool | None = None,
) -> Solved:
    """Arrange a tile set (``rotations`` overrides the set's own N2 setting)."""
    if rotations is not None and rotations != tileset.rotations:
        tileset = replace(tileset, rotations=rotations)
    encoding = edge_problem(tileset)
    result = run_engine(
        encoding.problem,
        engine,
        count_limit=count_limit,
        keep=keep,
        time_limit=time_limit,
        seed=seed,
    )
    return Solved(tileset, encoding, result)
