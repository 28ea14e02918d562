"""Reachability in Aster: the CP-SAT planner, the breadth-first baseline, and a brute force.

Three layers of checks:

* hand-worked positions, each reasoned from rules/aster.md in a comment (never copied from a
  solver's output);
* the documented ``reach --json`` shape of :meth:`ReachAnswer.to_json`;
* properties on random small positions: :func:`cp_reach` and :func:`search_reach` agree on
  status and minimum number of actions, every plan is certified by the rules engine, and on
  tiny positions both agree with a brute force written here (every subset of slots × every
  legal action of the rules engine, no pruning at all).

Geometry used throughout (default 4-ring board, y north): ring r has half-size 5 − r, so
ring 1 is at 4, ring 2 at 3, ring 3 at 2, ring 4 at 1. The N–S line is x = 0 with points at
y = 4, 3, 2, 1, 0 (C), −1, …, −4: consecutive points are one unit apart; likewise the E–W
line. The pattern ``[[0, 0], [1, 0]]`` under the default transforms (translate + rotate +
reflect) is "two stars one unit apart horizontally or vertically": on the default board its
24 placements are the 8 consecutive pairs of each axis line and the 8 consecutive pairs of
ring 4. A corner of rings 1–3, (±h, ±h) with h ≥ 2, has no board point one unit away, so a
star there is in no pair.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asterion.errors import InputError
from asterion.models.aster import Action, AsterState, Color, EndTurn, apply, legal_actions
from asterion.models.aster_board import Vector
from asterion.models.aster_cards import ActionKind, Deck, provisional_catalog
from asterion.models.aster_files import parse_state, state_to_data
from asterion.models.aster_patterns import Transforms
from asterion.solver.aster_plan import cp_reach
from asterion.solver.aster_reach import (
    MAX_TURNS,
    PlanError,
    PlanStep,
    ReachAnswer,
    ReachQuestion,
    certify,
    search_reach,
)

PAIR: list[Vector] = [(0, 0), (1, 0)]
"""Two stars side by side (any orientation under the default transforms)."""

TIME_LIMIT = 30.0
ANSWER_KEYS = {"reachable", "status", "min_actions", "plan", "placement", "certified"}


def _state(**fields: Any) -> AsterState:
    """A STATE document with red to play (unless told otherwise), parsed at the door."""
    document: dict[str, Any] = {"player": "red", **fields}
    return parse_state(json.dumps(document))


def _question(pattern: Any = PAIR, **build: Any) -> Any:
    def make(**fields: Any) -> ReachQuestion:
        return ReachQuestion.build(_state(**fields), pattern, **build)

    return make


def _both(question: ReachQuestion) -> list[ReachAnswer]:
    """Both engines' answers, each checked for the invariants every answer must satisfy."""
    answers = [cp_reach(question, time_limit=TIME_LIMIT, seed=0), search_reach(question)]
    for answer in answers:
        _check_answer(question, answer)
    return answers


def _check_answer(question: ReachQuestion, answer: ReachAnswer) -> None:
    document: dict[str, Any] = answer.to_json()
    assert set(document) == ANSWER_KEYS
    json.dumps(document)  # plain JSON
    if answer.certificate is not None:
        replayed = certify(question, answer.certificate.steps)
        assert len(replayed.steps) == answer.min_actions == len(document["plan"])
        assert document["certified"] is True


def _expect(question: ReachQuestion, min_actions: int | None) -> list[Any]:
    """Both engines give ``min_actions`` (None: unreachable); returns both JSON documents."""
    documents = []
    for answer in _both(question):
        document = answer.to_json()
        if min_actions is None:
            assert document == {
                "reachable": False,
                "status": "infeasible",
                "min_actions": None,
                "plan": [],
                "placement": [],
                "certified": False,
            }, answer.engine
        else:
            assert document["reachable"] is True, answer.engine
            assert document["status"] == "optimal", answer.engine
            assert document["min_actions"] == min_actions, answer.engine
        documents.append(document)
    return documents


# -- hand-worked examples ---------------------------------------------------------------------


def test_target_already_present_needs_no_action() -> None:
    # 4N = (0, 1) and C = (0, 0) are one unit apart: the pair is on the board before any
    # action (the colors do not matter without own_stars_only).
    question = ReachQuestion.build(
        _state(stars={"4N": "red", "C": "blue"}, actions=["generate"]), PAIR
    )
    for document in _expect(question, 0):
        assert document["plan"] == []
        assert document["placement"] == ["4N", "C"]
        assert document["certified"] is True


def test_reported_placement_has_the_most_own_stars() -> None:
    # Red 4N = (0, 1) and 4NE = (1, 1), blue C = (0, 0): two pairs are present, 4N–4NE
    # (2 red stars) and 4N–C (1 red star). A9: report the one with the most of red's stars.
    question = ReachQuestion.build(
        _state(stars={"4N": "red", "4NE": "red", "C": "blue"}, actions=["nudge"]), PAIR
    )
    for document in _expect(question, 0):
        assert document["placement"] == ["4N", "4NE"]


def test_one_generate_makes_the_pair() -> None:
    # Red 4E = (1, 0) alone. Generation points: the ring-1 corners (±4, ±4), in no pair,
    # and C = (0, 0), one unit from 4E. So exactly one plan: generate on the empty C.
    question = ReachQuestion.build(_state(stars={"4E": "red"}, actions=["generate"]), PAIR)
    for document in _expect(question, 1):
        assert document["plan"] == [
            {"turn": 1, "action": "generate", "point": "C", "destroyed": None}
        ]
        assert document["placement"] == ["4E", "C"]


def test_two_line_moves_are_needed() -> None:
    # Red 1N = (0, 4) and 1E = (4, 0). Board points one unit from 1N: only 2N = (0, 3)
    # (ring 1 has no point at x = ±1); from 1E: only 2E = (3, 0). One move_line keeps one
    # star still: moving 1E along y = 0 never reaches (0, 3), moving 1N along x = 0 never
    # reaches (3, 0). So one action is not enough; two are, e.g. 1N -> C and 1E -> 4E, or
    # 1E -> C then on to 2N (every plan is replayed by the rules engine in _expect).
    make = _question()
    stars = {"1N": "red", "1E": "red"}
    for document in _expect(make(stars=stars, actions=["move_line", "move_line"]), 2):
        assert [item["action"] for item in document["plan"]] == ["move_line", "move_line"]
    _expect(make(stars=stars, actions=["move_line"]), None)


def test_move_line_across_the_center() -> None:
    # Red 1N = (0, 4), blue 3S = (0, -2). With two stars the pair must use 3S, whose board
    # points one unit away are 4S = (0, -1) and 2S = (0, -3) only: both south of C, and red's
    # only straight line is x = 0, so the one move runs from the north through C.
    question = ReachQuestion.build(
        _state(stars={"1N": "red", "3S": "blue"}, actions=["move_line"]), PAIR
    )
    for document in _expect(question, 1):
        (item,) = document["plan"]
        assert item["action"] == "move_line"
        assert item["from"] == "1N"
        assert item["to"] in {"4S", "2S"}


@pytest.mark.parametrize(
    "actions",
    [
        # move_ring keeps red on ring 1 (|x| or |y| = 4), never one unit from 3S; supernova
        # only removes red stars.
        ["move_ring", "supernova"],
        # nudge: red 1N -> 1NW, 1NE or 2N, none next to 3S; blue 3S -> 4S, 2S, 3SE, 3SW,
        # none next to 1N (its only neighbour at one unit is 2N).
        ["nudge"],
        # black_hole and victory_point do not touch the board.
        ["black_hole", "victory_point"],
    ],
)
def test_unreachable_without_the_needed_kind(actions: list[str]) -> None:
    question = ReachQuestion.build(_state(stars={"1N": "red", "3S": "blue"}, actions=actions), PAIR)
    _expect(question, None)


def test_own_stars_only_turns_reachable_into_unreachable() -> None:
    # Red 3E = (2, 0), blue C. One nudge: red 3E -> 4E = (1, 0) pairs with blue C (or blue
    # C -> 4E pairs with red 3E): 1 action. With own_stars_only red needs two red stars,
    # and nudges cannot create one: unreachable.
    stars = {"3E": "red", "C": "blue"}
    _expect(_question()(stars=stars, actions=["nudge"]), 1)
    _expect(_question(own_stars_only=True)(stars=stars, actions=["nudge"]), None)


def test_own_stars_only_with_an_opponent_star_in_the_way() -> None:
    # Red 4E = (1, 0) and 4W = (-1, 0), blue C between them.
    # Without own_stars_only the pair C–4E is already there: 0 actions.
    # With it, two red stars must be one unit apart. Not using C, that is two consecutive
    # ring-4 points (4E and 4W are four steps apart around ring 4: at least 3 nudges) or
    # two consecutive points of a spoke (3E–4E needs the other red star carried round to
    # the east: more nudges still). So the red pair is C with 4E or 4W: blue must leave C
    # (one nudge; C's neighbours are the 8 ring-4 points, 6 of them empty) and a red star
    # must enter it (another nudge): exactly 2 actions, impossible with one nudge slot.
    stars = {"4E": "red", "4W": "red", "C": "blue"}
    _expect(_question()(stars=stars, actions=["nudge", "nudge"]), 0)
    own = _question(own_stars_only=True)
    for document in _expect(own(stars=stars, actions=["nudge", "nudge"]), 2):
        first, second = document["plan"]
        assert (first["action"], first["from"]) == ("nudge", "C")
        assert first["to"] in {"4N", "4NE", "4SE", "4S", "4SW", "4NW"}
        assert second["from"] in {"4E", "4W"}
        assert second["to"] == "C"
        assert document["placement"] in (["4E", "C"], ["4W", "C"])
    _expect(own(stars=stars, actions=["nudge"]), None)


def test_generate_destroys_an_opponent_star() -> None:
    # Red 4E, blue C. own_stars_only: the red pair must be C–4E (the only generation point
    # next to a red star), and generate on C destroys the blue star, which returns to blue's
    # reserve (9 + 1 = 10); red's reserve goes 9 -> 8.
    question = ReachQuestion.build(
        _state(stars={"4E": "red", "C": "blue"}, actions=["generate"]),
        PAIR,
        own_stars_only=True,
    )
    for document in _expect(question, 1):
        assert document["plan"] == [
            {"turn": 1, "action": "generate", "point": "C", "destroyed": "blue"}
        ]
        assert document["placement"] == ["4E", "C"]
    for answer in _both(question):
        assert answer.certificate is not None
        final = answer.certificate.final
        assert final.star_map() == {"4E": Color.RED, "C": Color.RED}
        assert (final.reserve[0], final.reserve[1]) == (8, 10)


def test_supernova_refills_an_empty_reserve() -> None:
    # Red 1NE (a ring-1 corner, in no pair) with an empty reserve, blue 4N = (0, 1).
    # The only pair to make is C–4N, by generating on C, which needs a red star in reserve.
    # [generate]: impossible. [generate, supernova]: the generate comes first, still
    # impossible. [supernova, generate]: supernova returns 1NE to the reserve (1 star),
    # then generate on C: 2 actions.
    make = _question()
    stars, reserve = {"1NE": "red", "4N": "blue"}, {"red": 0}
    _expect(make(stars=stars, reserve=reserve, actions=["generate"]), None)
    _expect(make(stars=stars, reserve=reserve, actions=["generate", "supernova"]), None)
    documents = _expect(make(stars=stars, reserve=reserve, actions=["supernova", "generate"]), 2)
    for document in documents:
        assert document["plan"] == [
            {"turn": 1, "action": "supernova"},
            {"turn": 1, "action": "generate", "point": "C", "destroyed": None},
        ]
        assert document["placement"] == ["4N", "C"]


def test_line_blocking_makes_the_move_impossible() -> None:
    # Exact pattern {4S = (0, -1), 3S = (0, -2)}; blue on 3S and on C, red on 1N = (0, 4).
    # The only way is red 1N -> 4S along x = 0, passing 2N, 3N, 4N and C.
    # A4 off (default): allowed, 1 action. A4 on: C holds a star in between, so no plan.
    exact = _question([(0, -1), (0, -2)], transforms=Transforms.EXACT)
    stars = {"1N": "red", "3S": "blue", "C": "blue"}
    for document in _expect(exact(stars=stars, actions=["move_line"]), 1):
        assert document["plan"] == [{"turn": 1, "action": "move_line", "from": "1N", "to": "4S"}]
    _expect(exact(stars=stars, actions=["move_line"], line_blocking=True), None)


def test_a_second_turn_makes_the_target_reachable() -> None:
    # The two-line-moves position (see test_two_line_moves_are_needed) with one move_line a
    # turn: 1 turn is one move, not enough; 2 turns give the second move in turn 2.
    stars = {"1N": "red", "1E": "red"}
    _expect(_question(turns=1)(stars=stars, actions=["move_line"]), None)
    for document in _expect(_question(turns=2)(stars=stars, actions=["move_line"]), 2):
        assert [item["turn"] for item in document["plan"]] == [1, 2]
        assert all(item["action"] == "move_line" for item in document["plan"])


def test_second_turn_with_an_opponent_who_passes() -> None:
    # Same as above with blue in the game (on 1SW, a corner in no pair, out of red's way):
    # between red's turns blue passes; the plan still needs turn 2.
    stars = {"1N": "red", "1E": "red", "1SW": "blue"}
    for document in _expect(_question(turns=2)(stars=stars, actions=["move_line"]), 2):
        assert [item["turn"] for item in document["plan"]] == [1, 2]


def test_first_slot_already_passed() -> None:
    # Red 4E; actions [generate, move_ring] with slot 1: the generate of this turn is
    # passed. move_ring keeps red 4E on ring 4, alone: unreachable in 1 turn. In 2 turns
    # the second turn's generate on C makes C–4E: 1 action, in turn 2.
    stars = {"4E": "red"}
    _expect(_question()(stars=stars, actions=["generate", "move_ring"], slot=1), None)
    make = _question(turns=2)
    for document in _expect(make(stars=stars, actions=["generate", "move_ring"], slot=1), 1):
        assert document["plan"] == [
            {"turn": 2, "action": "generate", "point": "C", "destroyed": None}
        ]


def test_nothing_to_do() -> None:
    # An empty action list: no action at all, and red 4E alone is no pair.
    _expect(_question()(stars={"4E": "red"}, actions=[]), None)
    # Every slot of this turn already passed (slot 1 of a 1-action list).
    _expect(_question()(stars={"4E": "red"}, actions=["generate"], slot=1), None)
    # An exact pattern off the board (the 4-ring board ends at ±4): no placement at all.
    _expect(_question([(5, 5)], transforms=Transforms.EXACT)(actions=["generate"]), None)


def test_claimed_this_turn_leaves_no_action() -> None:
    # 2-ring board, red on 2E = (1, 0), actions [generate], "claimed": true. Rules: the
    # turn is (1) actions, (2) optionally claim; after a claim the action phase is over.
    # So in 1 turn nothing can be done and no pair is present: unreachable.
    question = ReachQuestion.build(
        _state(rings=2, stars={"2E": "red"}, actions=["generate"], claimed=True), PAIR
    )
    assert brute_min_actions(question) is None
    _expect(question, None)


def test_claimed_this_turn_waits_for_the_next() -> None:
    # As above with turns=2: next turn's generate on C makes C–2E: 1 action, in turn 2.
    question = ReachQuestion.build(
        _state(rings=2, stars={"2E": "red"}, actions=["generate"], claimed=True),
        PAIR,
        turns=2,
    )
    assert brute_min_actions(question) == 1
    for document in _expect(question, 1):
        assert document["plan"] == [
            {"turn": 2, "action": "generate", "point": "C", "destroyed": None}
        ]


def test_game_over_allows_no_action() -> None:
    # 2-ring board, red on 2E, actions [generate], "over": true: no move is legal.
    state = _state(rings=2, stars={"2E": "red"}, actions=["generate"], over=True)
    try:
        question = ReachQuestion.build(state, PAIR)
    except InputError:
        return
    assert brute_min_actions(question) is None
    _expect(question, None)


# -- the JSON document ---------------------------------------------------------------------------


def test_json_shape_of_every_plan_item_kind() -> None:
    # supernova: {turn, action}; generate: + point and destroyed.
    make = _question()
    supernova = make(
        stars={"1NE": "red", "4N": "blue"}, reserve={"red": 0}, actions=["supernova", "generate"]
    )
    # generate_targeted: + point only. Red 4E: one unit from C, 3E, 4NE, 4SE.
    targeted = make(stars={"4E": "red"}, actions=["generate_targeted"])
    # moves: + from and to.
    moves = make(stars={"1N": "red", "1E": "red"}, actions=["move_line", "move_line"])
    ring = make(stars={"4E": "red", "3N": "blue"}, actions=["move_ring"])
    nudge = make(stars={"3E": "red", "C": "blue"}, actions=["nudge"])
    for answer in [a for q in (supernova, targeted, moves, ring, nudge) for a in _both(q)]:
        document: dict[str, Any] = answer.to_json()
        assert set(document) == ANSWER_KEYS
        assert document["reachable"] is True and document["certified"] is True
        assert document["placement"] == sorted(document["placement"])
        for item in document["plan"]:
            keys = {
                "supernova": {"turn", "action"},
                "generate": {"turn", "action", "point", "destroyed"},
                "generate_targeted": {"turn", "action", "point"},
                "move_line": {"turn", "action", "from", "to"},
                "move_ring": {"turn", "action", "from", "to"},
                "nudge": {"turn", "action", "from", "to"},
            }[item["action"]]
            assert set(item) == keys
            assert item["turn"] == 1
    plan: Any = search_reach(targeted).to_json()["plan"]
    (item,) = plan
    assert item["point"] in {"C", "3E", "4NE", "4SE"}
    # Blue 3N = (0, 2) pairs only with 4N = (0, 1) or 2N = (0, 3); red 4E stays on ring 4,
    # so the one move_ring is 4E -> 4N.
    assert search_reach(ring).to_json()["plan"] == [
        {"turn": 1, "action": "move_ring", "from": "4E", "to": "4N"}
    ]


def test_json_shape_when_unreachable() -> None:
    question = ReachQuestion.build(
        _state(stars={"1N": "red", "3S": "blue"}, actions=["move_ring"]), PAIR
    )
    for answer in (cp_reach(question), search_reach(question)):
        document = answer.to_json()
        assert document == {
            "reachable": False,
            "status": "infeasible",
            "min_actions": None,
            "plan": [],
            "placement": [],
            "certified": False,
        }
        assert json.loads(json.dumps(document)) == document


# -- certify rejects bad plans -----------------------------------------------------------------


def _generate_question() -> ReachQuestion:
    # Red 4E, actions [generate]: the pair needs a generate on C (see above).
    return ReachQuestion.build(_state(stars={"4E": "red"}, actions=["generate"]), PAIR)


def test_certify_accepts_the_hand_worked_plan() -> None:
    question = _generate_question()
    step = PlanStep(1, Action(ActionKind.GENERATE, 0, point="C"))
    certificate = certify(question, [step])
    assert certificate.placement == frozenset({"4E", "C"})
    assert certificate.plan_json() == [
        {"turn": 1, "action": "generate", "point": "C", "destroyed": None}
    ]


@pytest.mark.parametrize(
    "step",
    [
        # 4N is not a generation point
        PlanStep(1, Action(ActionKind.GENERATE, 0, point="4N")),
        # slot 0 holds generate, not move_line
        PlanStep(1, Action(ActionKind.MOVE_LINE, 0, origin="4E", target="C")),
        # there is no slot 1
        PlanStep(1, Action(ActionKind.GENERATE, 1, point="C")),
        # a point that is not on the board
        PlanStep(1, Action(ActionKind.GENERATE, 0, point="9Q")),
        # turn 2 of a one-turn question
        PlanStep(2, Action(ActionKind.GENERATE, 0, point="C")),
    ],
)
def test_certify_rejects_an_illegal_action(step: PlanStep) -> None:
    with pytest.raises(PlanError):
        certify(_generate_question(), [step])


def test_certify_rejects_a_used_slot_used_again() -> None:
    step = PlanStep(1, Action(ActionKind.GENERATE, 0, point="C"))
    with pytest.raises(PlanError):
        certify(_generate_question(), [step, step])


def test_certify_rejects_moving_an_opponent_star() -> None:
    # move_line moves the player's own stars only; blue C is not red's.
    question = ReachQuestion.build(
        _state(stars={"3E": "red", "C": "blue"}, actions=["move_line"]), PAIR
    )
    with pytest.raises(PlanError):
        certify(question, [PlanStep(1, Action(ActionKind.MOVE_LINE, 0, origin="C", target="4E"))])


def test_certify_rejects_a_plan_that_misses_the_target() -> None:
    question = _generate_question()
    # legal, but 1NE = (4, 4) is next to nothing
    with pytest.raises(PlanError):
        certify(question, [PlanStep(1, Action(ActionKind.GENERATE, 0, point="1NE"))])
    with pytest.raises(PlanError):
        certify(question, [])


def test_certify_rejects_turns_going_backwards() -> None:
    question = ReachQuestion.build(
        _state(stars={"1N": "red", "1E": "red"}, actions=["move_line"]), PAIR, turns=2
    )
    good = [
        PlanStep(1, Action(ActionKind.MOVE_LINE, 0, origin="1N", target="C")),
        PlanStep(2, Action(ActionKind.MOVE_LINE, 0, origin="1E", target="4E")),
    ]
    assert certify(question, good).placement == frozenset({"C", "4E"})
    with pytest.raises(PlanError):
        certify(question, good[::-1])


# -- ReachQuestion.build errors -----------------------------------------------------------------


@pytest.mark.parametrize("turns", [0, -1, MAX_TURNS + 1])
def test_build_rejects_turns_out_of_range(turns: int) -> None:
    with pytest.raises(InputError):
        ReachQuestion.build(_state(stars={"4E": "red"}, actions=["generate"]), PAIR, turns=turns)


@pytest.mark.parametrize(
    ("rings", "pattern"),
    [
        (2, [(0, 0), (5, 0)]),  # a 2-ring board spans 4 × 4 lattice units
        (2, [(0, 0), (0, -5)]),
        (4, [(0, 0), (9, 0)]),  # the default board spans 8 × 8
        (4, [(-5, -5), (4, 4)]),
    ],
)
def test_build_rejects_a_pattern_wider_than_the_board(rings: int, pattern: list[Vector]) -> None:
    with pytest.raises(InputError):
        ReachQuestion.build(_state(rings=rings, actions=["generate"]), pattern)


@pytest.mark.parametrize("pattern", [[], [[0, 0], [0, 0]], [[0, 0, 0]]])
def test_build_rejects_malformed_patterns(pattern: Any) -> None:
    with pytest.raises(InputError):
        ReachQuestion.build(_state(actions=["generate"]), pattern)


def test_build_rejects_too_many_slots_and_late_extra_turns() -> None:
    long_list = ["nudge"] * 14  # 3 turns × 14 = 42 slots, above MAX_SLOTS = 40
    with pytest.raises(InputError):
        ReachQuestion.build(_state(actions=long_list), PAIR, turns=3)
    final = _state(actions=["generate"], final_turns_left=1)
    assert ReachQuestion.build(final, PAIR, turns=1).turns == 1
    with pytest.raises(InputError):
        ReachQuestion.build(final, PAIR, turns=2)


# -- properties on random small positions ---------------------------------------------------------

DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
BOARD_KINDS = ["generate", "generate_targeted", "move_line", "move_ring", "nudge", "supernova"]
SMALL_CARDS = [list(card.pattern) for card in provisional_catalog().deck(Deck.SMALL)]
TRANSFORMS = ["exact", "translate", "translate+rotate", "translate+rotate+reflect"]


def _points(rings: int) -> list[str]:
    return [f"{r}{d}" for r in range(1, rings + 1) for d in DIRECTIONS] + ["C"]


def _random_pattern(size: int) -> st.SearchStrategy[list[Vector]]:
    return st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2)), unique=True, min_size=size, max_size=size
    )


@st.composite
def reach_questions(draw: st.DrawFn, max_rings: int = 4, max_slots: int = 4) -> ReachQuestion:
    """A small position, action list, target and options, as a STATE document."""
    rings = draw(st.sampled_from([r for r in (2, 2, 3, 3, 4) if r <= max_rings]))
    small = rings < 4
    points = _points(rings)
    occupied = draw(
        st.lists(st.sampled_from(points), unique=True, min_size=1, max_size=5 if small else 4)
    )
    colors = draw(
        st.lists(
            st.sampled_from(["red", "red", "blue", "blue", "green"]),
            min_size=len(occupied),
            max_size=len(occupied),
        )
    )
    stars = dict(zip(occupied, colors, strict=True))
    player = draw(st.sampled_from(["red", "red", "blue"]))
    document: dict[str, Any] = {
        "rings": rings,
        "stars": stars,
        "player": player,
        "line_blocking": draw(st.booleans()),
    }
    if player not in colors and draw(st.booleans()):
        document["players"] = sorted({*colors, player}, key=["red", "blue", "green"].index)
    if draw(st.integers(0, 3)) == 0:
        document["sides_are_lines"] = True
    if draw(st.integers(0, 3)) == 0:
        document["generation_points"] = draw(
            st.lists(st.sampled_from(points), unique=True, min_size=1, max_size=4)
        )
    if draw(st.booleans()):
        on_board = sum(1 for c in colors if c == player)
        document["reserve"] = {player: draw(st.integers(0, min(2, 10 - on_board)))}
    turns = draw(st.sampled_from([1, 1, 2]))
    per_turn = max_slots if turns == 1 else max_slots // 2
    if not small:
        per_turn = min(per_turn, 3 // turns)
    kinds = draw(
        st.lists(
            st.sampled_from([*BOARD_KINDS, *BOARD_KINDS, "black_hole"]),
            min_size=1,
            max_size=max(1, per_turn),
        )
    )
    document["actions"] = kinds
    if len(kinds) > 1 and draw(st.integers(0, 4)) == 0:
        document["slot"] = 1
    pattern = draw(
        st.one_of(
            _random_pattern(2),
            _random_pattern(2),
            _random_pattern(3),
            st.sampled_from(SMALL_CARDS),
        )
    )
    transforms = draw(st.sampled_from([*TRANSFORMS, "translate+rotate+reflect"]))
    return ReachQuestion.build(
        parse_state(json.dumps(document)),
        pattern,
        transforms=Transforms(transforms),
        turns=turns,
        own_stars_only=draw(st.booleans()),
    )


def _describe(question: ReachQuestion) -> str:
    """The instance, exactly: the STATE document and the question's options."""
    return json.dumps(
        {
            "state": state_to_data(question.state),
            "targets": sorted(sorted(t) for t in question.targets),
            "turns": question.turns,
            "own_stars_only": question.own_stars_only,
        }
    )


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(reach_questions())
def test_cp_and_search_agree(question: ReachQuestion) -> None:
    cp, search = _both(question)
    described = _describe(question)
    assert search.status.value in ("optimal", "infeasible"), described
    assert cp.status is search.status, described
    assert cp.min_actions == search.min_actions, described


# -- an independent brute force over the rules engine --------------------------------------------


def _pass_turn(state: AsterState, actions: tuple[ActionKind, ...]) -> AsterState:
    """End the turn, let every other player end theirs, and give the player the same action
    list again (the solo view of a reach question)."""
    player = state.player
    state = apply(state, EndTurn())
    while state.player is not player:
        state = apply(state, EndTurn())
    return replace(state, actions=actions, next_slot=0)


def brute_min_actions(question: ReachQuestion) -> int | None:
    """Fewest actions to a target, trying every legal action of every remaining slot (each
    subset of slots, in order) and every turn, with no pruning and no memory."""
    start = question.state
    player = start.player

    def goal(state: AsterState) -> bool:
        for placement in question.targets:
            owners = [state.star_at(p) for p in placement]
            if question.own_stars_only:
                if all(owner is player for owner in owners):
                    return True
            elif None not in owners:
                return True
        return False

    best: int | None = None

    def walk(state: AsterState, turn: int, used: int) -> None:
        nonlocal best
        if goal(state) and (best is None or used < best):
            best = used
        for move in legal_actions(state):
            if isinstance(move, Action):  # claims and the end of turn are not actions
                walk(apply(state, move), turn, used + 1)
        if turn < question.turns:
            walk(_pass_turn(state, start.actions), turn + 1, used)

    walk(start, 1, 0)
    return best


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(reach_questions(max_rings=2, max_slots=3))
def test_brute_force_agrees_with_both(question: ReachQuestion) -> None:
    assert len(question.slots) <= 3
    expected = brute_min_actions(question)
    described = _describe(question)
    for answer in _both(question):
        if expected is None:
            assert answer.to_json()["status"] == "infeasible", (answer.engine, described)
        else:
            assert answer.to_json()["status"] == "optimal", (answer.engine, described)
        assert answer.min_actions == expected, (answer.engine, described)


@pytest.mark.parametrize(
    "document",
    [
        {"rings": 2, "stars": {"1N": "red", "1E": "red"}, "actions": ["move_line"] * 2},
        {"rings": 2, "stars": {"2E": "red", "2W": "red", "C": "blue"}, "actions": ["nudge"] * 2},
        {
            "rings": 2,
            "stars": {"1NE": "red", "2N": "blue"},
            "reserve": {"red": 0},
            "actions": ["supernova", "generate"],
        },
        {
            "rings": 2,
            "stars": {"1N": "red", "C": "blue"},
            "line_blocking": True,
            "actions": ["move_line", "nudge", "move_line"],
        },
    ],
)
@pytest.mark.parametrize("own", [False, True])
def test_brute_force_on_fixed_tiny_positions(document: dict[str, Any], own: bool) -> None:
    question = ReachQuestion.build(_state(**document), PAIR, own_stars_only=own)
    expected = brute_min_actions(question)
    for answer in _both(question):
        assert answer.min_actions == expected, answer.engine
