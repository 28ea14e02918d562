"""A played Nacht der Sterne game as a record (``asterion.nacht-game/1``): a draw order file's
fields (the tile set or practice sky, the order or deal, the rules) and the moves in words.

.. code-block:: json

    {"format": "asterion.nacht-game/1", "practice": {"width": 3, "height": 4, "seed": 1},
     "deal": 7, "moves": ["lay T05", "pass", "decline", "pass", "no-knock"]}

Two players; the moves are those of whoever decides, in order: ``lay ID`` (the drawn tile
or a display tile), ``decline``, ``pass``, ``knock ID`` and ``no-knock`` (rules/nacht.md,
"Play"; docs/nacht.md, "The rules engine"). The draw order is known once the game is over,
which is what makes an exact post-mortem possible (:mod:`asterion.solver.nacht_review`).
A record may stop before the game's end. Every move is applied by the rules engine; one it
refuses is an input error naming the move (``moves.4``) and the legal moves there.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from asterion.errors import InputError
from asterion.models.files import read_json_file, read_json_text, replay_words, validate
from asterion.models.nacht_game import (
    Decline,
    Knock,
    Lay,
    Move,
    NachtState,
    NoKnock,
    Pass,
    apply,
    is_legal,
    legal_moves,
    why_illegal,
)
from asterion.models.nacht_game_files import MAX_TILES, OrderSpec

DEMO_GAME = "nacht_demo_game.json"
MAX_GAME_MOVES = 12 * MAX_TILES
"""Moves a record may hold: each tile is drawn, laid or declined and knocked over a few
times at most."""


class GameSpec(OrderSpec):
    """The schema of a game record: an order file's fields and the moves."""

    format: Literal["asterion.nacht-game/1"] = "asterion.nacht-game/1"  # type: ignore[assignment]
    moves: list[Annotated[str, Field(max_length=100)]] = Field(max_length=MAX_GAME_MOVES)


def read_game(path: Path | str) -> GameSpec:
    """:raises InputError: naming the file and the field."""
    return validate(GameSpec, read_json_file(path), str(path))


def demo_game() -> GameSpec:
    """The shipped example record: ``greedy`` (seat 1) against ``denial`` (seat 2) on deal 7
    of the 3x4 practice sky of seed 1, best-play's example."""
    text = resources.files("asterion.data").joinpath(DEMO_GAME).read_text("utf-8")
    return validate(GameSpec, read_json_text(text, DEMO_GAME), DEMO_GAME)


def move_words(move: Move, state: NachtState) -> str:
    """How a record writes ``move``."""
    ids = state.sky.tile_ids
    if isinstance(move, Lay):
        return f"lay {ids[move.tile]}"
    if isinstance(move, Knock):
        return f"knock {ids[move.tile]}"
    return {Decline: "decline", Pass: "pass", NoKnock: "no-knock"}[type(move)]


def parse_move(state: NachtState, text: str) -> Move:
    """The move ``text`` names, checked by the rules engine.

    :raises InputError: for words naming no move, an unknown tile, or an illegal move (the
        problem says why, and which moves are legal).
    """
    words = text.split()
    plain: dict[str, Move] = {"decline": Decline(), "pass": Pass(), "no-knock": NoKnock()}
    if len(words) == 1 and words[0].lower() in plain:
        move: Move = plain[words[0].lower()]
    elif len(words) == 2 and words[0].lower() in ("lay", "knock"):
        ids = state.sky.tile_ids
        if words[1] not in ids:
            raise InputError(f"no tile {words[1]!r} in the sky")
        cell = ids.index(words[1])
        move = Lay(cell) if words[0].lower() == "lay" else Knock(cell)
    else:
        raise InputError(
            f"not a move: {text.strip()!r} (lay ID, decline, pass, knock ID or no-knock)"
        )
    if not is_legal(state, move):
        legal = ", ".join(move_words(m, state) for m in legal_moves(state)) or "none"
        raise InputError(f"{text.strip()}: {why_illegal(state, move)} (legal: {legal})")
    return move


def replay(start: NachtState, words: list[str], source: str) -> tuple[list[NachtState], list[Move]]:
    """The moves ``words`` name, and the state before each, then the state after the last.

    :raises InputError: naming the file and the move (``moves.i``).
    """
    return replay_words(start, words, parse_move, apply, source)
