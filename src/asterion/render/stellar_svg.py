"""SVG pictures for Stellar: a player's telescope and notebook (:func:`telescope_svg`), and the
final-score distributions of a self-play run (:func:`score_distribution_svg`).

Like ``asterion.render.aster_svg``: sizes and a role-keyed color table on top, CSS classes in a
``<style>`` block, keyword-only options, and byte-identical output for the same input (no
timestamps, no randomness, no font metrics; everything drawn in slot, type and card order).
The pictures read models only: the state's public queries and
:func:`~asterion.models.stellar.score`.

The telescope is drawn on the layout's grid (``state.rules.layout``, S1 by default), slot
``(row, column)`` at the top left of its cell; each section's cells are shaded in its color
and labelled with its sum against the opponent's (or the solo target). A face-up card shows
its type's color, number, stars and id; a face-down card shows its back (it counts 3); an
empty slot a dashed outline with its number. The notebook below has one row per type, cards
in number order; satellites and 0/6 cards sit where the scorer read them (``Score.choices``),
marked by their own color or a dashed ring.

>>> from asterion.models.stellar import StellarState
>>> svg = telescope_svg(StellarState.new_game(seed=1), 0)
>>> svg.count('class="card ')
2
>>> svg2 = score_distribution_svg({"greedy": [60, 70, 70], "random": [30, 35, 41]})
>>> svg2.count('class="bar ')
2
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from asterion.errors import InputError
from asterion.models.stellar import (
    SECTION_BONUS,
    StellarState,
    score,
    section_sums,
    telescope_stars,
    wins_section,
)
from asterion.models.stellar_cards import (
    TYPES,
    ZERO_SIX,
    CardId,
    CelestialType,
    SectionName,
    SlotId,
    StellarCard,
)
from asterion.render.svg import SVG_NAMESPACE, write_svg

__all__ = [
    "DEFAULT_COLORS",
    "HasDistributions",
    "score_distribution_svg",
    "telescope_svg",
    "write_svg",
]

# -- sizes (pixels) ----------------------------------------------------------------------------

CARD_WIDTH = 64
CARD_HEIGHT = 90
CARD_GAP = 12
"""Telescope cards and the space between two cells."""
CARD_ROUNDING = 7
NOTE_SCALE = 0.72
"""Notebook cards are this much smaller than telescope cards."""
NOTE_GAP = 6
PADDING = 24
SECTION_LABEL_WIDTH = 150
"""The column right of the telescope that names each section and its sums."""
ROW_LABEL_WIDTH = 150
"""The column left of the notebook rows that names the type and its points."""
TITLE_SIZE = 20
SUBTITLE_SIZE = 13
TEXT_SIZE = 12
NUMBER_SIZE = 26
SMALL_SIZE = 9
STAR_RADIUS = 5.2
STAR_INNER = 0.45
"""A drawn star's inner radius as a fraction of its outer one."""
HEADING_BAND = 30
"""Height of the band holding "telescope", "notebook", "hand" headings."""

# -- the chart (pixels) -------------------------------------------------------------------------

CHART_WIDTH = 720
CHART_HEIGHT = 420
CHART_MARGIN_LEFT = 64
CHART_MARGIN_RIGHT = 24
CHART_MARGIN_TOP = 56
CHART_MARGIN_BOTTOM = 56
MAX_BINS = 24
NICE_STEPS = (1, 2, 5)
"""Bin widths and tick steps are 1, 2 or 5 times a power of ten."""
MAX_SERIES = 8

DEFAULT_COLORS: dict[str, str] = {
    "backdrop": "#0b1026",
    "text": "#e9edfb",
    "muted": "#9aa6cc",
    "slot": "#5d6a99",
    "section top": "#3b5fb0",
    "section middle": "#7a4fb8",
    "section bottom": "#2f8a83",
    "card planet": "#f08a4b",
    "card moon": "#d7deec",
    "card asteroid": "#a8916c",
    "card interstellar_cloud": "#c07ae0",
    "card black_hole": "#262038",
    "card satellite": "#48c9b0",
    "ink planet": "#2a1306",
    "ink moon": "#1d2333",
    "ink asteroid": "#221a0d",
    "ink interstellar_cloud": "#25102f",
    "ink black_hole": "#f2ecff",
    "ink satellite": "#06241f",
    "edge": "#f4f6ff",
    "back": "#1f3a78",
    "back pattern": "#3e63b8",
    "star": "#ffd54a",
    "star edge": "#6b4e00",
    "axis": "#aab4d8",
    "grid": "#27325a",
    "series 0": "#ffb454",
    "series 1": "#5ec8ff",
    "series 2": "#9be36b",
    "series 3": "#ff6b8b",
    "series 4": "#c59bff",
    "series 5": "#f5e663",
    "series 6": "#5ef0c9",
    "series 7": "#ff9edb",
}
"""Colors by role; card faces by ``"card <type>"`` (``satellite`` for satellites), their text
by ``"ink <type>"``, sections by ``"section <name>"``, chart series by ``"series <i>"``.
Override any of them with ``colors=``."""

TYPE_LABELS: dict[str, str] = {
    "planet": "planet",
    "moon": "moon",
    "asteroid": "asteroid",
    "interstellar_cloud": "cloud",
    "black_hole": "black hole",
    "satellite": "satellite",
}
"""Short names printed on cards (the whole "interstellar cloud" does not fit)."""

SECTION_OPACITY = 0.5
HISTOGRAM_OPACITY = 0.28


def _style(c: Mapping[str, str]) -> str:
    inks = "".join(f".card.{kind} text {{ fill: {c[f'ink {kind}']}; }}\n" for kind in TYPE_LABELS)
    return (
        inks
        + f"""
.backdrop {{ fill: {c["backdrop"]}; }}
text {{ font-family: sans-serif; fill: {c["text"]}; }}
.title {{ font-size: {TITLE_SIZE}px; font-weight: bold; }}
.subtitle {{ font-size: {SUBTITLE_SIZE}px; fill: {c["muted"]}; }}
.heading {{ font-size: {SUBTITLE_SIZE}px; font-weight: bold; fill: {c["muted"]}; \
letter-spacing: 1px; }}
.label {{ font-size: {TEXT_SIZE}px; }}
.muted {{ fill: {c["muted"]}; }}
.section {{ opacity: {SECTION_OPACITY}; }}
.empty {{ fill: none; stroke: {c["slot"]}; stroke-width: 1.5; stroke-dasharray: 5 4; }}
.slot-number {{ font-size: {SMALL_SIZE}px; fill: {c["slot"]}; }}
.card rect.face {{ stroke: {c["edge"]}; stroke-width: 1.5; }}
.card .number {{ font-size: {NUMBER_SIZE}px; font-weight: bold; }}
.card .kind {{ font-size: {SMALL_SIZE}px; }}
.card .id {{ font-size: {SMALL_SIZE}px; opacity: 0.75; }}
.card .star {{ fill: {c["star"]}; stroke: {c["star edge"]}; stroke-width: 0.8; }}
.card.face-down rect.face {{ fill: url(#stellar-back); }}
.card.face-down text {{ fill: {c["edge"]}; }}
.free-ring {{ fill: none; stroke: {c["edge"]}; stroke-width: 1.5; stroke-dasharray: 3 3; }}
.axis {{ stroke: {c["axis"]}; stroke-width: 1.2; fill: none; }}
.grid {{ stroke: {c["grid"]}; stroke-width: 1; }}
.tick {{ font-size: {SMALL_SIZE + 2}px; fill: {c["axis"]}; }}
.bar {{ fill-opacity: {HISTOGRAM_OPACITY}; stroke: none; }}
.outline {{ fill: none; stroke-width: 2; stroke-linejoin: round; }}
.mean {{ stroke-width: 1.5; stroke-dasharray: 6 4; }}
"""
    )


# -- the telescope and notebook picture -----------------------------------------------------------


def telescope_svg(
    state: StellarState,
    player: int,
    *,
    title: str | None = None,
    show_hand: bool = False,
    show_score: bool = True,
    colors: Mapping[str, str] | None = None,
) -> str:
    """A standalone SVG document picturing ``player``'s telescope and notebook.

    Parameters
    ----------
    state:
        The position; the layout, sections and deck come from ``state.rules``.
    player:
        0 or 1 (0 in a solo game).
    title:
        The heading; by default "Player 1" (or 2).
    show_hand:
        Whether to draw the cards in the player's hand, under the notebook.
    show_score:
        Whether to print the score the rules give the position now (types, sections,
        diversity) under the title.
    colors:
        Overrides of :data:`DEFAULT_COLORS`, by role.

    Returns
    -------
    str
        The SVG document; the same arguments always give the same bytes. Every card drawn
        is one ``<g class="card ...">`` element.

    :raises InputError: if ``player`` is not 0 or 1.
    """
    if player not in (0, 1):
        raise InputError(f"player must be 0 or 1, not {player}", field="player")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    area = state.areas[player]
    layout = state.rules.layout
    positions = dict(layout.positions)
    rows = 1 + max(row for row, _ in positions.values())
    columns = 1 + max(column for _, column in positions.values())
    scores = score(state)[player]
    readings = scores.choices

    # -- the frame ----------------------------------------------------------------------------
    cell_w, cell_h = CARD_WIDTH + CARD_GAP, CARD_HEIGHT + CARD_GAP
    telescope_w = columns * cell_w - CARD_GAP
    telescope_h = rows * cell_h - CARD_GAP
    note_w, note_h = CARD_WIDTH * NOTE_SCALE, CARD_HEIGHT * NOTE_SCALE
    groups = _notebook_groups(state, player, readings)
    longest = max((len(cards) for _, cards in groups), default=0)
    hand = list(area.hand) if show_hand else []
    notebook_w = ROW_LABEL_WIDTH + max(longest, len(hand), 1) * (note_w + NOTE_GAP)
    width = 2 * PADDING + max(telescope_w + SECTION_LABEL_WIDTH, notebook_w)
    header = TITLE_SIZE + 8 + (SUBTITLE_SIZE + 8 if show_score else 0)
    telescope_top = PADDING + header + HEADING_BAND
    notebook_top = telescope_top + telescope_h + CARD_GAP + HEADING_BAND
    row_h = note_h + NOTE_GAP
    notebook_h = max(len(groups), 1) * row_h
    hand_top = notebook_top + notebook_h + HEADING_BAND
    height = (hand_top + row_h if show_hand else notebook_top + notebook_h) + PADDING
    svg = _document(width, height, title or f"Player {player + 1}", palette)

    # -- the title and the score ----------------------------------------------------------------
    _text(svg, "title", PADDING, PADDING + TITLE_SIZE, title or f"Player {player + 1}")
    if show_score:
        line = (
            f"score {scores.total}: types {sum(scores.types.values())}"
            f" · sections {sum(scores.sections.values())} · diversity {scores.diversity}"
        )
        _text(svg, "subtitle", PADDING, PADDING + TITLE_SIZE + 8 + SUBTITLE_SIZE, line)

    # -- the telescope: section shading, slots, cards -----------------------------------------
    _text(svg, "heading", PADDING, telescope_top - 10, "TELESCOPE")
    left = PADDING

    def cell(slot: SlotId) -> tuple[float, float]:
        row, column = positions[slot]
        return (left + column * cell_w, telescope_top + row * cell_h)

    section_of = {slot: name for name, slots in layout.sections for slot in slots}
    shading = ET.SubElement(svg, "g", {"class": "sections"})
    for slot in layout.slots:
        name = section_of.get(slot)
        if name is None:
            continue
        x, y = cell(slot)
        ET.SubElement(
            shading,
            "rect",
            {
                "class": f"section {name}",
                "x": _num(x - CARD_GAP / 2),
                "y": _num(y - CARD_GAP / 2),
                "width": _num(cell_w),
                "height": _num(cell_h),
                "fill": palette.get(f"section {name}", palette["section top"]),
            },
        )
    placed_at = dict(area.telescope)
    for slot in layout.slots:
        x, y = cell(slot)
        placed = placed_at.get(slot)
        if placed is None:
            _empty_slot(svg, x, y, slot)
        else:
            _card(
                svg,
                state.card(placed.card),
                x,
                y,
                palette,
                scale=1.0,
                face_down=placed.face_down,
                slot=slot,
            )
    _section_labels(
        svg, state, player, cell, section_of, x=left + telescope_w + CARD_GAP, palette=palette
    )

    # -- the notebook: a row per type, in number order ------------------------------------------
    _text(svg, "heading", PADDING, notebook_top - 10, "NOTEBOOK")
    stars = telescope_stars(state, player)
    for i, (kind, cards) in enumerate(groups):
        y = notebook_top + i * row_h
        points = scores.types.get(kind, 0)
        run = points // stars[kind] if stars[kind] else 0
        label = f"{TYPE_LABELS[kind.value]}"
        detail = f"{stars[kind]}★ × run {run} = {points}" if stars[kind] else "no stars: 0"
        _text(svg, "label", PADDING, y + note_h / 2 - 2, label)
        _text(svg, "label muted", PADDING, y + note_h / 2 + TEXT_SIZE + 1, detail)
        for j, (card, reading) in enumerate(cards):
            x = PADDING + ROW_LABEL_WIDTH + j * (note_w + NOTE_GAP)
            _card(svg, card, x, y, palette, scale=NOTE_SCALE, reading=reading)
    if not groups:
        _text(svg, "label muted", PADDING, notebook_top + note_h / 2, "empty")

    # -- the hand ---------------------------------------------------------------------------------
    if show_hand:
        _text(svg, "heading", PADDING, hand_top - 10, "HAND")
        for j, card_id in enumerate(hand):
            x = PADDING + ROW_LABEL_WIDTH + j * (note_w + NOTE_GAP)
            _card(svg, state.card(card_id), x, hand_top, palette, scale=NOTE_SCALE)
        if not hand:
            _text(svg, "label muted", PADDING, hand_top + note_h / 2, "empty")

    return _finish(svg)


def _notebook_groups(
    state: StellarState,
    player: int,
    readings: Mapping[CardId, tuple[CelestialType, int]],
) -> list[tuple[CelestialType, list[tuple[StellarCard, int | None]]]]:
    """The notebook by type (in type order), each group in number order (then card id).
    A free card (satellite, 0/6) goes where the scorer read it, with that number; the
    second item is the reading's number for free cards, else ``None``."""
    by_type: dict[CelestialType, list[tuple[int, CardId, StellarCard, int | None]]] = {}
    for card_id in state.areas[player].notebook:
        card = state.card(card_id)
        if card_id in readings:
            kind, number = readings[card_id]
            free: int | None = number
        else:
            assert card.kind is not None  # a typed, fixed card
            kind, number, free = card.kind, card.number, None
        if card.kind is not None and card.number != ZERO_SIX:
            free = None
        by_type.setdefault(kind, []).append((number, card_id, card, free))
    return [
        (kind, [(card, free) for _, _, card, free in sorted(by_type[kind], key=lambda e: e[:2])])
        for kind in TYPES
        if kind in by_type
    ]


def _section_labels(
    svg: ET.Element,
    state: StellarState,
    player: int,
    cell: Callable[[SlotId], tuple[float, float]],
    section_of: Mapping[SlotId, SectionName],
    *,
    x: float,
    palette: Mapping[str, str],
) -> None:
    """Each section's name and sums, level with the middle of its cells."""
    mine = section_sums(state, player)
    if state.rules.solo_targets is not None:
        theirs, against = dict(state.rules.solo_targets), "target"
    else:
        theirs, against = section_sums(state, 1 - player), "opponent"
    for name, slots in state.rules.layout.sections:
        ys = [cell(slot)[1] for slot in slots if slot in section_of]
        if not ys:
            continue
        middle = (min(ys) + max(ys) + CARD_HEIGHT) / 2
        ET.SubElement(
            svg,
            "rect",
            {
                "class": f"section {name}",
                "x": _num(x),
                "y": _num(middle - 22),
                "width": "10",
                "height": "10",
                "fill": palette.get(f"section {name}", palette["section top"]),
            },
        )
        _text(svg, "label", x + 16, middle - 13, name)
        a, b = mine.get(name, 0), theirs.get(name, 0)
        bonus = wins_section(a, b, state.rules.section_tie_bonus)
        _text(svg, "label muted", x, middle + 4, f"sum {a} vs {b} ({against})")
        if bonus:
            verdict = f"+{SECTION_BONUS}"
        elif against == "target":
            verdict = "no bonus"
        else:
            verdict = "tie: no bonus" if a == b else f"opponent +{SECTION_BONUS}"
        _text(svg, "label", x, middle + 4 + TEXT_SIZE + 4, verdict)


def _empty_slot(svg: ET.Element, x: float, y: float, slot: SlotId) -> None:
    group = ET.SubElement(svg, "g", {"class": "slot"})
    ET.SubElement(
        group,
        "rect",
        {
            "class": "empty",
            "x": _num(x),
            "y": _num(y),
            "width": _num(CARD_WIDTH),
            "height": _num(CARD_HEIGHT),
            "rx": _num(CARD_ROUNDING),
        },
    )
    _text(group, "slot-number", x + 5, y + CARD_HEIGHT - 6, str(slot))


def _card(
    svg: ET.Element,
    card: StellarCard,
    x: float,
    y: float,
    palette: Mapping[str, str],
    *,
    scale: float,
    face_down: bool = False,
    slot: SlotId | None = None,
    reading: int | None = None,
) -> None:
    """One card with its top left corner at ``(x, y)``; ``reading`` is the number a free card
    stands for in the notebook (drawn with a dashed ring)."""
    kind = "satellite" if card.kind is None else card.kind.value
    classes = f"card {kind}" + (" face-down" if face_down else "")
    group = ET.SubElement(
        svg,
        "g",
        {"class": classes, "transform": f"translate({_num(x)} {_num(y)}) scale({_num(scale)})"},
    )
    ET.SubElement(group, "title").text = (
        f"{card.id}: face down (counts 3)" if face_down else f"{card.id}: {card.label}"
    )
    face = {
        "class": "face",
        "x": "0",
        "y": "0",
        "width": _num(CARD_WIDTH),
        "height": _num(CARD_HEIGHT),
        "rx": _num(CARD_ROUNDING),
    }
    if face_down:
        ET.SubElement(group, "rect", face)
        ET.SubElement(
            group,
            "circle",
            {
                "class": "free-ring",
                "cx": _num(CARD_WIDTH / 2),
                "cy": _num(CARD_HEIGHT / 2),
                "r": "14",
            },
        )
        _text(group, "number", CARD_WIDTH / 2, CARD_HEIGHT / 2 + 9, "3", anchor="middle")
        _text(group, "kind", CARD_WIDTH / 2, 13, "face down", anchor="middle")
        _text(group, "id", CARD_WIDTH - 5, CARD_HEIGHT - 6, card.id, anchor="end")
        if slot is not None:
            _text(group, "id", 5, CARD_HEIGHT - 6, str(slot))
        return
    ET.SubElement(group, "rect", {**face, "fill": palette[f"card {kind}"]})
    _text(group, "kind", CARD_WIDTH / 2, 13, TYPE_LABELS[kind], anchor="middle")
    number = "0/6" if card.number == ZERO_SIX else str(card.number)
    size = {} if len(number) == 1 else {"font-size": _num(NUMBER_SIZE * 0.72)}
    _text(group, "number", CARD_WIDTH / 2, 44, number, anchor="middle", **size)
    for i in range(card.stars):
        cx = CARD_WIDTH / 2 + (i - (card.stars - 1) / 2) * (2.4 * STAR_RADIUS)
        ET.SubElement(group, "path", {"class": "star", "d": _star_path(cx, 58, STAR_RADIUS)})
    _text(group, "id", CARD_WIDTH - 5, CARD_HEIGHT - 6, card.id, anchor="end")
    if slot is not None:
        _text(group, "id", 5, CARD_HEIGHT - 6, str(slot))
    if reading is not None:
        ET.SubElement(
            group,
            "rect",
            {
                "class": "free-ring",
                "x": "-3",
                "y": "-3",
                "width": _num(CARD_WIDTH + 6),
                "height": _num(CARD_HEIGHT + 6),
                "rx": _num(CARD_ROUNDING + 2),
            },
        )
        _text(group, "kind", 5, CARD_HEIGHT - 6, f"as {reading}")


def _star_path(cx: float, cy: float, r: float) -> str:
    """A five-pointed star centered at ``(cx, cy)``, point up."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * STAR_INNER
        angle = math.pi * i / 5
        points.append(
            f"{_num(cx + radius * math.sin(angle))} {_num(cy - radius * math.cos(angle))}"
        )
    return "M " + " L ".join(points) + " Z"


# -- the score distribution chart -------------------------------------------------------------


class HasDistributions(Protocol):
    """Anything with final scores by policy label, such as
    ``asterion.solver.stellar_play.SelfPlayReport``."""

    @property
    def distributions(self) -> Mapping[str, Sequence[int]]: ...


def score_distribution_svg(
    report_or_scores: Mapping[str, Sequence[int]] | HasDistributions,
    *,
    title: str | None = None,
    quantity: str = "final score",
    bin_width: int | None = None,
    colors: Mapping[str, str] | None = None,
    width: int = CHART_WIDTH,
    height: int = CHART_HEIGHT,
) -> str:
    """A standalone SVG histogram of final scores, one overlaid, translucent step outline per
    policy, each with a dashed line at its mean and a legend entry (games, mean, range).

    Parameters
    ----------
    report_or_scores:
        Final scores by policy name, or a self-play report (its ``distributions``).
    title:
        The heading; by default "Final scores".
    quantity:
        What the scores are, under the horizontal axis (Nacht der Sterne's are coins).
    bin_width:
        Points per bar; by default 1, 2 or 5 times a power of ten, so that there are at most
        :data:`MAX_BINS` bars.
    colors:
        Overrides of :data:`DEFAULT_COLORS` (``"series 0"`` … for the policies, in order).
    width, height:
        The picture's size in pixels.

    Returns
    -------
    str
        The SVG document; the same arguments always give the same bytes. The y axis counts
        games when every policy played as many, else it shows percentages.

    :raises InputError: for no policies, a policy without scores, more than
        :data:`MAX_SERIES` policies, or a size or bin width that is not positive.
    """
    scores = (
        report_or_scores
        if isinstance(report_or_scores, Mapping)
        else report_or_scores.distributions
    )
    series = [(str(name), [int(v) for v in values]) for name, values in scores.items()]
    if not series:
        raise InputError("a score chart needs at least one policy", field="scores")
    if len(series) > MAX_SERIES:
        raise InputError(f"at most {MAX_SERIES} policies fit one chart", field="scores")
    for name, values in series:
        if not values:
            raise InputError(f"policy {name!r} has no scores", field="scores")
    if width <= 0 or height <= 0:
        raise InputError("the chart's width and height must be positive", field="size")
    if bin_width is not None and bin_width <= 0:
        raise InputError(f"bin_width must be positive, not {bin_width}", field="bin_width")
    palette = {**DEFAULT_COLORS, **(colors or {})}
    heading = title or "Final scores"

    # -- bins and scales ------------------------------------------------------------------------
    low = min(min(values) for _, values in series)
    high = max(max(values) for _, values in series)
    step = bin_width or _nice_step((high - low + 1) / MAX_BINS)
    start = math.floor(low / step) * step
    bins = math.floor(high / step) - math.floor(low / step) + 1
    end = start + bins * step
    as_counts = len({len(values) for _, values in series}) == 1
    heights: list[list[float]] = []
    for _, values in series:
        counts = [0] * bins
        for v in values:
            counts[(v - start) // step] += 1
        scale = 1.0 if as_counts else 100.0 / len(values)
        heights.append([c * scale for c in counts])
    top = max(max(h) for h in heights)
    y_step = _nice_step(top / 6) if top > 0 else 1
    if as_counts:
        y_step = max(1, round(y_step))
    y_max = math.ceil(top / y_step) * y_step or y_step

    plot_left, plot_right = CHART_MARGIN_LEFT, width - CHART_MARGIN_RIGHT
    plot_top, plot_bottom = CHART_MARGIN_TOP + 18 * len(series), height - CHART_MARGIN_BOTTOM
    if plot_bottom - plot_top < 40:
        raise InputError("the chart is too small for its legend", field="size")

    def px(score_value: float) -> float:
        return plot_left + (score_value - start) / (end - start) * (plot_right - plot_left)

    def py(value: float) -> float:
        return plot_bottom - value / y_max * (plot_bottom - plot_top)

    svg = _document(width, height, heading, palette)
    _text(svg, "title", width / 2, 28, heading, anchor="middle")

    # -- grid and axes --------------------------------------------------------------------------
    grid = ET.SubElement(svg, "g", {"class": "grid-lines"})
    ticks = ET.SubElement(svg, "g", {"class": "ticks"})
    value = 0.0
    while value <= y_max + 1e-9:
        y = py(value)
        ET.SubElement(grid, "line", _line("grid", plot_left, y, plot_right, y))
        label = _num(value) + ("" if as_counts else "%")
        _text(ticks, "tick", plot_left - 8, y + 4, label, anchor="end")
        value += y_step
    x_every = max(1, math.ceil(bins / 10))
    for i in range(0, bins + 1, x_every):
        x = px(start + i * step)
        ET.SubElement(ticks, "line", _line("axis", x, plot_bottom, x, plot_bottom + 5))
        _text(ticks, "tick", x, plot_bottom + 18, _num(start + i * step), anchor="middle")
    ET.SubElement(
        svg,
        "path",
        {
            "class": "axis",
            "d": f"M {_num(plot_left)} {_num(plot_top - 6)} L {_num(plot_left)} "
            f"{_num(plot_bottom)} L {_num(plot_right)} {_num(plot_bottom)}",
        },
    )
    _text(
        svg,
        "label muted",
        (plot_left + plot_right) / 2,
        height - 14,
        quantity,
        anchor="middle",
    )
    y_label = "games" if as_counts else "% of games"
    turn = f"translate(18 {_num((plot_top + plot_bottom) / 2)}) rotate(-90)"
    _text(svg, "label muted", 0, 0, y_label, anchor="middle", transform=turn)

    # -- per policy: a translucent area, then (over every area) its outline, mean, legend ------
    fills = ET.SubElement(svg, "g", {"class": "areas"})
    for i, ((name, values), bars) in enumerate(zip(series, heights, strict=True)):
        color = palette[f"series {i}"]
        d = [f"M {_num(px(start))} {_num(py(0))}"]
        for b, h in enumerate(bars):
            d.append(f"L {_num(px(start + b * step))} {_num(py(h))}")
            d.append(f"L {_num(px(start + (b + 1) * step))} {_num(py(h))}")
        d.append(f"L {_num(px(end))} {_num(py(0))} Z")
        path = ET.SubElement(
            fills, "path", {"class": f"bar series-{i}", "d": " ".join(d), "fill": color}
        )
        ET.SubElement(path, "title").text = name
        outline = {"class": f"outline series-{i}", "d": " ".join(d), "stroke": color}
        ET.SubElement(svg, "path", outline)
        mean = sum(values) / len(values)
        mean_x = px(mean)
        ET.SubElement(
            svg,
            "line",
            {
                **_line(f"mean series-{i}", mean_x, plot_top - 4, mean_x, plot_bottom),
                "stroke": color,
            },
        )
        legend_y = CHART_MARGIN_TOP + 4 + 18 * i
        ET.SubElement(
            svg,
            "rect",
            {
                "class": f"swatch series-{i}",
                "x": _num(plot_left),
                "y": _num(legend_y - 10),
                "width": "14",
                "height": "10",
                "fill": color,
            },
        )
        _text(
            svg,
            "label",
            plot_left + 20,
            legend_y,
            f"{name}: {len(values)} games, mean {mean:.1f}, range {min(values)}–{max(values)}",
        )
    return _finish(svg)


def _nice_step(raw: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … at least ``raw``.

    >>> _nice_step(0.3), _nice_step(3.1), _nice_step(11)
    (1, 5, 20)
    """
    power = 1
    while True:
        for factor in NICE_STEPS:
            if factor * power >= raw:
                return factor * power
        power *= 10


# -- helpers ------------------------------------------------------------------------------------


def _document(width: float, height: float, title: str, palette: Mapping[str, str]) -> ET.Element:
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
    ET.SubElement(svg, "title").text = title
    defs = ET.SubElement(svg, "defs")
    pattern = ET.SubElement(
        defs,
        "pattern",
        {
            "id": "stellar-back",
            "width": "8",
            "height": "8",
            "patternUnits": "userSpaceOnUse",
            "patternTransform": "rotate(45)",
        },
    )
    ET.SubElement(pattern, "rect", {"width": "8", "height": "8", "fill": palette["back"]})
    ET.SubElement(
        pattern,
        "line",
        {
            "x1": "0",
            "y1": "0",
            "x2": "0",
            "y2": "8",
            "stroke": palette["back pattern"],
            "stroke-width": "3",
        },
    )
    ET.SubElement(svg, "style").text = _style(palette)
    ET.SubElement(
        svg,
        "rect",
        {"class": "backdrop", "x": "0", "y": "0", "width": _num(width), "height": _num(height)},
    )
    return svg


def _finish(svg: ET.Element) -> str:
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


def _text(
    parent: ET.Element,
    cls: str,
    x: float,
    y: float,
    content: str,
    *,
    anchor: str | None = None,
    **extra: str,
) -> ET.Element:
    attributes = {"class": cls, "x": _num(x), "y": _num(y)}
    if anchor:
        attributes["text-anchor"] = anchor
    attributes.update(extra)
    text = ET.SubElement(parent, "text", attributes)
    text.text = content
    return text


def _line(cls: str, x1: float, y1: float, x2: float, y2: float) -> dict[str, str]:
    return {"class": cls, "x1": _num(x1), "y1": _num(y1), "x2": _num(x2), "y2": _num(y2)}


def _num(value: float) -> str:
    """A short, stable decimal: ``12``, ``12.5``, ``-3.25``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
