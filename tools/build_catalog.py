"""Writes src/asterion/data/aster_cards.json: the Aster catalog from real star figures.

For each constellation of ``sky.json`` (88 IAU, then the 5 obsolete ones) its chosen stars are
projected gnomonically around their centre and snapped onto the default board by
``asterion.solver.sky_snap.snap`` (CP-SAT, least distortion after the best similarity fit;
deterministic time limit, one worker). The card:

* ``pattern``: the board points the stars landed on, brightest star first (board coordinates,
  so the pattern always has the identity placement);
* ``points`` = number of stars; ``deck``: ``small`` for 2-4 stars, ``large`` for 5 or more,
  ``obsolete`` for the 5 obsolete constellations;
* ``actions`` and ``links`` by the rule below (an assumption: the seed prints no cards).

ACTION RULE. A card has 1 action with 2-4 stars, 2 with 5-7, 3 with 8 or more (obsolete cards:
3). Cards are dealt actions in catalog order from the repeating cycle :data:`ACTION_CYCLE`
(12 symbols: generate, move_line and nudge twice, every other kind once), skipping a kind the
card already has; so every kind gets a steady share and no card repeats a symbol.

LINK RULE. Every constellation card has ``left`` (it can join a row). ``right`` is missing on
every 4th card in catalog order (k % 4 == 3), which ends a row. ``up`` on k % 6 == 1 and
``down`` on k % 6 == 4: a third of the cards can host an aggregated card (``gravity``).

BASE CARDS (A6, standard side): Big = [generate, move_ring] with a right link only,
Bang = [move_line, nudge] with left and right. The game has 4 of each (one per player), all
alike, so the catalog lists each once (abbreviations are unique).

Run: ``python tools/build_catalog.py`` (byte-identical on a second run).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from asterion.models.aster_board import Board
from asterion.models.aster_cards import SMALL_DECK_STARS
from asterion.models.sky import default_sky
from asterion.solver.sky_snap import DEFAULT_DETERMINISTIC_LIMIT, snap

OUT = Path(__file__).resolve().parent.parent / "src" / "asterion" / "data" / "aster_cards.json"

ACTION_CYCLE = (
    "generate",
    "move_line",
    "nudge",
    "move_ring",
    "generate_targeted",
    "victory_point",
    "move_line",
    "nudge",
    "black_hole",
    "generate",
    "supernova",
    "gravity",
)

BASE = [
    {
        "abbr": "Big",
        "name": "Big",
        "deck": "base",
        "points": 0,
        "pattern": [],
        "actions": ["generate", "move_ring"],
        "links": {"left": False, "right": True, "up": False, "down": False},
    },
    {
        "abbr": "Bang",
        "name": "Bang",
        "deck": "base",
        "points": 0,
        "pattern": [],
        "actions": ["move_line", "nudge"],
        "links": {"left": True, "right": True, "up": False, "down": False},
    },
]


def action_count(stars: int, obsolete: bool) -> int:
    if obsolete or stars >= 8:
        return 3
    return 2 if stars > SMALL_DECK_STARS[1] else 1


class ActionDealer:
    """Deals actions from :data:`ACTION_CYCLE` in order, skipping kinds a card already has."""

    def __init__(self) -> None:
        self.position = 0

    def deal(self, count: int) -> list[str]:
        actions: list[str] = []
        while len(actions) < count:
            kind = ACTION_CYCLE[self.position % len(ACTION_CYCLE)]
            self.position += 1
            if kind not in actions:
                actions.append(kind)
        return actions


def links(k: int) -> dict[str, bool]:
    return {"left": True, "right": k % 4 != 3, "up": k % 6 == 1, "down": k % 6 == 4}


def deck(stars: int, obsolete: bool) -> str:
    if obsolete:
        return "obsolete"
    return "small" if stars <= SMALL_DECK_STARS[1] else "large"


def main(out: Path = OUT) -> None:
    board = Board()
    dealer = ActionDealer()
    cards: list[dict[str, Any]] = list(BASE)
    report = []
    for k, con in enumerate(default_sky().constellations):
        result = snap(board, con.plane())
        assert result.value is not None and result.objective is not None
        stars = len(con.stars)
        cards.append(
            {
                "abbr": con.abbr,
                "name": con.name,
                "deck": deck(stars, con.obsolete),
                "points": stars,
                "pattern": [list(xy) for xy in result.value],
                "actions": dealer.deal(action_count(stars, con.obsolete)),
                "links": links(k),
            }
        )
        report.append(
            f"{con.abbr:4} {stars} stars  D={result.objective:.5f}  "
            f"{result.status.value:8} bound={result.bound or 0:.5f}"
        )
        print(report[-1], file=sys.stderr, flush=True)
    provenance = (
        "Real star figures (tools/build_catalog.py): each constellation's chosen stars from "
        "sky.json (Hipparcos 2 positions, IAU membership; see docs/data.md) projected "
        "gnomonically and snapped onto the default board by CP-SAT (least distortion after "
        f"the best similarity fit, deterministic limit {DEFAULT_DETERMINISTIC_LIMIT} per card). "
        "Actions and links follow a documented deterministic rule (an assumption: the seed "
        "prints no cards). Big and Bang: rules/aster.md A6, standard side."
    )
    out.write_text(json.dumps({"provenance": provenance, "cards": cards}, indent=1) + "\n")
    print(f"wrote {out} ({len(cards)} cards)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
