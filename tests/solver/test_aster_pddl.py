"""The STRIPS/PDDL encoding of reachability, solved by pyperplan, against the baseline search.

On small positions (2-ring and 4-ring boards, 1–3 slots) pyperplan's optimal plan, read back
and certified by the rules engine, has exactly as many actions as :func:`search_reach`'s
shortest plan, and both agree on unreachable questions. Skipped when pyperplan is not
installed (it is in the ``bench`` extra, not in ``test``); the Fast Downward checks also need
``up-fast-downward``.

Geometry of the 2-ring board (y north): ring 1 at half-size 2, ring 2 at 1, the center C. The
N–S line is 1N (0, 2), 2N (0, 1), C, 2S, 1S.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from asterion.models.aster_board import Board
from asterion.models.aster_cards import ActionKind
from asterion.models.aster_files import parse_state
from asterion.solver.aster_reach import ReachAnswer, ReachQuestion, search_reach
from asterion.solver.result import Status

pytest.importorskip("pyperplan")

from asterion.solver.aster_pddl import (
    UnsupportedQuestion,
    encode,
    parse_plan,
    pddl_reach,
    reach_to_pddl,
)

PAIR = [[0, 0], [1, 0]]
TRIANGLE = [[0, 0], [1, 0], [0, 1]]
TIME_LIMIT = 60.0
BOARD_KINDS = [
    ActionKind.GENERATE,
    ActionKind.GENERATE_TARGETED,
    ActionKind.MOVE_LINE,
    ActionKind.MOVE_RING,
    ActionKind.NUDGE,
]


def _question(
    pattern: Any = PAIR, *, own: bool = False, turns: int = 1, **fields: Any
) -> ReachQuestion:
    document: dict[str, Any] = {"player": "red", "players": ["red", "blue"], **fields}
    state = parse_state(json.dumps(document))
    return ReachQuestion.build(state, pattern, own_stars_only=own, turns=turns)


def _agree(question: ReachQuestion) -> ReachAnswer:
    """pyperplan's answer, checked against the baseline's."""
    expected = search_reach(question)
    answer = pddl_reach(question, time_limit=TIME_LIMIT)
    assert expected.status is not Status.UNKNOWN
    assert answer.status is expected.status
    assert answer.min_actions == expected.min_actions
    return answer


# -- hand-worked positions ------------------------------------------------------------------


def test_already_present_needs_no_action() -> None:
    # 2N (0, 1) and C (0, 0) are one unit apart vertically: a pair from the start
    answer = _agree(_question(rings=2, stars={"2N": "red", "C": "blue"}, actions=["nudge"]))
    assert answer.min_actions == 0


def test_one_nudge_of_an_opponent_star_completes_the_pair() -> None:
    # red 2N (0, 1) has no star one unit away; blue 1NE (2, 2) nudged along ring 1 to 1N
    # (0, 2) makes the pair 1N–2N. move_ring alone cannot: no ring-2 point is one unit from
    # (2, 2), and red has a single star
    answer = _agree(
        _question(rings=2, stars={"2N": "red", "1NE": "blue"}, actions=["move_ring", "nudge"])
    )
    assert answer.min_actions == 1
    assert answer.certificate is not None
    (step,) = answer.certificate.steps
    assert step.action.kind is ActionKind.NUDGE


def test_own_stars_only_needs_more() -> None:
    # the blue star does not count: red generates at C (a generation point, one unit from
    # 2N); moving its single star cannot make a red pair
    answer = _agree(
        _question(
            own=True,
            rings=2,
            stars={"2N": "red", "1N": "blue"},
            actions=["nudge", "generate"],
        )
    )
    assert answer.min_actions == 1
    assert answer.certificate is not None
    assert answer.certificate.steps[0].action.point == "C"


def test_generate_destroys_an_opponent_star() -> None:
    # own stars only: red's one reserve star goes onto C, destroying blue's, next to red 2N
    question = _question(
        own=True,
        rings=2,
        stars={"2N": "red", "C": "blue"},
        reserve={"red": 1},
        actions=["generate"],
    )
    answer = _agree(question)
    assert answer.min_actions == 1


def test_no_reserve_no_generation() -> None:
    # own stars only: red has a single star and nothing in reserve to generate
    question = _question(
        own=True, rings=2, stars={"1N": "red"}, reserve={"red": 0}, actions=["generate"]
    )
    assert _agree(question).status is Status.INFEASIBLE


def test_line_blocking_stops_a_long_move() -> None:
    # the N–S line is 1N 2N C 2S 1S; own stars only. A red pair needs 1S→2N (next to 1N) or
    # 1N→2S (next to 1S); with A4 on, blue at C blocks both; without, 1S→2N does it
    document: dict[str, Any] = {
        "line_blocking": True,
        "stars": {"1S": "red", "C": "blue", "1N": "red"},
    }
    question = _question(own=True, rings=2, actions=["move_line"], **document)
    assert _agree(question).status is Status.INFEASIBLE
    free: dict[str, Any] = {**document, "line_blocking": False}
    assert _agree(_question(own=True, rings=2, actions=["move_line"], **free)).min_actions == 1


def test_the_default_board() -> None:
    # red's home corners 2NE (3, 3) and 3NE (2, 2) have no board point one unit away; both
    # engines must agree on the count, whatever it is
    question = _question(stars={"2NE": "red", "3NE": "red"}, actions=["nudge", "move_ring"])
    _agree(question)


def test_a_second_turn_reuses_the_list() -> None:
    # own stars only; red 1N (0, 2) and 1S (0, -2) are four apart on the N–S line. One
    # move_line does it (1N→2S lands next to 1S). A nudge moves a star one unit, so closing
    # the gap to one unit takes three nudges: with [nudge] per turn, two turns are not
    # enough and three are, one nudge in each
    stars = {"1N": "red", "1S": "red"}
    assert _agree(_question(own=True, rings=2, stars=stars, actions=["move_line"])).min_actions == 1
    nudges = _question(own=True, turns=2, rings=2, stars=stars, actions=["nudge"])
    assert _agree(nudges).status is Status.INFEASIBLE
    three = _question(own=True, turns=3, rings=2, stars=stars, actions=["nudge"])
    answer = _agree(three)
    assert answer.min_actions == 3
    assert answer.certificate is not None
    assert [step.turn for step in answer.certificate.steps] == [1, 2, 3]


def test_supernova_is_refused() -> None:
    question = _question(rings=2, stars={"1N": "red"}, actions=["supernova", "nudge"])
    with pytest.raises(UnsupportedQuestion):
        reach_to_pddl(question)


def test_plan_reading_rejects_actions_after_the_goal() -> None:
    question = _question(rings=2, stars={"2N": "red", "1NE": "blue"}, actions=["nudge"])
    task = encode(question)
    with pytest.raises(AssertionError):
        parse_plan(task, question, ["(achieve-0)", "(nudge-0 col-blue pt-1ne pt-1n)"])
    with pytest.raises(AssertionError):
        parse_plan(task, question, ["(nudge-0 col-blue pt-1ne pt-1n)"])


def test_domain_and_problem_are_pddl() -> None:
    domain, problem = reach_to_pddl(
        _question(rings=2, stars={"2N": "red"}, actions=["generate", "nudge"])
    )
    assert domain.startswith("(define (domain aster-reach)")
    assert "(:action generate-0-empty" in domain and "(:action nudge-1" in domain
    assert problem.count("(") == problem.count(")")
    assert domain.count("(") == domain.count(")")


# -- random small positions ------------------------------------------------------------------


def _random_question(rng: random.Random, rings: int, slots: int) -> ReachQuestion:
    names = list(Board(rings=rings).points)
    chosen = rng.sample(names, rng.randint(1, 4))
    stars = {p: rng.choice(["red", "blue"]) for p in chosen}
    reds = sum(1 for c in stars.values() if c == "red")
    actions = [rng.choice(BOARD_KINDS).value for _ in range(slots)]
    pattern = rng.choice([PAIR, TRIANGLE, [[0, 0], [2, 0]]])
    return _question(
        pattern,
        own=rng.random() < 0.3,
        rings=rings,
        stars=stars,
        reserve={"red": rng.randint(0, 10 - reds)},
        actions=actions,
    )


@pytest.mark.parametrize(
    ("seed", "rings", "slots"),
    [(seed, 2, 1 + seed % 3) for seed in range(8)] + [(seed, 4, 1 + seed % 3) for seed in range(3)],
)
def test_random_positions_agree_with_the_baseline(seed: int, rings: int, slots: int) -> None:
    _agree(_random_question(random.Random(seed), rings, slots))


def test_fast_downward_agrees() -> None:
    pytest.importorskip("up_fast_downward")
    rng = random.Random(7)
    for _ in range(3):
        question = _random_question(rng, 2, 2)
        expected = search_reach(question)
        answer = pddl_reach(question, time_limit=TIME_LIMIT, planner="fast-downward")
        assert answer.status is expected.status
        assert answer.min_actions == expected.min_actions
