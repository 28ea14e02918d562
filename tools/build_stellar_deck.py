"""Writes src/asterion/data/stellar_deck.json: the default Stellar deck (rule S2, a guess).

Reviews say the game has 60 celestial cards, 5 of them starters (diamond mark). The seed gives
neither the distribution of types and numbers nor the stars, so this deck is a documented guess
that keeps the seed's facts: five types and wild satellites, numbers 1-5 and "0/6", 0-3 stars.

Per type (11 cards): one starter numbered 3 with 1 star, and numbers 0/6, 1, 1, 2, 2, 4, 4, 5, 5,
3 with stars 3, 2, 0, 1, 0, 1, 0, 2, 0, 1 (low cards and the 0/6 carry the most stars). Five
satellites, numbered 1-5, carry no stars. Run it again to rebuild the file byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

TYPES = [
    ("planet", "P"),
    ("moon", "M"),
    ("asteroid", "A"),
    ("interstellar_cloud", "C"),
    ("black_hole", "B"),
]
NUMBERS = ["0/6", 1, 1, 2, 2, 4, 4, 5, 5, 3]
STARS = [3, 2, 0, 1, 0, 1, 0, 2, 0, 1]


def main() -> None:
    cards: list[dict[str, object]] = []
    for kind, letter in TYPES:
        cards.append({"id": f"{letter}3s", "type": kind, "number": 3, "stars": 1, "starter": True})
        seen: dict[str, int] = {}
        for number, stars in zip(NUMBERS, STARS, strict=True):
            base = f"{letter}{'0' if number == '0/6' else number}"
            seen[base] = seen.get(base, 0) + 1
            cards.append(
                {
                    "id": f"{base}{'ab'[seen[base] - 1]}",
                    "type": kind,
                    "number": number,
                    "stars": stars,
                }
            )
    cards += [{"id": f"S{n}", "type": "satellite", "number": n, "stars": 0} for n in range(1, 6)]
    deck = {
        "format": "asterion.stellar-deck/1",
        "name": "default (S2, a documented guess)",
        "cards": cards,
    }
    out = Path(__file__).resolve().parent.parent / "src" / "asterion" / "data" / "stellar_deck.json"
    out.write_text(json.dumps(deck, indent=1) + "\n")
    print(f"wrote {out} ({len(cards)} cards)")


if __name__ == "__main__":
    main()
