"""Akelarre balance charts as standalone SVG: grouped bars, one group per category (a
turn-order position, a metric), one bar per series (a payout table, a policy).

Reads only the numbers it is given; the same arguments give the same bytes.

>>> svg = bars_svg({"shipped": [0.3, 0.25, 0.25, 0.2]}, ["1", "2", "3", "4"], title="Wins")
>>> svg.startswith("<svg") and svg.count("<rect class=\\"bar") == 4
True
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from asterion.errors import InputError

WIDTH = 640
HEIGHT = 360
MARGIN_LEFT = 56
MARGIN_RIGHT = 20
MARGIN_TOP = 48
MARGIN_BOTTOM = 64
GROUP_GAP = 0.25
"""Share of each group's width left empty between groups."""
GRID_LINES = 4
COLORS = ("#4c6ef5", "#f08c00", "#2f9e44", "#c2255c", "#7048e8", "#1098ad")
STYLE = (
    "text{font-family:sans-serif;fill:#222}"
    ".title{font-size:16px;font-weight:bold}.label{font-size:11px}.legend{font-size:12px}"
    ".axis{stroke:#444;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}"
    ".backdrop{fill:#fff}"
)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def bars_svg(
    series: Mapping[str, Sequence[float]],
    categories: Sequence[str],
    *,
    title: str,
    y_label: str = "",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """Grouped bars: ``series[name][k]`` is the bar of ``name`` in category ``k``.

    :raises InputError: for no series, more series than colours, a series whose length is
        not the number of categories, or a negative value.
    """
    if not series or len(series) > len(COLORS):
        raise InputError(f"a chart takes 1 to {len(COLORS)} series", field="series")
    for name, values in series.items():
        if len(values) != len(categories):
            raise InputError(f"series {name!r} needs {len(categories)} values", field="series")
        if any(v < 0 for v in values):
            raise InputError(f"series {name!r} has a negative value", field="series")
    step = _nice(max(max(values) for values in series.values()) / GRID_LINES)
    top = step * GRID_LINES
    plot_w = width - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = height - MARGIN_TOP - MARGIN_BOTTOM
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
        },
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "style").text = STYLE
    ET.SubElement(svg, "rect", {"class": "backdrop", "width": str(width), "height": str(height)})
    _text(svg, "title", MARGIN_LEFT, 22, title)
    base = MARGIN_TOP + plot_h
    for k in range(GRID_LINES + 1):
        value = top * k / GRID_LINES
        y = base - plot_h * k / GRID_LINES
        ET.SubElement(svg, "line", _line("grid", MARGIN_LEFT, y, MARGIN_LEFT + plot_w, y))
        _text(svg, "label", MARGIN_LEFT - 6, y + 4, f"{value:.4g}", anchor="end")
    if y_label:
        _text(svg, "label", 14, MARGIN_TOP - 8, y_label)
    group_w = plot_w / max(1, len(categories))
    bar_w = group_w * (1 - GROUP_GAP) / len(series)
    for c, category in enumerate(categories):
        left = MARGIN_LEFT + c * group_w + group_w * GROUP_GAP / 2
        for s, values in enumerate(series.values()):
            bar_h = plot_h * values[c] / top
            ET.SubElement(
                svg,
                "rect",
                {
                    "class": f"bar series-{s}",
                    "x": _num(left + s * bar_w),
                    "y": _num(base - bar_h),
                    "width": _num(bar_w),
                    "height": _num(bar_h),
                    "fill": COLORS[s],
                },
            ).append(_tooltip(f"{category}: {values[c]:.4g}"))
        _text(
            svg, "label", left + group_w * (1 - GROUP_GAP) / 2, base + 16, category, anchor="middle"
        )
    ET.SubElement(svg, "line", _line("axis", MARGIN_LEFT, base, MARGIN_LEFT + plot_w, base))
    for s, name in enumerate(series):
        x = MARGIN_LEFT + s * 150
        y = height - 18
        ET.SubElement(
            svg,
            "rect",
            {"x": _num(x), "y": _num(y - 10), "width": "12", "height": "12", "fill": COLORS[s]},
        )
        _text(svg, "legend", x + 18, y, name)
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


def _nice(raw: float) -> float:
    """The smallest of 1, 2, 5 times a power of ten that is at least ``raw`` (1 for 0).

    >>> _nice(0.077), _nice(0.3), _nice(7)
    (0.1, 0.5, 10)
    """
    if raw <= 0:
        return 1
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-12):
            return round(factor * power, 12) if factor * power < 1 else int(factor * power)
    return 10 * power


def _tooltip(text: str) -> ET.Element:
    element = ET.Element("title")
    element.text = text
    return element


def _text(
    parent: ET.Element, cls: str, x: float, y: float, content: str, *, anchor: str = "start"
) -> None:
    element = ET.SubElement(
        parent, "text", {"class": cls, "x": _num(x), "y": _num(y), "text-anchor": anchor}
    )
    element.text = content


def _line(cls: str, x1: float, y1: float, x2: float, y2: float) -> dict[str, str]:
    return {"class": cls, "x1": _num(x1), "y1": _num(y1), "x2": _num(x2), "y2": _num(y2)}
