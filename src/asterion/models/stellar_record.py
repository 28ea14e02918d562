"""A played two-player Stellar game as a record (``asterion.stellar-record/1``): the deal,
then every move in the words the toolkit prints for it.

.. code-block:: json

    {"format": "asterion.stellar-record/1", "deal": 3,
     "moves": ["take 2, play P3s to telescope 2", "take 5, play M1a to notebook, second card
                to telescope 3", "keep the display", "final note: play C4b to notebook"]}

The start is the game :meth:`StellarState.new_game` deals from ``deal`` (the deal ``stellar
advise --deal`` and self-play use), or a position given whole as ``start`` (a GAME document,
``asterion.stellar-game/1``, with the deck in order). Once a game is over its hidden cards
are known, so a record holds them all. The moves are those of whoever decides, in order:

- a turn: ``take T, play CARD to telescope S`` or ``... to notebook``, followed by
  ``, second card to telescope S`` when the second card goes to the telescope;
- after a satellite left the display, the opponent's answer: ``deal the display anew`` or
  ``keep the display``;
- at the end: ``final note: play CARD to notebook``; and ``pass`` when nothing is legal.

Case and spacing do not matter. A record may stop before the game's end. Every move is
checked by the rules engine; one it refuses is an input error naming the move
(``moves.4``) and a few of the moves legal there.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.files import read_json_file, read_json_text, replay_words, validate
from asterion.models.stellar import Move, StellarRules, StellarState, apply, legal_moves
from asterion.models.stellar_cards import Deck
from asterion.models.stellar_files import game_from_data

DEMO_GAME = "stellar_demo_game.json"
"""The shipped example record (``asterion stellar review``)."""
MAX_RECORD_MOVES = 200
"""Moves a record may hold: a game has 22 turns, a few display answers and two final notes."""
SHOWN_LEGAL = 6
"""Legal moves an error lists."""


class _RecordSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["asterion.stellar-record/1"] = "asterion.stellar-record/1"
    deal: int | None = Field(None, ge=0, le=2**63 - 1)
    start: dict[str, Any] | None = None
    moves: list[Annotated[str, Field(max_length=200)]] = Field(max_length=MAX_RECORD_MOVES)


@dataclass(frozen=True)
class GameRecord:
    states: tuple[StellarState, ...]
    """The state before each move, then the state after the last."""
    moves: tuple[Move, ...]

    @property
    def end(self) -> StellarState:
        return self.states[-1]


def load_record(path: Path | str, deck: Deck | None = None) -> GameRecord:
    """Read and replay a record with ``deck``'s cards (the shipped deck by default).

    :raises InputError: naming the file and the field.
    """
    return record_from_data(read_json_file(path), str(path), deck)


def demo_data() -> Any:
    """The shipped example record's data."""
    text = resources.files("asterion.data").joinpath(DEMO_GAME).read_text("utf-8")
    return read_json_text(text, DEMO_GAME)


def record_from_data(data: Any, source: str, deck: Deck | None = None) -> GameRecord:
    spec = validate(_RecordSpec, data, source)
    if spec.deal is not None and spec.start is None:
        rules = StellarRules() if deck is None else StellarRules(deck=deck)
        start = StellarState.new_game(rules, seed=spec.deal)
    elif spec.start is not None and spec.deal is None:
        start = game_from_data(spec.start, f"{source}: start", deck)
        if start.rules.is_solo:
            raise InputError("a record is of a two-player game", source=source, field="start")
    else:
        raise InputError("give the deal or a start position (one of them)", source=source)
    states, moves = replay_words(start, spec.moves, parse_move, apply, source)
    return GameRecord(tuple(states), tuple(moves))


def _plain(text: str) -> str:
    return " ".join(text.lower().replace(",", " , ").split())


def parse_move(state: StellarState, text: str) -> Move:
    """The legal move of ``state`` that ``text`` names (as ``str(move)`` prints it).

    :raises InputError: when no legal move reads so (a few legal ones are listed).
    """
    if state.is_over:
        raise InputError("the game is over")
    wanted = _plain(text)
    legal = list(legal_moves(state))
    for move in legal:
        if _plain(str(move)) == wanted:
            return move
    shown = "; ".join(str(m) for m in legal[:SHOWN_LEGAL])
    more = f" and {len(legal) - SHOWN_LEGAL} more" if len(legal) > SHOWN_LEGAL else ""
    raise InputError(f"not a legal move here: {text.strip()!r} (legal: {shown}{more})")


def record_data(deal: int, moves: list[Move]) -> dict[str, Any]:
    """A record of ``moves`` played from the game dealt by ``deal``."""
    return {
        "format": "asterion.stellar-record/1",
        "deal": deal,
        "moves": [str(move) for move in moves],
    }
