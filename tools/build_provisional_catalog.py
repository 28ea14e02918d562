"""Writes src/asterion/data/aster_cards_provisional.json: the provisional, hand-drawn catalog.

The seed prints neither the board nor the cards. Before the real catalog was built from star
positions (tools/build_catalog.py), this script shipped 14 cards whose patterns are rough,
hand-drawn sketches of well-known figures snapped to the default board, plus the standard
Big and Bang cards (A6). Actions and links are assigned by hand to cover every action kind.
Kept as ``provisional_catalog()`` for the tests and benchmarks written against its patterns.
Run it again to rebuild the file byte for byte: ``python tools/build_provisional_catalog.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

BOTH = {"left": True, "right": True, "up": False, "down": False}
BOTH_DOWN = {"left": True, "right": True, "up": False, "down": True}
BOTH_UP = {"left": True, "right": True, "up": True, "down": False}
LEFT_ONLY = {"left": True, "right": False, "up": False, "down": False}
RIGHT_ONLY = {"left": False, "right": True, "up": False, "down": False}

# (abbr, name, pattern, actions, links)
SMALL = [
    ("CMi", "Canis Minor", [[0, 0], [1, 1]], ["victory_point"], BOTH),
    ("Tri", "Triangulum", [[0, 0], [1, 0], [1, 1]], ["generate_targeted"], BOTH),
    ("Ari", "Aries", [[0, 0], [1, 0], [2, 1]], ["move_ring", "victory_point"], RIGHT_ONLY),
    ("Sge", "Sagitta", [[0, 0], [1, 0], [2, 0], [3, 0]], ["move_line"], BOTH_DOWN),
    ("Cru", "Crux", [[0, 1], [0, -1], [-1, 0], [1, 0]], ["nudge", "black_hole"], BOTH),
    ("Lyr", "Lyra", [[0, 2], [0, 1], [1, 1], [1, 0]], ["generate"], LEFT_ONLY),
    ("Mus", "Musca", [[0, 0], [1, 1], [2, 2], [2, 0]], ["gravity", "nudge"], BOTH_UP),
]
LARGE = [
    (
        "Cas",
        "Cassiopeia",
        [[-2, 0], [-1, 1], [0, 0], [1, 1], [2, 0]],
        ["supernova", "generate"],
        BOTH,
    ),
    (
        "CrB",
        "Corona Borealis",
        [[-2, 0], [-1, -1], [0, -1], [1, -1], [2, 0]],
        ["generate_targeted", "move_ring"],
        BOTH_DOWN,
    ),
    (
        "Del",
        "Delphinus",
        [[0, 0], [1, 1], [2, 0], [1, -1], [-1, -1]],
        ["black_hole", "move_line"],
        BOTH,
    ),
    (
        "Cyg",
        "Cygnus",
        [[0, 2], [0, 1], [0, 0], [0, -1], [-1, 0], [1, 0]],
        ["move_line", "nudge", "victory_point"],
        BOTH,
    ),
    (
        "Leo",
        "Leo",
        [[-3, 0], [-1, 0], [0, 0], [0, 1], [1, 1], [3, 0]],
        ["gravity", "generate"],
        BOTH_UP,
    ),
    (
        "Ori",
        "Orion",
        [[-2, 2], [2, 2], [-1, 0], [0, 0], [1, 0], [-2, -2], [2, -2]],
        ["generate_targeted", "move_line", "supernova"],
        BOTH,
    ),
    (
        "UMa",
        "Ursa Major",
        [[-3, 3], [-2, 2], [-1, 1], [0, 0], [1, 0], [1, -1], [0, -1]],
        ["move_ring", "nudge", "generate"],
        LEFT_ONLY,
    ),
]
BASE = [
    ("Big", "Big", [], ["generate", "move_ring"], RIGHT_ONLY),  # A6, standard side
    ("Bang", "Bang", [], ["move_line", "nudge"], BOTH),
]

PROVENANCE = (
    "Provisional catalog, hand-drawn for asterion (tools/build_provisional_catalog.py): "
    "patterns are rough sketches of the named figures, not real star positions; actions and "
    "links are assumptions. Big and Bang follow rules/aster.md A6 (standard side)."
)


def card(
    abbr: str,
    name: str,
    pattern: list[list[int]],
    actions: list[str],
    links: dict[str, bool],
    deck: str,
) -> dict[str, object]:
    return {
        "abbr": abbr,
        "name": name,
        "deck": deck,
        "points": len(pattern),
        "pattern": pattern,
        "actions": actions,
        "links": links,
    }


def main() -> None:
    cards = [card(*row, deck="base") for row in BASE]
    cards += [card(*row, deck="small") for row in SMALL]
    cards += [card(*row, deck="large") for row in LARGE]
    data = Path(__file__).resolve().parent.parent / "src" / "asterion" / "data"
    out = data / "aster_cards_provisional.json"
    out.write_text(json.dumps({"provenance": PROVENANCE, "cards": cards}, indent=1) + "\n")
    print(f"wrote {out} ({len(cards)} cards)")


if __name__ == "__main__":
    main()
