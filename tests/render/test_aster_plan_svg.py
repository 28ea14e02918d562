"""The SVG picture of a plan: one small board per frame, in a grid, the steps marked, byte-stable.

Certificates are made by replaying hand-written plans with the rules engine (``certify``), not
by running a solver, so each test knows exactly which steps it draws.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

import pytest
from svgxml import SVG, parse, with_class

from asterion.errors import InputError
from asterion.models.aster import Action, Color
from asterion.models.aster_board import Board
from asterion.models.aster_cards import ActionKind
from asterion.models.aster_files import parse_state
from asterion.render import aster_svg
from asterion.render.aster_plan import plan_frames, step_caption
from asterion.render.aster_svg import DEFAULT_COLORS, PlanFrame, plan_svg
from asterion.solver.aster_reach import Certificate, PlanStep, ReachQuestion, certify

# Red to play on the default 4-ring board; blue stands on C, a generation point.
POSITION = {
    "stars": {
        "2NE": "red",
        "3NE": "red",
        "C": "blue",
        "2NW": "blue",
        "3NW": "blue",
        "3SW": "green",
    },
    "player": "red",
    "actions": ["generate", "move_ring", "move_line", "nudge"],
}
# The target: C, 4NE and 3N, i.e. (0, 0), (1, 1), (0, 2).
TARGET = [(0, 0), (1, 1), (0, 2)]
PLAN = [
    PlanStep(1, Action(ActionKind.GENERATE, 0, point="C")),  # destroys blue's star on C
    PlanStep(1, Action(ActionKind.MOVE_RING, 1, origin="2NE", target="2E")),
    PlanStep(1, Action(ActionKind.MOVE_LINE, 2, origin="3NE", target="4NE")),
    PlanStep(1, Action(ActionKind.NUDGE, 3, origin="3NW", target="3N")),
]
CAPTIONS = [
    "start",
    "turn 1 · generate C",
    "turn 1 · move_ring 2NE→2E",
    "turn 1 · move_line 3NE→4NE",
    "turn 1 · nudge 3NW→3N",
]


def certificate(steps: list[PlanStep] = PLAN) -> Certificate:
    state = parse_state(json.dumps(POSITION))
    return certify(ReachQuestion.build(state, TARGET), steps)


def draw(
    cert: Certificate,
    *,
    title: str | None = None,
    columns: int = aster_svg.DEFAULT_COLUMNS,
    frame_size: int = aster_svg.DEFAULT_FRAME_SIZE,
) -> str:
    frames = plan_frames(cert)
    return plan_svg(cert.final.board, frames, title=title, columns=columns, frame_size=frame_size)


def frames_of(root: ET.Element) -> list[ET.Element]:
    return with_class(root, "svg", "frame")


def number(element: ET.Element, attribute: str) -> float:
    return float(element.get(attribute, "nan"))


# -- one frame per step, plus the start ----------------------------------------------------------


def test_one_frame_per_step_plus_the_start() -> None:
    cert = certificate()
    root = parse(draw(cert))
    assert len(frames_of(root)) == len(cert.steps) + 1


def test_one_arrow_per_move_step() -> None:
    cert = certificate()
    root = parse(draw(cert))
    moves = sum(1 for step in cert.steps if step.action.origin is not None)
    assert moves == 3
    arrows = with_class(root, "path", "move")
    assert len(arrows) == moves
    assert {a.get("marker-end") for a in arrows} == {"url(#asterion-arrow)"}
    # Each arrow is in the frame of its step: none in the start and generate frames.
    per_frame = [len(with_class(frame, "path", "move")) for frame in frames_of(root)]
    assert per_frame == [0, 0, 1, 1, 1]


def test_captions_in_order() -> None:
    root = parse(draw(certificate()))
    assert [t.text for t in with_class(root, "text", "caption")] == CAPTIONS
    # Each frame also carries its caption as a tooltip.
    assert [f.findtext(f"{SVG}title") for f in frames_of(root)] == CAPTIONS


def test_frames_show_the_stars_after_each_step() -> None:
    cert = certificate()
    root = parse(draw(cert))
    for frame, state in zip(frames_of(root), cert.states, strict=True):
        stars = with_class(frame, "circle", "star")
        assert len(stars) == len(state.star_map())
        for color in Color:
            expected = len(state.stars_of(color))
            assert len(with_class(frame, "circle", color.value)) == expected


def test_generated_star_bursts_and_the_destroyed_one_is_a_ghost_beside_it() -> None:
    root = parse(draw(certificate()))
    generate = frames_of(root)[1]
    assert len(with_class(generate, "g", "burst")) == 1
    (ghost_group,) = with_class(generate, "g", "destroyed")
    assert "blue" in ghost_group.get("class", "").split()
    ghost = with_class(ghost_group, "circle", "ghost")[0]
    assert ghost.get("fill") == DEFAULT_COLORS["star blue"]
    # C is at the origin of the user units. The red star stands on it; the ghost is nudged
    # off it, so the new star does not hide it, but still touches it.
    assert [(s.get("cx"), s.get("cy")) for s in with_class(generate, "circle", "red")].count(
        ("0", "0")
    ) == 1
    distance = math.hypot(number(ghost, "cx"), number(ghost, "cy"))
    assert 0 < distance < 2 * aster_svg.STAR_RADIUS
    # Only the generate frame has these marks.
    assert len(with_class(root, "g", "burst")) == 1
    assert len(with_class(root, "g", "destroyed")) == 1


def test_last_frame_highlights_the_target() -> None:
    cert = certificate()
    root = parse(draw(cert))
    *earlier, last = frames_of(root)
    assert len(with_class(last, "circle", "highlight")) == len(cert.placement) == 3
    assert len(with_class(last, "polygon", "halo")) == 1
    for frame in earlier:
        assert with_class(frame, "circle", "highlight") == []
    assert len(with_class(root, "rect", "goal-frame")) == 1


# -- plans of other shapes -----------------------------------------------------------------------


def test_target_already_present_is_one_frame() -> None:
    state = parse_state(json.dumps(POSITION))
    cert = certify(ReachQuestion.build(state, [(0, 0), (1, 1)]), [])  # 3NE and 2NE
    frames = plan_frames(cert)
    assert [f.caption for f in frames] == ["start"]
    assert set(frames[0].highlight) == set(cert.placement)
    root = parse(draw(cert, title="Already there"))
    assert len(frames_of(root)) == 1
    assert with_class(root, "path", "move") == []
    assert len(with_class(root, "circle", "highlight")) == 2
    assert number(root, "width") == pytest.approx(grid_width(1, aster_svg.DEFAULT_FRAME_SIZE))


def test_supernova_leaves_ghosts_where_the_stars_were() -> None:
    position = {
        "rings": 3,
        "stars": {"2NE": "red", "3NE": "red", "3N": "blue", "3E": "blue"},
        "players": ["red", "blue"],
        "player": "red",
        "actions": ["supernova", "generate"],
    }
    state = parse_state(json.dumps(position))
    question = ReachQuestion.build(state, [(0, 0), (0, 1), (1, 0)], turns=2)
    steps = [
        PlanStep(1, Action(ActionKind.SUPERNOVA, 0)),
        PlanStep(2, Action(ActionKind.GENERATE, 1, point="C")),
    ]
    cert = certify(question, steps)
    frames = plan_frames(cert)
    assert [f.caption for f in frames] == ["start", "turn 1 · supernova", "turn 2 · generate C"]
    assert frames[1].destroyed == {"2NE": Color.RED, "3NE": Color.RED}
    assert frames[2].destroyed == {}  # C was empty
    assert frames[2].placed == "C"
    root = parse(draw(cert))
    supernova = frames_of(root)[1]
    ghosts = with_class(supernova, "g", "destroyed")
    assert len(ghosts) == 2
    # On empty points the ghosts stand on the points themselves.
    dots = {(d.get("cx"), d.get("cy")) for d in with_class(supernova, "circle", "point")}
    for group in ghosts:
        ghost = with_class(group, "circle", "ghost")[0]
        assert (ghost.get("cx"), ghost.get("cy")) in dots


def test_step_captions() -> None:
    assert step_caption(PLAN[0]) == "turn 1 · generate C"
    assert step_caption(PLAN[1]) == "turn 1 · move_ring 2NE→2E"
    assert step_caption(PlanStep(3, Action(ActionKind.BLACK_HOLE, 5))) == "turn 3 · black_hole"


# -- layout --------------------------------------------------------------------------------------


def grid_width(columns: int, frame: float) -> float:
    return (
        2 * aster_svg.PLAN_PADDING * frame
        + columns * frame
        + (columns - 1) * aster_svg.FRAME_GAP * frame
    )


def grid_height(rows: int, frame: float, *, titled: bool) -> float:
    title = aster_svg.PLAN_TITLE_BAND * frame if titled else 0.0
    cell = frame + aster_svg.CAPTION_BAND * frame
    return (
        title
        + 2 * aster_svg.PLAN_PADDING * frame
        + rows * cell
        + (rows - 1) * aster_svg.FRAME_GAP * frame
    )


@pytest.mark.parametrize(
    ("columns", "used", "rows"),
    [(1, 1, 5), (2, 2, 3), (3, 3, 2), (4, 4, 2), (5, 5, 1), (9, 5, 1)],
)
@pytest.mark.parametrize("titled", [False, True])
def test_grid_size_follows_the_columns(columns: int, used: int, rows: int, titled: bool) -> None:
    frame = 200
    title = "Plan" if titled else None
    root = parse(draw(certificate(), columns=columns, frame_size=frame, title=title))
    width, height = number(root, "width"), number(root, "height")
    assert width == pytest.approx(grid_width(used, frame), abs=0.01)
    assert height == pytest.approx(grid_height(rows, frame, titled=titled), abs=0.01)
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    # Frames fill rows left to right, each frame_size wide, inside the picture.
    boxes = frames_of(root)
    xs = sorted({number(b, "x") for b in boxes})
    ys = sorted({number(b, "y") for b in boxes})
    assert (len(xs), len(ys)) == (used, rows)
    assert [number(b, "y") for b in boxes] == sorted(number(b, "y") for b in boxes)
    for box in boxes:
        assert number(box, "width") == number(box, "height") == frame
        assert number(box, "x") + frame <= width
        assert number(box, "y") + frame <= height


def test_long_caption_shrinks_to_its_frame() -> None:
    board = Board()
    short = PlanFrame({}, "start")
    long = PlanFrame({}, "turn 3 · generate_targeted 4SW and a good deal more words")
    root = parse(plan_svg(board, [short, long], frame_size=200))
    sizes = [number(t, "font-size") for t in with_class(root, "text", "caption")]
    assert sizes[0] == pytest.approx(aster_svg.CAPTION_SIZE * 200, abs=0.01)
    assert sizes[1] < sizes[0]
    assert len(long.caption) * aster_svg.CAPTION_CHAR_WIDTH * sizes[1] <= 200


# -- byte stability and errors -------------------------------------------------------------------


def test_same_input_same_bytes() -> None:
    first = draw(certificate(), title="Plan · 4 actions", columns=3)
    again = draw(certificate(), title="Plan · 4 actions", columns=3)
    assert first == again
    # Frames built by hand with the stars in another order draw the same.
    cert = certificate()
    reordered = [
        PlanFrame(
            dict(reversed(list(f.stars.items()))),
            f.caption,
            f.moved,
            f.placed,
            f.destroyed,
            reversed(tuple(f.highlight)),
        )
        for f in plan_frames(cert)
    ]
    assert plan_svg(cert.final.board, reordered, title="Plan · 4 actions", columns=3) == first


def test_frames_are_frozen_copies() -> None:
    stars = {"C": Color.RED}
    frame = PlanFrame(stars, "start", highlight=iter(["C"]))
    stars["1N"] = Color.BLUE
    assert frame.stars == {"C": Color.RED}
    assert frame.highlight == ("C",)
    assert hash(frame) == hash(PlanFrame({"C": Color.RED}, "start", highlight=["C"]))


def test_bad_input_is_an_input_error() -> None:
    board = Board()
    frame = PlanFrame({"C": Color.RED}, "start")
    with pytest.raises(InputError, match="at least one frame"):
        plan_svg(board, [])
    with pytest.raises(InputError, match="columns"):
        plan_svg(board, [frame], columns=0)
    with pytest.raises(InputError, match="frame_size"):
        plan_svg(board, [frame], frame_size=0)
    with pytest.raises(InputError, match="5N") as caught:
        plan_svg(board, [frame, PlanFrame({}, "step", moved=("5N", "C"))])
    assert "frames[1].moved" in str(caught.value)
    with pytest.raises(InputError, match="purple"):
        plan_svg(board, [PlanFrame({"C": "purple"}, "start")])  # type: ignore[dict-item]
