"""Writes src/asterion/data/aster_cards.json: the Aster catalog from real star figures.

For each constellation of ``sky.json`` (88 IAU, then the 5 obsolete ones) its chosen stars are
projected gnomonically around their centre and snapped onto the default board by
``asterion.solver.sky_snap.snap`` (CP-SAT, least distortion after the best similarity fit;
deterministic time limit, one worker). The card:

* ``pattern``: the board points the stars landed on, brightest star first (board coordinates,
  so the pattern always has the identity placement);
* ``points`` = number of stars; ``deck``: ``small`` for 2-4 stars, ``large`` for 5 or more,
  ``obsolete`` for the 5 obsolete constellations;
* ``actions``, ``links`` and ``scoring`` by the rules below (an assumption: the seed prints no
  cards).

ACTION RULE. A card has 1 action with 2-4 stars, 2 with 5-7, 3 with 8 or more (obsolete cards:
3). Cards are dealt actions in catalog order from the repeating cycle :data:`ACTION_CYCLE`
(12 symbols: generate, move_line and nudge twice, every other kind once), skipping a kind the
card already has; so every kind gets a steady share and no card repeats a symbol.

LINK RULE. Every constellation card has ``left`` (it can join a row). ``right`` is missing on
every 4th card in catalog order (k % 4 == 3), which ends a row. ``up`` on k % 6 == 1 and
``down`` on k % 6 == 4: a third of the cards can host an aggregated card (``gravity``).

SCORING RULE (asymmetric variant only). Every other IAU card (k even; the obsolete cards are
never claimed, so they have none) carries an effect, dealt in catalog order from the repeating
cycle :data:`EFFECT_CYCLE` of the six kinds with their points: 44 cards, 7 or 8 per kind.

BASE CARDS (A6). Four copies of Big, then four of Bang (one per player), alike on their
standard side: Big = [generate, move_ring] with a right link only, Bang = [move_line, nudge]
with left and right. Copy k's astronomer side is :data:`ASTRONOMER_SIDES` [k - 1].

Run: ``python tools/build_catalog.py`` (about 7 minutes; byte-identical on a second run).
``python tools/build_catalog.py --keep-patterns`` deals actions, links, effects and base cards
again over the patterns already in the shipped file, without snapping: the same output as a
full run whenever the snap would give those patterns.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from asterion.models.aster_board import Board
from asterion.models.aster_cards import BASE_COPIES, SMALL_DECK_STARS
from asterion.models.sky import SkyConstellation, default_sky
from asterion.solver.sky_snap import DEFAULT_DETERMINISTIC_LIMIT, snap

OUT = Path(__file__).resolve().parent.parent / "src" / "asterion" / "data" / "aster_cards.json"

Pattern = list[list[int]]

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

EFFECT_CYCLE = (
    ("in_row", 2),
    ("per_small_card", 1),
    ("per_set", 2),
    ("per_inner_star", 1),
    ("per_aggregated_card", 2),
    ("per_generation_star", 2),
)
"""Points per kind: about one card's worth in a typical game (a card is worth 2-8). ``in_row``
pays for keeping the row linked; ``per_small_card`` makes the cheap small cards worth
collecting; ``per_set`` pays for claiming from both decks; ``per_inner_star`` (8 points) and
``per_generation_star`` (5 contested points, where ``generate`` destroys) for the board at the
end; ``per_aggregated_card`` gives ``gravity`` cards, which score no card points (A5), some
value."""

STANDARD_SIDES = {"Big": ["generate", "move_ring"], "Bang": ["move_line", "nudge"]}
"""A6, standard side."""

ASTRONOMER_SIDES = (
    {"Big": ["generate", "move_line"], "Bang": ["move_ring", "victory_point"]},
    {"Big": ["generate_targeted", "nudge"], "Bang": ["move_line", "black_hole"]},
    {"Big": ["generate", "nudge"], "Bang": ["move_ring", "supernova"]},
    {"Big": ["generate", "generate_targeted"], "Bang": ["move_ring", "nudge"]},
)
"""The asymmetric variant's base actions, copy 1 to 4 (an assumption: the seed says only that
they differ per player). Each player keeps four symbols like the standard side: a generation
first (every player can bring stars in on turn one), two of the three movements, and one extra
of its own: +1 VP, a black hole, a supernova, or a second generation. No two copies share a
Big side or a Bang side, and none is the standard side. No ``gravity``: Big and Bang have no
vertical link to host a card."""

BASE_LINKS = {
    "Big": {"left": False, "right": True, "up": False, "down": False},
    "Bang": {"left": True, "right": True, "up": False, "down": False},
}

PROVENANCE = (
    "Real star figures (tools/build_catalog.py): each constellation's chosen stars from "
    "sky.json (Hipparcos 2 positions, IAU membership; see docs/data.md) projected "
    "gnomonically and snapped onto the default board by CP-SAT (least distortion after "
    f"the best similarity fit, deterministic limit {DEFAULT_DETERMINISTIC_LIMIT} per card). "
    "Actions, links and scoring effects follow a documented deterministic rule (an "
    "assumption: the seed prints no cards). Big and Bang: rules/aster.md A6, standard side, "
    "4 copies each with an astronomer side per copy (an assumption)."
)


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


def scoring(k: int, obsolete: bool) -> dict[str, Any] | None:
    """The SCORING RULE: every other IAU card, kinds in turn from :data:`EFFECT_CYCLE`."""
    if obsolete or k % 2:
        return None
    kind, points = EFFECT_CYCLE[(k // 2) % len(EFFECT_CYCLE)]
    return {"kind": kind, "points": points}


def deck(stars: int, obsolete: bool) -> str:
    if obsolete:
        return "obsolete"
    return "small" if stars <= SMALL_DECK_STARS[1] else "large"


def base_cards() -> list[dict[str, Any]]:
    """4 Big copies, then 4 Bang copies: standard side as A6, astronomer side per copy."""
    assert len(ASTRONOMER_SIDES) == BASE_COPIES
    return [
        {
            "abbr": name,
            "name": name,
            "deck": "base",
            "points": 0,
            "pattern": [],
            "actions": STANDARD_SIDES[name],
            "links": BASE_LINKS[name],
            "astronomer": {"copy": copy, "actions": ASTRONOMER_SIDES[copy - 1][name]},
        }
        for name in ("Big", "Bang")
        for copy in range(1, BASE_COPIES + 1)
    ]


def constellation_cards(
    constellations: list[SkyConstellation], patterns: list[Pattern]
) -> list[dict[str, Any]]:
    """One card per constellation, in sky order, on its snapped pattern."""
    dealer = ActionDealer()
    cards: list[dict[str, Any]] = []
    for k, (con, pattern) in enumerate(zip(constellations, patterns, strict=True)):
        stars = len(con.stars)
        card: dict[str, Any] = {
            "abbr": con.abbr,
            "name": con.name,
            "deck": deck(stars, con.obsolete),
            "points": stars,
            "pattern": pattern,
            "actions": dealer.deal(action_count(stars, con.obsolete)),
            "links": links(k),
        }
        effect = scoring(k, con.obsolete)
        if effect is not None:
            card["scoring"] = effect
        cards.append(card)
    return cards


def catalog_text(patterns: list[Pattern]) -> str:
    """The whole file for these patterns (one per constellation, in sky order)."""
    cards = base_cards() + constellation_cards(list(default_sky().constellations), patterns)
    return json.dumps({"provenance": PROVENANCE, "cards": cards}, indent=1) + "\n"


def snapped_patterns() -> list[Pattern]:
    """Snap every constellation onto the default board (the slow part), reporting each fit."""
    board = Board()
    patterns = []
    for con in default_sky().constellations:
        result = snap(board, con.plane())
        assert result.value is not None and result.objective is not None
        patterns.append([list(xy) for xy in result.value])
        print(
            f"{con.abbr:4} {len(con.stars)} stars  D={result.objective:.5f}  "
            f"{result.status.value:8} bound={result.bound or 0:.5f}",
            file=sys.stderr,
            flush=True,
        )
    return patterns


def shipped_patterns(path: Path = OUT) -> list[Pattern]:
    """The patterns of the constellation cards in ``path``, checked to be in sky order."""
    cards = [c for c in json.loads(path.read_text())["cards"] if c["deck"] != "base"]
    expected = [con.abbr for con in default_sky().constellations]
    if [c["abbr"] for c in cards] != expected:
        raise SystemExit(f"{path}: the constellation cards are not the sky's, in sky order")
    return [c["pattern"] for c in cards]


def main(out: Path = OUT, keep_patterns: bool = False) -> None:
    patterns = shipped_patterns() if keep_patterns else snapped_patterns()
    out.write_text(catalog_text(patterns))
    print(f"wrote {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument(
        "--keep-patterns",
        action="store_true",
        help="reuse the shipped file's patterns instead of snapping (seconds, not minutes)",
    )
    args = parser.parse_args()
    main(args.out, args.keep_patterns)
