"""A played Aster game as a record (``asterion.aster-game/1``): the start, then each turn's
moves in words, as a player would type them.

.. code-block:: json

    {"format": "asterion.aster-game/1", "players": ["red", "blue"], "seed": 0,
     "turns": [["generate C", "move_line C 2N"],
               ["generate 1SE", "move_ring 3NW 3E", "move_line 2NW 4SE", "claim Tri"],
               []]}

The start is the opening of a game of ``players`` (default red and blue) whose decks are
shuffled by ``seed``, or a position given whole as ``start`` (a STATE document). Each turn
lists the active player's moves in order; the turn ends after its last move (an empty list
passes), with no time on the hourglass. A move is

- an action: its symbol, then its point (``generate C``) or its two points
  (``move_line C 2N``, ``nudge 3N 3NE``); ``supernova``, ``black_hole`` and ``victory_point``
  alone; ``gravity small 0`` (the deck, then the host card's index in the row, from 0). It
  takes the earliest slot left in the turn's action list that can do it;
- a claim, last: ``claim Tri`` on the present placement with the most of the player's own
  stars (A9), or ``claim Tri 1NE 4NE 3N`` on those points.

Every move is applied by the rules engine; one it refuses is an input error naming the turn
and the move (``turns.2.1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import IllegalActionError, InputError
from asterion.models.aster import (
    Action,
    AsterState,
    Claim,
    Color,
    EndTurn,
    Move,
    apply,
    claims,
    slot_actions,
)
from asterion.models.aster_cards import ActionKind
from asterion.models.aster_files import state_from_data
from asterion.models.files import read_json_file, read_json_text, validate

MAX_RECORD_TURNS = 400
"""Turns a record may hold: a real game ends when a row reaches 8 cards, far sooner."""
MAX_TURN_MOVES = 60
"""Moves a turn may hold (the action list's slots and a claim)."""
DEMO_GAME = "aster_demo_game.json"
"""The shipped example record: four turns of a 2-player game (``asterion aster review``)."""


class _RecordSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.aster-game/1"] = "asterion.aster-game/1"
    start: dict[str, Any] | None = None
    players: list[Color] | None = Field(None, min_length=1, max_length=4)
    seed: int = Field(0, ge=0, le=2**31 - 1)
    turns: list[list[Annotated[str, Field(max_length=200)]]] = Field(max_length=MAX_RECORD_TURNS)


@dataclass(frozen=True)
class PlayedTurn:
    """One turn as the record plays it: the state before each move, the moves, and the
    state after the last one (before the turn ends)."""

    states: tuple[AsterState, ...]
    moves: tuple[Move, ...]

    @property
    def before(self) -> AsterState:
        return self.states[0]

    @property
    def after(self) -> AsterState:
        return self.states[-1]

    @property
    def claim(self) -> tuple[Claim, AsterState] | None:
        """The turn's claim and the state it was made in, if it made one."""
        for move, state in zip(self.moves, self.states, strict=False):
            if isinstance(move, Claim):
                return move, state
        return None


@dataclass(frozen=True)
class GameRecord:
    start: AsterState
    turns: tuple[PlayedTurn, ...]
    words: tuple[tuple[str, ...], ...]
    """Each turn's moves as the record wrote them."""


def load_record(path: Path | str) -> GameRecord:
    """Read and replay a record. :raises InputError: naming the file, the field and the
    problem (a move the rules engine refuses included)."""
    return record_from_data(read_json_file(path), str(path))


def demo_record() -> GameRecord:
    """The shipped example record."""
    text = resources.files("asterion.data").joinpath(DEMO_GAME).read_text("utf-8")
    return record_from_data(read_json_text(text, DEMO_GAME), DEMO_GAME)


def record_from_data(data: Any, source: str) -> GameRecord:
    spec = validate(_RecordSpec, data, source)
    if spec.start is not None and spec.players is not None:
        raise InputError(
            "give the players or a start position, not both", source=source, field="players"
        )
    if spec.start is not None:
        start = state_from_data(spec.start, source)
    else:
        players = tuple(spec.players or (Color.RED, Color.BLUE))
        try:
            start = AsterState.new_game(players, seed=spec.seed)
        except InputError as error:
            raise InputError(error.problem, source=source, field="players") from None
    state, turns = start, []
    for t, words in enumerate(spec.turns):
        if len(words) > MAX_TURN_MOVES:
            raise InputError(
                f"{len(words)} moves in one turn; the limit is {MAX_TURN_MOVES}",
                source=source,
                field=f"turns.{t}",
            )
        if state.is_over:
            raise InputError("the game is over before this turn", source=source, field=f"turns.{t}")
        played = _play_turn(state, words, source, f"turns.{t}")
        turns.append(played)
        state = apply(played.after, EndTurn())
    return GameRecord(start, tuple(turns), tuple(tuple(w) for w in spec.turns))


def _play_turn(state: AsterState, words: list[str], source: str, field: str) -> PlayedTurn:
    states, moves = [state], []
    for i, text in enumerate(words):
        try:
            move = parse_move(state, text)
            state = apply(state, move)
        except (InputError, IllegalActionError) as error:
            problem = error.problem if isinstance(error, InputError) else str(error)
            raise InputError(problem, source=source, field=f"{field}.{i}") from None
        moves.append(move)
        states.append(state)
    return PlayedTurn(tuple(states), tuple(moves))


def parse_move(state: AsterState, text: str) -> Move:
    """The move ``text`` names in ``state`` (see the module docstring).

    :raises InputError: for words that name no move, or a move no slot left can make.
    """
    words = text.split()
    if not words:
        raise InputError("an empty move")
    head, rest = words[0].lower(), words[1:]
    if head == "claim":
        return _claim(state, rest)
    try:
        kind = ActionKind(head)
    except ValueError:
        raise InputError(
            f"unknown move {words[0]!r} (an action symbol such as generate or move_line, or claim)"
        ) from None
    _check_details(state, kind, rest)
    action = find_action(state, kind, rest)
    if action is None:
        raise InputError(f"no slot left this turn can do {text.strip()!r}")
    return action


ARGUMENTS = {
    ActionKind.GENERATE: ("POINT",),
    ActionKind.GENERATE_TARGETED: ("POINT",),
    ActionKind.MOVE_LINE: ("FROM", "TO"),
    ActionKind.MOVE_RING: ("FROM", "TO"),
    ActionKind.NUDGE: ("FROM", "TO"),
    ActionKind.GRAVITY: ("small|large", "HOST"),
}
"""What follows each action's symbol in a record (nothing for the others)."""


def _check_details(state: AsterState, kind: ActionKind, details: list[str]) -> None:
    """Words that cannot name an action of ``kind`` at all, refused as what is wrong with
    them rather than as "no slot can do it"."""
    wanted = ARGUMENTS.get(kind, ())
    if len(details) != len(wanted):
        form = " ".join([kind.value, *wanted])
        raise InputError(f"{kind.value} is written '{form}'")
    if kind is ActionKind.GRAVITY:
        return
    unknown = [w for w in details if w.upper() not in state.board.index]
    if unknown:
        raise InputError(f"unknown point {unknown[0]!r} (a name like 2NE, 4S or C)")


def find_action(state: AsterState, kind: ActionKind | None, details: list[str]) -> Action | None:
    """The earliest remaining slot's action of ``kind`` (any kind: None) that does what
    ``details`` say: a point, two points (a move's ends), a deck and a host index, or nothing."""
    wanted = [w.upper() if w.upper() in state.board.index else w.lower() for w in details]
    for slot in state.remaining_slots():
        if kind is not None and state.actions[slot] is not kind:
            continue
        for action in slot_actions(state, slot):
            if _details(action) == wanted:
                return action
    return None


def typed(action: Action) -> str:
    """What a player writes for ``action``: its symbol, then its point(s), or its deck and
    host."""
    return " ".join([action.kind.value, *_details(action)])


def _details(action: Action) -> list[str]:
    """What a player writes after the symbol of ``action``."""
    if action.deck is not None:
        return [action.deck.value, str(action.host)]
    return [p for p in (action.point, action.origin, action.target) if p is not None]


def _claim(state: AsterState, words: list[str]) -> Claim:
    if not words:
        raise InputError("claim what? (claim ABBR [POINT ...])")
    abbr, points = words[0], frozenset(w.upper() for w in words[1:])
    present = [c for c in claims(state) if c.abbr == abbr]
    if not present:
        if abbr not in state.offer:
            raise InputError(f"{abbr} is not face up (face up: {', '.join(state.offer)})")
        raise InputError(f"{abbr} is not present on the board")
    if points:
        chosen = [c for c in present if c.points == points]
        if not chosen:
            raise InputError(f"{abbr} is not present on {' '.join(sorted(points))}")
        return chosen[0]
    player = state.player
    return max(present, key=lambda c: sum(1 for p in c.points if state.star_at(p) is player))
