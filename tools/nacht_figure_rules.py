"""Tries uniform "figure rules" for the default Nacht der Sterne sky and reports why none gives
the seed's picture (docs/data.md, "The default Nacht der Sterne sky").

A game's picture draws each constellation as a simplified figure. A figure rule picks, for every
constellation alike, which of its chosen stars (``sky.json``, brightest first) make the figure:

* ``k brightest``: the k brightest chosen stars;
* ``Hp < m, at least n``: the chosen stars brighter than Hp m, topped up to the n brightest.

For each rule the viewport search of tools/build_nacht_sky.py (same projection, edge margin and
cutter) runs over :data:`GRID_WIDE` (and, for the rules that came closest, :data:`GRID_FINE`
around their best square) and counts the squares holding exactly 14 whole figures, Orion
and Cancer among them, under two readings of "shown":

* ``strict``: a figure with at least 2 stars inside is shown, so every such figure must be
  whole;
* ``whole only``: only whole figures are drawn; a figure the edge cuts is left out.

For those squares it prints the largest (Orion, Cancer) tile spans, how many give Orion 5 and
Cancer 2, and what the later checks (twin tiles, ``verify``) say of them.

Run: ``python tools/nacht_figure_rules.py`` (about 15 minutes; deterministic).

This is the record of a search that failed: with figures drawn from the *chosen* stars (at most
8 per constellation) no square has the seed's picture. The shipped sky draws the *picture
stars* instead (Hp <= 4.5, no maximum; tools/build_nacht_sky.py), and there one does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from asterion.models.nacht_cut import chart_from_data, cut
from asterion.models.sky import SkyConstellation, SkyStar, default_sky
from asterion.solver.nacht_verify import verify
from build_nacht_sky import (
    EDGE_MARGIN,
    GRID,
    SPANS,
    WHOLE,
    Candidate,
    chart_data,
    has_twins,
    project,
    spans,
    unit_vectors,
)

VIEWPORT = (0.0, 0.0, float(GRID), float(GRID))
MIN_SHOWN = 2
"""The strict reading: a figure with this many stars inside is shown (so must be whole)."""


@dataclass(frozen=True)
class FigureRule:
    """A figure: the chosen stars brighter than Hp ``cut`` (all of them when None), at least the
    ``least`` brightest, at most the ``most`` brightest."""

    cut: float | None
    least: int
    most: int = 8

    def stars(self, chosen: tuple[SkyStar, ...]) -> tuple[SkyStar, ...]:
        bright = len(chosen) if self.cut is None else sum(s.mag < self.cut for s in chosen)
        return chosen[: min(max(bright, self.least), self.most)]

    def describe(self) -> str:
        if self.cut is None:
            return f"{self.most} brightest"
        return f"Hp < {self.cut:g}, at least {self.least}"


RULES = (
    FigureRule(None, 8, 8),
    *(FigureRule(None, k, k) for k in (3, 4, 5, 6)),
    *(FigureRule(m, 2) for m in (2.0, 2.5, 3.0)),
    *(FigureRule(m, 3) for m in (2.5, 3.0, 3.5)),
)


@dataclass(frozen=True)
class Grid:
    """The viewports tried: centres (RA, Dec), turns and sides, in degrees."""

    ra: np.ndarray
    dec: np.ndarray
    angle: np.ndarray
    side: np.ndarray


GRID_WIDE = Grid(
    np.arange(80.0, 150.01, 2.5),
    np.arange(-30.0, 35.01, 2.5),
    np.arange(-45.0, 45.01, 5.0),
    np.arange(70.0, 140.01, 2.5),
)
GRID_FINE = Grid(
    np.arange(119.0, 126.01, 0.5),
    np.arange(-6.0, 1.01, 0.5),
    np.arange(-42.0, -28.5, 1.0),
    np.arange(120.0, 136.01, 0.5),
)
"""Around the only wide-grid square with Orion on 5 tiles and Cancer on 2."""
FINE_RULES = (FigureRule(2.0, 2), FigureRule(2.5, 2))


@dataclass
class RuleReport:
    """What the grid gave for one rule and one reading of "shown"."""

    squares: int = 0
    """Squares with exactly 14 whole figures, Orion and Cancer among them."""
    spans: Counter[tuple[int, ...]] = field(default_factory=Counter)
    """(Orion tiles, Cancer tiles) over those squares."""
    seed_spans: list[tuple[Candidate, list[int]]] = field(default_factory=list)
    """Those with Orion on 5 tiles and Cancer on 2, and their figures."""


def figures(rule: FigureRule) -> tuple[SkyConstellation, ...]:
    return tuple(replace(c, stars=rule.stars(c.stars)) for c in default_sky().iau)


def star_radii(plane: np.ndarray) -> np.ndarray:
    """Each star's distance from the centre in the square's metric (inf where not projected)."""
    radii = np.max(np.abs(plane), axis=1)
    return np.where(np.isnan(radii), np.inf, radii)


def per_figure(radii: np.ndarray, owner: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Per figure: the largest star radius (whole when inside) and the MIN_SHOWN-th smallest
    (shown when inside)."""
    largest = np.full(count, np.inf)
    shown_at = np.full(count, np.inf)
    for k in range(count):
        mine = np.sort(radii[owner == k])
        largest[k] = mine[-1]
        if len(mine) >= MIN_SHOWN:
            shown_at[k] = mine[MIN_SHOWN - 1]
    return largest, shown_at


def seed_span_counts(
    candidate: Candidate, cons: tuple[SkyConstellation, ...], needed: list[int]
) -> tuple[int, ...]:
    """The tiles Orion and Cancer span in the cut of this square."""
    chart = chart_from_data(chart_data(candidate, cons, needed), "<search>")
    found = spans(cut(chart, GRID, GRID, VIEWPORT))
    return tuple(found.get(cons[k].abbr, 0) for k in needed)


def search(rule: FigureRule, strict: bool, grid: Grid) -> RuleReport:
    cons = figures(rule)
    vectors, owner = unit_vectors(cons)
    index = {c.abbr: k for k, c in enumerate(cons)}
    needed = [index[abbr] for abbr in SPANS]
    limits = grid.side * (0.5 - EDGE_MARGIN / GRID)  # as build_nacht_sky.inside
    report = RuleReport()
    for ra in grid.ra:
        for dec in grid.dec:
            for angle in grid.angle:
                plane = project(vectors, float(ra), float(dec), float(angle))
                largest, shown_at = per_figure(star_radii(plane), owner, len(cons))
                whole = largest[None, :] < limits[:, None]
                shown = shown_at[None, :] < limits[:, None]
                good = (whole.sum(axis=1) == WHOLE) & whole[:, needed].all(axis=1)
                if strict:
                    good &= shown.sum(axis=1) == WHOLE
                for j in np.flatnonzero(good):
                    candidate = Candidate(float(ra), float(dec), float(grid.side[j]), float(angle))
                    counts = seed_span_counts(candidate, cons, needed)
                    report.squares += 1
                    report.spans[counts] += 1
                    if counts == tuple(SPANS.values()):
                        report.seed_spans.append(
                            (candidate, [int(k) for k in np.flatnonzero(whole[j])])
                        )
    return report


def later_checks(rule: FigureRule, found: Sequence[tuple[Candidate, list[int]]]) -> Counter[str]:
    """Twin tiles, then verify (consistent and unique), for the squares with the seed's spans."""
    cons = figures(rule)
    verdicts = Counter[str]()
    for candidate, shown in found:
        chart = chart_from_data(chart_data(candidate, cons, shown), "<search>")
        tileset = cut(chart, GRID, GRID, VIEWPORT)
        if has_twins(tileset):
            verdicts["twin tiles"] += 1
            continue
        tileset = replace(tileset, expected_constellations=WHOLE)
        report = verify(tileset, count_limit=2, time_limit=60)
        verdicts["consistent, unique" if report.consistent else "verify fails"] += 1
    return verdicts


def print_rule(rule: FigureRule, grid: Grid, list_squares: bool) -> None:
    """One line per reading of "shown"; the squares with the seed's spans below it."""
    for strict in (True, False):
        report = search(rule, strict, grid)
        top = sorted(report.spans.items(), reverse=True)[:3]
        spans_text = ", ".join(f"Ori {o} Cnc {c}: {n}" for (o, c), n in top)
        verdicts = later_checks(rule, report.seed_spans)
        reading = "strict" if strict else "whole only"
        print(
            f"{rule.describe():>22} | {reading:>10} | {report.squares:5d} squares with 14 "
            f"whole | largest spans: {spans_text or '-'} | Ori 5 Cnc 2: "
            f"{len(report.seed_spans)} {dict(verdicts) or ''}",
            flush=True,
        )
        if list_squares:
            for candidate, _ in report.seed_spans:
                print(f"{'':>25}{candidate.describe()}")


def main() -> None:
    print("wide grid")
    for rule in RULES:
        print_rule(rule, GRID_WIDE, list_squares=True)
    print("fine grid")
    for rule in FINE_RULES:
        print_rule(rule, GRID_FINE, list_squares=False)


if __name__ == "__main__":
    main()
