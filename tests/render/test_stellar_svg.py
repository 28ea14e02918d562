"""The Stellar pictures: well-formed, one mark per card shown, byte-stable."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from svgxml import SVG, parse, with_class

from asterion.errors import InputError
from asterion.models.stellar import Placed, StellarState, apply_unchecked
from asterion.render.stellar_svg import DEFAULT_COLORS, score_distribution_svg, telescope_svg
from asterion.solver.stellar_play import GreedyPolicy, RandomPolicy, selfplay


def played(seed: int, moves: int | None = None) -> StellarState:
    """A greedy game after ``moves`` moves (to the end when ``None``)."""
    rng = random.Random(seed)
    state = StellarState.new_game(seed=seed)
    count = 0
    while not state.is_over and (moves is None or count < moves):
        state = apply_unchecked(state, GreedyPolicy().choose(state, rng))
        count += 1
    return state


def with_face_down(state: StellarState) -> StellarState:
    """``state`` with player 0's last telescope card turned face down."""
    area = state.areas[0]
    *rest, (slot, placed) = area.telescope
    telescope = (*rest, (slot, Placed(placed.card, face_down=True)))
    return replace(state, areas=(replace(area, telescope=tuple(telescope)), state.areas[1]))


# -- the telescope and notebook --------------------------------------------------------------------


@pytest.mark.parametrize("moves", [0, 9, None], ids=["start", "middle", "end"])
@pytest.mark.parametrize("player", [0, 1])
def test_one_card_mark_per_card_shown(moves: int | None, player: int) -> None:
    state = played(4, moves)
    area = state.areas[player]
    root = parse(telescope_svg(state, player))
    cards = with_class(root, "g", "card")
    assert len(cards) == len(area.telescope) + len(area.notebook)
    empty = with_class(root, "rect", "empty")
    assert len(empty) == 12 - len(area.telescope)
    shown = sorted(card.findtext(f"{SVG}title", "").split(":")[0] for card in cards)
    assert shown == sorted([p.card for _, p in area.telescope] + list(area.notebook))


def test_hand_is_drawn_when_asked() -> None:
    state = played(2, 5)
    player = state.active
    area = state.areas[player]
    root = parse(telescope_svg(state, player, show_hand=True))
    assert len(with_class(root, "g", "card")) == len(area.telescope) + len(area.notebook) + len(
        area.hand
    )


def test_face_down_cards_show_their_back() -> None:
    state = with_face_down(played(5, 12))
    root = parse(telescope_svg(state, 0))
    backs = with_class(root, "g", "face-down")
    assert len(backs) == 1
    assert backs[0].find(f"{SVG}rect") is not None
    assert "3" in [t.text for t in backs[0].iter(f"{SVG}text")]


def test_card_faces_take_their_type_colors() -> None:
    root = parse(telescope_svg(played(6), 0))
    for card in with_class(root, "g", "card"):
        classes = card.get("class", "").split()
        if "face-down" in classes:
            continue
        kind = classes[1]
        face = card.find(f"{SVG}rect")
        assert face is not None and face.get("fill") == DEFAULT_COLORS[f"card {kind}"]


def test_sections_are_shaded_slot_by_slot() -> None:
    root = parse(telescope_svg(played(1, 3), 0))
    for name, slots in (("top", 5), ("middle", 3), ("bottom", 4)):
        shading = [e for e in with_class(root, "rect", name) if "section" in e.get("class", "")]
        assert len(shading) == slots + 1  # one per slot, one legend swatch


def test_telescope_svg_is_byte_stable() -> None:
    state = played(8)
    assert telescope_svg(state, 1, title="End") == telescope_svg(state, 1, title="End")


def test_telescope_svg_refuses_a_bad_player() -> None:
    with pytest.raises(InputError, match="player"):
        telescope_svg(StellarState.new_game(seed=0), 2)


# -- the score distribution chart ---------------------------------------------------------------


def test_one_outline_and_mean_line_per_policy() -> None:
    scores = {"greedy": [60, 72, 72, 81], "random": [20, 33, 35, 41], "advice": [70, 75, 90, 92]}
    root = parse(score_distribution_svg(scores, title="Three policies"))
    assert len(with_class(root, "path", "bar")) == 3
    assert len(with_class(root, "line", "mean")) == 3
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "Three policies" in texts
    assert any(t.startswith("greedy: 4 games, mean 71.2") for t in texts)
    assert "games" in texts


def test_chart_reads_a_selfplay_report_and_is_byte_stable() -> None:
    report = selfplay(GreedyPolicy(), RandomPolicy(), 4, seed=2)
    first = score_distribution_svg(report)
    assert first == score_distribution_svg(report)
    assert first == score_distribution_svg(report.distributions)
    assert len(with_class(parse(first), "path", "bar")) == 2


def test_uneven_runs_are_shown_as_percentages() -> None:
    root = parse(score_distribution_svg({"a": [10, 20], "b": [10, 20, 30, 40]}, bin_width=10))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "% of games" in texts
    assert "50%" in texts


def test_chart_refuses_empty_input() -> None:
    with pytest.raises(InputError):
        score_distribution_svg({})
    with pytest.raises(InputError, match="no scores"):
        score_distribution_svg({"greedy": []})
    with pytest.raises(InputError, match="bin_width"):
        score_distribution_svg({"greedy": [1]}, bin_width=0)
