"""Akelarre data files, validated at the door: payouts, supply (K2), objectives and powers (K3),
and positions.

Payout table (crowd size → resources each, per player count; sizes 1 … seats, where a
two-player game has 3 seats with the virtual player)::

    {"format": "asterion.akelarre-payouts/1",
     "tables": {"2": {"1": 1, "2": 4, "3": 3}, "4": {"1": 1, "2": 3, "3": 4, "4": 3, "5": 2}}}

Supply (resources on each location at the start, per player count)::

    {"format": "asterion.akelarre-supply/1", "tables": {"4": {"earth": 15, "water": 15, ...}}}

Objectives and powers::

    {"format": "asterion.akelarre-objectives/1",
     "objectives": [{"id": "O01", "needs": {"earth": 3, "water": 2}}, ...]}
    {"format": "asterion.akelarre-powers/1",
     "powers": [{"id": "P01", "name": "Migration", "phase": "reveal", "effect": "..."}]}

A position in a turn's message phase (one entry in ``seats`` per seat, the virtual player's
third in a two-player game; omitted decks are the unused cards in file order; ``chain`` the
messages given so far this turn, replayed through the rules engine)::

    {"format": "asterion.akelarre-state/1", "players": 3, "turn": 5, "first": 1,
     "supply": {"earth": 12, ...}, "well": {"fire": 2}, "public": "O07",
     "seats": [{"resources": {"earth": 2}, "private": "O01", "completed": ["O03"],
                "powers": ["P04"]}, ...],
     "objective_deck": ["O11", ...], "power_deck": ["P02", ...],
     "chain": [{"seat": 1, "destination": "fire", "to": 2}]}

The shipped files (``data/akelarre_*.json``) are the seed's payout table and documented
guesses for the rest (rules/akelarre.md, K2, K3).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import IllegalActionError, InputError
from asterion.models.akelarre import (
    DEFAULT_TURNS,
    ELEMENTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_RESOURCES,
    AkelarreRules,
    AkelarreState,
    Message,
    Objective,
    PayoutTable,
    PowerCard,
    Resources,
    Sorginak,
    apply,
    destination_name,
    first_chooser,
    parse_destination,
)
from asterion.models.files import read_json_file, read_json_text, validate

ElementName = Literal["earth", "water", "air", "fire"]
MAX_CARDS = 500


class _PayoutsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.akelarre-payouts/1"] = "asterion.akelarre-payouts/1"
    name: str = ""
    tables: dict[Literal["2", "3", "4", "5"], dict[str, int]] = Field(min_length=1)


class _SupplySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.akelarre-supply/1"] = "asterion.akelarre-supply/1"
    name: str = ""
    tables: dict[Literal["2", "3", "4", "5"], dict[ElementName, int]] = Field(min_length=1)


class _ObjectiveSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=16)
    needs: dict[ElementName, int] = Field(min_length=1)


class _ObjectivesSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.akelarre-objectives/1"] = "asterion.akelarre-objectives/1"
    name: str = ""
    objectives: list[_ObjectiveSpec] = Field(min_length=1, max_length=MAX_CARDS)


class _PowerSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=16)
    name: str = ""
    phase: str = ""
    effect: str = ""


class _PowersSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.akelarre-powers/1"] = "asterion.akelarre-powers/1"
    name: str = ""
    powers: list[_PowerSpec] = Field(max_length=MAX_CARDS)


# -- tables by player count --------------------------------------------------------------------


MAX_AMOUNT = 1000
"""The most resources a count, a payout or a bonus may give."""


def _resources(counts: dict[ElementName, int], field: str) -> Resources:
    for element, count in counts.items():
        if not 0 <= count <= MAX_AMOUNT:
            raise InputError(f"{element} count must be 0 to {MAX_AMOUNT}, not {count}", field=field)
    plain: dict[str, int] = {str(key): value for key, value in counts.items()}
    values = [plain.get(name, 0) for name in ELEMENTS]
    return (values[0], values[1], values[2], values[3])


def _seats(players: int) -> int:
    return 3 if players == 2 else players


def payouts_from_data(data: Any, source: str) -> dict[int, PayoutTable]:
    """Payout tables by player count. Every table gives crowd sizes 1 … seats (3 with the
    virtual player in a two-player game), each a count of 0 or more; sizes up to 5 may be
    given (the seed's 4–5 column serves both counts) and larger ones are unused."""
    spec = validate(_PayoutsSpec, data, source)
    tables = {}
    for players_key, table in spec.tables.items():
        players = int(players_key)
        field = f"tables.{players_key}"
        expected = [str(k) for k in range(1, _seats(players) + 1)]
        for key, amount in table.items():
            if key not in ("1", "2", "3", "4", "5"):
                raise InputError(
                    f"crowd size {key!r} is not 1-5",
                    source=source,
                    field=field,
                )
            if not 0 <= amount <= MAX_AMOUNT:
                raise InputError(
                    f"resources must be 0 to {MAX_AMOUNT}, not {amount}",
                    source=source,
                    field=f"{field}.{key}",
                )
        missing = [key for key in expected if key not in table]
        if missing:
            raise InputError(
                f"crowd size {missing[0]} is missing (a {players}-player table gives 1-"
                f"{expected[-1]})",
                source=source,
                field=field,
            )
        tables[players] = PayoutTable(tuple(table[key] for key in expected))
    return tables


def supply_from_data(data: Any, source: str) -> dict[int, Resources]:
    spec = validate(_SupplySpec, data, source)
    tables = {}
    for players_key, counts in spec.tables.items():
        field = f"tables.{players_key}"
        missing = [name for name in ELEMENTS if name not in counts]
        if missing:  # a location left out is more likely a slip than an empty one
            raise InputError(
                f"{missing[0]} is missing (give all four elements, 0 for none)",
                source=source,
                field=field,
            )
        try:
            tables[int(players_key)] = _resources(counts, field)
        except InputError as error:
            raise error.located(source) from None
    return tables


def objectives_from_data(data: Any, source: str) -> tuple[Objective, ...]:
    spec = validate(_ObjectivesSpec, data, source)
    seen: set[str] = set()
    objectives = []
    for i, entry in enumerate(spec.objectives):
        field = f"objectives.{i}"
        if entry.id in seen:
            raise InputError(f"objective id {entry.id!r} is used twice", source=source, field=field)
        seen.add(entry.id)
        try:
            needs = _resources(entry.needs, f"{field}.needs")
        except InputError as error:
            raise error.located(source) from None
        if sum(needs) == 0:
            raise InputError("an objective needs at least one resource", source=source, field=field)
        objectives.append(Objective(entry.id, needs))
    return tuple(objectives)


def powers_from_data(data: Any, source: str) -> tuple[PowerCard, ...]:
    spec = validate(_PowersSpec, data, source)
    ids = [p.id for p in spec.powers]
    for i, power_id in enumerate(ids):
        if power_id in ids[:i]:
            raise InputError(
                f"power id {power_id!r} is used twice", source=source, field=f"powers.{i}"
            )
    return tuple(PowerCard(p.id, p.name, p.phase, p.effect) for p in spec.powers)


def load_payouts(path: Path | str) -> dict[int, PayoutTable]:
    return payouts_from_data(read_json_file(path), str(path))


def load_supply(path: Path | str) -> dict[int, Resources]:
    return supply_from_data(read_json_file(path), str(path))


def load_objectives(path: Path | str) -> tuple[Objective, ...]:
    return objectives_from_data(read_json_file(path), str(path))


def load_powers(path: Path | str) -> tuple[PowerCard, ...]:
    return powers_from_data(read_json_file(path), str(path))


def _shipped(name: str) -> Any:
    text = resources.files("asterion.data").joinpath(name).read_text("utf-8")
    return read_json_text(text, name)


@cache
def default_payouts() -> dict[int, PayoutTable]:
    """The seed's payout table (rules/akelarre.md, step 4)."""
    return payouts_from_data(_shipped("akelarre_payouts.json"), "akelarre_payouts.json")


@cache
def default_supply() -> dict[int, Resources]:
    """K2: 15 of each element on its location, for every player count (a guess)."""
    return supply_from_data(_shipped("akelarre_supply.json"), "akelarre_supply.json")


@cache
def default_objectives() -> tuple[Objective, ...]:
    """K3: 26 objective cards, documented guesses."""
    return objectives_from_data(_shipped("akelarre_objectives.json"), "akelarre_objectives.json")


@cache
def default_powers() -> tuple[PowerCard, ...]:
    """K3: 14 Power cards, documented guesses (drawn and held, K5)."""
    return powers_from_data(_shipped("akelarre_powers.json"), "akelarre_powers.json")


def check_players(players: int) -> None:
    """:raises InputError: for a player count outside 2-5."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"players must be 2 to 5, not {players}", field="players")


def build_rules(
    players: int,
    *,
    payouts: dict[int, PayoutTable] | None = None,
    supply: dict[int, Resources] | None = None,
    objectives: tuple[Objective, ...] | None = None,
    powers: tuple[PowerCard, ...] | None = None,
    sabba_bonus: int = 1,
    turns: int = DEFAULT_TURNS,
    source: str = "payouts",
    supply_source: str = "supply",
) -> AkelarreRules:
    """Rules for ``players`` players from tables by player count (the shipped ones where a
    table is not given). :raises InputError: for a player count outside 2–5 or a table
    without that count."""
    check_players(players)
    payouts = default_payouts() if payouts is None else payouts
    supply = default_supply() if supply is None else supply
    if players not in payouts:
        raise InputError(f"no payout table for {players} players", source=source, field="tables")
    if players not in supply:
        raise InputError(f"no supply for {players} players", source=supply_source, field="tables")
    return AkelarreRules(
        players=players,
        payouts=payouts[players],
        supply=supply[players],
        objectives=default_objectives() if objectives is None else objectives,
        powers=default_powers() if powers is None else powers,
        sabba_bonus=sabba_bonus,
        turns=turns,
    )


def default_rules(players: int = 4, **changes: Any) -> AkelarreRules:
    """The shipped tables for ``players`` players; ``changes`` as in :func:`build_rules`."""
    return build_rules(players, **changes)


def payouts_to_data(tables: dict[int, PayoutTable]) -> dict[str, Any]:
    return {
        "format": "asterion.akelarre-payouts/1",
        "tables": {
            str(players): {str(k + 1): amount for k, amount in enumerate(table.amounts)}
            for players, table in sorted(tables.items())
        },
    }


# -- positions ---------------------------------------------------------------------------------


class _SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resources: dict[ElementName, int] = Field(default_factory=dict)
    private: str | None = None
    completed: list[str] = Field(default_factory=list, max_length=MAX_CARDS)
    powers: list[str] = Field(default_factory=list, max_length=MAX_CARDS)


class _MessageSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=MAX_PLAYERS)
    destination: Literal["earth", "water", "air", "fire", "well"]
    to: int | None = Field(None, ge=0, le=MAX_PLAYERS)


class _StateSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.akelarre-state/1"] = "asterion.akelarre-state/1"
    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)
    turn: int = Field(1, ge=1, le=1000)
    first: int = Field(0, ge=0)
    supply: dict[ElementName, int] | None = None
    well: dict[ElementName, int] = Field(default_factory=dict)
    public: str | None = None
    seats: list[_SeatSpec] = Field(min_length=2, max_length=MAX_PLAYERS)
    objective_deck: list[str] | None = Field(None, max_length=MAX_CARDS)
    power_deck: list[str] | None = Field(None, max_length=MAX_CARDS)
    chain: list[_MessageSpec] = Field(default_factory=list, max_length=MAX_PLAYERS)


def load_state(path: Path | str, rules: AkelarreRules | None = None) -> AkelarreState:
    """A position file; ``rules`` supplies the cards and tables (shipped by default, for the
    file's player count)."""
    return state_from_data(read_json_file(path), str(path), rules)


def parse_state(text: str, source: str = "<state>", rules: AkelarreRules | None = None) -> Any:
    return state_from_data(read_json_text(text, source), source, rules)


def state_from_data(data: Any, source: str, rules: AkelarreRules | None = None) -> AkelarreState:
    spec = validate(_StateSpec, data, source)
    try:
        return _build_state(spec, rules)
    except InputError as error:
        raise error.located(source) from None


def _build_state(spec: _StateSpec, rules: AkelarreRules | None) -> AkelarreState:
    if rules is None:
        rules = default_rules(spec.players)
    elif rules.players != spec.players:
        raise InputError(
            f"the file is for {spec.players} players, the rules for {rules.players}",
            field="players",
        )
    if len(spec.seats) != rules.seats:
        raise InputError(
            f"{rules.seats} seats expected for {rules.players} players"
            + (" (the virtual player is the third)" if rules.has_virtual else ""),
            field="seats",
        )
    if spec.first >= rules.players:
        raise InputError(f"first must be a seat 0-{rules.players - 1}", field="first")
    objective_ids = [o.id for o in rules.objectives]
    power_ids = [p.id for p in rules.powers]
    used: dict[str, str] = {}

    def claim(card: str, known: list[str], field: str) -> None:
        if card not in known:
            raise InputError(f"unknown card {card!r}", field=field)
        if card in used:
            raise InputError(f"card {card!r} is also at {used[card]}", field=field)
        used[card] = field

    seats = []
    for s, seat in enumerate(spec.seats):
        field = f"seats.{s}"
        if seat.private is not None:
            claim(seat.private, objective_ids, f"{field}.private")
        for i, card in enumerate(seat.completed):
            claim(card, objective_ids, f"{field}.completed.{i}")
        for i, card in enumerate(seat.powers):
            claim(card, power_ids, f"{field}.powers.{i}")
        seats.append(
            Sorginak(
                _resources(seat.resources, f"{field}.resources"),
                seat.private,
                tuple(seat.completed),
                tuple(seat.powers),
            )
        )
    if spec.public is not None:
        claim(spec.public, objective_ids, "public")
    decks = []
    for name, given, known in (
        ("objective_deck", spec.objective_deck, objective_ids),
        ("power_deck", spec.power_deck, power_ids),
    ):
        if given is None:
            given = [card for card in known if card not in used]
        for i, card in enumerate(given):
            claim(card, known, f"{name}.{i}")
        decks.append(tuple(given))
    supply = rules.supply if spec.supply is None else _resources(spec.supply, "supply")
    state = AkelarreState(
        seats=tuple(seats),
        supply=supply,
        well=_resources(spec.well, "well") if spec.well else NO_RESOURCES,
        public=spec.public,
        objective_deck=decks[0],
        power_deck=decks[1],
        turn=spec.turn,
        first=spec.first,
        rules=rules,
    )
    if spec.turn > rules.turns:
        raise InputError(f"turn {spec.turn} is after the last turn ({rules.turns})", field="turn")
    state = replace(state, holder=first_chooser(state))
    for i, entry in enumerate(spec.chain):
        if entry.seat != state.holder:
            raise InputError(
                f"seat {state.holder} gives the next message, not seat {entry.seat}",
                field=f"chain.{i}.seat",
            )
        message = Message(parse_destination(entry.destination), entry.to)
        try:
            state = apply(state, message)
        except IllegalActionError as error:
            raise InputError(str(error), field=f"chain.{i}") from None
        if state.turn != spec.turn:
            raise InputError(
                "the chain is complete: give the next turn's position instead",
                field=f"chain.{i}",
            )
    return state


def _counts(values: Resources) -> dict[str, int]:
    return {name: n for name, n in zip(ELEMENTS, values, strict=True) if n}


def state_to_data(state: AkelarreState) -> dict[str, Any]:
    """A position file, with the messages of the chain so far."""
    return {
        "format": "asterion.akelarre-state/1",
        "players": state.rules.players,
        "turn": state.turn,
        "first": state.first,
        "supply": {name: n for name, n in zip(ELEMENTS, state.supply, strict=True)},
        "well": _counts(state.well),
        "public": state.public,
        "seats": [
            {
                "resources": _counts(b.resources),
                "private": b.private,
                "completed": list(b.completed),
                "powers": list(b.powers),
            }
            for b in state.seats
        ],
        "objective_deck": list(state.objective_deck),
        "power_deck": list(state.power_deck),
        "chain": [
            {"seat": seat, "destination": destination_name(m.destination), "to": m.to}
            for seat, m in state.chain
        ],
    }
