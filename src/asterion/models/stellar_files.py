"""The Stellar GAME file: a position (finished or not), validated at the door.

::

    {"format": "asterion.stellar-game/1",
     "players": [
       {"telescope": {"1": "P3s", "3": "M1a", "12": {"card": "P2a", "face_down": true}},
        "notebook": ["M3s", "M4a", "M5b"], "hand": []},
       {"telescope": {...}, "notebook": [...], "hand": [...]}],
     "display": ["P1a", null, "C4b", "B5a", "S2"], "deck": ["A4a", ...],
     "active": 0, "phase": "over"}

Telescope keys are slots 1–12. ``display``, ``deck``, ``hand`` default to empty; ``phase``
defaults to ``over`` when both telescopes are full, else ``turn``; ``turns_taken`` defaults to
each telescope's cards minus the starter. A solo position gives one player and ``targets``
(section → sum to beat). The deck file (``--deck``) names the cards; the shipped one (S2) by
default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.files import plain_digits, read_json_file, read_json_text, validate
from asterion.models.stellar import (
    HAND_SIZE,
    Phase,
    Placed,
    PlayerArea,
    StellarRules,
    StellarState,
)
from asterion.models.stellar_cards import Deck, SectionName, default_deck
from asterion.models.stellar_solo import MAX_TARGET

GAME_FORMAT = "asterion.stellar-game/1"
MAX_CARDS = 200


class _PlacedSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str
    face_down: bool = False


class _PlayerSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    telescope: dict[str, str | dict[str, Any]] = Field(default_factory=dict)
    notebook: list[str] = Field(default_factory=list, max_length=MAX_CARDS)
    hand: list[str] = Field(default_factory=list, max_length=MAX_CARDS)


class GameSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.stellar-game/1"] = "asterion.stellar-game/1"
    players: list[_PlayerSpec] = Field(min_length=1, max_length=2)
    display: list[str | None] = Field(default_factory=list, max_length=5)
    deck: list[str] = Field(default_factory=list, max_length=MAX_CARDS)
    active: int = Field(0, ge=0, le=1)
    phase: Phase | None = None
    turns_taken: tuple[int, int] | None = None
    targets: dict[SectionName, Annotated[int, Field(ge=0, le=MAX_TARGET)]] | None = None
    resetter: int | None = Field(None, ge=0, le=1)


def load_game(path: Path | str, deck: Deck | None = None) -> StellarState:
    return game_from_data(read_json_file(path), str(path), deck)


def parse_game(text: str, source: str = "<game>", deck: Deck | None = None) -> StellarState:
    return game_from_data(read_json_text(text, source), source, deck)


def game_from_data(data: Any, source: str, deck: Deck | None = None) -> StellarState:
    spec = validate(GameSpec, data, source)
    try:
        return _build(spec, deck or default_deck())
    except InputError as error:
        raise error.located(source) from None


def _build(spec: GameSpec, deck: Deck) -> StellarState:
    solo = spec.targets is not None
    sections = [name for name, _ in StellarRules().layout.sections]
    if spec.targets is not None and sorted(spec.targets) != sorted(sections):
        raise InputError(f"targets must give {', '.join(sections)}", field="targets")
    if len(spec.players) != (1 if solo else 2):
        raise InputError(
            "a solo position (with targets) has one player, a game two", field="players"
        )
    rules = StellarRules(
        deck=deck, solo_targets=None if spec.targets is None else tuple(spec.targets.items())
    )
    areas = [_area(rules, player, f"players.{i}") for i, player in enumerate(spec.players)]
    if solo:
        areas.append(PlayerArea())
    _check_each_card_once(spec, deck)
    full = all(len(a.telescope) == len(rules.layout.slots) for a in areas[: len(spec.players)])
    phase: Phase = spec.phase or ("over" if full else "turn")
    taken = spec.turns_taken or (
        max(0, len(areas[0].telescope) - 1),
        max(0, len(areas[1].telescope) - 1),
    )
    _check_turn(rules, spec, areas[spec.active], phase, taken)
    display = (*spec.display, *([None] * (5 - len(spec.display))))
    return StellarState(
        (areas[0], areas[1]),
        tuple(display),
        tuple(spec.deck),
        active=spec.active,
        turns_taken=taken,
        phase=phase,
        resetter=spec.resetter,
        rules=rules,
    )


def _check_turn(
    rules: StellarRules, spec: GameSpec, active: PlayerArea, phase: Phase, taken: tuple[int, int]
) -> None:
    """What play can reach: the turns taken, and whose turn it is in which phase."""
    for player, turns in enumerate(taken):
        if not 0 <= turns <= rules.turns:
            raise InputError(
                f"player {player} has taken {turns} turns (0-{rules.turns})", field="turns_taken"
            )
    if phase == "reset" and spec.resetter is None:
        raise InputError("a reset needs the player who may ask for it", field="resetter")
    if phase == "turn" and len(active.telescope) == len(rules.layout.slots):
        raise InputError(
            f"player {spec.active}'s telescope is full: the turn is the other's, or the phase "
            "'final' or 'over'",
            field="active",
        )


def _slot_number(key: str, slots: tuple[int, ...], field: str) -> int:
    """A telescope key: a slot number written plainly ("7", not "07" or " 7")."""
    if len(key) > 2 or not plain_digits(key) or str(int(key)) != key or int(key) not in slots:
        raise InputError(f"{key!r} is not a telescope slot (1-{len(slots)})", field=field)
    return int(key)


def _placed(value: str | dict[str, Any], field: str) -> _PlacedSpec:
    """A telescope entry: a card id, or ``{"card": id, "face_down": bool}``."""
    if isinstance(value, str):
        return _PlacedSpec(card=value)
    try:
        return validate(_PlacedSpec, value, "")
    except InputError as error:
        inner = f"{field}.{error.field}" if error.field else field
        raise InputError(error.problem, field=inner) from None


def _area(rules: StellarRules, spec: _PlayerSpec, field: str) -> PlayerArea:
    slots = rules.layout.slots
    telescope = []
    for key, value in spec.telescope.items():
        where = f"{field}.telescope.{key}"
        slot = _slot_number(key, slots, where)
        placed = _placed(value, where)
        if placed.card not in rules.deck:
            raise InputError(rules.deck.unknown_card(placed.card), field=where)
        telescope.append((slot, Placed(placed.card, placed.face_down)))
    telescope.sort()
    for part in ("notebook", "hand"):
        for i, card in enumerate(getattr(spec, part)):
            if card not in rules.deck:
                raise InputError(rules.deck.unknown_card(card), field=f"{field}.{part}.{i}")
    most = {  # a notebook: 12 cards and the final one; a hand: 2 and the card just taken
        "notebook": rules.turns + 2,
        "hand": HAND_SIZE + 1,
    }
    for part, limit in most.items():
        if len(getattr(spec, part)) > limit:
            raise InputError(
                f"{len(getattr(spec, part))} cards, more than play can put there ({limit})",
                field=f"{field}.{part}",
            )
    area = PlayerArea(tuple(telescope), tuple(spec.notebook), tuple(spec.hand))
    _check_types_connected(rules, area, f"{field}.telescope")
    _check_face_down_reachable(rules, area, f"{field}.telescope")
    return area


def _check_types_connected(rules: StellarRules, area: PlayerArea, field: str) -> None:
    """A telescope is reachable by legal plays iff each type's face-up cards are connected:
    the first card of a type goes anywhere, each later one next to one already there."""
    by_type: dict[str, list[int]] = {}
    for slot, placed in area.telescope:
        kind = rules.deck[placed.card].kind
        if kind is not None and not placed.face_down:
            by_type.setdefault(kind.value, []).append(slot)
    for name, slots in by_type.items():
        if not nx.is_connected(rules.layout.graph.subgraph(slots)):
            raise InputError(
                f"illegal placement: the {name} cards on slots {slots} are not side by side "
                "in one group",
                field=field,
            )


def _check_face_down_reachable(rules: StellarRules, area: PlayerArea, field: str) -> None:
    """A card is played face down only when no empty slot may take it face up: its type is
    in the telescope and every empty slot beside that type's cards is gone. Whether some order
    of plays (the starter on slot 1 first) builds the telescope is searched over the sets of
    filled slots (at most 2^12)."""
    downs = [slot for slot, placed in area.telescope if placed.face_down]
    if not downs:
        return
    cards = dict(area.telescope)
    full = frozenset(cards)
    start = frozenset({1} & full)
    seen, stack = {start}, [start]
    while stack:
        filled = stack.pop()
        if filled == full:
            return
        for slot in sorted(full - filled):
            following = filled | {slot}
            if following not in seen and _may_play(rules, cards, filled, slot):
                seen.add(following)
                stack.append(following)
    shown = ", ".join(f"{cards[slot].card} on slot {slot}" for slot in downs)
    raise InputError(
        f"illegal placement: no order of plays leaves {shown} face down (a card goes face down "
        "only when no empty slot lies next to a face-up card of its type)",
        field=field,
    )


def _may_play(
    rules: StellarRules, cards: dict[int, Placed], filled: frozenset[int], slot: int
) -> bool:
    """Whether ``cards[slot]`` may be played as it lies once ``filled`` are (rules/stellar.md,
    telescope: a type already there goes next to it; a card with no legal slot face down)."""
    layout = rules.layout
    kind = rules.deck[cards[slot].card].kind
    same = {s for s in filled if not cards[s].face_down and rules.deck[cards[s].card].kind is kind}
    if kind is None or not same:
        return not cards[slot].face_down  # a satellite or a new type goes anywhere
    beside = {s for s in layout.slots if s not in filled and set(layout.neighbors(s)) & same}
    return slot in beside if not cards[slot].face_down else not beside


def _card_places(spec: GameSpec) -> list[tuple[str, str]]:
    """Every (card, field) of the file, in file order."""
    places: list[tuple[str, str]] = []
    for p, player in enumerate(spec.players):
        for key, value in player.telescope.items():
            card = value if isinstance(value, str) else str(value.get("card"))
            places.append((card, f"players.{p}.telescope.{key}"))
        for part in ("notebook", "hand"):
            places += [(c, f"players.{p}.{part}.{i}") for i, c in enumerate(getattr(player, part))]
    places += [(c, f"display.{i}") for i, c in enumerate(spec.display) if c is not None]
    places += [(c, f"deck.{i}") for i, c in enumerate(spec.deck)]
    return places


def _check_each_card_once(spec: GameSpec, deck: Deck) -> None:
    first_seen: dict[str, str] = {}
    for card, field in _card_places(spec):
        if card not in deck:
            raise InputError(deck.unknown_card(card), field=field)
        if card in first_seen:
            raise InputError(f"card {card!r} is also at {first_seen[card]}", field=field)
        first_seen[card] = field


def game_to_data(state: StellarState) -> dict[str, Any]:
    players = state.areas[:1] if state.rules.is_solo else state.areas
    data: dict[str, Any] = {
        "format": GAME_FORMAT,
        "players": [
            {
                "telescope": {
                    str(slot): ({"card": p.card, "face_down": True} if p.face_down else p.card)
                    for slot, p in area.telescope
                },
                "notebook": list(area.notebook),
                "hand": list(area.hand),
            }
            for area in players
        ],
        "display": list(state.display),
        "deck": list(state.deck),
        "active": state.active,
        "phase": state.phase,
        "turns_taken": list(state.turns_taken),
    }
    if state.rules.solo_targets is not None:
        data["targets"] = dict(state.rules.solo_targets)
    if state.resetter is not None:
        data["resetter"] = state.resetter
    return data
