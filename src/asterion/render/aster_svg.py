"""SVG pictures of an Aster board: rings, spokes, stars, a highlighted placement, a move; and
of a plan, as a grid of small boards, one per step (:func:`plan_svg`).

The picture is drawn from the board's public queries only (``points``, ``coords``, the
``graph``'s edges and their ``kind``, ``generation_points``), like python-chess's
``chess/svg.py``: sizes and a role-keyed colour table on top, CSS classes in a ``<style>``
block, keyword-only options, and byte-identical output for the same input (no timestamps,
no randomness, everything drawn in board order).

Conventions: the drawing works in *user units*, :data:`UNIT` of them per lattice step, with
``y`` flipped so that north is at the top; ``size`` is the width in pixels of the whole
picture (the height follows from the board, plus a band for the title).

>>> from asterion.models.aster_board import Board
>>> from asterion.models.aster import Color, parse_color
>>> svg = board_svg(Board(rings=2), stars={"1NE": Color.RED}, title="Two rings")
>>> svg.startswith("<svg") and svg.count('class="star red"')
1
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from asterion.errors import InputError
from asterion.models.aster import Color, parse_color
from asterion.models.aster_board import Board, Point
from asterion.render.svg import SVG_NAMESPACE

# -- sizes (user units; UNIT per lattice step) --------------------------------------------------

UNIT = 100
"""User units per lattice step."""

MARGIN = 70
"""Space around ring 1, for halos and generation rings."""
LABEL_MARGIN = 120
"""Space around ring 1 when points are labelled."""

POINT_RADIUS = 7
GENERATION_RADIUS = 16
STAR_RADIUS = 25
HIGHLIGHT_RADIUS = 35
MISSING_RADIUS = 25
HALO_WIDTH = 92
"""Width of the soft outline around a highlighted placement (about a star and a half)."""

RING_WIDTH = 4.5
LINE_WIDTH = 3
FIGURE_WIDTH = 3.5
MOVE_WIDTH = 6
MOVE_BEND = 0.18
"""How far a move arrow bows sideways, as a fraction of its length (so it does not hide lines)."""

LABEL_SIZE = 21
LABEL_OFFSET = 40
"""Distance from a point to its label's anchor, clear of the highlight ring."""
TITLE_SIZE = 0.042
"""Title font size as a fraction of the picture's width (so it reads the same on every board)."""

DEFAULT_SIZE = 360

# Marks only plan frames draw.
PLAN_MOVE_WIDTH = 9
"""A move arrow's width in a plan frame: wider than alone, as frames are small."""
BURST_RAYS = 8
BURST_INNER = 42
BURST_OUTER = 66
BURST_WIDTH = 7
"""A generated star's burst: rays from ``BURST_INNER`` to ``BURST_OUTER`` around it."""
BURST_PARTING = math.radians(50)
"""Rays closer than this to a destroyed star's ghost are left out, so the ghost shows."""
DESTROYED_SHIFT = 40
"""How far a destroyed star's ghost is nudged aside when a new star stands on its point."""

# -- plan pictures (pixels, as fractions of the frame size) --------------------------------------

DEFAULT_COLUMNS = 4
DEFAULT_FRAME_SIZE = 220
PLAN_PADDING = 0.07
"""Space around the grid of frames."""
FRAME_GAP = 0.07
"""Space between two frames (beside and below a caption)."""
FRAME_ROUNDING = 0.035
CAPTION_BAND = 0.14
"""Height of the band under each frame that holds its caption."""
CAPTION_SIZE = 0.062
CAPTION_CHAR_WIDTH = 0.58
"""A caption character's width, in ems, to shrink captions too long for their frame."""
PLAN_TITLE_BAND = 0.16
PLAN_TITLE_SIZE = 0.085

DEFAULT_COLORS: dict[str, str] = {
    "sky center": "#1b2750",
    "sky edge": "#070b1c",
    "ring": "#b7c6f0",
    "line": "#6f80b3",
    "point": "#e4ebff",
    "generation": "#ffd98a",
    "halo": "#fff1b8",
    "figure": "#fff1b8",
    "highlight": "#fff6cf",
    "missing": "#fff1b8",
    "move": "#ffffff",
    "label": "#aab8e0",
    "title": "#f1f4ff",
    "burst": "#ffe7a3",
    "caption": "#c9d4f5",
    "backdrop": "#04060f",
    "goal": "#fff1b8",
    "star red": "#ff4f64",
    "star blue": "#40a6ff",
    "star green": "#3fe07f",
    "star yellow": "#ffd23f",
}
"""Colors by role; stars by ``"star <color>"``. Override any of them with ``colors=``."""

HALO_OPACITY = 0.17
FIGURE_OPACITY = 0.55
GHOST_OPACITY = 0.35
DESTROYED_OPACITY = 0.45


# Label directions: 45 degrees clockwise from the point's own direction, where no edge runs.
_LABEL_TURN = {
    "N": (0.72, 0.72),
    "NE": (1.0, 0.0),
    "E": (0.72, -0.72),
    "SE": (0.0, -1.0),
    "S": (-0.72, -0.72),
    "SW": (-1.0, 0.0),
    "W": (-0.72, 0.72),
    "NW": (0.0, 1.0),
}
_CENTER_LABEL = (0.38, -0.92)


def _style(colors: Mapping[str, str]) -> str:
    c = colors
    return f"""
.sky {{ fill: url(#asterion-sky); }}
.edge {{ fill: none; stroke-linecap: round; }}
.edge.ring {{ stroke: {c["ring"]}; stroke-width: {RING_WIDTH}; }}
.edge.line {{ stroke: {c["line"]}; stroke-width: {LINE_WIDTH}; }}
.point {{ fill: {c["point"]}; }}
.generation {{ fill: none; stroke: {c["generation"]}; stroke-width: 3; }}
.halo {{ fill: {c["halo"]}; stroke: {c["halo"]}; stroke-width: {HALO_WIDTH}; \
stroke-linejoin: round; stroke-linecap: round; }}
.halo-dot {{ fill: {c["halo"]}; }}
.figure {{ fill: none; stroke: {c["figure"]}; stroke-width: {FIGURE_WIDTH}; \
stroke-linecap: round; }}
.star {{ stroke: #ffffff; stroke-opacity: 0.75; stroke-width: 3; filter: url(#asterion-glow); }}
.ghost {{ stroke: none; }}
.missing {{ fill: none; stroke: {c["missing"]}; stroke-width: 4; stroke-dasharray: 8 6; }}
.highlight {{ fill: none; stroke: {c["highlight"]}; stroke-width: 4.5; }}
.move {{ fill: none; stroke: {c["move"]}; stroke-width: {MOVE_WIDTH}; stroke-linecap: round; }}
.arrowhead {{ fill: {c["move"]}; }}
.label {{ fill: {c["label"]}; font-family: sans-serif; font-size: {LABEL_SIZE}px; }}
.title {{ fill: {c["title"]}; font-family: sans-serif; font-weight: bold; }}
"""


def board_svg(
    board: Board,
    *,
    stars: Mapping[str, Color] | None = None,
    highlight: Iterable[str] = (),
    missing: Iterable[str] = (),
    moved: tuple[str, str] | None = None,
    title: str | None = None,
    labels: bool = False,
    colors: Mapping[str, str] | None = None,
    size: int = DEFAULT_SIZE,
) -> str:
    """A standalone SVG document picturing ``board`` and what stands on it.

    Parameters
    ----------
    board:
        The board; its rings and spokes are drawn from the graph's ``ring`` and ``line`` edges.
    stars:
        Stars by point (``{"2NE": Color.RED}``), drawn as filled circles in their colors.
    highlight:
        Points of a placement to point out: each is circled, and the placement (with
        ``missing``) sits on a soft halo joined by constellation lines.
    missing:
        Points of the placement that lack a star, drawn as dashed empty circles.
    moved:
        ``(origin, target)`` of a move, drawn as an arrow; the star at ``target`` (if any)
        leaves a faint ghost at ``origin``.
    title:
        A caption above the board.
    labels:
        Whether to print each point's name next to it.
    colors:
        Overrides of :data:`DEFAULT_COLORS`, by role.
    size:
        Width of the picture in pixels.

    Returns
    -------
    str
        The SVG document; the same arguments always give the same bytes.

    :raises InputError: if a point is not on the board or ``size`` is not positive.
    """
    stars = {point: parse_color(color) for point, color in (stars or {}).items()}
    highlighted = _known(board, highlight, "highlight")
    absent = _known(board, missing, "missing")
    _known(board, stars, "stars")
    if moved is not None:
        _known(board, moved, "moved")
    if size <= 0:
        raise InputError(f"size must be a positive number of pixels, not {size}", field="size")
    palette = {**DEFAULT_COLORS, **(colors or {})}

    # -- the frame ------------------------------------------------------------------------------
    half = board.extent * UNIT + (LABEL_MARGIN if labels else MARGIN)
    width = 2 * half
    title_size = TITLE_SIZE * width
    band = 2.0 * title_size if title else 0.0
    height = width + band
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "version": "1.1",
            "width": _num(size),
            "height": _num(size * height / width),
            "viewBox": f"{_num(-half)} {_num(-half - band)} {_num(width)} {_num(height)}",
        },
    )
    if title:
        ET.SubElement(svg, "title").text = title
    _defs(svg, palette)
    ET.SubElement(svg, "style").text = _style(palette)
    _sky(svg, -half, -half - band, width, height)

    # -- the board and its marks ------------------------------------------------------------------
    _draw_board(
        svg,
        board,
        palette,
        stars=stars,
        highlighted=highlighted,
        absent=absent,
        moved=moved,
        labels=labels,
    )

    # -- the title --------------------------------------------------------------------------------
    if title:
        text = ET.SubElement(
            svg,
            "text",
            {
                "class": "title",
                "x": "0",
                "y": _num(-half - band + 1.35 * title_size),
                "font-size": _num(title_size),
                "text-anchor": "middle",
            },
        )
        text.text = title

    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


# -- the plan picture -------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanFrame:
    """One small board of a plan picture: the stars as they stand, and what the step did.

    Parameters
    ----------
    stars:
        Stars by point after the step (before any step, for the first frame).
    caption:
        The line under the board (``"start"``, ``"turn 1 · move_line 2NE→2SW"``).
    moved:
        ``(origin, target)`` of the star the step moved, drawn as an arrow, with a faint
        ghost left at ``origin``.
    placed:
        The point where the step generated a star, drawn with a burst of rays.
    destroyed:
        Stars that left the board in the step, by point, in the colors they had: each is a
        faded, dashed ghost (nudged aside when a new star stands on its point).
    highlight:
        Points of a placement to point out (the target, in the last frame): circled on a halo.
    """

    stars: Mapping[str, Color] = field(hash=False)
    caption: str
    moved: tuple[str, str] | None = None
    placed: str | None = None
    destroyed: Mapping[str, Color] = field(default_factory=dict, hash=False)
    highlight: Iterable[str] = ()

    def __post_init__(self) -> None:
        # Own copies: a frame must not change when the caller's dict or iterator does.
        object.__setattr__(self, "stars", dict(self.stars))
        object.__setattr__(self, "destroyed", dict(self.destroyed))
        object.__setattr__(self, "highlight", tuple(self.highlight))


@dataclass(frozen=True)
class _Grid:
    """Where the frames of a plan picture go, in pixels.

    Frames fill rows of ``columns`` (fewer if there are fewer frames), left to right; each
    frame is a ``frame_size`` square with a caption band under it; a title band, if any, is
    on top.
    """

    columns: int
    rows: int
    frame_size: float
    title_band: float

    @classmethod
    def of(cls, count: int, *, columns: int, frame_size: float, titled: bool) -> _Grid:
        used = max(1, min(columns, count))
        rows = max(1, -(-count // used))
        band = PLAN_TITLE_BAND * frame_size if titled else 0.0
        return cls(used, rows, frame_size, band)

    @property
    def padding(self) -> float:
        return PLAN_PADDING * self.frame_size

    @property
    def gap(self) -> float:
        return FRAME_GAP * self.frame_size

    @property
    def caption_band(self) -> float:
        return CAPTION_BAND * self.frame_size

    @property
    def width(self) -> float:
        return 2 * self.padding + self.columns * self.frame_size + (self.columns - 1) * self.gap

    @property
    def height(self) -> float:
        cell = self.frame_size + self.caption_band
        return self.title_band + 2 * self.padding + self.rows * cell + (self.rows - 1) * self.gap

    def origin(self, index: int) -> tuple[float, float]:
        """The top-left corner of frame ``index``."""
        row, column = divmod(index, self.columns)
        x = self.padding + column * (self.frame_size + self.gap)
        y = self.title_band + self.padding + row * (self.frame_size + self.caption_band + self.gap)
        return (x, y)


def plan_svg(
    board: Board,
    frames: Sequence[PlanFrame],
    *,
    title: str | None = None,
    columns: int = DEFAULT_COLUMNS,
    frame_size: int = DEFAULT_FRAME_SIZE,
    colors: Mapping[str, str] | None = None,
) -> str:
    """A standalone SVG document picturing a plan as a grid of small boards, one per frame.

    Each frame is the board drawn as by :func:`board_svg` (same colors, same marks), scaled to
    ``frame_size`` pixels, with its caption under it; frames read left to right, then down.

    Parameters
    ----------
    board:
        The board every frame stands on.
    frames:
        The frames, in order; see :class:`PlanFrame` (and ``asterion.render.aster_plan`` to
        build them from a certified plan).
    title:
        A heading above the grid.
    columns:
        Frames per row (fewer if there are fewer frames).
    frame_size:
        Width and height of one board, in pixels.
    colors:
        Overrides of :data:`DEFAULT_COLORS`, by role.

    Returns
    -------
    str
        The SVG document; the same arguments always give the same bytes.

    :raises InputError: for no frames, a point not on the board, an unknown color, or
        ``columns`` or ``frame_size`` not positive.

    >>> from asterion.models.aster_board import Board
    >>> start = PlanFrame({"2NE": Color.RED}, "start")
    >>> step = PlanFrame({"1N": Color.RED}, "turn 1 · move_ring 2NE→1N", moved=("2NE", "1N"))
    >>> svg = plan_svg(Board(rings=2), [start, step], columns=2, frame_size=200)
    >>> svg.count('class="frame"'), svg.count('class="move"')
    (2, 1)
    """
    frames = list(frames)
    if not frames:
        raise InputError("a plan picture needs at least one frame", field="frames")
    if columns <= 0:
        raise InputError(f"columns must be a positive number, not {columns}", field="columns")
    if frame_size <= 0:
        raise InputError(
            f"frame_size must be a positive number of pixels, not {frame_size}",
            field="frame_size",
        )
    for i, frame in enumerate(frames):
        _check_frame(board, frame, f"frames[{i}]")
    palette = {**DEFAULT_COLORS, **(colors or {})}

    # -- the grid ---------------------------------------------------------------------------------
    grid = _Grid.of(len(frames), columns=columns, frame_size=frame_size, titled=bool(title))
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "version": "1.1",
            "width": _num(grid.width),
            "height": _num(grid.height),
            "viewBox": f"0 0 {_num(grid.width)} {_num(grid.height)}",
        },
    )
    if title:
        ET.SubElement(svg, "title").text = title
    _defs(svg, palette)
    ET.SubElement(svg, "style").text = _style(palette) + _plan_style(palette)
    ET.SubElement(
        svg,
        "rect",
        {
            "class": "backdrop",
            "x": "0",
            "y": "0",
            "width": _num(grid.width),
            "height": _num(grid.height),
        },
    )

    # -- one small board per frame, its caption under it ------------------------------------------
    half = board.extent * UNIT + MARGIN
    for i, frame in enumerate(frames):
        x, y = grid.origin(i)
        _plan_frame(svg, board, frame, palette, at=(x, y), size=frame_size, half=half)
        _caption(svg, frame.caption, center=x + frame_size / 2, top=y + frame_size, grid=grid)

    # -- the title --------------------------------------------------------------------------------
    if title:
        size = PLAN_TITLE_SIZE * frame_size
        text = ET.SubElement(
            svg,
            "text",
            {
                "class": "title",
                "x": _num(grid.width / 2),
                "y": _num(grid.padding + 0.62 * grid.title_band),
                "font-size": _num(size),
                "text-anchor": "middle",
            },
        )
        text.text = title

    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


# -- drawing one board ------------------------------------------------------------------------


def _sky(
    parent: ET.Element, x: float, y: float, width: float, height: float, rounding: float = 0
) -> None:
    """The night-sky background of one board."""
    attributes = {
        "class": "sky",
        "x": _num(x),
        "y": _num(y),
        "width": _num(width),
        "height": _num(height),
    }
    if rounding:
        attributes["rx"] = _num(rounding)
    ET.SubElement(parent, "rect", attributes)


def _draw_board(
    svg: ET.Element,
    board: Board,
    palette: Mapping[str, str],
    *,
    stars: Mapping[Point, Color],
    highlighted: set[Point],
    absent: set[Point],
    moved: tuple[Point, Point] | None,
    placed: Point | None = None,
    destroyed: Mapping[Point, Color] | None = None,
    labels: bool = False,
    move_width: float = MOVE_WIDTH,
) -> None:
    """Everything standing on the sky, in drawing order, in user units centered on ``C``.

    The points are assumed checked; ``placed`` (a generated star) and ``destroyed`` (stars
    that left the board) are the plan picture's marks, absent from :func:`board_svg`.
    """

    def xy(point: Point) -> tuple[float, float]:
        return _xy(board, point)

    placement = [p for p in board.points if p in highlighted or p in absent]

    # -- the placement's halo, under the board ---------------------------------------------------
    if placement:
        _halo(svg, [xy(p) for p in placement])

    # -- the board: spokes, then rings -----------------------------------------------------------
    for kind in ("line", "ring"):
        for a, b in _edges(board, kind):
            (x1, y1), (x2, y2) = xy(a), xy(b)
            ET.SubElement(
                svg,
                "line",
                {
                    "class": f"edge {kind}",
                    "x1": _num(x1),
                    "y1": _num(y1),
                    "x2": _num(x2),
                    "y2": _num(y2),
                },
            )

    # -- the constellation figure joining the placement ------------------------------------------
    if len(placement) > 1:
        group = ET.SubElement(svg, "g", {"class": "figure", "opacity": _num(FIGURE_OPACITY)})
        for (x1, y1), (x2, y2) in _spanning_tree([xy(p) for p in placement]):
            ET.SubElement(
                group, "line", {"x1": _num(x1), "y1": _num(y1), "x2": _num(x2), "y2": _num(y2)}
            )

    # -- points and generation points ------------------------------------------------------------
    generation = set(board.generation_points)
    for p in board.points:
        x, y = xy(p)
        ET.SubElement(svg, "circle", _circle("point", x, y, POINT_RADIUS))
        if p in generation:
            ET.SubElement(svg, "circle", _circle("generation", x, y, GENERATION_RADIUS))

    # -- the ghost a moved star leaves behind -----------------------------------------------------
    if moved is not None and moved[1] in stars:
        x, y = xy(moved[0])
        ghost = _circle("ghost", x, y, STAR_RADIUS)
        ghost["fill"] = palette[f"star {stars[moved[1]].value}"]
        ghost["opacity"] = _num(GHOST_OPACITY)
        ET.SubElement(svg, "circle", ghost)

    # -- the ghosts of destroyed stars, nudged aside where a new star stands ---------------------
    for p in board.points:
        if destroyed and p in destroyed:
            _destroyed_ghost(svg, board, p, destroyed[p], palette, beside=p in stars)

    # -- missing points, stars, highlights -------------------------------------------------------
    for p in board.points:
        if p in absent:
            x, y = xy(p)
            ET.SubElement(svg, "circle", _circle("missing", x, y, MISSING_RADIUS))
    for p in board.points:
        if p in stars:
            color = stars[p]
            x, y = xy(p)
            star = _circle(f"star {color.value}", x, y, STAR_RADIUS)
            star["fill"] = palette[f"star {color.value}"]
            ET.SubElement(svg, "circle", star)
    for p in board.points:
        if p in highlighted:
            x, y = xy(p)
            ET.SubElement(svg, "circle", _circle("highlight", x, y, HIGHLIGHT_RADIUS))

    # -- the burst around a generated star -------------------------------------------------------
    if placed is not None:
        # The rays part around the ghost of a star the new one destroyed.
        covered = destroyed is not None and placed in destroyed and placed in stars
        _burst(svg, xy(placed), avoid=_free_direction(board, placed) if covered else None)

    # -- the move arrow ---------------------------------------------------------------------------
    if moved is not None and moved[0] != moved[1]:
        _arrow(svg, xy(moved[0]), xy(moved[1]), move_width)

    # -- labels -----------------------------------------------------------------------------------
    if labels:
        for p in board.points:
            _label(svg, board, p, xy(p))


def _plan_style(colors: Mapping[str, str]) -> str:
    """The plan picture's additions to :func:`_style`."""
    c = colors
    return f""".backdrop {{ fill: {c["backdrop"]}; }}
.burst {{ fill: none; stroke: {c["burst"]}; stroke-width: {BURST_WIDTH}; stroke-linecap: round; }}
.destroyed .ghost {{ opacity: {DESTROYED_OPACITY}; }}
.destroyed .outline {{ fill: none; stroke-width: 4; stroke-dasharray: 7 6; opacity: 0.8; }}
.frame .move {{ stroke-width: {PLAN_MOVE_WIDTH}; }}
.caption {{ fill: {c["caption"]}; font-family: sans-serif; }}
.goal-frame {{ fill: none; stroke: {c["goal"]}; stroke-width: 2; stroke-opacity: 0.6; }}
"""


def _check_frame(board: Board, frame: PlanFrame, what: str) -> None:
    """Every point of ``frame`` is on the board and every color is known."""
    _known(board, frame.stars, f"{what}.stars")
    _known(board, frame.destroyed, f"{what}.destroyed")
    _known(board, frame.highlight, f"{what}.highlight")
    if frame.moved is not None:
        _known(board, frame.moved, f"{what}.moved")
    if frame.placed is not None:
        _known(board, [frame.placed], f"{what}.placed")
    for color in (*frame.stars.values(), *frame.destroyed.values()):
        try:
            parse_color(color)
        except InputError as error:
            raise InputError(error.problem, field=what) from None


def _plan_frame(
    svg: ET.Element,
    board: Board,
    frame: PlanFrame,
    palette: Mapping[str, str],
    *,
    at: tuple[float, float],
    size: float,
    half: float,
) -> None:
    """One frame: a nested ``<svg>`` viewport showing the board from ``-half`` to ``half``."""
    box = ET.SubElement(
        svg,
        "svg",
        {
            "class": "frame",
            "x": _num(at[0]),
            "y": _num(at[1]),
            "width": _num(size),
            "height": _num(size),
            "viewBox": f"{_num(-half)} {_num(-half)} {_num(2 * half)} {_num(2 * half)}",
        },
    )
    ET.SubElement(box, "title").text = frame.caption
    _sky(box, -half, -half, 2 * half, 2 * half, rounding=FRAME_ROUNDING * 2 * half)
    highlighted = set(frame.highlight)
    _draw_board(
        box,
        board,
        palette,
        stars={p: parse_color(c) for p, c in frame.stars.items()},
        highlighted=highlighted,
        absent=set(),
        moved=frame.moved,
        placed=frame.placed,
        destroyed={p: parse_color(c) for p, c in frame.destroyed.items()},
        move_width=PLAN_MOVE_WIDTH,
    )
    if highlighted:  # the frame that shows the goal gets a faint golden edge
        rounding = FRAME_ROUNDING * size
        ET.SubElement(
            svg,
            "rect",
            {
                "class": "goal-frame",
                "x": _num(at[0]),
                "y": _num(at[1]),
                "width": _num(size),
                "height": _num(size),
                "rx": _num(rounding),
            },
        )


def _caption(svg: ET.Element, caption: str, *, center: float, top: float, grid: _Grid) -> None:
    """The caption centered in the band under a frame; shrunk if it would be wider than the
    frame (by an estimate of its width: no font metrics, so the bytes do not depend on them)."""
    size = CAPTION_SIZE * grid.frame_size
    estimated = len(caption) * CAPTION_CHAR_WIDTH * size
    if estimated > 0.96 * grid.frame_size:
        size *= 0.96 * grid.frame_size / estimated
    text = ET.SubElement(
        svg,
        "text",
        {
            "class": "caption",
            "x": _num(center),
            "y": _num(top + 0.5 * grid.caption_band + 0.36 * size),
            "font-size": _num(size),
            "text-anchor": "middle",
        },
    )
    text.text = caption


def _burst(
    svg: ET.Element, at: tuple[float, float], *, avoid: tuple[float, float] | None = None
) -> None:
    """Rays around a newly generated star, every ``360 / BURST_RAYS`` degrees from north,
    but none within :data:`BURST_PARTING` of the direction ``avoid`` (a unit vector)."""
    group = ET.SubElement(svg, "g", {"class": "burst"})
    x, y = at
    for i in range(BURST_RAYS):
        angle = 2 * math.pi * i / BURST_RAYS
        dx, dy = math.sin(angle), -math.cos(angle)
        if avoid is not None and dx * avoid[0] + dy * avoid[1] > math.cos(BURST_PARTING):
            continue
        ET.SubElement(
            group,
            "line",
            {
                "x1": _num(x + dx * BURST_INNER),
                "y1": _num(y + dy * BURST_INNER),
                "x2": _num(x + dx * BURST_OUTER),
                "y2": _num(y + dy * BURST_OUTER),
            },
        )


def _destroyed_ghost(
    svg: ET.Element,
    board: Board,
    point: Point,
    color: Color,
    palette: Mapping[str, str],
    *,
    beside: bool,
) -> None:
    """A faded, dashed star where a star was destroyed; ``beside`` nudges it off its point
    (toward where no edge runs) so the star standing there now does not hide it."""
    x, y = _xy(board, point)
    if beside:
        dx, dy = _free_direction(board, point)
        x, y = x + dx * DESTROYED_SHIFT, y + dy * DESTROYED_SHIFT
    fill = palette[f"star {color.value}"]
    group = ET.SubElement(svg, "g", {"class": f"destroyed {color.value}"})
    ET.SubElement(group, "circle", {**_circle("ghost", x, y, STAR_RADIUS), "fill": fill})
    ET.SubElement(group, "circle", {**_circle("outline", x, y, STAR_RADIUS), "stroke": fill})


# -- helpers ------------------------------------------------------------------------------------


def _num(value: float) -> str:
    """A short, stable decimal: ``12``, ``12.5``, ``-3.25``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _xy(board: Board, point: Point) -> tuple[float, float]:
    """The point's place in user units, north up."""
    x, y = board.coords[point]
    return (x * UNIT, -y * UNIT)


def _known(board: Board, points: Iterable[str], what: str) -> set[str]:
    """The points as a set, after checking each is on the board (the first unknown is named)."""
    result = set(points)
    for p in sorted(result):
        try:
            board.parse(p)
        except InputError as error:
            raise InputError(error.problem, field=what) from None
    return result


def _edges(board: Board, kind: str) -> list[tuple[Point, Point]]:
    """The graph's edges of ``kind``, each ordered and listed in board order."""
    index = {p: i for i, p in enumerate(board.points)}
    edges = []
    for a, b, edge_kind in board.graph.edges(data="kind"):
        if edge_kind == kind:
            edges.append((a, b) if index[a] < index[b] else (b, a))
    return sorted(edges, key=lambda e: (index[e[0]], index[e[1]]))


def _circle(cls: str, x: float, y: float, r: float) -> dict[str, str]:
    return {"class": cls, "cx": _num(x), "cy": _num(y), "r": _num(r)}


def _defs(svg: ET.Element, palette: Mapping[str, str]) -> None:
    """The sky gradient, the star glow and the arrowhead."""
    defs = ET.SubElement(svg, "defs")
    sky = ET.SubElement(
        defs, "radialGradient", {"id": "asterion-sky", "cx": "50%", "cy": "50%", "r": "75%"}
    )
    ET.SubElement(sky, "stop", {"offset": "0", "stop-color": palette["sky center"]})
    ET.SubElement(sky, "stop", {"offset": "1", "stop-color": palette["sky edge"]})
    glow = ET.SubElement(
        defs,
        "filter",
        {"id": "asterion-glow", "x": "-100%", "y": "-100%", "width": "300%", "height": "300%"},
    )
    ET.SubElement(glow, "feGaussianBlur", {"in": "SourceGraphic", "stdDeviation": "7"})
    merge = ET.SubElement(glow, "feMerge")
    ET.SubElement(merge, "feMergeNode")
    ET.SubElement(merge, "feMergeNode", {"in": "SourceGraphic"})
    marker = ET.SubElement(
        defs,
        "marker",
        {
            "id": "asterion-arrow",
            "viewBox": "0 0 10 10",
            "refX": "3",
            "refY": "5",
            "markerWidth": "3.2",
            "markerHeight": "3.2",
            "orient": "auto",
        },
    )
    ET.SubElement(marker, "path", {"class": "arrowhead", "d": "M 0 0 L 10 5 L 0 10 z"})


def _halo(svg: ET.Element, points: Sequence[tuple[float, float]]) -> None:
    """A soft rounded outline around ``points``: their convex hull, stroked wide and round."""
    hull = _convex_hull(points)
    group = ET.SubElement(svg, "g", {"opacity": _num(HALO_OPACITY)})
    if len(hull) == 1:  # one point: a disc as wide as the outline would be
        x, y = hull[0]
        ET.SubElement(group, "circle", _circle("halo-dot", x, y, HALO_WIDTH / 2))
        return
    points_text = " ".join(f"{_num(x)},{_num(y)}" for x, y in hull)
    ET.SubElement(group, "polygon", {"class": "halo", "points": points_text})


def _convex_hull(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull (Andrew's monotone chain), counter-clockwise; collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _spanning_tree(
    points: Sequence[tuple[float, float]],
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The shortest tree joining ``points`` (Kruskal; ties broken by position): the figure a
    star chart would draw for the constellation."""
    pairs = sorted(
        (math.dist(points[i], points[j]), i, j)
        for i in range(len(points))
        for j in range(i + 1, len(points))
    )
    parent = list(range(len(points)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    tree = []
    for _, i, j in pairs:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[ri] = rj
            tree.append((points[i], points[j]))
    return tree


def _arrow(
    svg: ET.Element,
    start: tuple[float, float],
    end: tuple[float, float],
    width: float = MOVE_WIDTH,
) -> None:
    """A gently bowed arrow from ``start`` to ``end``, stopping short of both stars; ``width``
    is the stroke width the style gives it (the arrowhead grows with it)."""
    (x1, y1), (x2, y2) = start, end
    length = math.dist(start, end)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    # The control point sits to the left of travel, so the arrow does not hide the board's lines.
    mx, my = (x1 + x2) / 2 + uy * MOVE_BEND * length, (y1 + y2) / 2 - ux * MOVE_BEND * length
    gap_start = STAR_RADIUS + 10
    gap_end = STAR_RADIUS + 10 + 3 * width  # room for the arrowhead
    sx, sy = _toward((x1, y1), (mx, my), gap_start)
    ex, ey = _toward((x2, y2), (mx, my), gap_end)
    d = f"M {_num(sx)} {_num(sy)} Q {_num(mx)} {_num(my)} {_num(ex)} {_num(ey)}"
    ET.SubElement(svg, "path", {"class": "move", "d": d, "marker-end": "url(#asterion-arrow)"})


def _toward(
    origin: tuple[float, float], toward: tuple[float, float], distance: float
) -> tuple[float, float]:
    length = math.dist(origin, toward)
    if length == 0:
        return origin
    step = min(distance, length * 0.9) / length
    return (origin[0] + (toward[0] - origin[0]) * step, origin[1] + (toward[1] - origin[1]) * step)


def _free_direction(board: Board, point: Point) -> tuple[float, float]:
    """A unit vector (user units, ``y`` down) from ``point`` toward where no edge runs."""
    parsed = board.parse(point)
    dx, dy = _CENTER_LABEL if parsed is None else _LABEL_TURN[parsed[1].name]
    length = math.hypot(dx, dy)
    return (dx / length, -dy / length)


def _label(svg: ET.Element, board: Board, point: Point, at: tuple[float, float]) -> None:
    """The point's name, beside it where no edge runs."""
    parsed = board.parse(point)
    dx, dy = _CENTER_LABEL if parsed is None else _LABEL_TURN[parsed[1].name]
    offset = LABEL_OFFSET
    x = at[0] + dx * offset
    y = at[1] - dy * offset
    anchor = "start" if dx > 0.1 else "end" if dx < -0.1 else "middle"
    baseline = y + LABEL_SIZE * 0.35 - dy * LABEL_SIZE * 0.45
    text = ET.SubElement(
        svg,
        "text",
        {"class": "label", "x": _num(x), "y": _num(baseline), "text-anchor": anchor},
    )
    text.text = point
