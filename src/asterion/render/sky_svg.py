"""SVG pictures of the real sky: one constellation's stars (:func:`constellation_svg`) and the
Aster card sheet, each card's pattern on a small board beside the star figure it came from
(:func:`card_sheet_svg`).

Stars are drawn from ``asterion.models.sky`` by their public fields only: the gnomonic plane
(``x`` west, so east is on the left as on a star map), magnitudes as disc sizes, the figure's
lines (the minimum spanning tree, docs/data.md). Sizes and a role-keyed colour table on top,
CSS classes, keyword-only options; the same input gives the same bytes.

>>> from asterion.models.sky import default_sky
>>> svg = constellation_svg(default_sky()["Ori"])
>>> svg.startswith("<svg") and svg.count('class="star"')
8
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from asterion.errors import InputError
from asterion.models.aster_board import Board, Vector
from asterion.models.aster_cards import Card
from asterion.models.sky import PlanePoint, Sky, SkyConstellation, spanning_lines

# -- sizes (pixels) -------------------------------------------------------------------------

DEFAULT_SIZE = 480
"""Width of a constellation picture."""
PAD = 0.12
"""Space around a star figure, as a fraction of its panel."""
BRIGHT_RADIUS = 0.032
FAINT_RADIUS = 0.009
"""Disc radii (fractions of the panel) of a magnitude -1 and a magnitude 5 star."""
LABEL_SIZE = 0.032
TITLE_SIZE = 0.045

CELL = 200
"""A card sheet panel (board or figure) is a CELL-pixel square."""
CELL_GAP = 14
CAPTION = 40
SHEET_COLUMNS = 3
"""Cards per row of the sheet (each card is two panels)."""
BOARD_PAD = 0.08
BOARD_STAR = 0.045

DEFAULT_COLORS: dict[str, str] = {
    "background": "#070b1c",
    "panel": "#111a38",
    "line": "#8fa3dd",
    "star": "#fff6d8",
    "label": "#aab8e0",
    "title": "#f1f4ff",
    "ring": "#3c4a7a",
    "point": "#56659a",
    "pattern": "#ffd23f",
}
"""Colors by role. Override any of them with ``colors=``."""

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def _style(c: Mapping[str, str]) -> str:
    return f"""
.background {{ fill: {c["background"]}; }}
.panel {{ fill: {c["panel"]}; }}
.figure {{ fill: none; stroke: {c["line"]}; stroke-width: 1.6; stroke-linecap: round; }}
.star {{ fill: {c["star"]}; }}
.label {{ fill: {c["label"]}; font-family: sans-serif; }}
.title {{ fill: {c["title"]}; font-family: sans-serif; font-weight: bold; }}
.caption {{ fill: {c["title"]}; font-family: sans-serif; }}
.edge {{ fill: none; stroke: {c["ring"]}; stroke-width: 1.4; }}
.point {{ fill: {c["point"]}; }}
.pattern {{ fill: {c["pattern"]}; }}
.pattern-line {{ fill: none; stroke: {c["pattern"]}; stroke-width: 2; stroke-opacity: 0.6; }}
"""


# -- one constellation ------------------------------------------------------------------------


def constellation_svg(
    constellation: SkyConstellation,
    *,
    title: str | None = None,
    labels: bool = True,
    colors: Mapping[str, str] | None = None,
    size: int = DEFAULT_SIZE,
) -> str:
    """A standalone SVG document: the constellation's chosen stars and its figure's lines.

    Parameters
    ----------
    constellation:
        From :func:`asterion.models.sky.default_sky`.
    title:
        A heading (default: ``"Ori · Orion"``).
    labels:
        Whether to print each star's name (or ``HIP n``) beside it.
    colors:
        Overrides of :data:`DEFAULT_COLORS`, by role.
    size:
        Width in pixels.

    :raises InputError: if ``size`` is not positive.
    """
    if size <= 0:
        raise InputError(f"size must be a positive number of pixels, not {size}", field="size")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    band = 2.2 * TITLE_SIZE * size
    svg = _document(size, size + band, palette)
    _rect(svg, "background", 0, 0, size, size + band)
    heading = title if title is not None else f"{constellation.abbr} · {constellation.name}"
    _text(svg, "title", heading, size / 2, 1.5 * TITLE_SIZE * size, TITLE_SIZE * size)
    _figure(svg, constellation, 0, band, size, labels=labels)
    return _finish(svg)


# -- the card sheet ---------------------------------------------------------------------------


def card_sheet_svg(
    cards: Sequence[Card],
    sky: Sky,
    board: Board,
    *,
    title: str | None = None,
    columns: int = SHEET_COLUMNS,
    colors: Mapping[str, str] | None = None,
) -> str:
    """A standalone SVG document: per card with a pattern, the pattern on a small board and,
    beside it, the real star figure it was snapped from (when ``sky`` has the card's
    abbreviation). Star ``i`` of the pattern is star ``i`` of the figure, so the pattern's
    lines are the figure's. Cards without a pattern (Big, Bang) are left out.

    :raises InputError: if ``columns`` is not positive or no card has a pattern.
    """
    if columns <= 0:
        raise InputError(f"columns must be a positive number, not {columns}", field="columns")
    drawn = [card for card in cards if card.pattern]
    if not drawn:
        raise InputError("no card with a pattern to draw")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    card_width = 2 * CELL + CELL_GAP
    used = min(columns, len(drawn))
    rows = -(-len(drawn) // used)
    band = 60.0 if title else 0.0
    width = used * card_width + (used + 1) * CELL_GAP * 2
    height = band + rows * (CELL + CAPTION) + (rows + 1) * CELL_GAP * 2
    svg = _document(width, height, palette)
    _rect(svg, "background", 0, 0, width, height)
    if title:
        _text(svg, "title", title, width / 2, 40, 28)
    for k, card in enumerate(drawn):
        row, column = divmod(k, used)
        x = 2 * CELL_GAP + column * (card_width + 2 * CELL_GAP)
        y = band + 2 * CELL_GAP + row * (CELL + CAPTION + 2 * CELL_GAP)
        caption = f"{card.abbr} · {card.name} · {card.deck.value} · {card.points} pts"
        _text(svg, "caption", caption, x + card_width / 2, y + 24, 17)
        figure = sky.by_abbr.get(card.abbr)
        same = figure is not None and len(figure.stars) == len(card.pattern)
        lines = figure.figure_lines() if figure is not None and same else _pattern_lines(card)
        _board_panel(svg, board, card.pattern, lines, x, y + CAPTION)
        if figure is not None:
            _figure(svg, figure, x + CELL + CELL_GAP, y + CAPTION, CELL, labels=False)
    return _finish(svg)


def _pattern_lines(card: Card) -> tuple[tuple[int, int], ...]:
    return spanning_lines([(float(x), float(y)) for x, y in card.pattern])


# -- panels -----------------------------------------------------------------------------------


def _figure(
    svg: ET.Element,
    constellation: SkyConstellation,
    left: float,
    top: float,
    side: float,
    *,
    labels: bool,
) -> None:
    """The star figure fitted into a ``side`` square at (left, top), north up, west right."""
    _rect(svg, "panel", left, top, side, side)
    plane = constellation.plane()
    to_panel = _fit(plane, left, top, side)
    spots = [to_panel(p) for p in plane]
    for a, b in constellation.figure_lines():
        _line(svg, "figure", spots[a], spots[b])
    for star, (x, y) in zip(constellation.stars, spots, strict=True):
        ET.SubElement(svg, "circle", _circle("star", x, y, _radius(star.mag) * side))
        if labels:
            text = f"{star.label} {star.mag:.1f}"
            _text(svg, "label", text, x + 0.03 * side, y - 0.02 * side, LABEL_SIZE * side, "start")


def _board_panel(
    svg: ET.Element,
    board: Board,
    pattern: Sequence[Vector],
    lines: Sequence[tuple[int, int]],
    left: float,
    top: float,
) -> None:
    """The board (rings and spokes) in a CELL square with the pattern's stars and lines."""
    _rect(svg, "panel", left, top, CELL, CELL)
    step = CELL * (1 - 2 * BOARD_PAD) / (2 * board.extent)

    def at(xy: Vector) -> tuple[float, float]:
        return (left + CELL / 2 + xy[0] * step, top + CELL / 2 - xy[1] * step)

    for a, b in sorted(board.graph.edges()):
        _line(svg, "edge", at(board.coords[a]), at(board.coords[b]))
    for name in board.points:
        x, y = at(board.coords[name])
        ET.SubElement(svg, "circle", _circle("point", x, y, 0.012 * CELL))
    for a, b in lines:
        _line(svg, "pattern-line", at(pattern[a]), at(pattern[b]))
    for xy in pattern:
        x, y = at(xy)
        ET.SubElement(svg, "circle", _circle("pattern", x, y, BOARD_STAR * CELL))


# -- helpers ----------------------------------------------------------------------------------


def _fit(plane: Sequence[PlanePoint], left: float, top: float, side: float) -> _PanelMap:
    xs, ys = [p[0] for p in plane], [p[1] for p in plane]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    scale = side * (1 - 2 * PAD) / span
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return _PanelMap(left + side / 2, top + side / 2, cx, cy, scale)


class _PanelMap:
    """Plane (x west, y north) to panel pixels (x right, y down)."""

    def __init__(self, px: float, py: float, cx: float, cy: float, scale: float) -> None:
        self.px, self.py, self.cx, self.cy, self.scale = px, py, cx, cy, scale

    def __call__(self, point: PlanePoint) -> tuple[float, float]:
        return (
            self.px + (point[0] - self.cx) * self.scale,
            self.py - (point[1] - self.cy) * self.scale,
        )


def _radius(mag: float) -> float:
    """Disc radius (fraction of the panel): linear in magnitude from -1 (bright) to 5."""
    t = min(max((mag + 1.0) / 6.0, 0.0), 1.0)
    return BRIGHT_RADIUS + t * (FAINT_RADIUS - BRIGHT_RADIUS)


def _document(width: float, height: float, palette: Mapping[str, str]) -> ET.Element:
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "version": "1.1",
            "width": _num(width),
            "height": _num(height),
            "viewBox": f"0 0 {_num(width)} {_num(height)}",
        },
    )
    ET.SubElement(svg, "style").text = _style(palette)
    return svg


def _finish(svg: ET.Element) -> str:
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


def _rect(svg: ET.Element, cls: str, x: float, y: float, w: float, h: float) -> None:
    attributes = {"class": cls, "x": _num(x), "y": _num(y), "width": _num(w), "height": _num(h)}
    ET.SubElement(svg, "rect", attributes)


def _line(svg: ET.Element, cls: str, a: tuple[float, float], b: tuple[float, float]) -> None:
    ET.SubElement(
        svg,
        "line",
        {"class": cls, "x1": _num(a[0]), "y1": _num(a[1]), "x2": _num(b[0]), "y2": _num(b[1])},
    )


def _text(
    svg: ET.Element,
    cls: str,
    text: str,
    x: float,
    y: float,
    font_size: float,
    anchor: str = "middle",
) -> None:
    element = ET.SubElement(
        svg,
        "text",
        {
            "class": cls,
            "x": _num(x),
            "y": _num(y),
            "font-size": _num(font_size),
            "text-anchor": anchor,
        },
    )
    element.text = text


def _circle(cls: str, x: float, y: float, r: float) -> dict[str, str]:
    return {"class": cls, "cx": _num(x), "cy": _num(y), "r": _num(r)}


def _num(value: float) -> str:
    """A short, stable decimal: ``12``, ``12.5``, ``-3.25``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
