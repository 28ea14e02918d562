"""Aster solo puzzles: the plan counter against a brute force over the rules engine,
generation (unique, graded, deterministic), files and bad input."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from asterion.errors import InputError
from asterion.models.aster import Action, AsterState, apply, slot_actions
from asterion.models.aster_cards import BOARD_ACTIONS
from asterion.models.aster_files import parse_state
from asterion.puzzles.aster import (
    PUZZLE_FORMAT,
    Difficulty,
    Grade,
    generate_puzzle,
    label_of,
    load_puzzle,
    prove,
    puzzle_from_data,
    puzzle_svg,
    puzzle_to_data,
    solution_to_data,
)
from asterion.puzzles.aster_plans import count_plans
from asterion.solver.aster_reach import ReachQuestion, search_reach

# -- an independent brute force: every action sequence, by the rules engine ----------------------


def _move_of(action: Action) -> tuple[str, ...]:
    if action.point is not None:
        return ("at", action.point)
    if action.origin is not None and action.target is not None:
        return ("move", action.origin, action.target)
    return ("supernova",)


def _sequences(
    question: ReachQuestion, state: AsterState, moves: tuple[tuple[str, ...], ...]
) -> Iterator[tuple[AsterState, tuple[tuple[str, ...], ...]]]:
    """Every sequence of board-changing actions (turn 1 only), stopping at the target."""
    if question.is_goal(state) is not None:
        yield state, moves
        return
    for slot in range(state.next_slot, len(state.actions)):
        if state.actions[slot] not in BOARD_ACTIONS:
            continue
        for action in slot_actions(state, slot):
            after = apply(state, action)
            if after.stars == state.stars:
                continue
            yield from _sequences(question, after, (*moves, _move_of(action)))


def brute_force(question: ReachQuestion) -> tuple[int | None, int, int]:
    """(fewest actions, plan classes of that length, classes one longer): a class is the
    final board with the multiset of moves."""
    classes: dict[int, set[object]] = {}
    for final, moves in _sequences(question, question.state, ()):
        classes.setdefault(len(moves), set()).add((final.stars, tuple(sorted(moves))))
    if not classes:
        return None, 0, 0
    shortest = min(classes)
    return shortest, len(classes[shortest]), len(classes.get(shortest + 1, ()))


def _random_question(rng: random.Random) -> ReachQuestion:
    points = ["1N", "1NE", "1E", "1SE", "1S", "1SW", "1W", "1NW"]
    points += ["2N", "2NE", "2E", "2SE", "2S", "2SW", "2W", "2NW", "C"]
    stars = {p: rng.choice(["red", "blue"]) for p in rng.sample(points, rng.randint(1, 4))}
    kinds = ["generate", "generate_targeted", "move_line", "move_ring", "nudge", "supernova"]
    actions = rng.choices(kinds, k=rng.randint(1, 3))
    own = sum(1 for c in stars.values() if c == "red")
    state = parse_state(
        json.dumps(
            {
                "rings": 2,
                "stars": stars,
                "reserve": {"red": min(rng.randint(0, 2), 10 - own)},
                "player": "red",
                "players": ["red", "blue"],
                "actions": actions,
            }
        )
    )
    pattern = rng.choice([[[0, 0], [1, 0]], [[0, 0], [1, 1]], [[0, 0], [1, 0], [1, 1]]])
    return ReachQuestion.build(state, pattern)


def test_counter_matches_brute_force_on_tiny_questions() -> None:
    rng = random.Random(2024)
    checked = 0
    for _ in range(40):
        question = _random_question(rng)
        expected = brute_force(question)
        count = count_plans(question)
        assert count.complete
        if expected[0] is None:
            assert count.min_actions is None
            continue
        assert (count.min_actions, count.plans, count.near_misses) == expected
        checked += 1
    assert checked >= 15


def test_counter_agrees_with_breadth_first_minimum() -> None:
    rng = random.Random(7)
    for _ in range(15):
        question = _random_question(rng)
        assert count_plans(question).min_actions == search_reach(question).min_actions


def test_commuting_moves_are_one_plan() -> None:
    # Two independent nudges (1N to 2N, 1S to 2S) complete the N-C-S line: two orders, one
    # plan (same moves, same final board).
    state = parse_state(
        '{"rings": 2, "stars": {"1N": "red", "1S": "blue", "C": "red"}, "player": "red",'
        ' "players": ["red", "blue"], "actions": ["nudge", "nudge"]}'
    )
    question = ReachQuestion.build(state, [[0, 0], [0, 1], [0, -1]])
    assert len(list(_sequences(question, state, ()))) == 2
    count = count_plans(question)
    assert (count.min_actions, count.plans) == (2, 1) == brute_force(question)[:2]
    assert count.certificate is not None


# -- generation -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def medium() -> tuple[object, ...]:
    generated = generate_puzzle(11, 0, Difficulty.MEDIUM)
    assert generated.puzzle is not None and generated.solution is not None
    return generated.puzzle, generated.solution


def test_generated_puzzle_is_unique_graded_and_replays(medium: tuple[object, ...]) -> None:
    puzzle, certificate = medium
    assert puzzle.difficulty is Difficulty.MEDIUM  # type: ignore[attr-defined]
    verdict = prove(puzzle)  # type: ignore[arg-type]
    assert verdict.unique is True
    assert verdict.count.min_actions == len(certificate.steps)  # type: ignore[attr-defined]
    grade = puzzle.grade  # type: ignore[attr-defined]
    assert (verdict.count.near_misses, verdict.count.effort) == (grade.near_misses, grade.effort)
    question = puzzle.question()  # type: ignore[attr-defined]
    assert brute_force(question)[:2] == (len(certificate.steps), 1)  # type: ignore[attr-defined]


def test_generation_is_deterministic() -> None:
    first = generate_puzzle(5, 3, Difficulty.EASY)
    again = generate_puzzle(5, 3, Difficulty.EASY)
    assert first.puzzle is not None and again.puzzle is not None
    assert puzzle_to_data(first.puzzle) == puzzle_to_data(again.puzzle)
    other = generate_puzzle(5, 4, Difficulty.EASY)
    assert other.puzzle is not None
    assert puzzle_to_data(other.puzzle) != puzzle_to_data(first.puzzle)


def test_labels_follow_the_documented_floors() -> None:
    assert label_of(Grade(1, 4, 30, 5000)) is Difficulty.EASY
    assert label_of(Grade(2, 0, 0, 0)) is Difficulty.MEDIUM
    assert label_of(Grade(3, 0, 0, 0)) is Difficulty.HARD
    assert label_of(Grade(3, 3, 5, 300)) is Difficulty.EXPERT


# -- files -------------------------------------------------------------------------------------


def test_file_round_trip_and_picture(medium: tuple[object, ...], tmp_path: Path) -> None:
    puzzle, certificate = medium
    data = puzzle_to_data(puzzle)  # type: ignore[arg-type]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    again = load_puzzle(path)
    assert puzzle_to_data(again) == data
    solution = solution_to_data(again, certificate)  # type: ignore[arg-type]
    assert solution["min_actions"] == len(solution["plan"])
    svg = puzzle_svg(again)
    assert svg.startswith("<svg") and again.id in svg


def _document(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": PUZZLE_FORMAT,
        "id": "t",
        "position": {
            "stars": {"4N": "red"},
            "player": "red",
            "players": ["red", "blue"],
            "actions": ["nudge"],
        },
        "target": {"card": "Tri"},
        "turns": 1,
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": "asterion.aster-puzzle/9"}, "format"),
        ({"position": {"stars": {"9X": "red"}, "player": "red"}}, "position.stars"),
        ({"position": {"stars": {"4N": "red"}, "reserve": {"red": 10}}}, "position.reserve"),
        ({"target": {"pattern": [[0, 0], [12, 0]]}}, "wider than the board"),
        ({"target": {"card": "Xyz"}}, "unknown card"),
        ({"turns": 9}, "turns"),
    ],
)
def test_bad_puzzle_files_are_one_line_errors(changes: dict[str, object], words: str) -> None:
    with pytest.raises(InputError) as caught:
        puzzle_from_data(_document(**changes), "p.json")
    message = str(caught.value)
    assert "\n" not in message and words in message and message.startswith("p.json")


def test_a_pattern_with_no_placement_is_refused() -> None:
    # Spans the board corner to corner, and the point beside a corner is no point.
    data = _document(target={"pattern": [[0, 0], [8, 8], [1, 0]]})
    with pytest.raises(InputError, match="cannot fit"):
        puzzle_from_data(data, "p.json")


def test_a_plan_reached_late_first_keeps_its_earliest_slot() -> None:
    # Regression: a plan class first met through a late slot, then through an earlier one
    # from another parent, must keep the earlier slot (else a near miss was lost: 119).
    state = parse_state(
        json.dumps(
            {
                "rings": 2,
                "stars": {"1NW": "blue", "1N": "blue", "2NW": "blue", "2SW": "red", "1S": "red"},
                "player": "red",
                "players": ["red", "blue"],
                "actions": ["nudge", "move_line", "move_ring", "move_line"],
            }
        )
    )
    question = ReachQuestion.build(state, [[0, 0], [0, 1], [0, 2]])
    count = count_plans(question)
    assert (count.min_actions, count.plans, count.near_misses) == brute_force(question)
    assert count.near_misses == 120


def test_a_two_turn_expert_puzzle_is_played_across_the_turns() -> None:
    from asterion.puzzles.play import AsterGame

    made = generate_puzzle(1, 0, Difficulty.EXPERT)
    assert made.puzzle is not None and made.solution is not None
    assert made.puzzle.turns == 2
    assert {step.turn for step in made.solution.steps} == {1, 2}
    game = AsterGame(made.puzzle)
    turn = 1
    for step in made.solution.steps:
        while turn < step.turn:
            game.handle("end")
            turn += 1
        action = step.action
        points = [p for p in (action.point, action.origin, action.target) if p is not None]
        game.handle(" ".join([action.kind.value, *points]))
    # (the turn's end is not an action: the solution's actions are the shortest plan's)
    assert game.solved and game.actions_used == len(made.solution.steps)
    assert "the shortest plan. Solved!" in game._solved_words()


def test_the_largest_board_keeps_moves_apart() -> None:
    # 73 points: move identities must not collide past point 64.
    state = parse_state(
        '{"rings": 9, "stars": {"9N": "red", "9E": "red", "1N": "blue"}, "player": "red",'
        ' "players": ["red", "blue"], "actions": ["nudge", "move_ring"]}'
    )
    question = ReachQuestion.build(state, [[0, 0], [1, 0]])
    count = count_plans(question)
    assert (count.min_actions, count.plans, count.near_misses) == brute_force(question)


# -- grading, by the documented points and floors -------------------------------------------------


@pytest.mark.parametrize(
    ("grade", "points"),
    [
        # "3 per action; 1 per decoy star (at most 4)"
        (Grade(1, 0, 0, 0), 3),
        (Grade(2, 3, 0, 0), 9),
        (Grade(0, 4, 0, 0), 4),
        (Grade(0, 5, 0, 0), 4),
        # "near misses 0/1/2/3 at 1/5/25 or more"
        (Grade(0, 0, 1, 0), 1),
        (Grade(0, 0, 4, 0), 1),
        (Grade(0, 0, 5, 0), 2),
        (Grade(0, 0, 24, 0), 2),
        (Grade(0, 0, 25, 0), 3),
        # "search effort 0/1/2 at 300/3000 or more states"
        (Grade(0, 0, 0, 299), 0),
        (Grade(0, 0, 0, 300), 1),
        (Grade(0, 0, 0, 2999), 1),
        (Grade(0, 0, 0, 3000), 2),
        (Grade(3, 9, 100, 10**6), 9 + 4 + 3 + 2),
    ],
)
def test_score_counts_the_documented_points(grade: Grade, points: int) -> None:
    assert grade.score == points


def test_labels_need_both_the_actions_and_the_score() -> None:
    # Expert: 3 actions and 15 points; 2 actions with 15 points are still medium.
    assert label_of(Grade(2, 4, 25, 3000)) is Difficulty.MEDIUM  # 6+4+3+2 = 15
    assert label_of(Grade(3, 2, 5, 300)) is Difficulty.HARD  # 9+2+2+1 = 14
    assert label_of(Grade(3, 2, 5, 3000)) is Difficulty.EXPERT  # 9+2+2+2 = 15
    assert label_of(Grade(4, 0, 0, 0)) is Difficulty.HARD  # 12 points, no decoys


def test_the_lengths_a_label_allows_follow_the_floors() -> None:
    # ACTIONS_OF stops the counter early: it must never rule out a plan length that can earn
    # the label (tried over every score component's steps), its bounds must be the shortest
    # and the longest such lengths (hard and expert have no longest), and a puzzle needs a move.
    from asterion.puzzles.aster import ACTIONS_OF

    for difficulty, (low, high) in ACTIONS_OF.items():
        possible = [
            length
            for length in range(1, 9)
            if any(
                label_of(Grade(length, d, n, e)) is difficulty
                for d in range(5)
                for n in (0, 1, 5, 25)
                for e in (0, 300, 3000)
            )
        ]
        assert low == min(possible) >= 1, difficulty
        if high is not None:
            assert high == max(possible), difficulty


def test_decoys_are_the_start_stars_the_plan_leaves_alone() -> None:
    # One nudge, any color (the only plan, by brute force): the blue 3NE goes to 3N, and
    # C, 2N, 3N form the line. 3NE moves and C, 2N are used; 1S and 2W are left alone.
    from asterion.puzzles.aster import decoys

    state = parse_state(
        '{"rings": 3, "stars": {"2N": "red", "C": "red", "1S": "red", "3NE": "blue",'
        ' "2W": "blue"}, "player": "red", "players": ["red", "blue"], "actions": ["nudge"]}'
    )
    question = ReachQuestion.build(state, [[0, 0], [0, 1], [0, -1]])
    count = count_plans(question)
    assert (count.min_actions, count.plans) == brute_force(question)[:2] == (1, 1)
    certificate = count.certificate
    assert certificate is not None
    assert [(s.action.origin, s.action.target) for s in certificate.steps] == [("3NE", "3N")]
    assert set(certificate.placement) == {"C", "2N", "3N"}
    assert decoys(certificate) == 2


def test_generation_replays_from_its_stream_and_attempt() -> None:
    # Stream (1, 0, easy): its first candidate has one shortest plan, of two actions (checked
    # here by brute force), so it is medium, not easy: the generator must draw on.
    from asterion.models.aster import AsterRules
    from asterion.models.aster_board import Board
    from asterion.puzzles.aster import sample_candidate

    rng = random.Random("aster-puzzle/1/0/easy")
    rules = AsterRules(board=Board())
    first = sample_candidate(rng, Difficulty.EASY, rules)
    assert brute_force(first.question())[:2] == (2, 1)
    made = generate_puzzle(1, 0, Difficulty.EASY)
    assert made.puzzle is not None and made.puzzle.grade is not None
    assert made.puzzle.grade.min_actions == 1
    assert made.attempts > 1
    # "seed, index, attempt: how to make it again": the attempt-th draw of the stream is it
    # (the first draw above was number 1).
    for _ in range(made.attempts - 1):
        again = sample_candidate(rng, Difficulty.EASY, rules)
    assert made.puzzle.generator == {"seed": 1, "index": 0, "attempt": made.attempts}
    assert again.state == made.puzzle.state
    assert made.states >= made.puzzle.grade.effort > 0
    # Exactly that many tries find it; one fewer gives up.
    exact = generate_puzzle(1, 0, Difficulty.EASY, max_attempts=made.attempts)
    assert exact.puzzle == made.puzzle
    short = generate_puzzle(1, 0, Difficulty.EASY, max_attempts=made.attempts - 1)
    assert short.puzzle is None and short.attempts == made.attempts - 1


def test_a_hard_puzzle_is_hard_by_the_documented_score() -> None:
    # Stream (0, 0, hard) meets a unique candidate graded expert before a hard one: the
    # generator must pass over it, not give up. "hard: three or more" actions and a score
    # of 9 to 14 (15 is expert), the score counted here by the documented points.
    made = generate_puzzle(0, 0, Difficulty.HARD)
    assert made.puzzle is not None and made.solution is not None
    grade = made.puzzle.grade
    assert grade is not None and made.puzzle.difficulty is Difficulty.HARD
    near = sum(grade.near_misses >= f for f in (1, 5, 25))
    effort = sum(grade.effort >= f for f in (300, 3000))
    points = 3 * grade.min_actions + min(grade.decoys, 4) + near + effort
    assert grade.min_actions == len(made.solution.steps) >= 3
    assert 9 <= points < 15
    assert prove(made.puzzle).unique is True


def test_a_target_given_by_card_alone_takes_the_cards_pattern() -> None:
    # "card (a catalog abbreviation...) and pattern": either may stand alone; with neither
    # the file is refused.
    puzzle = puzzle_from_data(_document(), "p.json")
    assert puzzle.pattern == tuple(tuple(p) for p in puzzle.state.rules.catalog["Tri"].pattern)
    with pytest.raises(InputError, match="give a card or a pattern"):
        puzzle_from_data(_document(target={}), "p.json")
