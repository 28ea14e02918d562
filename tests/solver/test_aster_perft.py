"""Perft against a plain exhaustive enumeration written here from rules/aster.md alone.

The enumeration below shares nothing with the rules engine: straight lines, rings and
neighbours are recomputed from lattice coordinates, and every slot is tried used and
skipped with no pruning, so it is slow but obviously right on small positions.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import TooLargeError
from asterion.models.aster import AsterState
from asterion.models.aster_board import Board
from asterion.models.aster_files import parse_state
from asterion.solver.aster_perft import perft

Stars = dict[str, str]


def _ring_and_xy(board: Board) -> dict[str, tuple[int, tuple[int, int]]]:
    # ring 0 stands for the center; ring r has half-size R + 1 - r
    return {
        p: (max(abs(x), abs(y)) and board.rings + 1 - max(abs(x), abs(y)), (x, y))
        for p, (x, y) in board.coords.items()
    }


def _plain_adjacent(
    rings: int, a: tuple[int, tuple[int, int]], b: tuple[int, tuple[int, int]]
) -> bool:
    """One ``ring`` or ``line`` step apart, from coordinates alone."""
    (ring_a, (ax, ay)), (ring_b, (bx, by)) = a, b
    if 0 in (ring_a, ring_b):
        return {ring_a, ring_b} == {0, rings}  # every spoke ends at C from the innermost ring
    if ring_a == ring_b:
        # around a square of half-size h, consecutive points are h apart along one axis
        return abs(ax - bx) + abs(ay - by) == max(abs(ax), abs(ay))
    same_spoke = ax * by - ay * bx == 0 and ax * bx + ay * by > 0
    return same_spoke and abs(ring_a - ring_b) == 1


def _plain_targets(board: Board, stars: Stars, kind: str, origin: str) -> list[str]:
    info = _ring_and_xy(board)
    ring, (x, y) = info[origin]
    result = []
    for q, (q_ring, (qx, qy)) in info.items():
        if q == origin or q in stars:
            continue
        if kind == "move_line":
            # a straight line through the center holds the center and points in one direction
            # or its opposite: origin, q and C collinear (cross product zero)
            if x * qy - y * qx == 0:
                result.append(q)
        elif kind == "move_ring":
            if ring != 0 and q_ring == ring:
                result.append(q)
        elif kind == "nudge" and _plain_adjacent(board.rings, (ring, (x, y)), (q_ring, (qx, qy))):
            result.append(q)
    return result


def _plain_options(
    board: Board, stars: Stars, reserve: dict[str, int], player: str, kind: str
) -> list[tuple[Stars, dict[str, int]]]:
    options = []
    if kind in ("generate", "generate_targeted"):
        if reserve[player] == 0:
            return []
        spots = (
            board.generation_points
            if kind == "generate"
            else [p for p in board.points if p not in stars]
        )
        for p in spots:
            new_reserve = dict(reserve)
            new_reserve[player] -= 1
            if p in stars:
                new_reserve[stars[p]] += 1
            options.append(({**stars, p: player}, new_reserve))
    elif kind in ("move_line", "move_ring", "nudge"):
        movers = [p for p, c in stars.items() if kind == "nudge" or c == player]
        for p in movers:
            for q in _plain_targets(board, stars, kind, p):
                moved = {k: v for k, v in stars.items() if k != p}
                moved[q] = stars[p]
                options.append((moved, reserve))
    elif kind == "supernova":
        kept = {k: v for k, v in stars.items() if v != player}
        new_reserve = dict(reserve)
        new_reserve[player] += len(stars) - len(kept)
        options.append((kept, new_reserve))
    else:  # black_hole, victory_point, gravity: the board does not change
        options.append((stars, reserve))
    return options


def plain_perft(
    board: Board, stars: Stars, reserve: dict[str, int], player: str, actions: list[str]
) -> dict[str, int]:
    fewest: dict[frozenset[tuple[str, str]], int] = {}

    def walk(i: int, stars: Stars, reserve: dict[str, int], used: int) -> None:
        key = frozenset(stars.items())
        fewest[key] = min(fewest.get(key, used), used)
        for j in range(i, len(actions)):  # use slot j, skipping those before it
            for after, after_reserve in _plain_options(board, stars, reserve, player, actions[j]):
                walk(j + 1, after, after_reserve, used + 1)

    walk(0, stars, reserve, 0)
    counts = {str(k): 0 for k in range(len(actions) + 1)}
    for used in fewest.values():
        counts[str(used)] += 1
    return {"boards": len(fewest), **counts}


def _check(document: dict[str, object]) -> None:
    state = parse_state(json.dumps(document))
    reserve = {c.value: state.reserve_of(c) for c in type(state.player)}
    stars = {p: c.value for p, c in state.star_map().items()}
    expected = plain_perft(
        state.board, stars, reserve, state.player.value, list(document["actions"])
    )
    result = perft(state).to_json()
    assert {"boards": result["boards"], **result["by_actions"]} == expected


def test_hand_worked_generate_then_move_ring() -> None:
    # 2NE red, C blue; generate then move_ring (worked by hand):
    # 1 action: generate on 5 points + 7 ring moves of 2NE = 12 boards;
    # 2 actions: (2NE moved to 7 places) x (5 generation points) = 35, plus a ring-1 corner
    # star moved to one of the 4 ring-1 midpoints = 4: 39. Total 1 + 12 + 39 = 52.
    state = parse_state(
        json.dumps(
            {
                "stars": {"2NE": "red", "C": "blue"},
                "player": "red",
                "actions": ["generate", "move_ring"],
            }
        )
    )
    assert perft(state).to_json() == {"boards": 52, "by_actions": {"0": 1, "1": 12, "2": 39}}


@pytest.mark.parametrize(
    "document",
    [
        {
            "stars": {"2NE": "red", "C": "blue"},
            "player": "red",
            "actions": ["generate", "move_ring"],
        },
        {
            "stars": {"2NE": "red", "3NE": "red", "2NW": "blue"},
            "player": "red",
            "actions": ["move_line", "nudge", "supernova"],
        },
        {
            "rings": 2,
            "stars": {"1N": "red", "2S": "blue"},
            "player": "blue",
            "actions": ["nudge", "nudge", "move_ring"],
        },
        {
            "rings": 3,
            "stars": {"C": "green", "1NE": "red"},
            "reserve": {"green": 1},
            "player": "green",
            "actions": ["generate", "generate", "move_line"],
        },
        {
            "rings": 2,
            "stars": {"1E": "yellow"},
            "reserve": {"yellow": 2},
            "player": "yellow",
            "actions": ["generate_targeted", "victory_point", "move_ring"],
        },
    ],
)
def test_matches_plain_enumeration(document: dict[str, object]) -> None:
    _check(document)


KINDS = [
    "generate",
    "generate_targeted",
    "move_line",
    "move_ring",
    "nudge",
    "supernova",
    "black_hole",
]


@settings(max_examples=25, deadline=None)
@given(
    rings=st.integers(2, 3),
    data=st.data(),
    actions=st.lists(st.sampled_from(KINDS), min_size=1, max_size=3),
)
def test_random_small_positions(rings: int, data: st.DataObject, actions: list[str]) -> None:
    points = Board(rings=rings).points
    stars = data.draw(
        st.dictionaries(st.sampled_from(points), st.sampled_from(["red", "blue"]), max_size=4)
    )
    reserve = data.draw(st.integers(0, 2))
    _check(
        {
            "rings": rings,
            "stars": stars,
            "reserve": {"red": reserve},
            "player": "red",
            "players": ["red", "blue"],
            "actions": actions,
        }
    )


def test_refuses_positions_over_the_limit() -> None:
    state = parse_state(json.dumps({"player": "red", "actions": ["generate_targeted"] * 4}))
    with pytest.raises(TooLargeError, match="limit"):
        perft(state, max_states=100)


def test_opening_one_action_hand_count() -> None:
    # Opening (A3): red 2NE 3NE, blue 2NW 3NW; red's list is Big + Bang (A6):
    # generate, move_ring, move_line, nudge. Boards after exactly one action, by hand:
    #   generate: 5 generation points, all empty                                   5
    #   move_ring: 2NE to ring 2 minus itself and 2NW (blue) = 6; 3NE likewise = 6  12
    #   move_line: 2NE or 3NE to the 7 empty points of the NE-SW line each         14
    #     but 2NE->2SW and 3NE->3SW are also ring moves (same boards)              -2
    #   nudge: red steps all repeat ring/line moves; blue 2NW -> 2N, 2W, 1NW and
    #     3NW -> 3N, 3W, 4NW are new                                                6
    # total 35
    assert perft(AsterState.new_game()).by_actions[1] == 35
