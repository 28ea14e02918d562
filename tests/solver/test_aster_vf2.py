"""VF2 placements (solver/aster_vf2.py) against the enumeration (models/aster_patterns.py).

Two encodings of A8 presence (rules/aster.md, "Constellations") must agree placement for
placement, in the same order: on every catalog card under every ``transforms``, on the rules
page's worked examples, and on random small patterns on boards of 2 to 5 rings.
"""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.aster_board import Board, Vector
from asterion.models.aster_cards import Card, default_catalog
from asterion.models.aster_patterns import Transforms, placements
from asterion.solver.aster_vf2 import PatternEdges, displacement_digraph, vf2_placements

PATTERN_CARDS = [card for card in default_catalog().cards if card.pattern]

# (pattern, transforms, placements on the default board): rules/aster.md, "Worked examples"
WORKED_EXAMPLES: list[tuple[list[Vector], Transforms, int]] = [
    ([(0, 0), (1, 0)], Transforms.TRANSLATE_ROTATE_REFLECT, 24),
    ([(0, 0), (1, 0)], Transforms.TRANSLATE, 12),
    ([(0, 0)], Transforms.TRANSLATE_ROTATE_REFLECT, 33),
    ([(0, 0), (1, 1)], Transforms.TRANSLATE_ROTATE_REFLECT, 28),
]


def _report(board: Board, ours: list[frozenset[str]], theirs: list[frozenset[str]]) -> str:
    """The placements only one side found, in board order, for a readable failure."""
    only_ours = [sorted(p, key=board.index.__getitem__) for p in ours if p not in theirs]
    only_vf2 = [sorted(p, key=board.index.__getitem__) for p in theirs if p not in ours]
    return f"{len(ours)} vs {len(theirs)}; only ours: {only_ours}; only VF2: {only_vf2}"


def test_the_board_digraph_has_every_ordered_pair() -> None:
    board = Board()
    digraph = displacement_digraph(board)
    assert digraph.number_of_nodes() == 33
    assert digraph.number_of_edges() == 33 * 32
    assert digraph.edges["1W", "1E"]["displacement"] == (8, 0)
    assert displacement_digraph(Board()) is digraph  # cached per (equal) board


@pytest.mark.parametrize("transforms", list(Transforms), ids=lambda t: t.value)
@pytest.mark.parametrize("card", PATTERN_CARDS, ids=lambda card: card.abbr)
def test_vf2_agrees_on_every_catalog_card(card: Card, transforms: Transforms) -> None:
    board = Board()
    ours = placements(board, card.pattern, transforms)
    theirs = vf2_placements(board, card.pattern, transforms)
    assert theirs == ours, _report(board, ours, theirs)


@pytest.mark.parametrize(("pattern", "transforms", "count"), WORKED_EXAMPLES)
def test_worked_examples_under_vf2(
    pattern: list[Vector], transforms: Transforms, count: int
) -> None:
    board = Board()
    assert len(vf2_placements(board, pattern, transforms)) == count
    assert len(vf2_placements(board, pattern, transforms, edges="star")) == count
    assert len(placements(board, pattern, transforms)) == count


def test_exact_places_the_pattern_where_it_stands() -> None:
    board = Board()
    assert vf2_placements(board, [(0, 0), (3, 3), (0, 4)], Transforms.EXACT) == [
        frozenset({"C", "2NE", "1N"})
    ]
    assert vf2_placements(board, [(0, 0), (2, 1)], Transforms.EXACT) == []  # (2, 1): no point
    assert vf2_placements(board, [(0, 0), (3, 3)], "exact") == [  # type: ignore[arg-type]
        frozenset({"C", "2NE"})
    ]


@pytest.mark.parametrize("pattern", [[], [(0, 0), (1, 0), (0, 0)]], ids=["empty", "repeated"])
def test_patterns_that_cannot_be_asked_about(pattern: list[Vector]) -> None:
    with pytest.raises(InputError):
        vf2_placements(Board(), pattern)


small_patterns = st.lists(
    st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=2, max_size=4, unique=True
)


@settings(max_examples=100, deadline=None)
@given(
    rings=st.integers(2, 5),
    pattern=small_patterns,
    transforms=st.sampled_from(list(Transforms)),
    edges=st.sampled_from(get_args(PatternEdges)),
)
def test_vf2_agrees_on_random_small_patterns(
    rings: int, pattern: list[Vector], transforms: Transforms, edges: PatternEdges
) -> None:
    board = Board(rings=rings)
    ours = placements(board, pattern, transforms)
    theirs = vf2_placements(board, pattern, transforms, edges=edges)
    assert theirs == ours, _report(board, ours, theirs)
