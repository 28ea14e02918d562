"""Aster reachability as a STRIPS planning task (PDDL), for off-the-shelf planners.

The peer of :func:`asterion.solver.aster_plan.cp_reach` in ``benchmarks/bench_aster_reach.py``
(DESIGN.md, principle 7): the same :class:`~asterion.solver.aster_reach.ReachQuestion`, written
as a PDDL domain and problem (:func:`reach_to_pddl`), solved by pyperplan or Fast Downward
(:func:`pddl_reach`), and the plan read back and certified by the rules engine like every
other answer.

The encoding (plain STRIPS with typing: no negative preconditions, no conditional effects, no
action costs, which pyperplan does not support):

* **Objects** (all declared as domain constants, so that goal actions may name points):
  the board's points ``pt-2ne``…, the colors on the board ``col-red``…, the *positions*
  ``pos0``…``posN`` (position ``s`` = slot ``s`` of :attr:`ReachQuestion.slots` is the first
  still usable; ``posN`` = all used or skipped), and the player's reserve levels
  ``lvl0``…``lvlR``.
* **Fluents**: ``(star ?c ?p)``, and both ``(empty ?p)`` and ``(occ ?p)`` (STRIPS has no
  negation, so every action keeps the two in step); ``(at ?s)`` the position;
  ``(reserve ?k)`` the *player's* reserve (the only one that constrains an action in the
  solo view: other colors' reserves only ever grow, and nothing reads them); ``(active)``
  until the goal is claimed; ``(done)``, the goal.
* **Slots and skipping are folded into the actions**, so the plan length is the number of
  used slots plus one goal action. For every position ``s`` and board action kind ``K``
  used at or after ``s``, there is one schema ``K-s`` that uses the *earliest* slot ``u ≥ s``
  of kind ``K`` and moves the position to ``u + 1``. Using a later slot of the same kind is
  never better (the same dominance the breadth-first baseline uses), so an optimal plan of
  the task is an optimal plan of the question. The slot sequence is thus compiled into the
  domain (positions are constants in the schemas, which keeps pyperplan's grounding, a
  cross product of parameter domains, small); the geometry stays lifted over static
  relations ``(gen-point ?p)``, ``(line-pair ?o ?t)``, ``(ring-pair ?o ?t)``,
  ``(adjacent ?o ?t)`` and ``(succ ?k ?k2)`` on levels.
* **generate** destroys what stands on the point: one schema per case, ``generate-empty``
  and ``generate-other`` (a star of another color, which goes back to its owner's reserve).
  Generating onto one's own star changes nothing (the reserve loses a star and gets it
  back) and is left out. **generate_targeted**, **move_line**, **move_ring** (own stars) and
  **nudge** (any color, one ``(adjacent ?o ?t)`` edge) are one schema each. With
  ``line_blocking`` (A4), a line move past other points is one ground schema per
  ``(origin, target)`` pair, each requiring the points between empty.
* **The goal is an OR** over the target placements: one action ``achieve-i`` per
  placement, with its points occupied (by the player's own stars with
  ``own_stars_only``) as preconditions, adding ``(done)``; the goal is ``(done)``. The
  reported number of actions is the plan length minus one.
* **supernova is not encoded**: all of the player's stars leave the board at once, a
  universally quantified effect that STRIPS lacks (grounding it needs the set of own stars
  at that moment; a per-star sequence would count as several actions and break the
  plan-length objective). :func:`reach_to_pddl` refuses a question with a supernova slot
  (:class:`UnsupportedQuestion`), and the benchmark says so. ``black_hole``,
  ``victory_point`` and ``gravity`` never change the board and have no schema, as in the
  CP-SAT model and the baseline search.

Planners (each run in a subprocess, killed at the time limit):

* ``pyperplan``: its default search, breadth-first (``bfs``: optimal for unit costs), or
  A* with the admissible ``lmcut``, ``hmax`` or ``blind`` heuristics (``astar-lmcut`` …).
* ``fast-downward``: the Fast Downward build shipped in the ``up-fast-downward`` package of
  the Unified Planning framework, called through that package's own driver with the
  optimal configuration ``seq-opt-lmcut`` (A* with LM-cut), on the same PDDL files. (Going
  through Unified Planning's ``OneshotPlanner`` would parse our PDDL into its model and write
  it back out before calling the same driver.)
"""

from __future__ import annotations

import importlib.resources
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from asterion.models.aster import Action, AsterState, Color
from asterion.models.aster_board import Board, Point
from asterion.models.aster_cards import BOARD_ACTIONS, ActionKind
from asterion.models.aster_patterns import Placement
from asterion.solver.aster_reach import PlanStep, ReachAnswer, ReachQuestion, certify
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status

Planner = Literal["pyperplan", "fast-downward"]
PLANNERS: tuple[Planner, ...] = ("pyperplan", "fast-downward")

PYPERPLAN_SEARCHES: dict[str, tuple[str, str]] = {
    "bfs": ("bfs", "blind"),
    "astar-lmcut": ("astar", "lmcut"),
    "astar-hmax": ("astar", "hmax"),
    "astar-blind": ("astar", "blind"),
}
"""pyperplan's optimal configurations: (``--search``, ``--heuristic``). ``bfs``, its default
search, ignores the heuristic."""

FAST_DOWNWARD_ALIAS = "seq-opt-lmcut"
"""Fast Downward's optimal configuration: A* with the admissible LM-cut heuristic."""


class UnsupportedQuestion(ValueError):
    """A question the STRIPS encoding does not cover (one with a ``supernova`` slot)."""


# -- the encoding ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Schema:
    """How to read a ground action of one schema back as a rules-engine action.

    ``roles`` names each parameter: ``point``, ``origin``, ``target``, or ``-`` (a color or
    a reserve level, not needed to rebuild the action). ``fixed`` holds points compiled
    into a ground schema.
    """

    slot: int
    kind: ActionKind
    roles: tuple[str, ...]
    fixed: tuple[tuple[str, Point], ...] = ()


@dataclass
class PddlTask:
    """The domain and problem texts, and the tables to read a plan back."""

    domain: str
    problem: str
    schemas: dict[str, _Schema] = field(default_factory=dict)
    goals: dict[str, Placement] = field(default_factory=dict)
    points: dict[str, Point] = field(default_factory=dict)


def _point_object(point: Point) -> str:
    return f"pt-{point.lower()}"


def _color_object(color: Color) -> str:
    return f"col-{color.value}"


def _position(s: int) -> str:
    return f"pos{s}"


def _level(k: int) -> str:
    return f"lvl{k}"


def _kind_name(kind: ActionKind) -> str:
    return kind.value.replace("_", "-")


def _action(
    name: str, parameters: Sequence[tuple[str, str]], pre: Iterable[str], eff: Iterable[str]
) -> str:
    params = " ".join(f"{var} - {type_}" for var, type_ in parameters)
    return (
        f"  (:action {name}\n"
        f"    :parameters ({params})\n"
        f"    :precondition (and {' '.join(pre)})\n"
        f"    :effect (and {' '.join(eff)}))\n"
    )


def _move_effects(color: str, origin: str, target: str) -> list[str]:
    """A star of ``color`` from ``origin`` to the empty ``target``."""
    return [
        f"(not (star {color} {origin}))",
        f"(star {color} {target})",
        f"(not (occ {origin}))",
        f"(empty {origin})",
        f"(not (empty {target}))",
        f"(occ {target})",
    ]


@dataclass
class _Domain:
    """Collects the schemas of one question's domain."""

    board: Board
    player: str
    actions: list[str] = field(default_factory=list)
    schemas: dict[str, _Schema] = field(default_factory=dict)

    def add(
        self,
        name: str,
        schema: _Schema,
        parameters: Sequence[tuple[str, str]],
        pre: Sequence[str],
        eff: Sequence[str],
    ) -> None:
        self.schemas[name] = schema
        self.actions.append(_action(name, parameters, pre, eff))

    # -- one helper per action kind ---------------------------------------------------------

    def generate(self, s: int, u: int, step: list[str], jump: list[str], kind: ActionKind) -> None:
        """A reserve star onto a point: an empty one, or (``generate``) a generation point
        holding another color's star, which is destroyed."""
        player = self.player
        base = f"{_kind_name(kind)}-{s}"
        spend = ["(reserve ?k)", "(succ ?km ?k)"]
        spent = ["(not (reserve ?k))", "(reserve ?km)", f"(star {player} ?p)"]
        levels = [("?k", "level"), ("?km", "level")]
        where = ["(gen-point ?p)"] if kind is ActionKind.GENERATE else []
        self.add(
            f"{base}-empty" if kind is ActionKind.GENERATE else base,
            _Schema(u, kind, ("point", "-", "-")),
            [("?p", "point"), *levels],
            [*step, *where, "(empty ?p)", *spend],
            [*jump, *spent, "(not (empty ?p))", "(occ ?p)"],
        )
        if kind is ActionKind.GENERATE:
            self.add(
                f"{base}-other",
                _Schema(u, kind, ("point", "-", "-", "-")),
                [("?p", "point"), ("?c", "color"), *levels],
                [*step, *where, "(opponent ?c)", "(star ?c ?p)", *spend],
                [*jump, *spent, "(not (star ?c ?p))"],
            )

    def own_move(
        self, s: int, u: int, step: list[str], jump: list[str], kind: ActionKind, relation: str
    ) -> None:
        """One of the player's stars to an empty point in ``relation`` with its own."""
        self.add(
            f"{_kind_name(kind)}-{s}",
            _Schema(u, kind, ("origin", "target")),
            [("?o", "point"), ("?t", "point")],
            [*step, f"({relation} ?o ?t)", f"(star {self.player} ?o)", "(empty ?t)"],
            [*jump, *_move_effects(self.player, "?o", "?t")],
        )

    def blocked_line_moves(self, s: int, u: int, step: list[str], jump: list[str]) -> None:
        """A4 ``line_blocking``: a ground schema per pair of points with points between."""
        board, player = self.board, self.player
        for line in board.lines:
            for origin in line:
                for target in line:
                    between = board.between(line, origin, target) if origin != target else ()
                    if not between:
                        continue
                    o, t = _point_object(origin), _point_object(target)
                    self.add(
                        f"move-line-{s}-{o}-{t}",
                        _Schema(
                            u, ActionKind.MOVE_LINE, (), (("origin", origin), ("target", target))
                        ),
                        [],
                        [*step, f"(star {player} {o})", f"(empty {t})"]
                        + [f"(empty {_point_object(x)})" for x in between],
                        [*jump, *_move_effects(player, o, t)],
                    )

    def nudge(self, s: int, u: int, step: list[str], jump: list[str]) -> None:
        """Any star, of any color, one edge to an adjacent empty point."""
        self.add(
            f"nudge-{s}",
            _Schema(u, ActionKind.NUDGE, ("-", "origin", "target")),
            [("?c", "color"), ("?o", "point"), ("?t", "point")],
            [*step, "(adjacent ?o ?t)", "(star ?c ?o)", "(empty ?t)"],
            [*jump, *_move_effects("?c", "?o", "?t")],
        )


def _earliest_slots(kinds: Sequence[ActionKind]) -> list[dict[ActionKind, int]]:
    """For each position ``s``, the earliest slot ``u ≥ s`` of every kind still ahead."""
    ahead: dict[ActionKind, int] = {}
    table: list[dict[ActionKind, int]] = []
    for u in range(len(kinds) - 1, -1, -1):
        ahead = {**ahead, kinds[u]: u}
        table.append(ahead)
    return table[::-1]


def _relevant_colors(state: AsterState) -> list[Color]:
    on_board = {c for c in state.stars if c is not None}
    return [c for c in Color if c in on_board or c is state.player]


def encode(question: ReachQuestion) -> PddlTask:
    """The PDDL domain and problem of ``question`` and the tables to read plans back.

    :raises UnsupportedQuestion: if a slot is ``supernova`` (see the module docstring).
    """
    state, board = question.state, question.state.board
    kinds = [slot.kind for slot in question.slots]
    if ActionKind.SUPERNOVA in kinds:
        raise UnsupportedQuestion(
            "supernova removes every own star at once: not expressible in STRIPS"
        )
    player = _color_object(state.player)
    colors = _relevant_colors(state)
    reserve = state.reserve_of(state.player)
    n_slots = len(kinds)

    # Slot schemas: for each position, each kind ahead, its earliest slot.
    domain = _Domain(board, player)
    for s, ahead in enumerate(_earliest_slots(kinds)):
        for kind, u in sorted(ahead.items(), key=lambda item: item[1]):
            if kind not in BOARD_ACTIONS:
                continue
            step = ["(active)", f"(at {_position(s)})"]
            jump = [f"(not (at {_position(s)}))", f"(at {_position(u + 1)})"]
            if kind in (ActionKind.GENERATE, ActionKind.GENERATE_TARGETED):
                domain.generate(s, u, step, jump, kind)
            elif kind is ActionKind.MOVE_LINE:
                domain.own_move(s, u, step, jump, kind, "line-pair")
                if board.line_blocking:
                    domain.blocked_line_moves(s, u, step, jump)
            elif kind is ActionKind.MOVE_RING:
                domain.own_move(s, u, step, jump, kind, "ring-pair")
            elif kind is ActionKind.NUDGE:
                domain.nudge(s, u, step, jump)

    # Goal schemas: one per target placement.
    goals: dict[str, Placement] = {}
    for i, placement in enumerate(question.targets):
        name = f"achieve-{i}"
        goals[name] = placement
        needed = [
            f"(star {player} {_point_object(p)})"
            if question.own_stars_only
            else f"(occ {_point_object(p)})"
            for p in sorted(placement, key=board.index.__getitem__)
        ]
        domain.actions.append(
            _action(name, [], ["(active)", *needed], ["(done)", "(not (active))"])
        )

    constants = [
        " ".join(_point_object(p) for p in board.points) + " - point",
        " ".join(_color_object(c) for c in colors) + " - color",
        " ".join(_position(s) for s in range(n_slots + 1)) + " - position",
        " ".join(_level(k) for k in range(reserve + 1)) + " - level",
    ]
    domain_text = (
        "(define (domain aster-reach)\n"
        "  (:requirements :strips :typing)\n"
        "  (:types point color position level)\n"
        "  (:constants\n    " + "\n    ".join(constants) + ")\n"
        "  (:predicates (star ?c - color ?p - point) (empty ?p - point) (occ ?p - point)\n"
        "    (at ?s - position) (reserve ?k - level) (active) (done)\n"
        "    (gen-point ?p - point) (line-pair ?o ?t - point) (ring-pair ?o ?t - point)\n"
        "    (adjacent ?o ?t - point) (succ ?k ?k2 - level) (opponent ?c - color))\n"
        + "".join(domain.actions)
        + ")\n"
    )
    problem_text = (
        "(define (problem aster-reach-question)\n"
        "  (:domain aster-reach)\n"
        "  (:init\n    "
        + "\n    ".join(_initial_facts(question, colors))
        + ")\n  (:goal (done)))\n"
    )
    return PddlTask(
        domain_text,
        problem_text,
        domain.schemas,
        goals,
        {_point_object(p): p for p in board.points},
    )


def _initial_facts(question: ReachQuestion, colors: list[Color]) -> list[str]:
    """The position (stars, reserve, first slot) and the static geometry."""
    state, board = question.state, question.state.board
    facts = [
        "(active)",
        f"(at {_position(0)})",
        f"(reserve {_level(state.reserve_of(state.player))})",
    ]
    for p in board.points:
        color = state.star_at(p)
        if color is None:
            facts.append(f"(empty {_point_object(p)})")
        else:
            facts += [
                f"(star {_color_object(color)} {_point_object(p)})",
                f"(occ {_point_object(p)})",
            ]
    facts += [f"(opponent {_color_object(c)})" for c in colors if c is not state.player]
    facts += [f"(succ {_level(k)} {_level(k + 1)})" for k in range(state.reserve_of(state.player))]
    facts += [f"(gen-point {_point_object(p)})" for p in board.generation_points]
    for relation, pairs in _geometry(board).items():
        facts += [f"({relation} {_point_object(o)} {_point_object(t)})" for o, t in pairs]
    return facts


def _geometry(board: Board) -> dict[str, list[tuple[Point, Point]]]:
    """The static relations between points: line and ring moves, nudges."""
    lines = [
        (o, t)
        for line in board.lines
        for o in line
        for t in line
        if o != t and not (board.line_blocking and board.between(line, o, t))
    ]
    rings = [(o, t) for ring in board.rings_cycles for o in ring for t in ring if o != t]
    edges = [(o, t) for o in board.points for t in board.neighbors(o)]
    return {"line-pair": lines, "ring-pair": rings, "adjacent": edges}


def reach_to_pddl(question: ReachQuestion) -> tuple[str, str]:
    """The PDDL domain and problem texts of ``question`` (see the module docstring).

    :raises UnsupportedQuestion: if a slot is ``supernova``.
    """
    task = encode(question)
    return task.domain, task.problem


# -- reading a plan back ----------------------------------------------------------------------


_PLAN_LINE = re.compile(r"^\s*\(([^()\s]+)((?:\s+[^()\s]+)*)\s*\)\s*$")


class PlanParseError(AssertionError):
    """A planner's output this module cannot read: a bug here or in the planner."""


def parse_plan(task: PddlTask, question: ReachQuestion, lines: Iterable[str]) -> list[PlanStep]:
    """The rules-engine steps of a plan, one ground action per line (``;`` comments
    skipped); the final ``achieve-i`` action is checked and dropped."""
    slots = question.slots
    steps: list[PlanStep] = []
    achieved = False
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        match = _PLAN_LINE.match(line.lower())
        if match is None:
            raise PlanParseError(f"unreadable plan line {raw!r}")
        name, args = match.group(1), match.group(2).split()
        if achieved:
            raise PlanParseError(f"action {line} after the goal")
        if name in task.goals:
            achieved = True
            continue
        schema = task.schemas.get(name)
        if schema is None or len(args) != len(schema.roles):
            raise PlanParseError(f"unknown action {line}")
        found = dict(schema.fixed)
        for role, arg in zip(schema.roles, args, strict=True):
            if role != "-":
                found[role] = task.points[arg]
        slot = slots[schema.slot]
        action = Action(
            schema.kind,
            slot.index,
            point=found.get("point"),
            origin=found.get("origin"),
            target=found.get("target"),
        )
        steps.append(PlanStep(slot.turn, action))
    if not achieved:
        raise PlanParseError("the plan does not end with a goal action")
    return steps


# -- running a planner --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Run:
    """What a planner process left: its plan lines (``None`` if none), whether it proved
    that there is no plan, its log and the nodes it expanded (if it says)."""

    plan: list[str] | None
    unsolvable: bool
    timed_out: bool
    log: str
    expanded: int = 0


def _run_process(command: list[str], cwd: Path, time_limit: float) -> tuple[int | None, str]:
    """Run ``command`` in its own process group; kill the whole group at ``time_limit``.
    Returns the exit code (``None`` on time-out) and the combined output."""
    with subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            output, _ = process.communicate(timeout=time_limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return None, output
        return process.returncode, output


def _last_int(pattern: str, log: str) -> int:
    found = re.findall(pattern, log)
    return int(found[-1]) if found else 0


def _run_pyperplan(folder: Path, time_limit: float, search: str) -> _Run:
    if search not in PYPERPLAN_SEARCHES:
        raise ValueError(
            f"unknown pyperplan search {search!r} (known: {sorted(PYPERPLAN_SEARCHES)})"
        )
    algorithm, heuristic = PYPERPLAN_SEARCHES[search]
    command = [sys.executable, "-m", "pyperplan", "-l", "info", "-s", algorithm, "-H", heuristic]
    code, log = _run_process([*command, "domain.pddl", "problem.pddl"], folder, time_limit)
    expanded = _last_int(r"(\d+) Nodes expanded", log)
    if code is None:
        return _Run(None, False, True, log, expanded)
    if code != 0:
        raise RuntimeError(f"pyperplan failed (exit status {code}):\n{log[-2000:]}")
    solution = folder / "problem.pddl.soln"
    if solution.exists():
        return _Run(solution.read_text().splitlines(), False, False, log, expanded)
    if "No solution could be found" in log:
        return _Run(None, True, False, log, expanded)
    raise RuntimeError(f"pyperplan left no plan and no verdict:\n{log[-2000:]}")


FD_UNSOLVABLE = (10, 11)
"""Fast Downward's exit codes for a task proved unsolvable (by the translator, by search)."""
FD_OUT_OF_LIMITS = (20, 21, 22, 23, 24)
"""Fast Downward's exit codes for running out of memory or time."""


def fast_downward_driver() -> Path:
    """The ``fast-downward.py`` driver shipped in the ``up-fast-downward`` package.

    :raises ModuleNotFoundError: if the package is not installed.
    """
    driver = importlib.resources.files("up_fast_downward").joinpath("downward/fast-downward.py")
    return Path(str(driver))


def _run_fast_downward(folder: Path, time_limit: float) -> _Run:
    command = [
        sys.executable,
        str(fast_downward_driver()),
        "--plan-file",
        "plan.txt",
        "--overall-time-limit",
        f"{max(1, round(time_limit))}s",
        "--alias",
        FAST_DOWNWARD_ALIAS,
        "domain.pddl",
        "problem.pddl",
    ]
    code, log = _run_process(command, folder, time_limit + 1.0)
    expanded = _last_int(r"Expanded (\d+) state", log)
    if code is None or code in FD_OUT_OF_LIMITS:
        return _Run(None, False, True, log, expanded)
    if code in FD_UNSOLVABLE:
        return _Run(None, True, False, log, expanded)
    if code != 0:
        raise RuntimeError(f"Fast Downward failed (exit status {code}):\n{log[-2000:]}")
    return _Run((folder / "plan.txt").read_text().splitlines(), False, False, log, expanded)


def pddl_reach(
    question: ReachQuestion,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    planner: Planner = "pyperplan",
    search: str = "bfs",
) -> ReachAnswer:
    """Solve ``question`` with a STRIPS planner; the plan is certified by the rules engine.

    Every configuration used is optimal for unit costs, so a plan found is a shortest one
    (status ``OPTIMAL``); a planner that exhausts its search proves ``INFEASIBLE``; a
    planner stopped at ``time_limit`` (wall clock, encoding included) gives ``UNKNOWN``.
    ``search`` chooses pyperplan's configuration (:data:`PYPERPLAN_SEARCHES`); Fast
    Downward always runs ``seq-opt-lmcut``.

    :raises UnsupportedQuestion: for a question with a ``supernova`` slot.
    :raises PlanError: if the rules engine rejects the plan (a bug, never reported).
    """
    started = time.perf_counter()
    engine = planner if planner == "fast-downward" else f"pyperplan-{search}"
    if not question.targets:
        return ReachAnswer(Status.INFEASIBLE, None, engine, 0.0)
    task = encode(question)
    with tempfile.TemporaryDirectory(prefix="asterion-pddl-") as name:
        folder = Path(name)
        (folder / "domain.pddl").write_text(task.domain)
        (folder / "problem.pddl").write_text(task.problem)
        remaining = max(0.1, time_limit - (time.perf_counter() - started))
        if planner == "fast-downward":
            run = _run_fast_downward(folder, remaining)
        elif planner == "pyperplan":
            run = _run_pyperplan(folder, remaining, search)
        else:
            raise ValueError(f"unknown planner {planner!r} (known: {', '.join(PLANNERS)})")
    if run.plan is None:
        status = Status.INFEASIBLE if run.unsolvable else Status.UNKNOWN
        elapsed = time.perf_counter() - started
        return ReachAnswer(status, None, engine, elapsed, run.expanded)
    certificate = certify(question, parse_plan(task, question, run.plan))
    elapsed = time.perf_counter() - started
    return ReachAnswer(Status.OPTIMAL, certificate, engine, elapsed, run.expanded)
