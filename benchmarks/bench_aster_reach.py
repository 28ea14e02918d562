"""Aster reachability: CP-SAT vs plain search vs STRIPS planners, on one fixed seeded suite.

    python benchmarks/bench_aster_reach.py [--quick] [--limit S] [--no-skip] [--methods M,M]
    python benchmarks/bench_aster_reach.py --regenerate [--limit S] [--workers N]

The suite (default board, red to play against blue) has two parts, both built from fixed
seeds, so every run poses the same questions:

* **positions**: random stars of the two colors, a red reserve (sometimes limited), an action
  list of 4–6 symbols drawn from the nine kinds, 1–3 turns, a target pattern (a card of the
  provisional catalog, :func:`provisional_catalog`, which the suite was drawn from and which
  stays fixed while the shipped catalog changes, or a small pattern), sometimes own stars
  only (:func:`suite_candidate`, a fixed function of the candidate number). :data:`SUITE`
  lists the candidate numbers kept, with their optimal number of actions (6 per length from
  1 to 8) or ``None`` (unreachable, 6 of them).
  ``--regenerate`` rebuilds that list: it walks the candidates in order, settles each with
  CP-SAT (60 s) and, if CP-SAT does not, with the plain search, and keeps a candidate while
  its bucket is not full; then it walks the deep profile's candidates for the lengths still
  missing. It prints the candidates that no method settled, which therefore are not in the
  suite (a bias toward questions someone can answer, stated with the figures).
* **horizons**: a few positions with a fixed list of board actions, asked over 2–3 turns of
  4–6 slots (8 to 18 slots in all), to find where each method stops answering in time.

Methods, each given the same time limit per question (60 s unless ``--limit``):

* ``ours``: :func:`asterion.solver.aster_plan.cp_reach` (CP-SAT, one worker);
* ``portfolio``: :func:`asterion.solver.aster_reach_portfolio.reach` (if that module exists),
  what ``asterion aster reach`` runs: a budgeted plain search, then CP-SAT; the goals are
  judged on it when it is run, on ``ours`` otherwise;
* ``search``: :func:`asterion.solver.aster_reach.search_reach` (breadth-first, no state cap);
* ``pyperplan``: :func:`asterion.solver.aster_pddl.pddl_reach`, its default breadth-first
  search, on the STRIPS encoding (not for questions with a ``supernova`` slot: n/a);
* ``fast-downward``: the same encoding, Fast Downward ``seq-opt-lmcut`` (if
  ``up-fast-downward`` and ``unified-planning``, which it imports, are installed).

Every answer is certified by the rules engine. Wherever two methods settle a question, their
answers (reachable or not, and the optimal number of actions) must agree, and agree with the
suite's recorded optimum: any disagreement is printed and the run exits with status 1.

To keep the run short, a method that times out on a question is not run on a question that
is at least as hard for it in both respects, as many slots or more and an optimum as long or
longer (unreachable questions only after an unreachable one); with ``--no-skip`` everything
runs. A question skipped this way counts as timed out. In the horizon sweep a method stops
at its first time-out in a series.

Ratios, not asserts (DESIGN.md, principle 7); the goals are printed with their verdicts.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from asterion.models.aster_board import Board
from asterion.models.aster_cards import ActionKind, provisional_catalog
from asterion.models.aster_files import parse_state
from asterion.solver.aster_pddl import UnsupportedQuestion, pddl_reach
from asterion.solver.aster_plan import cp_reach
from asterion.solver.aster_reach import ReachAnswer, ReachQuestion, search_reach
from asterion.solver.result import Status
from machine import machine_lines

# -- the suite ------------------------------------------------------------------------------

LENGTHS = range(1, 9)
PER_LENGTH = 6
UNREACHABLE = 6
MAX_CANDIDATES = 2000
"""Candidates walked per profile range before ``--regenerate`` gives up on a bucket."""
DEEP_BASE = 10_000
"""Candidate numbers from here on use the deep profile."""

SUITE: tuple[tuple[int, int | None], ...] = (
    (0, 6),
    (2, None),
    (3, 4),
    (4, None),
    (5, None),
    (6, 1),
    (7, None),
    (8, None),
    (9, None),
    (11, 1),
    (12, 7),
    (13, 3),
    (14, 3),
    (16, 4),
    (18, 3),
    (19, 2),
    (21, 7),
    (23, 3),
    (25, 3),
    (27, 1),
    (28, 6),
    (34, 1),
    (35, 5),
    (36, 3),
    (37, 6),
    (38, 1),
    (39, 4),
    (40, 2),
    (41, 1),
    (43, 4),
    (47, 6),
    (49, 4),
    (50, 5),
    (53, 2),
    (58, 2),
    (60, 2),
    (62, 4),
    (77, 2),
    (78, 6),
    (103, 7),
    (105, 6),
    (118, 5),
    (126, 5),
    (133, 5),
    (134, 8),
    (151, 5),
    (10004, 8),
    (10012, 7),
    (10021, 8),
    (10031, 7),
    (10045, 7),
    (10052, 8),
    (10074, 8),
    (10097, 8),
)
"""(candidate number, optimal number of actions or ``None`` if unreachable): the output of
``--regenerate`` (60 s, 2 workers), which walked 250 candidates; CP-SAT and the plain search
both left 11 unsettled (1, 44, 131, 10007, 10011, 10018, 10038, 10039, 10046, 10062, 10093),
so those are not in the suite."""

HORIZON_SERIES: tuple[int, ...] = (0, 1, 2, 3)
"""Seeds of the horizon sweep's positions."""
HORIZONS: tuple[tuple[int, int], ...] = ((2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6))
"""(turns, list length) of the sweep: 8, 10, 12, 12, 15 and 18 slots."""

BOARD_KINDS = (
    ActionKind.GENERATE,
    ActionKind.GENERATE_TARGETED,
    ActionKind.MOVE_LINE,
    ActionKind.MOVE_RING,
    ActionKind.NUDGE,
)
OTHER_KINDS = (
    ActionKind.SUPERNOVA,
    ActionKind.BLACK_HOLE,
    ActionKind.VICTORY_POINT,
    ActionKind.GRAVITY,
)
OTHER_SHARE = 0.12
"""Share of drawn symbols that are not the five moves (supernova and the three that never
change the board)."""
SMALL_PATTERNS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (1, 0)),
    ((0, 0), (1, 1)),
    ((0, 0), (2, 0)),
    ((0, 0), (1, 0), (2, 0)),
    ((0, 0), (1, 0), (0, 1)),
)

GOAL_MEDIAN = 0.5
GOAL_PROVEN = 10.0
GOAL_RATIO = 10.0


@dataclass(frozen=True)
class Instance:
    name: str
    question: ReachQuestion
    target: str
    turns: int
    list_length: int
    expected: int | None = None
    """The recorded optimum (``None``: unreachable); only for suite positions."""
    series: int | None = None

    @property
    def slots(self) -> int:
        return len(self.question.slots)

    @property
    def has_supernova(self) -> bool:
        return any(slot.kind is ActionKind.SUPERNOVA for slot in self.question.slots)


def _draw_kind(rng: random.Random) -> ActionKind:
    if rng.random() < OTHER_SHARE:
        return rng.choice(OTHER_KINDS)
    return rng.choice(BOARD_KINDS)


def _position(rng: random.Random, reds: int, blues: int, reserve: int) -> dict[str, Any]:
    points = list(Board().points)
    chosen = rng.sample(points, reds + blues)
    stars = {p: ("red" if i < reds else "blue") for i, p in enumerate(chosen)}
    return {
        "player": "red",
        "players": ["red", "blue"],
        "stars": stars,
        "reserve": {"red": reserve},
    }


def _target(rng: random.Random, large_share: float) -> tuple[str, tuple[tuple[int, int], ...]]:
    cards = [card for card in provisional_catalog().cards if card.pattern]
    if rng.random() < large_share:
        card = rng.choice([c for c in cards if c.stars >= 4])
        return card.abbr, card.pattern
    if rng.random() < 0.5:
        card = rng.choice(cards)
        return card.abbr, card.pattern
    pattern = rng.choice(SMALL_PATTERNS)
    return json.dumps([list(v) for v in pattern]).replace(" ", ""), pattern


def suite_candidate(k: int) -> Instance:
    """Candidate ``k`` of the positions part: a fixed function of ``k``. Three profiles:
    mixed and far (fewer red stars, larger targets, more own-stars-only, 2–3 turns) below
    :data:`DEEP_BASE`, and from there deep (a large card, own stars mostly, at most two red
    stars, 10–18 slots), which gives most of the optima of 7 and 8 actions."""
    if k >= DEEP_BASE:
        return _deep_candidate(k)
    rng = random.Random(f"aster-reach-suite-{k}")
    far = rng.random() < 0.6
    reds = rng.randint(1, 3) if far else rng.randint(1, 4)
    blues = rng.randint(0, 4) if far else rng.randint(0, 5)
    reserve = 10 - reds if rng.random() < 0.75 else rng.randint(0, 3)
    document = _position(rng, reds, blues, reserve)
    length = rng.randint(4, 6)
    document["actions"] = [_draw_kind(rng).value for _ in range(length)]
    turns = rng.choice((2, 3)) if far else rng.choice((1, 1, 2, 3))
    name, pattern = _target(rng, 0.8 if far else 0.3)
    own = rng.random() < (0.6 if far else 0.25)
    question = ReachQuestion.build(
        parse_state(json.dumps(document)), pattern, turns=turns, own_stars_only=own
    )
    return Instance(f"p{k}", question, name + (" own" if own else ""), turns, length)


def _deep_candidate(k: int) -> Instance:
    rng = random.Random(f"aster-reach-deep-{k - DEEP_BASE}")
    reds = rng.randint(0, 2)
    document = _position(rng, reds, rng.randint(0, 4), 10 - reds)
    length = rng.randint(5, 6)
    document["actions"] = [_draw_kind(rng).value for _ in range(length)]
    turns = rng.choice((2, 3))
    card = rng.choice([c for c in provisional_catalog().cards if c.stars >= 5])
    own = rng.random() < 0.7
    question = ReachQuestion.build(
        parse_state(json.dumps(document)), card.pattern, turns=turns, own_stars_only=own
    )
    return Instance(f"p{k}", question, card.abbr + (" own" if own else ""), turns, length)


def horizon_instance(series: int, turns: int, length: int) -> Instance:
    """Series ``series`` of the sweep, asked over ``turns`` turns of the list's first
    ``length`` symbols. Board moves only, so the STRIPS planners take part."""
    rng = random.Random(f"aster-reach-horizon-{series}")
    document = _position(rng, rng.randint(1, 2), rng.randint(2, 4), 8)
    base = [rng.choice(BOARD_KINDS).value for _ in range(6)]
    document["actions"] = base[:length]
    name, pattern = _target(rng, 1.0)
    own = series % 2 == 1
    question = ReachQuestion.build(
        parse_state(json.dumps(document)), pattern, turns=turns, own_stars_only=own
    )
    label = name + (" own" if own else "")
    return Instance(f"h{series}-{turns}x{length}", question, label, turns, length, series=series)


# -- the methods ----------------------------------------------------------------------------


Solve = Callable[[ReachQuestion, float], ReachAnswer]


def _methods() -> dict[str, Solve | str]:
    """Each method's solve function, or why it is not available."""
    methods: dict[str, Solve | str] = {
        "ours": lambda q, limit: cp_reach(q, time_limit=limit, seed=0),
    }
    try:
        portfolio = importlib.import_module("asterion.solver.aster_reach_portfolio")
        reach = portfolio.reach
        methods["portfolio"] = lambda q, limit: reach(q, time_limit=limit, seed=0)
    except ImportError:
        methods["portfolio"] = "asterion.solver.aster_reach_portfolio is not there"
    methods["search"] = lambda q, limit: search_reach(q, time_limit=limit, max_states=10**12)
    if importlib.util.find_spec("pyperplan") is None:
        methods["pyperplan"] = "pyperplan is not installed: pip install -e '.[bench]'"
    else:
        methods["pyperplan"] = lambda q, limit: pddl_reach(q, time_limit=limit)
    # up-fast-downward's package imports unified_planning, which it does not declare.
    missing = [
        distribution
        for distribution, module in (
            ("up-fast-downward", "up_fast_downward"),
            ("unified-planning", "unified_planning"),
        )
        if importlib.util.find_spec(module) is None
    ]
    if missing:
        methods["fast-downward"] = (
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: "
            "pip install -e '.[bench]'"
        )
    else:
        methods["fast-downward"] = lambda q, limit: pddl_reach(
            q, time_limit=limit, planner="fast-downward"
        )
    return methods


@dataclass(frozen=True)
class Outcome:
    """One method on one question: ``kind`` is ``optimal``, ``infeasible``, ``feasible`` (a
    plan, not proved shortest in time), ``unknown`` (timed out), ``skipped`` (after a
    time-out on an easier question) or ``n/a``."""

    kind: str
    seconds: float = 0.0
    actions: int | None = None

    @property
    def settled(self) -> bool:
        return self.kind in ("optimal", "infeasible")

    @property
    def timed_out(self) -> bool:
        return self.kind in ("unknown", "feasible")

    @property
    def answer(self) -> int | None:
        """The optimum, ``None`` for unreachable (only for settled outcomes)."""
        return self.actions


def run(solve: Solve, question: ReachQuestion, limit: float) -> Outcome:
    started = time.perf_counter()
    try:
        answer = solve(question, limit)
    except UnsupportedQuestion:
        return Outcome("n/a")
    seconds = time.perf_counter() - started
    if answer.status is Status.OPTIMAL:
        return Outcome("optimal", seconds, answer.min_actions)
    if answer.status is Status.INFEASIBLE:
        return Outcome("infeasible", seconds)
    if answer.status is Status.FEASIBLE:
        return Outcome("feasible", seconds, answer.min_actions or _plan_length(answer))
    return Outcome("unknown", seconds)


def _plan_length(answer: ReachAnswer) -> int | None:
    return None if answer.certificate is None else len(answer.certificate.steps)


@dataclass
class Table:
    """Outcomes by instance name, then method."""

    methods: list[str]
    rows: dict[str, dict[str, Outcome]] = field(default_factory=dict)
    disagreements: list[str] = field(default_factory=list)


def _difficulty(instance: Instance) -> tuple[float, int]:
    optimum = instance.expected
    return (float("inf") if optimum is None else float(optimum), instance.slots)


def _dominates(easier: tuple[float, int], harder: tuple[float, int]) -> bool:
    """Whether a time-out on the reachable question ``easier`` predicts one on the reachable
    question ``harder``: no fewer slots and an optimum no shorter. Unreachable questions are
    never skipped (how hard a proof is does not follow the number of slots)."""
    (length_a, slots_a), (length_b, slots_b) = easier, harder
    if float("inf") in (length_a, length_b):
        return False
    return slots_b >= slots_a and length_b >= length_a


def check(instance: Instance, outcomes: dict[str, Outcome], table: Table) -> None:
    """Settled answers must agree with each other and with the recorded optimum."""
    answers = {name: o.answer for name, o in outcomes.items() if o.settled}
    if instance.series is None and "ours" in outcomes:
        answers["recorded"] = instance.expected
    said = ", ".join(f"{name}: {'unreachable' if a is None else a}" for name, a in answers.items())
    if len(set(answers.values())) > 1:
        table.disagreements.append(f"{instance.name} ({instance.target}): {said}")
        return
    # A plan not proved shortest may not beat a proved optimum, nor exist if none can.
    settled = next(iter(answers.values()), 0)
    for name, o in outcomes.items():
        if o.kind == "feasible" and answers and (settled is None or (o.actions or 0) < settled):
            table.disagreements.append(
                f"{instance.name} ({instance.target}): {said}; {name} found a plan of {o.actions}"
            )


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Spec:
    """The questions of a run, as the numbers that rebuild them (in any process)."""

    suite: tuple[tuple[int, int | None], ...]
    series: tuple[int, ...]
    horizons: tuple[tuple[int, int], ...]

    def build(self) -> tuple[list[Instance], list[Instance]]:
        suite = [replace(suite_candidate(k), expected=n) for k, n in self.suite]
        sweep = [horizon_instance(s, t, n) for s in self.series for t, n in self.horizons]
        return suite, sweep


def run_method(job: tuple[str, Spec, float, bool]) -> tuple[str, dict[str, Outcome]]:
    """One method's whole sequence, in its own process: the positions easiest first (a
    time-out prunes the reachable questions it dominates, unless ``skip`` is off), then each
    horizon series by growing horizon, up to the method's first time-out in the series."""
    method, spec, limit, skip = job
    solve = _methods()[method]
    assert not isinstance(solve, str)
    suite, sweep = spec.build()
    run(solve, suite_candidate(0).question, limit)  # warm-up, untimed
    outcomes: dict[str, Outcome] = {}
    timed_out: list[tuple[float, int]] = []
    for instance in sorted(suite, key=_difficulty):
        difficulty = _difficulty(instance)
        if skip and any(_dominates(d, difficulty) for d in timed_out):
            outcome = Outcome("skipped", limit)
        else:
            outcome = run(solve, instance.question, limit)
            if outcome.timed_out:
                timed_out.append(difficulty)
        outcomes[instance.name] = outcome
        progress(f"{method} {instance.name}: {cell(outcome)}")
    stopped: set[int | None] = set()
    for instance in sweep:
        if instance.series in stopped:
            outcome = Outcome("not tried", limit)
        else:
            outcome = run(solve, instance.question, limit)
            if outcome.timed_out:
                stopped.add(instance.series)
        outcomes[instance.name] = outcome
        progress(f"{method} {instance.name}: {cell(outcome)}")
    return method, outcomes


def run_all(
    names: list[str], spec: Spec, limit: float, skip: bool, jobs: int
) -> dict[str, dict[str, Outcome]]:
    """Every method's sequence, ``jobs`` methods at a time (each single-threaded), the
    slowest first; outcomes by method, then question."""
    slowest_first = sorted(
        names,
        key=lambda m: (
            ["search", "fast-downward", "pyperplan"].index(m)
            if m in ("search", "fast-downward", "pyperplan")
            else 3
        ),
    )
    work = [(m, spec, limit, skip) for m in slowest_first]
    with multiprocessing.Pool(jobs) as pool:
        return dict(pool.imap_unordered(run_method, work))


def tables(
    names: list[str], by_method: dict[str, dict[str, Outcome]], instances: list[Instance]
) -> Table:
    table = Table(names)
    for instance in instances:
        row = {m: by_method[m][instance.name] for m in names}
        check(instance, row, table)
        table.rows[instance.name] = row
    return table


# -- the report -----------------------------------------------------------------------------


def seconds(value: float) -> str:
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 10 else f"{value:.1f}"


def cell(outcome: Outcome) -> str:
    if outcome.kind == "optimal":
        return seconds(outcome.seconds)
    if outcome.kind == "infeasible":
        return f"{seconds(outcome.seconds)} (no)"
    if outcome.kind == "unknown":
        return "t/o"
    if outcome.kind == "feasible":
        return f"t/o (plan of {outcome.actions})"
    return outcome.kind


def answer_of(outcomes: dict[str, Outcome], expected: int | None, recorded: bool) -> str:
    settled = [o for o in outcomes.values() if o.settled]
    if settled:
        value = settled[0].answer
    elif recorded:
        value = expected
    else:
        return "?"
    return "no" if value is None else str(value)


def censored(outcome: Outcome, limit: float) -> float:
    """Seconds, a time-out or skip counting as the limit."""
    return outcome.seconds if outcome.settled else limit


def shown(value: float, limit: float) -> str:
    return f"≥{limit:.0f}" if value >= limit else seconds(value)


@dataclass(frozen=True)
class Summary:
    given: int
    settled: int
    optimal: int
    infeasible: int
    timed_out: int
    skipped: int
    median: float
    worst: float


def summarize(table: Table, method: str, limit: float, only: set[str] | None = None) -> Summary:
    outcomes = [
        row[method]
        for name, row in table.rows.items()
        if row[method].kind != "n/a" and (only is None or name in only)
    ]
    times = [censored(o, limit) for o in outcomes] or [0.0]
    return Summary(
        len(outcomes),
        sum(o.settled for o in outcomes),
        sum(o.kind == "optimal" for o in outcomes),
        sum(o.kind == "infeasible" for o in outcomes),
        sum(o.timed_out for o in outcomes),
        sum(o.kind == "skipped" for o in outcomes),
        statistics.median(times),
        max(times),
    )


def print_instances(
    title: str, table: Table, instances: list[Instance], limit: float, recorded: bool
) -> None:
    print(f"### {title}")
    print()
    header = "| question | target | turns×list | slots | optimum | " + " | ".join(table.methods)
    print(header + " |")
    print("|---|---|--:|--:|--:|" + "--:|" * len(table.methods))
    for instance in instances:
        row = table.rows.get(instance.name)
        if row is None:
            continue
        nova = " (supernova)" if instance.has_supernova else ""
        print(
            f"| {instance.name} | {instance.target} | {instance.turns}×{instance.list_length}"
            f"{nova} | {instance.slots} | {answer_of(row, instance.expected, recorded)} | "
            + " | ".join(cell(row[m]) for m in table.methods)
            + " |"
        )
    print()


def print_summary(table: Table, limit: float) -> dict[str, Summary]:
    print(
        "| method | given | settled | optimal | unreachable | timed out | skipped | "
        "median s | worst s | median / ours |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    summaries = {}
    for method in table.methods:
        summary = summarize(table, method, limit)
        summaries[method] = summary
        given = {name for name, row in table.rows.items() if row[method].kind != "n/a"}
        ours = summarize(table, "ours", limit, given).median
        ratio = summary.median / ours if ours > 0 else float("inf")
        print(
            f"| {method} | {summary.given} | {summary.settled} | {summary.optimal} | "
            f"{summary.infeasible} | {summary.timed_out} | {summary.skipped} | "
            f"{shown(summary.median, limit)} | {shown(summary.worst, limit)} | "
            f"{'≥' if summary.median >= limit else ''}{ratio:.1f}x |"
        )
    print()
    return summaries


def horizon_reach(table: Table, instances: list[Instance], method: str) -> str:
    """The largest number of slots at which the method settled every series' question, and
    the first at which it did not."""
    answered: dict[int, bool] = {}
    for instance in instances:
        outcome = table.rows[instance.name][method]
        ok = outcome.settled or outcome.kind == "n/a"
        answered[instance.slots] = answered.get(instance.slots, True) and ok
    good = [s for s in sorted(answered) if all(answered[t] for t in answered if t <= s)]
    failing = [s for s in sorted(answered) if not answered[s]]
    best = f"up to {good[-1]} slots" if good else "none"
    return best + (f"; first time-out at {failing[0]} slots" if failing else "; no time-out")


# -- regeneration ------------------------------------------------------------------------------


def _settle(k: int, limit: float) -> tuple[int, Status, int | None, float]:
    """Candidate ``k``'s status and optimum: CP-SAT first, the plain search if CP-SAT does
    not settle it."""
    question = suite_candidate(k).question
    answer = cp_reach(question, time_limit=limit)
    if answer.status not in (Status.OPTIMAL, Status.INFEASIBLE):
        answer = search_reach(question, time_limit=limit, max_states=10**12)
    return k, answer.status, answer.min_actions, answer.wall_time


def _settle_star(args: tuple[int, float]) -> tuple[int, Status, int | None, float]:
    return _settle(*args)


def regenerate(limit: float, workers: int) -> int:
    """Walk the candidates in order (``workers`` at a time), settle each, fill the buckets;
    print the new :data:`SUITE`. The mixed/far range fills every bucket it can; the deep range
    then fills the lengths still missing (7 and 8 in practice)."""
    buckets: dict[int | None, list[int]] = {n: [] for n in LENGTHS}
    buckets[None] = []
    quota: dict[int | None, int] = {n: PER_LENGTH for n in LENGTHS}
    quota[None] = UNREACHABLE
    unsettled: list[int] = []
    walked = 0

    def full(keys: Iterable[int | None]) -> bool:
        return all(len(buckets[n]) >= quota[n] for n in keys)

    for start, wanted in ((0, [*LENGTHS[:6], None]), (DEEP_BASE, list(buckets))):
        jobs = ((k, limit) for k in range(start, start + MAX_CANDIDATES))
        with multiprocessing.Pool(workers) as pool:  # leaving it stops the queued jobs
            for k, status, optimum, wall in pool.imap(_settle_star, jobs):
                if full(wanted):
                    break
                walked += 1
                if status not in (Status.OPTIMAL, Status.INFEASIBLE):
                    unsettled.append(k)
                    progress(f"candidate {k}: not settled within {limit:.0f} s")
                    continue
                if optimum in buckets and len(buckets[optimum]) < quota[optimum]:
                    buckets[optimum].append(k)
                    progress(f"candidate {k}: {optimum} kept ({wall:.2f} s)")
    kept = sorted((k, n) for n, ks in buckets.items() for k in ks)
    print("SUITE: tuple[tuple[int, int | None], ...] = (")
    for k, n in kept:
        print(f"    ({k}, {n}),")
    print(")")
    print(f"# candidates walked: {walked}; not settled within {limit:.0f} s: {unsettled}")
    print("# buckets: " + ", ".join(f"{n}: {len(ks)}" for n, ks in buckets.items()))
    return 0


# -- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few questions, short limits")
    parser.add_argument("--limit", type=float, help="seconds per method and question (60)")
    parser.add_argument("--no-skip", action="store_true", help="run every method everywhere")
    parser.add_argument(
        "--methods",
        help="comma-separated subset of: ours, portfolio, search, pyperplan, fast-downward "
        "(ours is always run: it is the reference for ratios)",
    )
    parser.add_argument("--regenerate", action="store_true", help="rebuild SUITE and print it")
    parser.add_argument("--workers", type=int, default=2, help="processes for --regenerate (2)")
    parser.add_argument("--jobs", type=int, default=2, help="methods run at a time (2)")
    args = parser.parse_args(argv)
    limit = args.limit if args.limit is not None else (10.0 if args.quick else 60.0)
    if limit <= 0:
        parser.error("--limit must be positive")
    if args.regenerate:
        return regenerate(limit, args.workers)

    methods = _methods()
    if args.methods:
        chosen = {"ours", *args.methods.split(",")}
        unknown = chosen - set(methods)
        if unknown:
            parser.error(f"unknown methods: {', '.join(sorted(unknown))}")
        methods = {name: solve for name, solve in methods.items() if name in chosen}
    spec = Spec(SUITE, HORIZON_SERIES, HORIZONS)
    if args.quick:
        kept = [(k, n) for k, n in SUITE if n is None or n <= 4][::3]
        spec = Spec(tuple(kept), HORIZON_SERIES[:1], HORIZONS[:2])
    suite, sweep_instances = spec.build()
    names = [m for m, solve in methods.items() if not isinstance(solve, str)]
    for method, solve in methods.items():
        if isinstance(solve, str):
            progress(f"{method}: not run ({solve})")

    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    by_method = run_all(names, spec, limit, not args.no_skip, args.jobs)
    wall = time.perf_counter() - started
    table = tables(names, by_method, sorted(suite, key=_difficulty))
    sweep = tables(names, by_method, sweep_instances)

    # -- report -----------------------------------------------------------------------------
    print("# Aster reachability: CP-SAT vs plain search vs STRIPS planners")
    print()
    for line in machine_lines("ortools", "pyperplan", "unified-planning", "up-fast-downward"):
        print(f"- {line}")
    print(
        f"- limit: {limit:.0f} s per method and question; each method runs its questions in "
        f"its own process, {args.jobs} methods at a time (one core each); "
        f"whole run {wall / 60:.1f} min"
    )
    print(
        "- load average (1 min) before and after the run: "
        f"{load_before:.2f}, {os.getloadavg()[0]:.2f}"
    )
    for method, solve in methods.items():
        if isinstance(solve, str):
            print(f"- {method}: not run ({solve})")
    print()
    ordered = sorted(suite, key=_difficulty)
    print_instances("Positions", table, ordered, limit, recorded=True)
    print_summary(table, limit)
    print_instances("Horizons", sweep, sweep_instances, limit, recorded=False)
    for method in sweep.methods:
        print(f"- {method}: {horizon_reach(sweep, sweep_instances, method)}")
    print()

    # -- goals --------------------------------------------------------------------------------
    # The goals judge the method `asterion aster reach` uses (the portfolio, when it is run).
    judged = "portfolio" if "portfolio" in table.methods else "ours"
    ours = summarize(table, judged, limit)
    print(
        f"goal: {judged}'s median under {GOAL_MEDIAN} s: "
        f"{'met' if ours.median < GOAL_MEDIAN else 'NOT met'} ({seconds(ours.median)} s)"
    )
    slow = [
        name
        for name, row in table.rows.items()
        if not row[judged].settled or row[judged].seconds > GOAL_PROVEN
    ]
    print(
        f"goal: every position settled by {judged} within {GOAL_PROVEN:.0f} s: "
        f"{'met' if not slow else 'NOT met'}" + (f" (not: {', '.join(slow)})" if slow else "")
    )
    if "pyperplan" in table.methods:
        given = {n for n, row in table.rows.items() if row["pyperplan"].kind != "n/a"}
        ratio = (
            summarize(table, "pyperplan", limit).median
            / summarize(table, judged, limit, given).median
        )
        print(
            f"goal: {judged} at least {GOAL_RATIO:.0f}x faster than pyperplan's median: "
            f"{'met' if ratio >= GOAL_RATIO else 'NOT met'} ({ratio:.1f}x)"
        )
    peers = [m for m in sweep.methods if m not in ("ours", "portfolio")]
    alone = [
        name
        for name, row in sweep.rows.items()
        if peers and row[judged].settled and all(row[m].timed_out for m in peers)
    ]
    verdict = "met" if alone else "NOT met" if peers else "not judged (no peer was run)"
    print(
        f"goal: {judged} answers horizons where every peer times out: "
        f"{verdict} ({', '.join(alone) or 'none'})"
    )

    disagreements = table.disagreements + sweep.disagreements
    if disagreements:
        print()
        print("DISAGREEMENTS (a bug in one of the methods):")
        for line in disagreements:
            print(f"- {line}")
        return 1
    print("all settled answers agree (and match the recorded optima)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
