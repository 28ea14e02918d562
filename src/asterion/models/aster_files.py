"""The STATE file: an Aster position as JSON, validated at the door.

The smallest useful file names the stars and the active player's action list::

    {"rings": 4, "stars": {"2NE": "red", "C": "blue"}, "reserve": {"red": 8},
     "player": "red", "actions": ["generate", "move_ring"]}

Every field is optional:

``rings``, ``sides_are_lines``, ``line_blocking``, ``generation_points``, ``transforms``
    the board and presence parameters (defaults: rules/aster.md, A1–A4, A8);
``asymmetric``
    the asymmetric variant: each color plays its astronomer-side Big and Bang and the cards'
    scoring effects count at the end (default false; docs/data.md);
``stars``
    point name → color;
``reserve``
    color → stars in reserve; defaults to 10 minus the color's stars on the board. A smaller
    reserve is valid (a puzzle may limit the stars); more than 10 of a color in all is not;
``player``, ``players``
    the active color and the colors in play, in turn order (default: the colors named
    anywhere in the file, in the order red, blue, green, yellow);
``actions``, ``slot``
    the active player's action list for this turn and the first slot not yet passed
    (default: the list of the player's row, from slot 0);
``vp``, ``rows``, ``aside``, ``offer``, ``decks``, ``aggregated``
    the rest of a game in progress (rows default to Big and Bang; ``aggregated`` maps a color
    to ``[host row index, card]`` pairs placed by gravity);
``black_holes``, ``claimed``, ``final_turns_left``, ``over``
    the turn and game in progress: black holes used this turn, whether a constellation was
    claimed this turn, turns left once a row is complete, whether the game has ended.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.aster import COLORS, AsterRules, AsterState, Color
from asterion.models.aster_board import DEFAULT_GENERATION_POINTS, DEFAULT_RINGS, Board
from asterion.models.aster_cards import ActionKind, Catalog, default_catalog
from asterion.models.aster_patterns import DEFAULT_TRANSFORMS, Transforms
from asterion.models.files import read_json_file, read_json_text, validate

MAX_LIST = 200
"""Longest list accepted in a STATE file (actions, rows, decks): far above any real game."""


class _DecksSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    small: list[str] = Field(default_factory=list, max_length=MAX_LIST)
    large: list[str] = Field(default_factory=list, max_length=MAX_LIST)


class StateSpec(BaseModel):
    """The schema of a STATE file (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")
    rings: int = Field(DEFAULT_RINGS, ge=2, le=9)
    sides_are_lines: bool = False
    line_blocking: bool = False
    generation_points: list[str] = Field(
        default_factory=lambda: list(DEFAULT_GENERATION_POINTS), max_length=100
    )
    transforms: Transforms = DEFAULT_TRANSFORMS
    asymmetric: bool = False
    stars: dict[str, Color] = Field(default_factory=dict)
    reserve: dict[Color, int] = Field(default_factory=dict)
    player: Color | None = None
    players: list[Color] | None = Field(None, min_length=1, max_length=4)
    actions: list[ActionKind] | None = Field(None, max_length=MAX_LIST)
    slot: int = Field(0, ge=0)
    vp: dict[Color, int] = Field(default_factory=dict)
    rows: dict[Color, list[str]] = Field(default_factory=dict)
    aside: dict[Color, list[str]] = Field(default_factory=dict)
    offer: list[str] = Field(default_factory=list, max_length=MAX_LIST)
    decks: _DecksSpec = Field(default_factory=_DecksSpec)
    aggregated: dict[Color, list[tuple[int, str]]] = Field(default_factory=dict)
    black_holes: int = Field(0, ge=0, le=MAX_LIST)
    claimed: bool = False
    final_turns_left: int | None = Field(None, ge=0, le=4)
    over: bool = False


def load_state(path: Path | str, catalog: Catalog | None = None) -> AsterState:
    """Read a STATE file. :raises InputError: naming the file, the field and the problem."""
    source = str(path)
    return state_from_data(read_json_file(path), source, catalog)


def parse_state(text: str, source: str = "<state>", catalog: Catalog | None = None) -> AsterState:
    return state_from_data(read_json_text(text, source), source, catalog)


def state_from_data(data: Any, source: str, catalog: Catalog | None = None) -> AsterState:
    spec = validate(StateSpec, data, source)
    try:
        return _build_state(spec, catalog or default_catalog())
    except InputError as error:
        raise error.located(source) from None


def _build_state(spec: StateSpec, catalog: Catalog) -> AsterState:
    board = Board(
        rings=spec.rings,
        sides_are_lines=spec.sides_are_lines,
        generation_points=tuple(spec.generation_points),
        line_blocking=spec.line_blocking,
    )
    rules = AsterRules(
        board=board, catalog=catalog, transforms=spec.transforms, asymmetric=spec.asymmetric
    )
    stars: list[Color | None] = [None] * len(board.points)
    for point, color in spec.stars.items():
        if point not in board.index:
            try:
                board.parse(point)
            except InputError as error:
                raise InputError(error.problem, field=f"stars.{point}") from None
        stars[board.index[point]] = color
    reserve = _reserves(spec, stars, rules.stars_per_color)
    players = _players(spec)
    player = spec.player or players[0]
    if player not in players:
        raise InputError(f"{player.value} is not among the players", field="player")
    for field_name in ("rows", "aside"):
        for color, abbrs in getattr(spec, field_name).items():
            _check_cards(catalog, abbrs, f"{field_name}.{color.value}")
    for color, hosted in spec.aggregated.items():
        field_name = f"aggregated.{color.value}"
        _check_cards(catalog, [abbr for _, abbr in hosted], field_name)
        row_length = len(spec.rows.get(color, rules.base_cards))
        for i, (host, _) in enumerate(hosted):
            if not 0 <= host < row_length:
                raise InputError(f"host {host} is not a card of the row", field=f"{field_name}.{i}")
    _check_cards(catalog, spec.offer, "offer")
    _check_cards(catalog, spec.decks.small, "decks.small")
    _check_cards(catalog, spec.decks.large, "decks.large")
    rows = tuple(tuple(spec.rows.get(c, rules.base_cards if c in players else ())) for c in COLORS)
    state = AsterState(
        stars=tuple(stars),
        reserve=reserve,
        players=players,
        active=players.index(player),
        vp=_per_color_ints(spec.vp),
        rows=rows,
        aside=tuple(tuple(spec.aside.get(c, ())) for c in COLORS),
        offer=tuple(spec.offer),
        decks=(tuple(spec.decks.small), tuple(spec.decks.large)),
        aggregated=tuple(tuple(spec.aggregated.get(c, ())) for c in COLORS),
        black_holes=spec.black_holes,
        claimed=spec.claimed,
        final_turns_left=spec.final_turns_left,
        is_over=spec.over,
        rules=rules,
    )
    actions = tuple(spec.actions) if spec.actions is not None else state.action_list_of(player)
    if spec.slot > len(actions):
        raise InputError(
            f"slot {spec.slot} is past the end of the {len(actions)}-action list", field="slot"
        )
    return replace(state, actions=actions, next_slot=spec.slot)


def _reserves(
    spec: StateSpec, stars: list[Color | None], per_color: int
) -> tuple[int, int, int, int]:
    result = []
    for color in COLORS:
        on_board = sum(1 for c in stars if c is color)
        if on_board > per_color:
            raise InputError(
                f"{on_board} {color.value} stars on the board; each color has {per_color}",
                field="stars",
            )
        reserve = spec.reserve.get(color, per_color - on_board)
        if reserve < 0:
            raise InputError("a reserve cannot be negative", field=f"reserve.{color.value}")
        if on_board + reserve > per_color:
            raise InputError(
                f"{on_board} on the board + {reserve} in reserve is more than the "
                f"{per_color} stars of a color",
                field=f"reserve.{color.value}",
            )
        result.append(reserve)
    a, b, c, d = result
    return (a, b, c, d)


def _players(spec: StateSpec) -> tuple[Color, ...]:
    if spec.players is not None:
        if len(set(spec.players)) != len(spec.players):
            raise InputError("a color is listed twice", field="players")
        return tuple(spec.players)
    named = set(spec.stars.values()) | set(spec.reserve) | set(spec.rows) | set(spec.vp)
    if spec.player is not None:
        named.add(spec.player)
    return tuple(c for c in COLORS if c in named) or (Color.RED,)


def _per_color_ints(values: dict[Color, int]) -> tuple[int, int, int, int]:
    a, b, c, d = (values.get(color, 0) for color in COLORS)
    return (a, b, c, d)


def _check_cards(catalog: Catalog, abbrs: list[str], field: str) -> None:
    for i, abbr in enumerate(abbrs):
        if abbr not in catalog:
            raise InputError(f"unknown card {abbr!r} (not in the catalog)", field=f"{field}.{i}")


def state_to_data(state: AsterState) -> dict[str, Any]:
    """The STATE document for ``state`` (round-trips through :func:`state_from_data`)."""
    board = state.board
    data: dict[str, Any] = {
        "rings": board.rings,
        "stars": {p: c.value for p, c in state.star_map().items()},
        "reserve": {c.value: state.reserve_of(c) for c in state.players},
        "player": state.player.value,
        "players": [c.value for c in state.players],
        "actions": [a.value for a in state.actions],
        "slot": state.next_slot,
        "vp": {c.value: state.vp_of(c) for c in state.players},
        "rows": {c.value: list(state.row_of(c)) for c in state.players},
        "aside": {c.value: list(state.aside[c.number]) for c in state.players},
        "offer": list(state.offer),
        "decks": {"small": list(state.decks[0]), "large": list(state.decks[1])},
    }
    # The rest of a turn or game in progress, written only when it is not the default.
    aggregated = {c.value: [list(a) for a in state.aggregated[c.number]] for c in state.players}
    if any(aggregated.values()):
        data["aggregated"] = {c: hosted for c, hosted in aggregated.items() if hosted}
    if state.black_holes:
        data["black_holes"] = state.black_holes
    if state.claimed:
        data["claimed"] = True
    if state.final_turns_left is not None:
        data["final_turns_left"] = state.final_turns_left
    if state.is_over:
        data["over"] = True
    if board.sides_are_lines:
        data["sides_are_lines"] = True
    if board.line_blocking:
        data["line_blocking"] = True
    if board.generation_points != DEFAULT_GENERATION_POINTS:
        data["generation_points"] = list(board.generation_points)
    if state.rules.transforms is not DEFAULT_TRANSFORMS:
        data["transforms"] = state.rules.transforms.value
    if state.rules.asymmetric:
        data["asymmetric"] = True
    return data
