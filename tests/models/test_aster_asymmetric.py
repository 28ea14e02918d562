"""The asymmetric variant: astronomer sides of Big and Bang, and the cards' scoring effects.

Final scores are worked by hand from rules/aster.md ("Final score": VP + card points of the
row and the aside + scoring effects) and the effect definitions of ``ScoringKind``. Positions
are on the default board (R = 4): the innermost ring is ring 4, the generation points (A2) are
1NE 1SE 1SW 1NW and C.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from asterion.errors import InputError
from asterion.models.aster import COLORS, AsterRules, AsterState, Color, EndTurn, apply
from asterion.models.aster import final_scores as scores_of
from asterion.models.aster_cards import (
    ActionKind,
    Card,
    Catalog,
    Deck,
    Links,
    ScoringEffect,
    ScoringKind,
    catalog_from_data,
    default_catalog,
)

RED, BLUE = Color.RED, Color.BLUE
BOTH = Links(left=True, right=True)
BUILD_SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "build_catalog.py"
SHIPPED = Path(__file__).resolve().parents[2] / "src" / "asterion" / "data" / "aster_cards.json"


def card(abbr: str, stars: int, effect: tuple[ScoringKind, int] | None = None) -> Card:
    """A card of ``stars`` stars in a row (small below 5), linking both ways."""
    return Card(
        abbr=abbr,
        name=abbr,
        deck=Deck.SMALL if stars <= 4 else Deck.LARGE,
        points=stars,
        pattern=tuple((x, 0) for x in range(stars)),
        actions=(ActionKind.VICTORY_POINT,),
        links=BOTH,
        scoring=None if effect is None else ScoringEffect(*effect),
    )


CATALOG = Catalog(
    (
        Card("Big", "Big", Deck.BASE, 0, (), (ActionKind.GENERATE,), Links(right=True)),
        Card("Bang", "Bang", Deck.BASE, 0, (), (ActionKind.NUDGE,), BOTH),
        card("Row", 2, (ScoringKind.IN_ROW, 2)),
        card("Sma", 3, (ScoringKind.PER_SMALL_CARD, 1)),
        card("Set", 5, (ScoringKind.PER_SET, 2)),
        card("Agg", 2, (ScoringKind.PER_AGGREGATED_CARD, 2)),
        card("Inn", 3, (ScoringKind.PER_INNER_STAR, 1)),
        card("Gen", 4, (ScoringKind.PER_GENERATION_STAR, 2)),
        card("S2", 2),
        card("S3", 3),
        card("S4", 4),
        card("L5", 5),
        card("L6", 6),
    )
)
STANDARD = AsterRules(catalog=CATALOG)
ASYMMETRIC = AsterRules(catalog=CATALOG, asymmetric=True)


def position(
    rules: AsterRules,
    *,
    vp: int = 0,
    row: Sequence[str] = (),
    aside: Sequence[str] = (),
    aggregated: Sequence[tuple[int, str]] = (),
    stars: Mapping[str, Color] | None = None,
) -> AsterState:
    """Red's claimed cards (after Big and Bang) and ``vp``; blue has only Big and Bang."""
    board = rules.board
    cells: list[Color | None] = [None] * len(board.points)
    for point, color in (stars or {}).items():
        cells[board.index[point]] = color
    empty: tuple[tuple[Any, ...], ...] = ((),) * len(COLORS)
    return AsterState(
        stars=tuple(cells),
        reserve=(10, 10, 10, 10),
        players=(RED, BLUE),
        vp=(vp, 0, 0, 0),
        rows=(("Big", "Bang", *row), ("Big", "Bang"), (), ()),
        aside=(tuple(aside), *empty[1:]),
        aggregated=(tuple(aggregated), *empty[1:]),
        rules=rules,
    )


def red_scores(**kwargs: Any) -> tuple[int, int]:
    """Red's final score without and with the variant."""
    return scores_of(position(STANDARD, **kwargs))[RED], scores_of(position(ASYMMETRIC, **kwargs))[
        RED
    ]


# -- one hand-worked final score per effect kind ----------------------------------------------


def test_in_row_pays_only_in_the_row() -> None:
    # Row (2 points) in the row: 2, and +2 in the variant; set aside: no bonus.
    assert red_scores(vp=3, row=["Row"]) == (3 + 2, 3 + 2 + 2)
    assert red_scores(vp=3, aside=["Row"]) == (3 + 2, 3 + 2)


def test_per_small_card_counts_small_cards_in_row_and_aside() -> None:
    # Small claimed cards: Sma, S2 (row), S4 (aside) = 3; L5 is large. Points 3+2+4+5 = 14.
    assert red_scores(row=["Sma", "S2"], aside=["S4", "L5"]) == (14, 14 + 3)


def test_per_set_pairs_small_with_large_cards() -> None:
    # Small S2, S4, S3; large Set, L6: min(3, 2) = 2 sets, 2 each. Points 5+2+6+4+3 = 20.
    assert red_scores(row=["Set", "S2", "L6"], aside=["S4", "S3"]) == (20, 20 + 4)
    # Set alone: 1 large, 0 small, no set.
    assert red_scores(row=["Set"]) == (5, 5)


def test_per_aggregated_card_counts_the_cards_under_the_row() -> None:
    # Agg (2 points, row index 2) hosts S2 and L5: 2 aggregated, 2 each; they score no points.
    assert red_scores(row=["Agg"], aggregated=[(2, "S2"), (2, "L5")]) == (2, 2 + 4)


def test_an_aggregated_cards_own_effect_does_not_count() -> None:
    # Row hosts Sma: Sma scores neither its 3 points nor its effect; Row's in_row pays 2.
    assert red_scores(row=["Row"], aggregated=[(2, "Sma")]) == (2, 2 + 2)


def test_per_inner_star_counts_own_stars_on_the_innermost_ring() -> None:
    # Ring 4: 4N and 4SE are red's; C and 3NE are not on ring 4; blue's 4W is not red's.
    stars = {"4N": RED, "4SE": RED, "C": RED, "3NE": RED, "4W": BLUE}
    assert red_scores(aside=["Inn"], stars=stars) == (3, 3 + 2)


def test_per_inner_star_ignores_every_other_ring_and_the_center() -> None:
    # One red star on ring 4 (4E), four elsewhere (1N, 2W, 3S, C): 1 inner star, +1.
    stars = {"4E": RED, "1N": RED, "2W": RED, "3S": RED, "C": RED}
    assert red_scores(aside=["Inn"], stars=stars) == (3, 3 + 1)


def test_per_generation_star_counts_own_stars_on_generation_points() -> None:
    # Generation points held by red: 1NE and C; 1N is no generation point; 1SW is blue's.
    stars = {"1NE": RED, "C": RED, "1N": RED, "1SW": BLUE}
    assert red_scores(row=["Gen"], stars=stars) == (4, 4 + 2 * 2)


def test_effects_add_up_and_each_player_counts_their_own() -> None:
    # Red: Row in the row (+2), Sma aside with 2 small cards claimed (+2); points 2+3 = 5.
    state = position(ASYMMETRIC, vp=1, row=["Row"], aside=["Sma"])
    assert scores_of(state) == {RED: 1 + 5 + 2 + 2, BLUE: 0}


# -- the shipped catalog and the default game ----------------------------------------------


def test_default_game_scores_ignore_effects() -> None:
    # Shipped cards (docs/data.md): And 8 stars, large, "+2 in_row"; Aps 3 stars, small,
    # "+1 per_small_card". Without the variant: 5 VP + 8 + 3 = 16, as before effects existed.
    rules = AsterRules()
    assert rules.catalog["And"].scoring == ScoringEffect(ScoringKind.IN_ROW, 2)
    assert rules.catalog["Aps"].scoring == ScoringEffect(ScoringKind.PER_SMALL_CARD, 1)
    state = position(rules, vp=5, row=["And"], aside=["Aps"])
    assert scores_of(state)[RED] == 16
    # The variant adds And's 2 (in the row) and Aps's 1 (one small card: Aps).
    asymmetric = position(AsterRules(asymmetric=True), vp=5, row=["And"], aside=["Aps"])
    assert scores_of(asymmetric)[RED] == 16 + 2 + 1


def test_default_game_opening_is_the_standard_side() -> None:
    # A6: Big = [generate, move_ring], Bang = [move_line, nudge] for every player.
    state = AsterState.new_game(players=COLORS)
    standard = ("generate", "move_ring", "move_line", "nudge")
    for _ in COLORS:
        assert tuple(a.value for a in state.actions) == standard
        state = apply(state, EndTurn(0))
    assert set(scores_of(state).values()) == {3}  # one turn each at +3 (hourglass), no cards


ASTRONOMER_LISTS = {
    # docs/data.md, astronomer sides: copy k = Big's then Bang's actions, k-th color.
    Color.RED: ("generate", "move_line", "move_ring", "victory_point"),
    Color.BLUE: ("generate_targeted", "nudge", "move_line", "black_hole"),
    Color.GREEN: ("generate", "nudge", "move_ring", "supernova"),
    Color.YELLOW: ("generate", "generate_targeted", "move_ring", "nudge"),
}


def test_asymmetric_game_gives_each_color_its_copys_astronomer_side() -> None:
    state = AsterState.new_game(players=COLORS, rules=AsterRules(asymmetric=True))
    for color in COLORS:
        assert state.player is color
        assert tuple(a.value for a in state.actions) == ASTRONOMER_LISTS[color]
        state = apply(state, EndTurn(0))
    # A 2-player game of green and yellow still uses copies 3 and 4 (by color, not seat).
    state = AsterState.new_game(
        players=(Color.GREEN, Color.YELLOW), rules=AsterRules(asymmetric=True)
    )
    assert tuple(a.value for a in state.actions) == ASTRONOMER_LISTS[Color.GREEN]


def test_the_four_astronomer_sides_differ_from_each_other_and_from_the_standard() -> None:
    catalog = default_catalog()
    for abbr in ("Big", "Bang"):
        sides = {catalog.astronomer_actions(abbr, k) for k in range(1, 5)}
        assert len(sides) == 4 and catalog[abbr].actions not in sides


def test_asymmetric_game_needs_the_astronomer_sides() -> None:
    with pytest.raises(InputError, match="no astronomer side for copy 1"):
        AsterState.new_game(rules=AsterRules(catalog=CATALOG, asymmetric=True))


# -- the catalog file: copies and effects ------------------------------------------------------


def base(abbr: str, copy: int | None, actions: Sequence[str] = ("generate",)) -> dict[str, Any]:
    data: dict[str, Any] = {
        "abbr": abbr,
        "name": abbr,
        "deck": "base",
        "points": 0,
        "pattern": [],
        "actions": list(actions),
    }
    if copy is not None:
        data["astronomer"] = {"copy": copy, "actions": ["nudge"]}
    return data


TRI = {
    "abbr": "Tri",
    "name": "Triangulum",
    "deck": "small",
    "points": 2,
    "pattern": [[0, 0], [1, 0]],
    "actions": [],
}


@pytest.mark.parametrize(
    ("cards", "problem"),
    [
        ([base("Big", None), base("Big", None)], "used by two cards"),
        ([base("Big", 1), base("Big", 2, ["nudge"])], "used by two cards"),
        ([base("Big", 1), base("Big", 1)], "two astronomer sides for copy 1"),
        ([base("Big", 5)], "less than or equal to 4"),
        ([{**TRI, "astronomer": {"copy": 1, "actions": []}}], "only base cards"),
        ([{**base("Big", 1), "scoring": {"kind": "in_row", "points": 1}}], "no scoring effect"),
        ([{**TRI, "scoring": {"kind": "flat", "points": 1}}], "in_row"),
    ],
)
def test_bad_copies_and_effects_are_rejected(cards: list[Any], problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        catalog_from_data({"cards": cards}, "cards.json")


def test_copies_share_an_abbreviation_and_lookups_give_copy_1() -> None:
    catalog = catalog_from_data({"cards": [base("Big", 2), base("Big", 1), TRI]}, "cards.json")
    assert [c.abbr for c in catalog.cards] == ["Big", "Big", "Tri"]
    assert catalog["Big"].astronomer is not None and catalog["Big"].astronomer.copy == 2
    assert catalog.astronomer_actions("Big", 1) == (ActionKind.NUDGE,)


def load_build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_catalog", BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_build_script_deals_the_shipped_file_byte_for_byte_from_its_patterns() -> None:
    build = load_build_script()
    assert build.catalog_text(build.shipped_patterns(SHIPPED)) == SHIPPED.read_text()


def test_scoring_rule_every_other_iau_card_and_a_share_of_each_kind() -> None:
    cards = default_catalog().cards
    iau = [c for c in cards if c.deck in (Deck.SMALL, Deck.LARGE)]
    assert [c.scoring is not None for c in iau] == [k % 2 == 0 for k in range(88)]
    assert all(c.scoring is None for c in cards if c.deck in (Deck.BASE, Deck.OBSOLETE))
    # 44 effects over 6 kinds in turn: 44 = 7 * 6 + 2, so the first two kinds get 8.
    shares = Counter(c.scoring.kind for c in iau if c.scoring)
    assert sorted(shares.values()) == [7, 7, 7, 7, 8, 8] and set(shares) == set(ScoringKind)
