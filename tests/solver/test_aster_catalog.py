"""The designer's catalog check (``asterion aster verify``): every constellation fits the board
and is formed by one player alone, base cards and decks as the setup needs them, cards of one
shape named. Expected answers come from the rules, worked by hand, or from a second encoding."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.models.aster import AsterRules, AsterState, EndTurn, apply
from asterion.models.aster_board import Board
from asterion.models.aster_cards import (
    Catalog,
    catalog_from_data,
    catalog_to_data,
    default_catalog,
    provisional_catalog,
)
from asterion.models.aster_patterns import DEFAULT_TRANSFORMS, Transforms, symmetries, transform
from asterion.solver.aster_catalog import check_catalog, same_shape_findings
from asterion.solver.result import Status

BASE = [c for c in catalog_to_data(provisional_catalog())["cards"] if c["deck"] == "base"]


def card(abbr: str, pattern: list[list[int]]) -> dict[str, Any]:
    deck = "small" if len(pattern) <= 4 else "large"
    return {
        "abbr": abbr,
        "name": abbr,
        "deck": deck,
        "points": len(pattern),
        "pattern": pattern,
        "actions": ["generate"],
    }


def catalog(*cards: dict[str, Any], base: list[dict[str, Any]] | None = None) -> Catalog:
    return catalog_from_data({"cards": [*(BASE if base is None else base), *cards]}, "test")


# Fillers so that both decks can be dealt (3 face up each), no two of one shape: two stars on
# a diagonal 1, 2 or 3 steps apart; 5, 6 or 7 stars in a row.
FILLERS = [card(f"S{i}", [[0, 0], [i, i]]) for i in (1, 2, 3)]
FILLERS += [card(f"L{i}", [[x, 0] for x in range(i)]) for i in (5, 6, 7)]


def codes(findings: Any) -> list[str]:
    return [f.code for f in findings]


def canonical(pattern: tuple[tuple[int, int], ...], transforms: Transforms) -> tuple[Any, ...]:
    """A second encoding of "one shape": the least translated image under the symmetries."""
    images = []
    for matrix in symmetries(transforms):
        image = [transform(matrix, p) for p in pattern]
        low_x, low_y = min(x for x, _ in image), min(y for _, y in image)
        images.append(tuple(sorted((x - low_x, y - low_y) for x, y in image)))
    return min(images)


def test_the_shipped_catalog_is_sound_and_its_same_shapes_are_those_of_the_second_encoding() -> (
    None
):
    report = check_catalog(AsterRules())
    assert report.sound and report.problems == ()
    groups: dict[Any, list[str]] = {}
    for c in default_catalog().cards:
        if c.pattern:
            groups.setdefault(canonical(c.pattern, DEFAULT_TRANSFORMS), []).append(c.abbr)
    expected = sorted(sorted(abbrs) for abbrs in groups.values() if len(abbrs) > 1)
    named = sorted(
        sorted(f.message.split(" are one shape")[0].replace(" and ", ", ").split(", "))
        for f in report.warnings
        if f.code == "same-shape"
    )
    assert named == expected and len(expected) >= 1
    assert "not-formed-alone" not in codes(report.warnings)


def test_a_pattern_wider_than_the_board_has_no_placement() -> None:
    # The default board spans 8 lattice units (x from -4 to 4): 10 stars in a row fit nowhere.
    wide = card("Wid", [[x, 0] for x in range(10)])
    tall = card("Tal", [[0, y] for y in range(11)])  # (fitting nowhere is no shape in common)
    report = check_catalog(AsterRules(catalog=catalog(wide, tall, *FILLERS)))
    assert not report.sound
    assert codes(report.problems) == ["no-placement", "no-placement"]
    assert report.warnings == ()
    assert report.problems[0].message.startswith("Wid (Wid) fits nowhere")
    (check,) = [c for c in report.cards if c.card.abbr == "Wid"]
    assert check.placements == 0 and check.witness is None
    # 9 in a row fit: the E-W line through C, and (turned) the N-S one
    nine = card("Nin", [[x, 0] for x in range(9)])
    report = check_catalog(AsterRules(catalog=catalog(nine, *FILLERS)))
    assert report.sound
    (check,) = [c for c in report.cards if c.card.abbr == "Nin"]
    assert check.placements == 2


def test_decks_too_small_for_the_face_up_offer() -> None:
    # rules/aster.md: 3 face-up cards from each deck
    report = check_catalog(AsterRules(catalog=catalog(*FILLERS[:2], *FILLERS[3:])))
    assert codes(report.problems) == ["deck-too-small"]
    assert "the small deck holds 2 cards; the setup deals 3" in report.problems[0].message
    assert check_catalog(AsterRules(catalog=catalog(*FILLERS))).sound
    report = check_catalog(AsterRules(catalog=catalog(*FILLERS), offer_per_deck=4))
    assert codes(report.problems) == ["deck-too-small", "deck-too-small"]


def test_missing_base_cards_are_named() -> None:
    report = check_catalog(AsterRules(catalog=catalog(*FILLERS, base=BASE[:1])))
    assert codes(report.problems) == ["no-base-card"]
    assert "Bang is not in the catalog" in report.problems[0].message
    # no row can start: no witness is sought, and no card is blamed for it
    assert all(c.witness is None for c in report.cards)
    assert "not-formed-alone" not in codes(report.warnings)
    impostor = card("Bang", [[0, 0], [1, 1]])
    report = check_catalog(AsterRules(catalog=catalog(impostor, *FILLERS, base=BASE[:1])))
    assert any("Bang is in the small deck" in f.message for f in report.problems)


GENERATE_ONLY = [
    {**BASE[0], "actions": ["generate"]},
    {**BASE[1], "actions": ["victory_point"]},
]


def test_with_generation_only_a_card_off_the_generation_points_is_not_formed_alone() -> None:
    # Worked by hand on the default board. Stars can only come in on the generation points
    # (ring 1's corners (+-4, +-4) and C), and red and blue start on (3, 3), (2, 2), (-3, 3),
    # (-2, 2). No two of these nine points are side by side in a row or a column, so two
    # stars side by side are never formed; the diagonal pair (2, 2)-(3, 3) is red's start.
    pair = card("Two", [[0, 0], [1, 0]])
    diagonal = card("Dia", [[0, 0], [1, 1]])
    corners = card("Gen", [[0, 0], [4, 4]])
    report = check_catalog(
        AsterRules(catalog=catalog(pair, diagonal, corners, *FILLERS, base=GENERATE_ONLY))
    )
    assert report.sound
    by_abbr = {c.card.abbr: c for c in report.cards}
    assert by_abbr["Two"].witness is None and by_abbr["Two"].placements == 24
    assert "Two: no plan found" in " ".join(f.message for f in report.warnings)
    assert by_abbr["Dia"].witness_turns == 0
    # C and ring 1's NE corner, both empty generation points: one generation a turn
    assert by_abbr["Gen"].witness_turns == 2


def replay(rules: AsterRules, steps: Any) -> AsterState:
    """The witness replayed from the opening with the rules engine alone, the others passing."""
    state = AsterState.new_game(rules=rules)
    player, turn = state.player, 1
    for step in steps:
        while turn < step.turn:
            state = apply(state, EndTurn())
            while state.player is not player:
                state = apply(state, EndTurn())
            turn += 1
        state = apply(state, step.action)
    return state


def test_every_witness_of_the_provisional_catalog_forms_its_card_when_replayed() -> None:
    rules = AsterRules(catalog=provisional_catalog())
    report = check_catalog(rules)
    for check in report.cards:
        assert check.witness is not None
        final = replay(rules, check.witness.steps)
        assert any(
            all(final.star_at(p) is not None for p in pl) for pl in rules.placements_of(check.card)
        )
        # one star comes in each turn: as many turns as the placement had empty points
        opening = AsterState.new_game(rules=rules)
        empty = min(
            sum(opening.star_at(p) is None for p in pl) for pl in rules.placements_of(check.card)
        )
        assert check.witness_turns == empty


def test_the_witness_agrees_with_the_reach_solver_in_one_turn() -> None:
    # A witness of one turn is a plan within one turn, so the reach solver must find one, in
    # no more actions; a card the solver proves out of reach in one turn needs two or more.
    rules = AsterRules(catalog=provisional_catalog())
    report = check_catalog(rules, reach_turns=1, time_limit=30)
    statuses = set()
    for check in report.cards:
        assert check.reach is not None and check.witness is not None
        statuses.add(check.reach.status)
        if check.witness_turns == 1:
            assert check.reach.min_actions is not None
            assert check.reach.min_actions <= len(check.witness.steps)
        if check.reach.status is Status.INFEASIBLE:
            assert check.witness_turns is not None and check.witness_turns >= 2
    assert statuses == {Status.OPTIMAL, Status.INFEASIBLE}  # (both cases are exercised)


COORDINATES = sorted(Board().at)  # the board's points as lattice points
subsets = st.lists(st.sampled_from(COORDINATES), min_size=2, max_size=4, unique=True)


@st.composite
def pattern_pairs(draw: st.DrawFn) -> tuple[list[Any], list[Any]]:
    """Two patterns that each fit the board (drawn from its points), the second often an
    image of the first under one of the square's 8 symmetries and a shift."""
    a = draw(subsets)
    if draw(st.booleans()):
        return a, draw(subsets)
    matrix = draw(st.sampled_from(symmetries(Transforms.TRANSLATE_ROTATE_REFLECT)))
    dx, dy = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
    return a, [(x + dx, y + dy) for x, y in (transform(matrix, p) for p in a)]


@settings(max_examples=80, deadline=None)
@given(pattern_pairs(), st.sampled_from(list(Transforms)[1:]))
def test_same_shape_is_one_canonical_form(pair: Any, transforms: Transforms) -> None:
    # Equal placement sets on the board against equal canonical forms (translate-based groups:
    # a pattern's coordinates themselves do not matter, only its shape).
    a, b = pair
    cards = catalog(card("A", [list(p) for p in a]), card("B", [list(p) for p in b]))
    rules = AsterRules(catalog=cards, transforms=transforms)
    found = same_shape_findings(rules, [cards["A"], cards["B"]])
    assert bool(found) == (canonical(tuple(a), transforms) == canonical(tuple(b), transforms))


def test_a_plus_whose_every_placement_holds_the_centre_is_filled_through_it() -> None:
    # Worked by hand: a star with its four neighbours fits around C and around each of ring
    # 4's side midpoints (4N: 4NW, 4NE, 3N and C), 5 placements, each holding C, all five
    # points empty at the opening. A star reaches any empty point from C by move_line
    # (generate at C, then move), one a turn, so C is filled last, as the fifth star.
    plus = card("Plu", [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]])
    rules = AsterRules(catalog=catalog(plus, *FILLERS))
    report = check_catalog(rules)
    (check,) = [c for c in report.cards if c.card.abbr == "Plu"]
    assert check.placements == 5 and all("C" in pl for pl in rules.placements_of(check.card))
    assert check.witness is not None and check.witness_turns == 5
    last = check.witness.steps[-1].action
    assert "C" in (last.point, last.target)


def test_a_generation_point_of_the_placement_is_filled_after_the_stars_that_pass_it() -> None:
    # Worked by hand: 1N the only generation point, the pattern fixed at 1N and 1NE (exact
    # transforms: that one placement). The star for 1NE comes in at 1N and moves along ring
    # 1; only then may 1N be filled, by a second generation. Filled the other way round, 1N's
    # star would bar the way in.
    pair = card("Two", [[0, 4], [4, 4]])
    rules = AsterRules(
        board=Board(generation_points=("1N",)),
        catalog=catalog(pair, *FILLERS),
        transforms=Transforms.EXACT,
    )
    report = check_catalog(rules)
    (check,) = [c for c in report.cards if c.card.abbr == "Two"]
    assert check.placements == 1 and check.witness is not None
    kinds = [step.action.kind.value for step in check.witness.steps]
    assert kinds == ["generate", "move_ring", "generate"] and check.witness_turns == 2


def test_a_board_without_the_opening_says_why_no_plan_is_sought() -> None:
    # rules/aster.md A3: the starting stars stand on rings 2 and 3, which a 2-ring board lacks
    # (an outside audit: the check said "sound" with no word on the missing plans).
    pair = card("Two", [[0, 0], [1, 0]])
    report = check_catalog(AsterRules(board=Board(rings=2), catalog=catalog(pair, *FILLERS[:3])))
    assert "no-opening" in codes(report.warnings)
    assert all(c.witness is None and c.reach is None for c in report.cards)
    assert "not-formed-alone" not in codes(report.warnings)  # (the one reason is given once)


def test_no_card_is_formed_sooner_than_one_new_star_a_turn_allows() -> None:
    # Worked from the rules: the opening has 4 stars on the board (red's and blue's two) and
    # red's action list generates once a turn, so within K turns at most 4 + K stars stand:
    # a card of more stars is out of reach in K turns, and its witness takes at least
    # stars - 4 turns. (An outside audit derived the same bound.)
    rules = AsterRules(catalog=provisional_catalog())
    report = check_catalog(rules, reach_turns=1, time_limit=30)
    big = [c for c in report.cards if c.card.stars > 4 + 1]
    assert big  # (the provisional catalog has 6- and 7-star cards)
    for check in report.cards:
        assert check.reach is not None and check.witness_turns is not None
        assert check.witness_turns >= check.card.stars - 4
        if check.card.stars > 5:
            assert check.reach.status is Status.INFEASIBLE
