"""Is this tile set consistent? Every check of rules/nacht.md, as a report.

1. chamfer patterns a grid can have, and as many of each as the grid needs;
2. every fragment has a partner (no dangling line), and none leaves the sky (N3);
3. an arrangement exists;
4. it is unique (with rotations: up to turning the whole picture); else the count up to a
   limit and two differing arrangements;
5. in it, each constellation's lines form one figure; the constellations are the expected
   ones, each with its tile span;
6. the marker count equals the interior vertices.

Checks 3-5 run even when 1-2 found problems (border fragments are then allowed to fit), so a
designer sees every defect at once. A search stopped by its time limit leaves the answer
undecided (``consistent`` is None), never "inconsistent".
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import Any

from asterion.models.edges import Arrangement, Placement
from asterion.models.nacht import (
    CORNERS,
    SIDES,
    Fragment,
    Role,
    Tile,
    TileSet,
    chamfers_for,
    close,
    edge_problem,
    global_point,
    mirror,
    shape,
    turn_chamfers,
    turn_point,
    within,
)
from asterion.solver.edge_result import EdgeSearchResult
from asterion.solver.nacht_solve import arrange
from asterion.solver.result import DEFAULT_TIME_LIMIT, Finding, Status

DEFAULT_COUNT_LIMIT = 10
UNDECIDED = "undecided"


@dataclass(frozen=True)
class Span:
    """A constellation in the arrangement: the tiles it spans and in how many parts its
    lines fall."""

    abbr: str
    tiles: tuple[str, ...]
    parts: int


@dataclass(frozen=True)
class Report:
    consistent: bool | None
    solutions: int
    solutions_exact: bool
    problems: tuple[Finding, ...]
    constellations: tuple[Span, ...]
    arrangements: tuple[list[list[str]], ...]
    placements: tuple[Arrangement, ...]
    wall_time: float

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent,
            "solutions": self.solutions,
            "problems": [f.to_json() for f in self.problems],
            "constellations": [
                {"abbr": s.abbr, "tiles": len(s.tiles)} for s in self.constellations
            ],
        }


def verify(
    tileset: TileSet,
    *,
    count_limit: int = DEFAULT_COUNT_LIMIT,
    time_limit: float = DEFAULT_TIME_LIMIT,
    engine: str = "auto",
) -> Report:
    """Run every check; see the module docstring."""
    findings: list[Finding] = []
    findings += chamfer_findings(tileset)
    findings += duplicate_findings(tileset)
    findings += label_findings(tileset) if tileset.generic else fragment_findings(tileset)
    encoding = edge_problem(tileset, border_fragments_fit=True)
    result = arrange(
        tileset,
        encoding,
        engine,
        count_limit=max(count_limit, 2),
        keep=2,
        time_limit=time_limit,
        border_fragments_fit=True,
    )
    findings += arrangement_findings(tileset, result, count_limit)
    spans: tuple[Span, ...] = ()
    if result.solutions and not tileset.generic:
        spans = constellation_spans(tileset, result.solutions[0])
        findings += constellation_findings(tileset, spans)
    findings += marker_findings(tileset)
    if any(f.code != UNDECIDED for f in findings):
        consistent: bool | None = False
    else:
        consistent = None if findings else True
    return Report(
        consistent=consistent,
        solutions=result.count,
        solutions_exact=result.complete,
        problems=tuple(findings),
        constellations=spans,
        arrangements=tuple(_ids(tileset, a) for a in result.solutions),
        placements=result.solutions,
        wall_time=result.wall_time,
    )


def _ids(tileset: TileSet, arrangement: Arrangement) -> list[list[str]]:
    return [[tileset.tiles[p.piece].id for p in row] for row in arrangement]


def _expected_patterns(tileset: TileSet) -> Counter[frozenset[str]]:
    w, h = tileset.width, tileset.height
    return Counter(chamfers_for(w, h, r, c) for r in range(h) for c in range(w))


def chamfer_findings(tileset: TileSet) -> list[Finding]:
    """Check 1: every pattern one a grid has, and the counts the grid needs."""
    found = []
    for tile in tileset.tiles:
        if tile.role() is Role.INVALID:
            found.append(
                Finding(
                    "chamfer-pattern",
                    f"tile {tile.id}: chamfered corners {_corners(tile.chamfers)}: no cell of "
                    "a grid has that pattern (1 corner, 2 adjacent, or 4)",
                )
            )
    expected = _expected_patterns(tileset)
    actual = Counter(tile.chamfers for tile in tileset.tiles)
    if tileset.rotations:
        expected, actual = _up_to_turns(expected), _up_to_turns(actual)
    for kind in sorted(set(expected) | set(actual), key=sorted):
        if Role.INVALID is _role(kind):
            continue
        if expected[kind] != actual[kind]:
            found.append(
                Finding(
                    "chamfer-count",
                    f"{actual[kind]} tiles with chamfers {_describe(kind)}; a "
                    f"{tileset.width}x{tileset.height} grid needs {expected[kind]}",
                )
            )
    return found


def _role(pattern: frozenset[str]) -> Role:
    return Tile("", pattern).role()


def _up_to_turns(counts: Counter[frozenset[str]]) -> Counter[frozenset[str]]:
    """With rotations, count patterns up to a turn: key each by its least turned form."""
    merged: Counter[frozenset[str]] = Counter()
    for pattern, n in counts.items():
        merged[min((turn_chamfers(pattern, k) for k in range(4)), key=sorted)] += n
    return merged


def _corners(pattern: frozenset[str]) -> str:
    return ", ".join(c for c in CORNERS if c in pattern) or "none"


def _describe(pattern: frozenset[str]) -> str:
    return f"{_corners(pattern)} ({_role(pattern).value})"


def duplicate_findings(tileset: TileSet) -> list[Finding]:
    """Tiles alike (up to a turn with rotations on) can always swap places: one finding per
    group of alike tiles, naming them all (a cut sky's hundreds of blank tiles are one line,
    not one per pair)."""
    groups: dict[object, list[str]] = {}
    for tile in tileset.tiles:
        groups.setdefault(_content_key(tile, tileset.rotations), []).append(tile.id)
    return [
        Finding("duplicate-tile", _alike_message(ids)) for ids in groups.values() if len(ids) > 1
    ]


def _alike_message(ids: list[str]) -> str:
    if len(ids) == 2:
        return f"tiles {ids[0]} and {ids[1]} are alike, so they can swap places"
    named = ", ".join(ids[:-1])
    return f"tiles {named} and {ids[-1]} are alike ({len(ids)} tiles), so any two can swap places"


def _content_key(tile: Tile, rotations: bool) -> object:
    forms = []
    for k in range(4 if rotations else 1):
        turned = _turned_tile(tile, k)
        forms.append(
            (
                tuple(sorted(turned.chamfers)),
                tuple(
                    sorted(
                        (round(s.x, 3), round(s.y, 3), s.constellation or "") for s in turned.stars
                    )
                ),
                tuple(
                    sorted(
                        (*sorted((_r(seg.a), _r(seg.b))), seg.constellation)
                        for seg in turned.segments
                    )
                ),
                turned.edges,
            )
        )
    return min(forms, key=repr)


def _r(point: tuple[float, float]) -> tuple[float, float]:
    return (round(point[0], 3), round(point[1], 3))


def _turned_tile(tile: Tile, turns: int) -> Tile:
    if turns % 4 == 0:
        return tile
    edges = None
    if tile.edges is not None:
        k = turns % 4
        edges = tile.edges[-k:] + tile.edges[:-k]
    return replace(
        tile,
        chamfers=turn_chamfers(tile.chamfers, turns),
        stars=tuple(
            replace(s, x=turn_point((s.x, s.y), turns)[0], y=turn_point((s.x, s.y), turns)[1])
            for s in tile.stars
        ),
        segments=tuple(
            replace(s, a=turn_point(s.a, turns), b=turn_point(s.b, turns)) for s in tile.segments
        ),
        edges=edges,  # type: ignore[arg-type]
    )


def fragment_findings(tileset: TileSet) -> list[Finding]:
    """Check 2: each side's fragments continue on some other tile's side; none on the border."""
    sides = [(tile, side, tile.fragments(side)) for tile in tileset.tiles for side in SIDES]
    of_shape: dict[tuple[tuple[str, int], ...], list[tuple[Tile, str, tuple[Fragment, ...]]]] = {}
    for entry in sides:
        of_shape.setdefault(shape(entry[2]), []).append(entry)
    found = []
    for tile, side, signature in sides:
        if not signature:
            continue
        if side in tile.border_sides():
            if not tileset.allow_border_fragments:
                found.append(
                    Finding(
                        "border-fragment",
                        f"tile {tile.id} side {side}: a line of {_names(signature)} leaves the sky "
                        "(on the outer border)",
                    )
                )
            continue
        wanted = mirror(signature)
        partners = [
            (other, other_side)
            for other, other_side, theirs in of_shape.get(shape(wanted), [])
            if other is not tile
            and (tileset.rotations or other_side == _opposite(side))
            and close(theirs, wanted, tileset.tolerance)
        ]
        if not partners:
            found.append(
                Finding(
                    "dangling-fragment",
                    f"tile {tile.id} side {side}: the line of {_names(signature)} at "
                    f"{_offsets(signature)} continues on no other tile",
                )
            )
    return found


def label_findings(tileset: TileSet) -> list[Finding]:
    """Check 2 for a set given by side labels: each inner label goes on with the same label on
    another tile (tiles fixed: on the opposite side), and the sides of a label pair up (tiles
    fixed: as many facing north as south, east as west; turning: an even number)."""
    sides = [
        (tile, side, label)
        for tile in tileset.tiles
        for side, label in zip(SIDES, tile.edges or (), strict=True)
        if label != "0"
    ]
    found, lone = [], set()
    for tile, side, label in sides:
        if not any(
            other is not tile
            and theirs == label
            and (tileset.rotations or other_side == _opposite(side))
            for other, other_side, theirs in sides
        ):
            lone.add(label)
            found.append(
                Finding(
                    "dangling-fragment",
                    f"tile {tile.id} side {side}: label {label!r} continues on no other tile",
                )
            )
    on = Counter((label, side) for _, side, label in sides)
    for label in sorted({label for _, _, label in sides} - lone):
        total = sum(on[label, side] for side in SIDES)
        if tileset.rotations and total % 2:
            found.append(
                Finding(
                    "dangling-fragment",
                    f"label {label!r} is on {total} sides: one of them is left without a partner",
                )
            )
        for a, b in () if tileset.rotations else (("N", "S"), ("E", "W")):
            if on[label, a] != on[label, b]:
                found.append(
                    Finding(
                        "dangling-fragment",
                        f"label {label!r} is on {on[label, a]} {a} sides but {on[label, b]} "
                        f"{b} sides: some of them are left without a partner",
                    )
                )
    return found


def _opposite(side: str) -> str:
    return SIDES[(SIDES.index(side) + 2) % 4]


def _names(signature: tuple[tuple[float, str], ...]) -> str:
    return "/".join(dict.fromkeys(name for _, name in signature))


def _offsets(signature: tuple[tuple[float, str], ...]) -> str:
    return ", ".join(f"{t:.3f}" for t, _ in signature) + " (read clockwise)"


def arrangement_findings(
    tileset: TileSet, result: EdgeSearchResult, count_limit: int
) -> list[Finding]:
    """Checks 3 and 4: one arrangement, and only one."""
    if result.status is Status.INFEASIBLE:
        return [
            Finding(
                "no-arrangement",
                "the tiles cannot be laid so that every side fits and every tile sits "
                "where its chamfers say",
            )
        ]
    if result.count < 2:
        if result.complete:
            return []
        if result.count == 0:
            return [
                Finding(
                    UNDECIDED,
                    "no arrangement found within the time limit; existence is not decided",
                )
            ]
        return [
            Finding(UNDECIDED, "one arrangement found; uniqueness not proven within the time limit")
        ]
    first, second = result.solutions[0], result.solutions[1]
    # Exact only when the whole space was searched below the limit; a clock stop or the limit
    # reached leaves a lower bound.
    count = result.count if result.complete and result.count < count_limit else None
    how_many = f"{count}" if count is not None else f"at least {result.count}"
    up_to = " (counted up to turning the whole picture)" if tileset.rotations else ""
    return [
        Finding(
            "not-unique",
            f"{how_many} arrangements{up_to}; the first two differ at "
            + _differences(tileset, first, second),
        )
    ]


def _differences(tileset: TileSet, a: Arrangement, b: Arrangement) -> str:
    cells = []
    for r, (row_a, row_b) in enumerate(zip(a, b, strict=True)):
        for c, (pa, pb) in enumerate(zip(row_a, row_b, strict=True)):
            if pa != pb:
                cells.append(f"({r},{c}) {_label(tileset, pa)}/{_label(tileset, pb)}")
    shown = "; ".join(cells[:6])
    more = f"; {len(cells) - 6} more cells" if len(cells) > 6 else ""
    return f"{len(cells)} cells [row,col first/second]: {shown}{more}"


def _label(tileset: TileSet, placement: Placement) -> str:
    turns = f"+{placement.turns}" if placement.turns else ""
    return tileset.tiles[placement.piece].id + turns


def constellation_spans(tileset: TileSet, arrangement: Arrangement) -> tuple[Span, ...]:
    """Check 5's facts: per constellation, its tiles and the parts its lines fall into."""
    tiles: dict[str, list[str]] = defaultdict(list)
    parts: dict[str, _Parts] = defaultdict(_Parts)
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r, row in enumerate(arrangement):
        for c, placed in enumerate(row):
            tile = tileset.tiles[placed.piece]
            names = {s.constellation for s in tile.stars} | {s.constellation for s in tile.segments}
            for name in sorted(n for n in names if n):
                tiles[name].append(tile.id)
            for seg in tile.segments:
                ends = [
                    global_point(p, (r, c), placed.turns, tileset.height) for p in (seg.a, seg.b)
                ]
                a, b = (_node(points[seg.constellation], p, tileset.tolerance) for p in ends)
                parts[seg.constellation].join(a, b)
    order = [c.abbr for c in tileset.constellations]
    return tuple(
        Span(
            name,
            tuple(sorted(tiles[name])),
            parts[name].count() if name in parts else 0,
        )
        for name in sorted(tiles, key=lambda n: (order.index(n) if n in order else len(order), n))
    )


class _Parts:
    """The connected parts of a constellation's line ends, joined segment by segment.

    A union-find of a few lines rather than a networkx graph: this is the only graph the
    verifier needs, and loading networkx would take a third of the 0.5 s that
    ``asterion nacht verify`` is allowed end to end (issue 4; benchmarks/bench_startup.py).
    """

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def root(self, node: int) -> int:
        self.parent.setdefault(node, node)
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]  # halve the path as we go
            node = self.parent[node]
        return node

    def join(self, a: int, b: int) -> None:
        self.parent[self.root(a)] = self.root(b)

    def count(self) -> int:
        return sum(1 for node in self.parent if self.root(node) == node)


def _node(known: list[tuple[float, float]], point: tuple[float, float], tolerance: float) -> int:
    """The index of a known point within ``tolerance`` of ``point`` (N1, as sides fit), or a
    new one."""
    for i, (x, y) in enumerate(known):
        if within(x, point[0], tolerance) and within(y, point[1], tolerance):
            return i
    known.append(point)
    return len(known) - 1


def constellation_findings(tileset: TileSet, spans: tuple[Span, ...]) -> list[Finding]:
    found = []
    for span in spans:
        if span.parts > 1:
            found.append(
                Finding(
                    "constellation-split",
                    f"{span.abbr}: its lines fall into {span.parts} separate parts",
                )
            )
    present = {span.abbr for span in spans}
    for c in tileset.constellations:
        if c.abbr not in present:
            found.append(
                Finding(
                    "constellation-missing",
                    f"{c.abbr} is listed but has no star or line on any tile",
                )
            )
    expected = tileset.expected_constellations
    if expected is not None and expected != len(spans):
        found.append(
            Finding(
                "constellation-count",
                f"{len(spans)} constellations in the sky; {expected} expected",
            )
        )
    return found


def marker_findings(tileset: TileSet) -> list[Finding]:
    """Check 6: one marker per interior vertex."""
    if tileset.markers is None or tileset.markers == tileset.interior_vertices():
        return []
    return [
        Finding(
            "marker-count",
            f"{tileset.markers} markers; a {tileset.width}x{tileset.height} grid has "
            f"{tileset.interior_vertices()} interior vertices (holes)",
        )
    ]
