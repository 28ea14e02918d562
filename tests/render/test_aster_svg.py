"""The SVG picture of an Aster board: well-formed, one mark per thing shown, byte-stable."""

from __future__ import annotations

from pathlib import Path

import pytest
from svgxml import parse, with_class

from asterion.errors import InputError
from asterion.models.aster import Color
from asterion.models.aster_board import Board
from asterion.render.aster_svg import DEFAULT_COLORS, board_svg
from asterion.render.svg import write_svg

STARS = {
    "2NE": Color.RED,
    "3NE": Color.RED,
    "2NW": Color.BLUE,
    "3SW": Color.GREEN,
    "4E": Color.YELLOW,
    "C": Color.YELLOW,
}


def test_one_star_circle_per_star_in_its_color() -> None:
    root = parse(board_svg(Board(), stars=STARS))
    stars = with_class(root, "circle", "star")
    assert len(stars) == len(STARS)
    for color in Color:
        marks = with_class(root, "circle", color.value)
        expected = sum(1 for c in STARS.values() if c is color)
        assert len(marks) == expected
        assert {m.get("fill") for m in marks} <= {DEFAULT_COLORS[f"star {color.value}"]}


def test_star_colors_can_be_overridden() -> None:
    root = parse(board_svg(Board(), stars={"C": Color.BLUE}, colors={"star blue": "#0000ff"}))
    (star,) = with_class(root, "circle", "star")
    assert star.get("fill") == "#0000ff"


def test_star_stands_on_its_point() -> None:
    board = Board()
    root = parse(board_svg(board, stars={"2NE": Color.RED, "C": Color.GREEN}))
    dots = {(d.get("cx"), d.get("cy")) for d in with_class(root, "circle", "point")}
    for star in with_class(root, "circle", "star"):
        assert (star.get("cx"), star.get("cy")) in dots
    (red,) = with_class(root, "circle", "red")
    (green,) = with_class(root, "circle", "green")
    # 2NE is north-east of C: right of it and, with north at the top, above it.
    assert float(red.get("cx", "0")) > float(green.get("cx", "0"))
    assert float(red.get("cy", "0")) < float(green.get("cy", "0"))


def test_highlight_and_missing_marks() -> None:
    root = parse(board_svg(Board(), stars=STARS, highlight=["2NE", "3NE", "4E"], missing=["4N"]))
    assert len(with_class(root, "circle", "highlight")) == 3
    assert len(with_class(root, "circle", "missing")) == 1
    assert len(with_class(root, "polygon", "halo")) == 1


def test_single_highlighted_point_gets_a_halo_disc() -> None:
    root = parse(board_svg(Board(), highlight=["C"]))
    assert len(with_class(root, "circle", "highlight")) == 1
    assert len(with_class(root, "circle", "halo-dot")) == 1


@pytest.mark.parametrize("rings", [2, 4, 9])
def test_board_is_drawn_from_the_graph(rings: int) -> None:
    board = Board(rings=rings)
    root = parse(board_svg(board, labels=True))
    assert len(with_class(root, "line", "ring")) == 8 * rings
    assert len(with_class(root, "line", "line")) == 8 * rings
    assert len(with_class(root, "circle", "point")) == 8 * rings + 1
    assert len(with_class(root, "circle", "generation")) == len(board.generation_points)
    assert len(with_class(root, "text", "label")) == 8 * rings + 1
    assert with_class(root, "circle", "star") == []


def test_move_arrow_and_ghost() -> None:
    stars = {"1N": Color.RED}
    root = parse(board_svg(Board(), stars=stars, moved=("2NE", "1N")))
    (arrow,) = with_class(root, "path", "move")
    assert arrow.get("marker-end") == "url(#asterion-arrow)"
    (ghost,) = with_class(root, "circle", "ghost")
    assert ghost.get("fill") == DEFAULT_COLORS["star red"]


def test_title_is_escaped() -> None:
    root = parse(board_svg(Board(), title="Crux <small> & Lyra"))
    (title,) = with_class(root, "text", "title")
    assert title.text == "Crux <small> & Lyra"


def test_size_is_the_width() -> None:
    root = parse(board_svg(Board(), size=500))
    assert root.get("width") == "500"
    assert root.get("height") == "500"
    titled = parse(board_svg(Board(), size=500, title="t"))
    assert float(titled.get("height", "0")) > 500


def test_same_input_same_bytes() -> None:
    def draw(order: int) -> str:
        stars = dict(sorted(STARS.items(), reverse=bool(order)))
        highlight = ["2NE", "3NE", "4E"][:: 1 - 2 * order]
        return board_svg(
            Board(),
            stars=stars,
            highlight=highlight,
            missing={"4N"},
            moved=("3SE", "4E"),
            title="Cassiopeia",
            labels=True,
        )

    assert draw(0) == draw(0)
    assert draw(0) == draw(1)


def test_unknown_point_is_an_input_error() -> None:
    with pytest.raises(InputError, match="5N"):
        board_svg(Board(), stars={"5N": Color.RED})
    with pytest.raises(InputError, match="3E"):
        board_svg(Board(rings=2), highlight=["3E"])
    with pytest.raises(InputError, match="purple"):
        board_svg(Board(), stars={"C": "purple"})  # type: ignore[dict-item]


def test_write_svg_round_trip(tmp_path: Path) -> None:
    svg = board_svg(Board(), stars=STARS, title="Cassiopeia · ε")
    target = tmp_path / "board.svg"
    write_svg(target, svg)
    assert target.read_bytes() == svg.encode("utf-8")


def test_write_svg_missing_folder_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "board.svg"
    with pytest.raises(InputError, match="does not exist") as caught:
        write_svg(target, "<svg/>")
    assert "\n" not in str(caught.value)
    assert str(target) in str(caught.value)


def test_write_svg_onto_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="folder"):
        write_svg(tmp_path, "<svg/>")


def test_write_svg_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    with pytest.raises(InputError, match="permission denied"):
        write_svg(tmp_path / "board.svg", "<svg/>")
