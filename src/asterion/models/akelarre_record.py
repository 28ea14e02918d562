"""A played Akelarre game as a record (``asterion.akelarre-game/1``): the start, then each
turn's message chain in words.

.. code-block:: json

    {"format": "asterion.akelarre-game/1", "players": 3, "seed": 4, "first": 1,
     "turns": [["fire to 2", "earth to 0", "water"],
               ["well to 0", "air to 1", "air"]]}

The start is a new game of ``players`` players dealt by ``seed`` (``AkelarreState.new_game``;
default 0; ``first``, the first player, is drawn by the seed unless given), or a position
given whole as ``start`` (an ``asterion.akelarre-state/1`` document with no chain; then no
``players``, ``seed`` or ``first``). Each turn lists its messages in the order they were
given (rules/akelarre.md, "Turn", step 1): the destination, then ``to`` and the opponent the
card was handed to (``earth to 2``); the last message of the chain is placed directly
(``water``). In a two-player game the virtual player's message opens each turn, and its
recipient, fixed by K8, may be left out (``fire``). Destinations may be capitalised.

A record may stop before the game's end, but each turn it lists is whole (one message per
seat). Every message is applied by the rules engine; one it refuses is an input error naming
the turn and the message (``turns.2.1``) and the messages legal there.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.akelarre import (
    DEFAULT_TURNS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    AkelarreRules,
    AkelarreState,
    Message,
    TurnReport,
    apply_with_report,
    destination_name,
    is_chance_node,
    legal_actions,
    parse_destination,
    virtual_target,
    why_illegal,
)
from asterion.models.akelarre_files import state_from_data, state_to_data
from asterion.models.files import read_json_file, read_json_text, validate

DEMO_GAME = "akelarre_demo_game.json"
"""The shipped example record (``asterion akelarre review``)."""
MAX_RECORD_TURNS = 10 * DEFAULT_TURNS
"""Turns a record may hold: far more than any rules' turn count a user would set."""


class _RecordSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.akelarre-game/1"] = "asterion.akelarre-game/1"
    players: int | None = Field(None, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    first: int | None = Field(None, ge=0, lt=MAX_PLAYERS)
    start: dict[str, Any] | None = None
    turns: list[
        Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=MAX_PLAYERS)]
    ] = Field(max_length=MAX_RECORD_TURNS)


@dataclass(frozen=True)
class PlayedTurn:
    """One turn as the record plays it: the state before each message (the chain so far, the
    seat choosing), the messages, and the turn's report."""

    states: tuple[AkelarreState, ...]
    messages: tuple[Message, ...]
    report: TurnReport
    after: AkelarreState
    """The next turn's start (or the game's end)."""

    @property
    def start(self) -> AkelarreState:
        return self.states[0]


@dataclass(frozen=True)
class GameRecord:
    start: AkelarreState
    turns: tuple[PlayedTurn, ...]
    end: AkelarreState
    """The state after the last turn listed (the game's end if the record is complete)."""


def record_players(data: Any) -> int | None:
    """The player count a record's data names, if it names a valid one (so the tables of
    that count can be built before the record is read whole)."""
    if not isinstance(data, dict):
        return None
    start = data.get("start")
    counted = start.get("players") if isinstance(start, dict) else data.get("players")
    return counted if isinstance(counted, int) and MIN_PLAYERS <= counted <= MAX_PLAYERS else None


def load_record(path: Path | str, rules: AkelarreRules | None = None) -> GameRecord:
    """Read and replay a record; ``rules`` supplies the tables (the shipped ones for the
    record's player count by default). :raises InputError: naming the file and the field."""
    return record_from_data(read_json_file(path), str(path), rules)


def demo_data() -> Any:
    """The shipped example record's data."""
    text = resources.files("asterion.data").joinpath(DEMO_GAME).read_text("utf-8")
    return read_json_text(text, DEMO_GAME)


def record_from_data(data: Any, source: str, rules: AkelarreRules | None = None) -> GameRecord:
    spec = validate(_RecordSpec, data, source)
    start = _start(spec, source, rules)
    state, turns = start, []
    for t, words in enumerate(spec.turns):
        if state.is_over:
            raise InputError("the game is over before this turn", source=source, field=f"turns.{t}")
        played = _play_turn(state, words, source, f"turns.{t}")
        turns.append(played)
        state = played.after
    return GameRecord(start, tuple(turns), state)


def _start(spec: _RecordSpec, source: str, rules: AkelarreRules | None) -> AkelarreState:
    if spec.start is not None:
        given = [name for name in ("players", "seed", "first") if getattr(spec, name) is not None]
        if given:
            raise InputError(
                "give players (with seed and first) or a start position, not both",
                source=source,
                field=given[0],
            )
        state = state_from_data(spec.start, f"{source}: start", rules)
        if state.chain:
            raise InputError(
                "the start must be at a turn's beginning (no chain)", source=source, field="start"
            )
        return state
    if spec.players is None:
        raise InputError("give the players (2-5) or a start position", source=source)
    if rules is None:
        rules = AkelarreRules.default(spec.players)
    elif rules.players != spec.players:
        raise InputError(
            f"the record is for {spec.players} players, the rules for {rules.players}",
            source=source,
            field="players",
        )
    try:
        return AkelarreState.new_game(rules, seed=spec.seed or 0, first=spec.first)
    except InputError as error:
        raise InputError(error.problem, source=source, field=error.field) from None


def _play_turn(state: AkelarreState, words: list[str], source: str, field: str) -> PlayedTurn:
    seats = state.rules.seats
    if len(words) != seats:
        raise InputError(
            f"a turn's chain has {seats} messages, one per seat"
            + (" (the virtual player's first)" if state.rules.has_virtual else "")
            + f", not {len(words)}",
            source=source,
            field=field,
        )
    states, messages, report = [state], [], None
    for i, text in enumerate(words):
        try:
            message = parse_message(state, text)
            state, report = apply_with_report(state, message)
        except InputError as error:
            raise InputError(error.problem, source=source, field=f"{field}.{i}") from None
        messages.append(message)
        states.append(state)
    assert report is not None  # (a whole chain ends the turn)
    return PlayedTurn(tuple(states[:-1]), tuple(messages), report, state)


def message_words(message: Message) -> str:
    """How a record writes ``message``."""
    where = destination_name(message.destination)
    return where if message.to is None else f"{where} to {message.to}"


def parse_message(state: AkelarreState, text: str) -> Message:
    """The message ``text`` names for the seat choosing in ``state``, checked by the rules
    engine.

    :raises InputError: for words naming no message, or an illegal one (the problem says
        why, and which messages are legal).
    """
    words = text.lower().split()
    if len(words) == 1:
        to = virtual_target(state.turn) if is_chance_node(state) else None
    elif len(words) == 3 and words[1] == "to" and words[2].isdecimal():
        to = int(words[2])
    else:
        raise InputError(f"not a message: {text.strip()!r} (DESTINATION, or DESTINATION to SEAT)")
    message = Message(parse_destination(words[0]), to)
    if message not in set(legal_actions(state)):
        legal = ", ".join(message_words(m) for m in legal_actions(state))
        problem = why_illegal(state, message)
        raise InputError(f"seat {state.holder}: {text.strip()}: {problem} (legal: {legal})")
    return message


def record_data(
    start: AkelarreState, chains: list[list[Message]], seed: int | None = None
) -> dict[str, Any]:
    """A record of the turns ``chains`` played from ``start``: a new game's players, seed and
    first player when ``seed`` dealt it, else the start position whole."""
    head: dict[str, Any] = {"format": "asterion.akelarre-game/1"}
    if seed is None:
        head["start"] = state_to_data(start)
    else:
        head |= {"players": start.rules.players, "seed": seed, "first": start.first}
    return head | {"turns": [[message_words(m) for m in chain] for chain in chains]}
