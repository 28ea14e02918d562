"""``asterion stellar …``: scoring, solo puzzles, move advice and self-play."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from asterion.cli._common import console, print_json, reports_input_errors
from asterion.models.stellar import Score, StellarState
from asterion.models.stellar_cards import Deck, load_deck
from asterion.models.stellar_files import load_game
from asterion.solver.stellar_score import score_position

app = typer.Typer(
    help="Stellar: a two-player telescope and notebook card game.", no_args_is_help=True
)

JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document instead of a summary.")
]
DeckOpt = Annotated[
    Path | None,
    typer.Option(
        "--deck", metavar="FILE", help="A deck JSON file (default: the shipped deck, S2)."
    ),
]


def score_to_data(result: Score) -> dict[str, Any]:
    return {
        "total": result.total,
        "types": {kind.value: points for kind, points in result.types.items()},
        "sections": dict(result.sections),
        "diversity": result.diversity,
        "choices": {
            card: {"type": kind.value, "number": number}
            for card, (kind, number) in sorted(result.choices.items())
        },
    }


def _winner(scores: tuple[Score, Score]) -> int | None:
    first, second = scores[0].total, scores[1].total
    return None if first == second else (0 if first > second else 1)


def _load(game: Path, deck_file: Path | None) -> StellarState:
    deck: Deck | None = load_deck(deck_file) if deck_file is not None else None
    return load_game(game, deck)


@app.command()
@reports_input_errors
def score(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="A GAME JSON file.")],
    deck_file: DeckOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Score a position exactly: the free choices (0/6 as 0 or 6, each satellite's type) are
    made by CP-SAT, checked by re-scoring.

    Example: `asterion stellar score game.json --json`.
    """
    state = _load(game, deck_file)
    scores = score_position(state)
    seats = 1 if state.rules.is_solo else 2
    if json_out:
        document: dict[str, Any] = {"players": [score_to_data(s) for s in scores[:seats]]}
        if seats == 2:
            document["winner"] = _winner(scores)
        print_json(document)
        return
    for player, result in enumerate(scores[:seats]):
        types = ", ".join(
            f"{kind.value} {points}" for kind, points in result.types.items() if points
        )
        sections = ", ".join(f"{name} {points}" for name, points in result.sections.items())
        console.print(f"player {player + 1}: {result.total}")
        console.print(f"  types: {types or 'none'}")
        console.print(f"  sections: {sections}; diversity {result.diversity}")
        for card, (kind, number) in sorted(result.choices.items()):
            console.print(f"  {card} read as {kind.value} {number}")
    if seats == 2:
        winner = _winner(scores)
        console.print("a tie: the win is shared" if winner is None else f"player {winner + 1} wins")
