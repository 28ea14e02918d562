"""Arranging tile sets: the engines behind ``asterion nacht solve`` and ``verify``.

Three exact engines answer the same question (models/edges.py conventions):

- ``propagate`` (:mod:`asterion.solver.edge_propagate`): forward checking in plain Python,
  instant on designed sets and nothing to load, but lost on few colors;
- ``cp-sat`` (:mod:`asterion.solver.edge_cpsat`): strong on designed sets, where fragments
  make many distinct colors and propagation settles most cells at once;
- ``search`` (:mod:`asterion.solver.edge_search`): a backtracking search of our own, strong on
  the Eternity II family, where few colors leave CP-SAT wandering (issue 4's measurements).

``auto`` picks per instance by how many pieces share a color: when a typical inner side color
is shared by few pieces, ``propagate`` within a node budget, then CP-SAT for what the budget
leaves open; when many, the search, after ``propagate`` within a smaller budget on small
puzzles (settled there without loading the search's compiled loops). Two kinds of crowded
set go to CP-SAT instead (after ``propagate`` on small ones): a set with near colors, which
the search does not read, and a cut sky whose tiles are mostly alike (blank), where CP-SAT
places alike pieces as kinds and the search wanders.
"""

from __future__ import annotations

import importlib.util
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypedDict, Unpack

from asterion.errors import InputError
from asterion.models.edges import (
    BORDER,
    Arrangement,
    EdgeProblem,
    Placement,
    alike_pieces,
    check_arrangement,
)
from asterion.models.nacht import Encoding, TileSet, edge_problem, misfits
from asterion.solver.edge_result import EdgeSearchResult, Progress
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status

ENGINES = ("auto", "propagate", "cp-sat", "search")
CROWDED = 6.0
"""``auto`` uses the search when inner sides per distinct inner color exceed this."""
PROPAGATE_NODES = 20_000
"""``auto`` gives ``propagate`` this many nodes before handing a designed set to CP-SAT
(the shipped sky needs under a hundred; a count, not a clock, so the choice is the same on
every machine)."""
PROPAGATE_FIRST_NODES = 5_000
"""``auto`` gives ``propagate`` this many nodes before handing a crowded set of at most
:data:`PROPAGATE_FIRST_PIECES` pieces to the search. Loading the search (numba and its
cached loops) took some 0.7 s of the 1.3-1.4 s that ``asterion nacht solve`` took on such a
puzzle; in these nodes (some 0.05 s) ``propagate`` settles every question on 4x4 2/3 puzzles
and most first arrangements and uniqueness proofs on 5x5 3/4 (benchmarks, twenty-second
round)."""
ALIKE = 0.5
"""``auto`` leaves the search out of a crowded set when more than this share of its pieces
are alike (:func:`alike_share`): 0.57-0.84 on cut skies from 15x15 up or with wide blank
margins, where the search was undecided at 10 s and CP-SAT answers in 0.7-8 s; at most 0.38
on generated puzzles of the search's kind (4x4 2/3), 0.19 from 6x6 up (benchmarks,
twenty-seventh round)."""
PROPAGATE_FIRST_PIECES = 25
"""Larger crowded sets go straight to the search: ``propagate`` settles few of them in a
small budget (none of 6x6 3/5 seeds 0-3), and 5,000 nodes cost more as the grid grows (0.11
s on a 6x6 to 8x8, 0.15 s on a 10x10, 0.56 s on a 16x16)."""

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
    if problem.near is not None and engine == "search":
        raise InputError(
            "the search engine matches sides by color alone, and this set's fragments chain "
            "within the tolerance (N1); use --engine auto, propagate or cp-sat",
            field="--engine",
        )
    if engine != "auto":
        return engine
    crowded = search_available() and crowding(problem) > CROWDED
    small = len(problem.pieces) <= PROPAGATE_FIRST_PIECES
    # The search reads no near colors, and wanders in a cut sky of alike blank tiles, which
    # CP-SAT places as kinds.
    if crowded and problem.near is None and alike_share(problem) <= ALIKE:
        return "propagate+search" if small else "search"
    if crowded and not small:
        return "cp-sat"  # (propagate's budget settles nothing there: some 2 s on a 16 x 16)
    return "propagate+cp-sat"


def alike_share(problem: EdgeProblem) -> float:
    """The share of pieces alike some lower-numbered one (models/edges.py, kinds)."""
    return 1 - len(alike_pieces(problem)) / max(len(problem.pieces), 1)


def run_engine(
    problem: EdgeProblem,
    engine: str = "auto",
    *,
    count_limit: int = 1,
    keep: int = 2,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
    progress: Progress | None = None,
) -> EdgeSearchResult:
    """Arrange ``problem`` with the chosen engine; every kept arrangement is re-checked.
    ``progress(done, total, stage)``: a long count's progress (the search engine's split)."""
    name = choose_engine(problem, engine)
    return _run(name, problem, _Ask(count_limit, keep, time_limit, seed, progress))


@dataclass(frozen=True)
class _Ask:
    """What :func:`run_engine` was asked, passed on to the engines it runs in turn."""

    count_limit: int
    keep: int
    time_limit: float
    seed: int
    progress: Progress | None

    def within(self, seconds: float) -> _Ask:
        return replace(self, time_limit=max(seconds, 0.01))


def _run(name: str, problem: EdgeProblem, ask: _Ask) -> EdgeSearchResult:
    """The engines ``name`` names (one, or ``propagate`` within a budget, then one)."""
    earlier: EdgeSearchResult | None = None
    if name.startswith("propagate"):
        from asterion.solver.edge_propagate import propagate_arrangements

        budgets = {"propagate+cp-sat": PROPAGATE_NODES, "propagate+search": PROPAGATE_FIRST_NODES}
        budget = budgets.get(name)
        started = time.perf_counter()
        earlier = propagate_arrangements(
            problem,
            count_limit=ask.count_limit,
            keep=ask.keep,
            time_limit=ask.time_limit,
            node_limit=budget,
        )
        settled = earlier.complete or earlier.status is Status.OPTIMAL
        if budget is None or settled:
            return earlier
        ask = ask.within(ask.time_limit - (time.perf_counter() - started))
    answer = _exact(name, problem, ask)
    return answer if earlier is None else most_found(answer, earlier)


def _exact(name: str, problem: EdgeProblem, ask: _Ask) -> EdgeSearchResult:
    """The exact engine that ends the choice ``name``: the search or CP-SAT."""
    if name.endswith("search"):
        from asterion.solver.edge_search import search_arrangements

        # Counting: the fastest way (by the frame where it applies). A count the row scan
        # settles within its first try (uniqueness proofs of the Nacht puzzles, which its
        # placements grade) is that try's whatever the variant (count_split).
        return search_arrangements(
            problem,
            count_limit=ask.count_limit,
            keep=ask.keep,
            time_limit=ask.time_limit,
            variant=None,
            progress=ask.progress,
        )
    from asterion.solver.edge_cpsat import cp_arrangements

    return cp_arrangements(
        problem,
        count_limit=ask.count_limit,
        keep=ask.keep,
        time_limit=ask.time_limit,
        seed=ask.seed,
    )


def most_found(answer: EdgeSearchResult, earlier: EdgeSearchResult) -> EdgeSearchResult:
    """``answer``, or, if the clock stopped it with fewer arrangements than ``earlier`` (the
    engine before it, stopped by its node budget) had found, those, as found in the time of
    both. Every arrangement found is re-checked, so each count is a lower bound: an answer of
    none (unknown) must not hide one found before."""
    unsettled = answer.status in (Status.FEASIBLE, Status.UNKNOWN)
    if not unsettled or answer.count >= earlier.count:
        return answer
    stopped = f"{answer.engine} then, stopped by the clock with {answer.count} found"
    return replace(
        earlier,
        status=Status.FEASIBLE,
        complete=False,
        nodes=earlier.nodes + answer.nodes,
        wall_time=earlier.wall_time + answer.wall_time,
        notes=(*earlier.notes, stopped),
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


class Limits(TypedDict, total=False):
    """What bounds an arrangement question (the keywords of :func:`run_engine`)."""

    count_limit: int
    keep: int
    time_limit: float
    seed: int
    progress: Progress | None


def solve_tileset(
    tileset: TileSet,
    *,
    engine: str = "auto",
    rotations: bool | None = None,
    **limits: Unpack[Limits],
) -> Solved:
    """Arrange a tile set (``rotations`` overrides the set's own N2 setting)."""
    if rotations is not None and rotations != tileset.rotations:
        tileset = replace(tileset, rotations=rotations)
    encoding = edge_problem(tileset)
    return Solved(tileset, encoding, arrange(tileset, encoding, engine, **limits))


def arrange(
    tileset: TileSet,
    encoding: Encoding,
    engine: str = "auto",
    *,
    border_fragments_fit: bool | None = None,
    **limits: Unpack[Limits],
) -> EdgeSearchResult:
    """The tile set's arrangements as rule 4 counts them (tiles that turn in place counted),
    each kept one re-checked against the tiles themselves (:func:`misfits`), not only
    against the colors the engine saw."""
    found = run_engine(encoding.problem, engine, **limits)
    count_limit, keep = limits.get("count_limit", 1), limits.get("keep", 2)
    result = with_turns_in_place(found, encoding, count_limit, keep)
    for arrangement in result.solutions:
        wrong = misfits(tileset, arrangement, border_fragments_fit=border_fragments_fit)
        if wrong:
            raise RuntimeError(
                f"{result.engine} reported an arrangement that breaks the rules (a bug): {wrong[0]}"
            )
    return result


def with_turns_in_place(
    result: EdgeSearchResult, encoding: Encoding, count_limit: int, keep: int
) -> EdgeSearchResult:
    """``result`` counted as rule 4 counts: each arrangement the engine found (of side
    colors) stands for one per choice of picture for each tile that can turn in place
    (:attr:`Encoding.turns_in_place`), up to the count limit; the kept arrangements are
    filled up with those turns."""
    choices = [(cell, turns) for cell, turns in enumerate(encoding.turns_in_place) if turns]
    if not choices or result.count == 0:
        return result
    factor = 1
    for _, turns in choices:
        factor *= len(turns) + 1
    count = min(result.count * factor, count_limit)
    solutions = list(result.solutions)
    for arrangement in result.solutions:
        for tile, turns in choices:
            for extra in turns:
                if len(solutions) < keep:
                    turned = _turned_in_place(arrangement, tile, extra)
                    if check_arrangement(encoding.problem, turned):  # re-checked, as every one
                        raise RuntimeError(f"tile {tile} turned in place does not fit (a bug)")
                    solutions.append(turned)
    reached = count >= count_limit
    return replace(
        result,
        status=Status.OPTIMAL if reached else result.status,
        count=count,
        solutions=tuple(solutions),
        notes=(*result.notes, f"x{factor}: tiles that turn in place show other pictures"),
    )


def _turned_in_place(arrangement: Arrangement, tile: int, turns: int) -> Arrangement:
    return tuple(
        tuple(Placement(p.piece, (p.turns + turns) % 4) if p.piece == tile else p for p in row)
        for row in arrangement
    )
