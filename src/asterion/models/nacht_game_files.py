"""Nacht der Sterne play files (draw orders and positions), and practice skies.

Both files name tiles by their printed ids and may name a tile set (``"tileset"``, a path
relative to the file; by default the shipped sky); the caller solves that set and passes the
resulting :class:`~asterion.models.nacht_game.Sky`.

A draw order (``asterion.nacht-order/1``), the pile top first, every tile but the start tile,
or ``"deal": SEED`` for a seeded shuffle; instead of a tile set it may name a practice sky
(below) by its grid and seed::

    {"format": "asterion.nacht-order/1", "tileset": "small-sky.json",
     "order": ["T07", "T02", ...]}
    {"format": "asterion.nacht-order/1", "practice": {"width": 3, "height": 4, "seed": 1},
     "deal": 7}

A position (``asterion.nacht-state/1``) at the start of a decision of ``active``; the pile is
every tile neither laid, nor in a display, nor drawn (its order is not known)::

    {"format": "asterion.nacht-state/1", "tileset": null,
     "laid": ["T17", "T12"], "displays": [["T01"], [], ["T09"]],
     "coins": [15, 14, 16], "declines_in_a_row": [0, 1, 0],
     "active": 0, "drawn": "T05", "laid_this_turn": 0,
     "rules": {"set_aside_declines": false}}

``laid`` must hold the start tile and be connected (every tile was laid next to another);
``drawn`` is a fitting drawn tile awaiting lay or decline (a drawn tile that does not fit is
in the display). ``set_aside`` (coins set aside, variant) defaults to zeros; ``rules`` takes
any field of :class:`~asterion.models.nacht_game.NachtRules`.

A practice sky (:func:`practice_chart`) is a chart for small grids whose cut set is always
consistent and unique: every row carries a chain of short constellations running west to
east and every column one running north to south, each two or three tiles long, consecutive
ones sharing a tile, so every inner side is crossed by exactly one named line.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from asterion.errors import InputError
from asterion.models.edges import MAX_SIDE
from asterion.models.files import read_json_file, validate
from asterion.models.nacht import TileSet
from asterion.models.nacht_cut import Chart, ChartConstellation, cut
from asterion.models.nacht_game import (
    LAYS_PER_TURN,
    MAX_DECLINES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Cell,
    NachtRules,
    NachtState,
    Sky,
    deal_order,
)

ORDER_FORMAT = "asterion.nacht-order/1"
STATE_FORMAT = "asterion.nacht-state/1"
MAX_TILES = MAX_SIDE * MAX_SIDE
MAX_COINS = 1_000_000
MAX_PRACTICE_SIDE = 8


class _RulesSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start_coins: int = Field(default=15, ge=0, le=MAX_COINS)
    max_declines: int = Field(default=MAX_DECLINES, ge=0, le=1000)
    decline_cost: int = Field(default=1, ge=0, le=1000)
    lays_per_turn: int = Field(default=LAYS_PER_TURN, ge=1, le=1000)
    knock_reward: int = Field(default=1, ge=0, le=1000)
    knocker_collects_holes: bool = False
    set_aside_declines: bool = False
    empty_display_bonus: bool = False


class PracticeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int = Field(ge=2, le=MAX_PRACTICE_SIDE)
    height: int = Field(ge=2, le=MAX_PRACTICE_SIDE)
    seed: int = Field(default=0, ge=0, le=2**32)


class OrderSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.nacht-order/1"] = "asterion.nacht-order/1"
    tileset: str | None = Field(default=None, max_length=4096)
    practice: PracticeSpec | None = None
    order: list[str] | None = Field(default=None, max_length=MAX_TILES)
    deal: int | None = Field(default=None, ge=0, le=2**32)
    rules: _RulesSpec = Field(default_factory=_RulesSpec)

    @model_validator(mode="after")
    def _one_of_each(self) -> OrderSpec:
        if self.tileset is not None and self.practice is not None:
            raise ValueError("give a tileset or a practice sky, not both")
        if (self.order is None) == (self.deal is None):
            raise ValueError("give either an order (tile ids) or a deal (a seed)")
        return self


class StateSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.nacht-state/1"] = "asterion.nacht-state/1"
    tileset: str | None = Field(default=None, max_length=4096)
    laid: list[str] = Field(min_length=1, max_length=MAX_TILES)
    displays: list[list[str]] = Field(
        min_length=MIN_PLAYERS, max_length=MAX_PLAYERS, description="one per player"
    )
    coins: list[int] = Field(max_length=MAX_PLAYERS)
    declines_in_a_row: list[int] | None = Field(default=None, max_length=MAX_PLAYERS)
    set_aside: list[int] | None = Field(default=None, max_length=MAX_PLAYERS)
    active: int = Field(default=0, ge=0, lt=MAX_PLAYERS)
    drawn: str | None = None
    laid_this_turn: int = Field(default=0, ge=0, le=1000)
    rules: _RulesSpec = Field(default_factory=_RulesSpec)


def _rules(spec: _RulesSpec) -> NachtRules:
    return NachtRules(**spec.model_dump())


def tileset_path(reference: str | None, source: Path | str) -> Path | None:
    """The tile set a file names, relative to that file (None: the shipped sky)."""
    if reference is None:
        return None
    return Path(source).parent / reference


def read_order(path: Path | str) -> OrderSpec:
    return validate(OrderSpec, read_json_file(path), str(path))


def read_state(path: Path | str) -> StateSpec:
    return validate(StateSpec, read_json_file(path), str(path))


def _cell(sky: Sky, tile_id: str, source: str, where: str) -> Cell:
    if tile_id not in sky.tile_ids:
        raise InputError(f"no tile {tile_id!r} in the sky", source=source, field=where)
    return sky.tile_ids.index(tile_id)


def order_state(spec: OrderSpec, sky: Sky, source: str, players: int = 2) -> NachtState:
    """The start of a game with the file's draw order.

    :raises InputError: naming the file and field, for an unknown, repeated or missing tile.
    """
    if spec.order is None:
        assert spec.deal is not None
        return NachtState.start(sky, deal_order(sky, spec.deal), players, _rules(spec.rules))
    cells = [_cell(sky, t, source, f"order.{i}") for i, t in enumerate(spec.order)]
    seen: set[Cell] = set()
    for i, cell in enumerate(cells):
        if cell == sky.start:
            raise InputError(
                f"{sky.tile_ids[cell]} is the start tile, laid at setup",
                source=source,
                field=f"order.{i}",
            )
        if cell in seen:
            raise InputError(
                f"{sky.tile_ids[cell]} appears twice", source=source, field=f"order.{i}"
            )
        seen.add(cell)
    if len(cells) != sky.cells - 1:
        missing = [sky.tile_ids[c] for c in range(sky.cells) if c not in seen and c != sky.start]
        raise InputError(
            f"{len(cells)} tiles; the order needs all {sky.cells - 1} but the start tile "
            f"(missing: {', '.join(missing[:5])})",
            source=source,
            field="order",
        )
    try:
        return NachtState.start(sky, cells, players, _rules(spec.rules))
    except InputError as error:
        raise error.located(source) from None


def spec_state(spec: StateSpec, sky: Sky, source: str) -> NachtState:
    """The position a state file describes, checked against the rules.

    :raises InputError: naming the file and field for anything a game cannot reach.
    """

    def fail(problem: str, where: str) -> InputError:
        return InputError(problem, source=source, field=where)

    players = len(spec.displays)
    rules = _rules(spec.rules)
    for name, values in (
        ("coins", spec.coins),
        ("declines_in_a_row", spec.declines_in_a_row),
        ("set_aside", spec.set_aside),
    ):
        if values is not None and len(values) != players:
            raise fail(f"{len(values)} entries for {players} players (one per display)", name)
    streaks = spec.declines_in_a_row or [0] * players
    owed = spec.set_aside or [0] * players
    for p in range(players):
        if not 0 <= spec.coins[p] <= MAX_COINS:
            raise fail(f"{spec.coins[p]} coins: expected 0 to {MAX_COINS}", f"coins.{p}")
        if not 0 <= streaks[p] <= rules.max_declines:
            raise fail(f"expected 0 to {rules.max_declines}", f"declines_in_a_row.{p}")
        if not 0 <= owed[p] <= spec.coins[p]:
            raise fail("expected 0 up to the player's coins", f"set_aside.{p}")
    if spec.active >= players:
        raise fail(f"player {spec.active} of {players}", "active")
    where: dict[Cell, str] = {}

    def place(tile_id: str, field: str) -> Cell:
        cell = _cell(sky, tile_id, source, field)
        if cell in where:
            raise fail(f"{tile_id} is also in {where[cell]}", field)
        where[cell] = field.rsplit(".", 1)[0]
        return cell

    laid = 0
    for i, tile_id in enumerate(spec.laid):
        laid |= 1 << place(tile_id, f"laid.{i}")
    if not laid >> sky.start & 1:
        raise fail(f"the start tile {sky.tile_ids[sky.start]} must be laid", "laid")
    if not _connected(sky, laid):
        raise fail("the laid tiles are not connected: each was laid next to another", "laid")
    displays = []
    for p, display in enumerate(spec.displays):
        mask = 0
        for i, tile_id in enumerate(display):
            mask |= 1 << place(tile_id, f"displays.{p}.{i}")
        displays.append(mask)
    drawn = None
    if spec.drawn is not None:
        drawn = place(spec.drawn, "drawn")
        if not sky.fits(laid, drawn):
            raise fail("a drawn tile that does not fit goes to the display", "drawn")
        if spec.laid_this_turn:
            raise fail("a fitting drawn tile is dealt with before any other lay", "laid_this_turn")
    if laid == sky.full:
        raise fail("every tile is laid: the game is over", "laid")
    if spec.laid_this_turn > rules.lays_per_turn:
        raise fail(f"at most {rules.lays_per_turn} per turn", "laid_this_turn")
    pile = tuple(c for c in range(sky.cells) if c not in where)
    return NachtState(
        sky,
        laid=laid,
        displays=tuple(displays),
        pile=pile,
        coins=tuple(spec.coins),
        streaks=tuple(streaks),
        owed=tuple(owed),
        active=spec.active,
        drawn=drawn,
        lays=spec.laid_this_turn,
        rules=rules,
    )


def _connected(sky: Sky, laid: int) -> bool:
    reached = 1 << sky.start
    frontier = reached
    while frontier:
        grown = 0
        for cell in range(sky.cells):
            if frontier >> cell & 1:
                grown |= sky.neighbours[cell]
        frontier = grown & laid & ~reached
        reached |= frontier
    return reached == laid


# -- practice skies --------------------------------------------------------------------------------


def _runs(length: int, rng: random.Random) -> list[tuple[int, int]]:
    """Overlapping runs of 2-3 positions covering 0..length-1, consecutive ones sharing one."""
    runs, start = [], 0
    while start < length - 1:
        end = min(start + rng.choice((1, 2)), length - 1)
        runs.append((start, end))
        start = end
    return runs


def practice_chart(width: int, height: int, seed: int = 0) -> Chart:
    """A chart for a ``width`` x ``height`` grid of unit tiles (viewport ``(0, 0, W, H)``)
    whose cut set is consistent and unique (module docstring). Row constellations are
    ``R<row><letter>``, column ones ``C<col><letter>``.

    >>> [c.abbr for c in practice_chart(3, 2, seed=1).constellations]
    ['R0a', 'R1a', 'R1b', 'C0a', 'C1a', 'C2a']
    """
    rng = random.Random(f"nacht-practice:{seed}")
    constellations = []
    for r in range(height):
        south = height - 1 - r
        heights = [south + rng.uniform(0.15, 0.85) for _ in range(width)]
        for k, (a, b) in enumerate(_runs(width, rng)):
            stars = tuple((c + 0.5, heights[c], 3.0) for c in range(a, b + 1))
            lines = tuple((i, i + 1) for i in range(len(stars) - 1))
            constellations.append(ChartConstellation(f"R{r}{chr(97 + k)}", "", stars, lines))
    for c in range(width):
        offsets = [c + rng.uniform(0.15, 0.85) for _ in range(height)]
        for k, (a, b) in enumerate(_runs(height, rng)):
            stars = tuple((offsets[r], height - 1 - r + 0.5, 4.0) for r in range(a, b + 1))
            lines = tuple((i, i + 1) for i in range(len(stars) - 1))
            constellations.append(ChartConstellation(f"C{c}{chr(97 + k)}", "", stars, lines))
    return Chart(f"practice {width}x{height} #{seed}", tuple(constellations))


def practice_tileset(width: int, height: int, seed: int = 0) -> TileSet:
    """:func:`practice_chart` cut into tiles, listed in a shuffled order."""
    chart = practice_chart(width, height, seed)
    return cut(chart, width, height, (0.0, 0.0, float(width), float(height)), shuffle_seed=seed)


def order_document(sky: Sky, order: list[Cell], tileset: str | None = None) -> dict[str, Any]:
    """An order file's JSON for ``order`` (cells, top first)."""
    return {
        "format": ORDER_FORMAT,
        "tileset": tileset,
        "order": [sky.tile_ids[c] for c in order],
    }
