"""Aster solo puzzles: a position, an action list, a target, and exactly one shortest plan.

A puzzle (rules/aster.md, question 4) is a start position, the action list of the player to
move (used left to right, each slot at most once per turn, any skipped), a target
constellation and a number of turns (the other players pass between turns). Its solution is
the plan of fewest actions that makes the target present; the generator keeps a puzzle only
when :func:`asterion.puzzles.aster_plans.count_plans` proves that this plan is unique and that
no shorter one exists. "Unique" is defined there: two plans are the same plan when they make
the same moves (a star from one point to another, a star generated on a point, a supernova)
and end on the same board, whatever the order; any other difference, of an action, a point,
or an order that changes the outcome, makes a second plan. Which symbol or slot made a step
does not matter (``move_line`` and ``nudge`` may make the same move).

Difficulty is graded by what solving needs (:class:`Grade`): the plan length, the decoy stars
(stars the plan neither moves nor uses), the near misses (plans one action longer, which a
solver must see past) and the search effort of the exact counter; :func:`label_of` maps them
to easy / medium / hard / expert with the thresholds documented there.

Files: a puzzle is one JSON document (format :data:`PUZZLE_FORMAT`, schema in
:func:`puzzle_to_data`), its solution another (:data:`SOLUTION_FORMAT`), and its picture an
SVG of the start (:func:`puzzle_svg`). Generation is seeded per puzzle
(:func:`generate_puzzle`): the same seed, index and difficulty give the same puzzle, byte for
byte, whichever process makes it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from asterion.errors import InputError
from asterion.models.aster import AsterRules, AsterState, Color
from asterion.models.aster_board import Board, Vector
from asterion.models.aster_cards import ActionKind, Card
from asterion.models.aster_files import state_from_data, state_to_data
from asterion.models.aster_patterns import Placement, Transforms, check_pattern, placements
from asterion.models.files import read_json_file, validate
from asterion.puzzles.aster_plans import DEFAULT_MAX_STATES, PlanCount, count_plans
from asterion.solver.aster_reach import MAX_TURNS, Certificate, ReachQuestion

PUZZLE_FORMAT = "asterion.aster-puzzle/1"
SOLUTION_FORMAT = "asterion.aster-solution/1"
POSITION_FIELDS = ("rings", "stars", "reserve", "player", "players", "actions")
"""The STATE fields a puzzle's position keeps (the rest of a game does not matter to it)."""

GENERATION_MAX_STATES = 20_000
"""States the counter may expand per candidate while generating (a candidate needing more is
dropped: a fixed budget, so the same seed gives the same puzzles on any machine)."""
GENERATION_TIME_LIMIT = 60.0
"""Seconds per candidate, a safety net far above what the state budget takes."""
MAX_ATTEMPTS = 2_000
"""Candidates tried per puzzle before the generator gives up on that index."""


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


DIFFICULTIES = tuple(Difficulty)


def parse_difficulty(name: str) -> Difficulty:
    try:
        return Difficulty(name)
    except ValueError:
        known = ", ".join(d.value for d in Difficulty)
        raise InputError(f"unknown difficulty {name!r} (one of: {known})") from None


# -- the puzzle ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AsterPuzzle:
    """A start position (with the action list), a target, a number of turns."""

    id: str
    state: AsterState
    pattern: tuple[Vector, ...]
    card: str | None = None
    turns: int = 1
    difficulty: Difficulty | None = None
    grade: Grade | None = None
    generator: dict[str, int] | None = None

    def question(self) -> ReachQuestion:
        """The reach question the puzzle asks (inputs checked by :func:`check_question`)."""
        targets = _placements(self.state.board, self.pattern, self.state.rules.transforms)
        return ReachQuestion(self.state, targets, self.turns)

    @property
    def target_name(self) -> str:
        if self.card is None:
            return "the pattern"
        card = self.state.rules.catalog[self.card]
        return f"{card.name} ({card.abbr})"


def check_question(puzzle: AsterPuzzle) -> None:
    """:raises InputError: if the question cannot be asked: turns out of range, too many
    slots, a finished game, or a target with no placement on the board."""
    question = ReachQuestion.build(puzzle.state, puzzle.pattern, turns=puzzle.turns)
    if not question.targets:
        raise InputError("the target cannot fit on the board: it has no placement")


@cache
def _placements(
    board: Board, pattern: tuple[Vector, ...], transforms: Transforms
) -> tuple[Placement, ...]:
    return tuple(placements(board, pattern, transforms))


@dataclass(frozen=True)
class Grade:
    """What solving the puzzle needs, and the label it earns (:func:`label_of`)."""

    min_actions: int
    decoys: int
    near_misses: int
    effort: int

    @property
    def score(self) -> int:
        """Points: 3 per action; 1 per decoy star (at most 4); near misses 0/1/2/3 at
        1/5/25 or more; search effort 0/1/2 at 300/3000 or more states."""
        near = sum(1 for floor in (1, 5, 25) if self.near_misses >= floor)
        effort = sum(1 for floor in (300, 3000) if self.effort >= floor)
        return 3 * self.min_actions + min(self.decoys, 4) + near + effort

    @property
    def label(self) -> Difficulty:
        return label_of(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label.value,
            "score": self.score,
            "min_actions": self.min_actions,
            "decoys": self.decoys,
            "near_misses": self.near_misses,
            "effort": self.effort,
        }


LABEL_FLOORS: tuple[tuple[Difficulty, int, int], ...] = (
    (Difficulty.EXPERT, 3, 15),
    (Difficulty.HARD, 3, 9),
    (Difficulty.MEDIUM, 2, 6),
)
"""(label, fewest actions, lowest score): the first row a grade meets is its label; a grade
meeting none is easy. So an easy puzzle is solved in one action; medium needs two; hard three
or more; expert three or more on a board with decoys, near misses and a long search (a score
of 15: e.g. 3 actions, 3 decoys, 5 near misses and 300 states)."""


ACTIONS_OF: dict[Difficulty, tuple[int, int | None]] = {
    Difficulty.EASY: (1, 1),
    Difficulty.MEDIUM: (2, 2),
    Difficulty.HARD: (3, None),
    Difficulty.EXPERT: (3, None),
}
"""The plan lengths each label allows, by :data:`LABEL_FLOORS` (a plan of 2 actions scores at
least 6, so it is medium at once; one of 3 scores at least 9): the generator stops counting a
candidate as soon as its length rules the label out."""


def label_of(grade: Grade) -> Difficulty:
    """The difficulty label of a grade (thresholds: :data:`LABEL_FLOORS`).

    >>> label_of(Grade(min_actions=1, decoys=2, near_misses=0, effort=3)).value
    'easy'
    >>> label_of(Grade(min_actions=3, decoys=1, near_misses=0, effort=50)).value
    'hard'
    """
    for label, actions, score in LABEL_FLOORS:
        if grade.min_actions >= actions and grade.score >= score:
            return label
    return Difficulty.EASY


def grade_of(state: AsterState, count: PlanCount) -> Grade:
    """The grade of a proven-unique puzzle (``count`` from :func:`count_plans`)."""
    assert count.certificate is not None and count.min_actions is not None
    return Grade(count.min_actions, decoys(count.certificate), count.near_misses, count.effort)


def decoys(certificate: Certificate) -> int:
    """Stars of the start that the plan neither moves nor uses in the target."""
    start = certificate.states[0]
    touched = set(certificate.placement)
    for step in certificate.steps:
        action = step.action
        touched.update(p for p in (action.point, action.origin) if p is not None)
    return sum(1 for point in start.star_map() if point not in touched)


# -- proving ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`prove`: unique or not, with the counts behind it."""

    count: PlanCount

    @property
    def unique(self) -> bool | None:
        """True proven unique, False proven not (or no plan), None undecided."""
        if not self.count.complete:
            return None
        return self.count.plans == 1


def prove(
    puzzle: AsterPuzzle, *, max_states: int = DEFAULT_MAX_STATES, time_limit: float = 60.0
) -> Verdict:
    """Re-prove a puzzle: count its shortest plans exactly (unique = exactly one)."""
    return Verdict(count_plans(puzzle.question(), max_states=max_states, time_limit=time_limit))


# -- generation ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """How candidates are drawn for one difficulty (tuned so that each label is hit often).

    ``actions``: length of the action list; ``decoys``: stars placed off the target;
    ``stars``: the smallest and largest targets (stars in the pattern); ``two_turns``: the
    share of puzzles played over two turns, with a list of ``two_turn_actions`` symbols.
    """

    actions: tuple[int, int]
    decoys: tuple[int, int]
    stars: tuple[int, int]
    two_turns: float = 0.0
    two_turn_actions: tuple[int, int] = (3, 3)


PROFILES: dict[Difficulty, Profile] = {
    Difficulty.EASY: Profile((2, 3), (1, 3), (3, 5)),
    Difficulty.MEDIUM: Profile((3, 4), (2, 3), (4, 7)),
    Difficulty.HARD: Profile((4, 5), (2, 3), (5, 7)),
    Difficulty.EXPERT: Profile((5, 5), (3, 3), (5, 7), two_turns=0.5),
}

ACTION_WEIGHTS: dict[ActionKind, int] = {
    ActionKind.GENERATE: 2,
    ActionKind.GENERATE_TARGETED: 1,
    ActionKind.MOVE_LINE: 4,
    ActionKind.MOVE_RING: 4,
    ActionKind.NUDGE: 2,
}
"""How often each symbol is drawn into an action list (the board-changing ones)."""

PLAYER, OTHER = Color.RED, Color.BLUE
OWN_SHARE = 0.6
"""Chance that a star of the solved board is the player's (else the other color's)."""
SKIP_SHARE = 0.15
"""Chance that the scramble leaves a slot unused."""
RELAY_SHARE = 0.5
"""Chance that the scramble moves the star it moved last again (a relay to undo)."""


def target_cards(rules: AsterRules, smallest: int, largest: int) -> list[Card]:
    """The constellations a puzzle may ask for: from ``smallest`` to ``largest`` stars."""
    return [c for c in rules.catalog.cards if c.pattern and smallest <= c.stars <= largest]


def sample_candidate(rng: random.Random, difficulty: Difficulty, rules: AsterRules) -> AsterPuzzle:
    """One random candidate, made backwards from a solved board: the target placed, decoys
    around it, then the action list undone slot by slot from the last (a move undone is a
    move back, a generated star goes back to the reserve). The start then has a plan of at
    most as many actions; the counter finds the shortest and says whether it is unique.
    The same ``rng`` state gives the same candidate."""
    profile = PROFILES[difficulty]
    board = rules.board
    card = rng.choice(target_cards(rules, *profile.stars))
    planted = sorted(rng.choice(rules.placements_of(card)), key=board.index.__getitem__)
    kinds = list(ACTION_WEIGHTS)
    turns, length = 1, profile.actions
    if profile.two_turns and rng.random() < profile.two_turns:
        turns, length = 2, profile.two_turn_actions
    actions = tuple(rng.choices(kinds, list(ACTION_WEIGHTS.values()), k=rng.randint(*length)))
    stars = {p: PLAYER if rng.random() < OWN_SHARE else OTHER for p in planted}
    free = [p for p in board.points if p not in stars]
    for point in rng.sample(free, rng.randint(*profile.decoys)):
        stars[point] = PLAYER if rng.random() < OWN_SHARE else OTHER
    reserve = 0
    last: str | None = None
    for kind in reversed(actions * turns):
        if rng.random() < SKIP_SHARE:
            continue
        if kind in (ActionKind.GENERATE, ActionKind.GENERATE_TARGETED):
            own = _ordered(board, (p for p, c in stars.items() if c is PLAYER))
            if kind is ActionKind.GENERATE:
                own = [p for p in own if p in board.generation_points]
            if own:
                del stars[rng.choice(own)]
                reserve += 1
            last = None
            continue
        origin = _scramble_origin(rng, board, stars, planted, kind, last)
        if origin is None:
            continue
        targets = _ordered(board, _undo_targets(board, kind, origin, stars))
        if targets:
            last = rng.choice(targets)
            stars[last] = stars.pop(origin)
    on_board = [stars.get(p) for p in board.points]
    reserves = [0, 0, 0, 0]
    reserves[PLAYER.number] = reserve
    reserves[OTHER.number] = rules.stars_per_color - sum(1 for x in on_board if x is OTHER)
    state = AsterState(
        stars=tuple(on_board),
        reserve=(reserves[0], reserves[1], reserves[2], reserves[3]),
        players=(PLAYER, OTHER),
        actions=actions,
        rows=((), (), (), ()),
        rules=rules,
    )
    return AsterPuzzle("candidate", state, tuple(card.pattern), card.abbr, turns)


def _ordered(board: Board, points: Iterable[str]) -> list[str]:
    return sorted(points, key=board.index.__getitem__)


def _scramble_origin(
    rng: random.Random,
    board: Board,
    stars: dict[str, Color],
    planted: list[str],
    kind: ActionKind,
    last: str | None,
) -> str | None:
    """The star the scramble moves: often the last one moved, else mostly a target star."""
    movable = _ordered(
        board, (p for p, c in stars.items() if c is PLAYER or kind is ActionKind.NUDGE)
    )
    if last in movable and rng.random() < RELAY_SHARE:
        return last
    on_target = [p for p in movable if p in planted]
    if on_target and rng.random() < 0.7:
        return rng.choice(on_target)
    return rng.choice(movable) if movable else None


def _undo_targets(
    board: Board, kind: ActionKind, origin: str, stars: dict[str, Color]
) -> Iterator[str]:
    """Empty points a star on ``origin`` can have come from by ``kind`` (the moves are
    symmetric: a line, a ring or an edge leads both ways; A4 blocking is not assumed)."""
    if kind is ActionKind.MOVE_LINE:
        candidates: Iterable[str] = (t for line in board.lines_through(origin) for t in line)
    elif kind is ActionKind.MOVE_RING:
        candidates = board.ring_points(origin)
    else:
        candidates = board.neighbors(origin)
    return (t for t in candidates if t != origin and t not in stars)


@dataclass(frozen=True)
class Generated:
    """The outcome of :func:`generate_puzzle`: the puzzle (or None) and how many tries."""

    index: int
    puzzle: AsterPuzzle | None
    solution: Certificate | None
    attempts: int
    states: int


def puzzle_id(seed: int, index: int) -> str:
    return f"aster-{seed}-{index:04d}"


def generate_puzzle(
    seed: int,
    index: int,
    difficulty: Difficulty,
    *,
    max_attempts: int = MAX_ATTEMPTS,
    max_states: int = GENERATION_MAX_STATES,
    time_limit: float = GENERATION_TIME_LIMIT,
) -> Generated:
    """Draw candidates from the stream ``(seed, index)`` until one is proven unique and its
    grade has the label asked for; the same arguments give the same puzzle anywhere."""
    rng = random.Random(f"aster-puzzle/{seed}/{index}/{difficulty.value}")
    rules = AsterRules(board=Board())
    states = 0
    for attempt in range(1, max_attempts + 1):
        candidate = sample_candidate(rng, difficulty, rules)
        question = candidate.question()
        count = count_plans(
            question,
            max_states=max_states,
            time_limit=time_limit,
            stop_when_ambiguous=True,
            actions_wanted=ACTIONS_OF[difficulty],
        )
        states += count.effort
        if not count.is_unique or count.certificate is None or not count.min_actions:
            continue
        grade = grade_of(candidate.state, count)
        if grade.label is not difficulty:
            continue
        puzzle = replace(
            candidate,
            id=puzzle_id(seed, index),
            difficulty=difficulty,
            grade=grade,
            generator={"seed": seed, "index": index, "attempt": attempt},
        )
        return Generated(index, puzzle, count.certificate, attempt, states)
    return Generated(index, None, None, max_attempts, states)


# -- files --------------------------------------------------------------------------------------


class _TargetSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str | None = None
    pattern: list[list[int]] | None = Field(None, max_length=33)


class _GradeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: Difficulty
    score: int
    min_actions: int = Field(ge=0)
    decoys: int = Field(ge=0)
    near_misses: int = Field(ge=0)
    effort: int = Field(ge=0)


class PuzzleSpec(BaseModel):
    """The schema of a puzzle file (see :func:`puzzle_to_data`)."""

    model_config = ConfigDict(extra="forbid")
    format: str
    id: str = Field(max_length=100)
    position: dict[str, Any]
    target: _TargetSpec
    turns: int = Field(1, ge=1, le=MAX_TURNS)
    difficulty: Difficulty | None = None
    grade: _GradeSpec | None = None
    generator: dict[str, int] | None = None


def puzzle_to_data(puzzle: AsterPuzzle) -> dict[str, Any]:
    """The puzzle document.

    ``format``
        :data:`PUZZLE_FORMAT`; a reader refuses any other value.
    ``id``
        ``aster-SEED-INDEX`` for generated puzzles.
    ``position``
        A STATE document (asterion.models.aster_files): ``rings``, ``stars`` (point → color),
        ``reserve``, ``player``, ``players``, ``actions`` (the action list, used left to right).
    ``target``
        ``card`` (a catalog abbreviation, for the name) and ``pattern`` (lattice points; the
        default presence transforms, A8, apply).
    ``turns``
        Turns of the action list (the other players pass in between).
    ``difficulty``, ``grade``
        The label and what it was graded on (plan length, decoys, near misses, effort, score).
    ``generator``
        ``seed``, ``index``, ``attempt``: how to make it again.
    """
    full = state_to_data(puzzle.state)
    position = {key: full[key] for key in POSITION_FIELDS}
    data: dict[str, Any] = {
        "format": PUZZLE_FORMAT,
        "id": puzzle.id,
        "position": position,
        "target": {"card": puzzle.card, "pattern": [list(p) for p in puzzle.pattern]},
        "turns": puzzle.turns,
    }
    if puzzle.difficulty is not None:
        data["difficulty"] = puzzle.difficulty.value
    if puzzle.grade is not None:
        data["grade"] = puzzle.grade.to_json()
    if puzzle.generator is not None:
        data["generator"] = dict(puzzle.generator)
    return data


def puzzle_from_data(data: Any, source: str) -> AsterPuzzle:
    """A validated puzzle. :raises InputError: naming the file, the field and the problem
    (wrong format version, a position that breaks the rules, a target that cannot fit)."""
    check_format(data, PUZZLE_FORMAT, source)
    spec = validate(PuzzleSpec, data, source)
    with inside("position", source):
        state = state_from_data(spec.position, source)
    catalog = state.rules.catalog
    card = spec.target.card
    if card is not None and card not in catalog:
        raise InputError(f"unknown card {card!r}", source=source, field="target.card")
    pattern_data: list[list[int]] | None = spec.target.pattern
    if pattern_data is None:
        if card is None:
            raise InputError("give a card or a pattern", source=source, field="target")
        pattern_data = [list(p) for p in catalog[card].pattern]
    try:
        pattern = check_pattern(pattern_data, state.board)
    except InputError as error:
        raise InputError(error.problem, source=source, field="target.pattern") from None
    grade = None
    if spec.grade is not None:
        g = spec.grade
        grade = Grade(g.min_actions, g.decoys, g.near_misses, g.effort)
    puzzle = AsterPuzzle(
        spec.id, state, pattern, card, spec.turns, spec.difficulty, grade, spec.generator
    )
    try:
        check_question(puzzle)
    except InputError as error:
        raise InputError(error.problem, source=source, field="target") from None
    return puzzle


def check_format(data: Any, expected: str, source: str) -> None:
    """:raises InputError: unless ``data`` is a document of format ``expected``."""
    found = data.get("format") if isinstance(data, dict) else None
    if found != expected:
        raise InputError(f"format {found!r} is not {expected!r}", source=source, field="format")


@contextmanager
def inside(prefix: str, source: str) -> Iterator[None]:
    """Errors of an embedded document, located under the field ``prefix`` of ``source``."""
    try:
        yield
    except InputError as error:
        field = prefix + (f".{error.field}" if error.field else "")
        raise InputError(error.problem, source=source, field=field) from None


def load_puzzle(path: Path | str) -> AsterPuzzle:
    return puzzle_from_data(read_json_file(path), str(path))


def solution_to_data(puzzle: AsterPuzzle, certificate: Certificate) -> dict[str, Any]:
    """The solution document: ``format`` (:data:`SOLUTION_FORMAT`), ``puzzle`` (its id),
    ``min_actions``, ``plan`` (the certified steps, as ``asterion aster reach --json``) and
    ``placement`` (the points the target stands on at the end)."""
    return {
        "format": SOLUTION_FORMAT,
        "puzzle": puzzle.id,
        "min_actions": len(certificate.steps),
        "plan": certificate.plan_json(),
        "placement": sorted(certificate.placement, key=puzzle.state.board.index.__getitem__),
    }


def puzzle_svg(puzzle: AsterPuzzle) -> str:
    """The start position, titled with the target (no hint of where it goes; the action list
    is in the puzzle's words, :func:`describe`, as a title that long would not fit)."""
    from asterion.render.aster_svg import board_svg

    name = (
        puzzle.target_name if puzzle.card is None else puzzle.state.rules.catalog[puzzle.card].name
    )
    label = f" [{puzzle.difficulty.value}]" if puzzle.difficulty else ""
    return board_svg(
        puzzle.state.board, stars=puzzle.state.star_map(), title=f"{puzzle.id}{label}: {name}"
    )


def describe(puzzle: AsterPuzzle) -> str:
    """One line: the target, the actions and the player."""
    actions = " ".join(a.value for a in puzzle.state.actions)
    turns = "1 turn" if puzzle.turns == 1 else f"{puzzle.turns} turns"
    return (
        f"{puzzle.id}: {puzzle.state.player.value} forms {puzzle.target_name} "
        f"with [{actions}] in {turns}"
    )
