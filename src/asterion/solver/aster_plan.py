"""The CP-SAT planner for Aster reachability (a second encoding of the rules).

One layer of variables per slot boundary: ``occupied[t][v][c]`` (point ``v`` holds a star of
color ``c`` before slot ``t``) and ``reserve[t][c]``. Each slot is either skipped or used by
exactly one of its kind's choices, and every choice says which stars appear, disappear and
which reserves change; a frame equation carries everything else over. The target is present
after the last slot. The objective counts the slots used.

Actions that cannot change the board (``black_hole``, ``victory_point``, ``gravity``) are
always skipped here: using one never shortens a plan.

Every plan is certified by :func:`asterion.solver.aster_reach.certify` (the rules engine)
before it is returned.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from asterion.models.aster import Action, AsterState, Color
from asterion.models.aster_board import Board, Point
from asterion.models.aster_cards import ActionKind
from asterion.solver.aster_reach import PlanStep, ReachAnswer, ReachQuestion, Slot, certify
from asterion.solver.result import (
    DEFAULT_TIME_LIMIT,
    Status,
    check_clock,
    cp_status,
    make_solver,
)

LinearTerm = cp_model.LinearExprT

LINEARIZATION_LEVEL = 2
"""CP-SAT's ``linearization_level`` for :func:`cp_reach`. At level 2 the Boolean constraints
(each slot's choices and their preconditions) join the LP relaxation, which bounds the number
of actions far better than the default (level 1)."""
PROBING_LEVEL = 0
"""CP-SAT's ``cp_model_probing_level`` for :func:`cp_reach`: no probing. On these models
probing costs more than it finds (a few hundred ms per solve)."""
PRESOLVE_ITERATIONS = 1
"""CP-SAT's ``max_presolve_iterations`` for :func:`cp_reach`: one round of presolve; the
later rounds find little here and cost most on the mid-sized questions.

Measured on the benchmark (``benchmarks/bench_aster_reach.py``): levels 2 and 0 together
cut CP-SAT's deterministic time on the six slowest positions about 10 times against the
defaults (p12 from 9.6 to 1.4, p0 from 5.6 to 1.6, p21 from 8.0 to 0.7; means over two or
three seeds); one presolve round then lowered the CPU time on 44 of the 54 positions
(median 0.32 s to 0.27 s).
These settings change how the solver searches, never what the model means."""


@dataclass
class _Choice:
    """One way to use a slot: the variable, and the action it stands for."""

    var: cp_model.IntVar
    point: Point | None = None
    origin: Point | None = None
    target: Point | None = None


@dataclass
class _Layer:
    """The board before one slot."""

    occupied: dict[tuple[Point, Color], cp_model.IntVar]
    reserve: dict[Color, cp_model.IntVar]


@dataclass
class _Transition:
    """What one slot changes: terms added to the next layer's occupancy and reserves."""

    occupancy: dict[tuple[Point, Color], list[LinearTerm]] = field(
        default_factory=lambda: defaultdict(list)
    )
    reserve: dict[Color, list[LinearTerm]] = field(default_factory=lambda: defaultdict(list))


@dataclass
class PlannerModel:
    """The built model and what is needed to read a plan back."""

    model: cp_model.CpModel
    layers: list[_Layer]
    skip: list[cp_model.IntVar]
    choices: list[list[_Choice]]
    colors: list[Color]
    present: dict[frozenset[Point], cp_model.IntVar] = field(default_factory=dict)

    @property
    def final(self) -> _Layer:
        """The board after the last slot."""
        return self.layers[-1]

    def actions_used(self) -> cp_model.LinearExpr:
        return cp_model.LinearExpr.sum([1 - s for s in self.skip])


def relevant_colors(state: AsterState) -> list[Color]:
    """The colors whose stars can be on the board during the question."""
    on_board = {c for c in state.stars if c is not None}
    return [c for c in Color if c in on_board or c is state.player]


# -- variables --------------------------------------------------------------------------------


def _new_layer(
    model: cp_model.CpModel, board: Board, colors: list[Color], t: int, cap: int
) -> _Layer:
    occupied = {
        (v, c): model.new_bool_var(f"layer{t}_{v}_{c.value}") for v in board.points for c in colors
    }
    reserve = {c: model.new_int_var(0, cap, f"layer{t}_reserve_{c.value}") for c in colors}
    # A point holds at most one star.
    for v in board.points:
        model.add_at_most_one(occupied[v, c] for c in colors)
    return _Layer(occupied, reserve)


def _fix_layer(model: cp_model.CpModel, layer: _Layer, state: AsterState) -> None:
    for (v, c), var in layer.occupied.items():
        model.add(var == int(state.star_at(v) is c))
    for c, var in layer.reserve.items():
        model.add(var == state.reserve_of(c))


def _empty(layer: _Layer, colors: list[Color], v: Point) -> LinearTerm:
    """1 if ``v`` holds no star in ``layer``, else 0."""
    return 1 - sum(layer.occupied[v, c] for c in colors)


def _conjunction(
    model: cp_model.CpModel, a: cp_model.IntVar, b: cp_model.IntVar, name: str
) -> cp_model.IntVar:
    """A new boolean equal to ``a and b``."""
    both = model.new_bool_var(name)
    model.add_multiplication_equality(both, [a, b])
    return both


# -- one helper per action kind ----------------------------------------------------------------


@dataclass
class _SlotContext:
    model: cp_model.CpModel
    board: Board
    colors: list[Color]
    player: Color
    before: _Layer
    change: _Transition
    t: int

    def choice(self, label: str) -> cp_model.IntVar:
        return self.model.new_bool_var(f"slot{self.t}_{label}")

    def require_empty(self, var: cp_model.IntVar, v: Point) -> None:
        self.model.add(_empty(self.before, self.colors, v) == 1).only_enforce_if(var)

    def require_star(self, var: cp_model.IntVar, v: Point, color: Color) -> None:
        self.model.add(self.before.occupied[v, color] == 1).only_enforce_if(var)

    def require_reserve(self, var: cp_model.IntVar) -> None:
        self.model.add(self.before.reserve[self.player] >= 1).only_enforce_if(var)

    def move(self, var: cp_model.IntVar, origin: Point, target: Point, color: Color) -> None:
        self.change.occupancy[origin, color].append(-var)
        self.change.occupancy[target, color].append(var)


def _add_generate(ctx: _SlotContext, points: Iterable[Point], targeted: bool) -> list[_Choice]:
    """A reserve star onto a point. ``generate`` destroys a star already there (any color,
    own included), which goes back to its owner's reserve; ``generate_targeted`` needs the
    point empty."""
    choices = []
    for v in points:
        var = ctx.choice(f"generate_{v}")
        ctx.require_reserve(var)
        ctx.change.occupancy[v, ctx.player].append(var)
        ctx.change.reserve[ctx.player].append(-var)
        if targeted:
            ctx.require_empty(var, v)
        else:
            for c in ctx.colors:
                destroyed = _conjunction(
                    ctx.model, var, ctx.before.occupied[v, c], f"slot{ctx.t}_destroy_{v}_{c.value}"
                )
                ctx.change.occupancy[v, c].append(-destroyed)
                ctx.change.reserve[c].append(destroyed)
        choices.append(_Choice(var, point=v))
    return choices


def _add_own_moves(
    ctx: _SlotContext, pairs: Iterable[tuple[Point, Point, tuple[Point, ...]]]
) -> list[_Choice]:
    """One of the player's own stars from ``origin`` to an empty ``target``; the points in
    between must be empty too (only non-empty when ``line_blocking``)."""
    choices = []
    for origin, target, between in pairs:
        var = ctx.choice(f"move_{origin}_{target}")
        ctx.require_star(var, origin, ctx.player)
        ctx.require_empty(var, target)
        for x in between:
            ctx.require_empty(var, x)
        ctx.move(var, origin, target, ctx.player)
        choices.append(_Choice(var, origin=origin, target=target))
    return choices


def _add_nudges(ctx: _SlotContext) -> list[_Choice]:
    """Any star, of any color, one edge to an adjacent empty point."""
    choices = []
    for origin in ctx.board.points:
        for target in ctx.board.neighbors(origin):
            for c in ctx.colors:
                var = ctx.choice(f"nudge_{origin}_{target}_{c.value}")
                ctx.require_star(var, origin, c)
                ctx.require_empty(var, target)
                ctx.move(var, origin, target, c)
                choices.append(_Choice(var, origin=origin, target=target))
    return choices


def _add_supernova(ctx: _SlotContext) -> list[_Choice]:
    """All the player's stars go back to the reserve."""
    var = ctx.choice("supernova")
    for v in ctx.board.points:
        returned = _conjunction(
            ctx.model, var, ctx.before.occupied[v, ctx.player], f"slot{ctx.t}_supernova_{v}"
        )
        ctx.change.occupancy[v, ctx.player].append(-returned)
        ctx.change.reserve[ctx.player].append(returned)
    return [_Choice(var)]


def line_moves(board: Board) -> list[tuple[Point, Point, tuple[Point, ...]]]:
    """(origin, target, points between) for every pair on a common straight line."""
    result = []
    for line in board.lines:
        for origin in line:
            for target in line:
                if origin != target:
                    between = board.between(line, origin, target) if board.line_blocking else ()
                    result.append((origin, target, between))
    return result


def ring_moves(board: Board) -> list[tuple[Point, Point, tuple[Point, ...]]]:
    """(origin, target, ()) for every pair of points on one ring."""
    return [(o, t, ()) for ring in board.rings_cycles for o in ring for t in ring if o != t]


def _slot_choices(ctx: _SlotContext, kind: ActionKind) -> list[_Choice]:
    board = ctx.board
    if kind is ActionKind.GENERATE:
        return _add_generate(ctx, board.generation_points, targeted=False)
    if kind is ActionKind.GENERATE_TARGETED:
        return _add_generate(ctx, board.points, targeted=True)
    if kind is ActionKind.MOVE_LINE:
        return _add_own_moves(ctx, line_moves(board))
    if kind is ActionKind.MOVE_RING:
        return _add_own_moves(ctx, ring_moves(board))
    if kind is ActionKind.NUDGE:
        return _add_nudges(ctx)
    if kind is ActionKind.SUPERNOVA:
        return _add_supernova(ctx)
    return []  # black_hole, victory_point, gravity: never on a shortest plan


# -- the model ----------------------------------------------------------------------------------


def build_dynamics(
    state: AsterState, slots: tuple[Slot, ...], deadline: float = float("inf")
) -> PlannerModel:
    """Data, variables, one helper per action kind, frame equations: every board the slots
    can lead to, with no target and no objective yet. ``OutOfTime`` if ``deadline``
    passes on the way."""
    board, player = state.board, state.player
    colors = relevant_colors(state)
    cap = state.rules.stars_per_color
    model = cp_model.CpModel()

    # Layers: the board before each slot, and after the last.
    layers = [_new_layer(model, board, colors, t, cap) for t in range(len(slots) + 1)]
    _fix_layer(model, layers[0], state)

    # Each slot: skipped, or used by exactly one choice of its kind.
    skip, choices = [], []
    for t, slot in enumerate(slots):
        check_clock(deadline)
        change = _Transition()
        ctx = _SlotContext(model, board, colors, player, layers[t], change, t)
        options = _slot_choices(ctx, slot.kind)
        skipped = model.new_bool_var(f"slot{t}_skip")
        model.add_exactly_one([skipped, *(o.var for o in options)])
        _add_frame(model, layers[t], layers[t + 1], change)
        skip.append(skipped)
        choices.append(options)
    return PlannerModel(model, layers, skip, choices, colors)


def build_planner(question: ReachQuestion) -> PlannerModel:
    """The dynamics, the target present after the last slot, and fewest actions."""
    planner = build_dynamics(question.state, question.slots)
    planner.present = _add_target(planner.model, question, planner.final, planner.colors)
    planner.model.minimize(planner.actions_used())
    return planner


def _add_frame(model: cp_model.CpModel, before: _Layer, after: _Layer, change: _Transition) -> None:
    """Everything not changed by the slot stays as it was."""
    for key, var in after.occupied.items():
        terms = [before.occupied[key], *change.occupancy.get(key, [])]
        model.add(var == cp_model.LinearExpr.sum(terms))
    for c, var in after.reserve.items():
        model.add(var == cp_model.LinearExpr.sum([before.reserve[c], *change.reserve.get(c, [])]))


def _add_target(
    model: cp_model.CpModel, question: ReachQuestion, final: _Layer, colors: list[Color]
) -> dict[frozenset[Point], cp_model.IntVar]:
    player, board = question.state.player, question.state.board
    present = {}
    for i, placement in enumerate(question.targets):
        var = model.new_bool_var(f"target_{i}")
        for v in sorted(placement, key=board.index.__getitem__):  # not set order
            if question.own_stars_only:
                model.add(final.occupied[v, player] == 1).only_enforce_if(var)
            else:
                model.add(sum(final.occupied[v, c] for c in colors) == 1).only_enforce_if(var)
        present[placement] = var
    model.add_bool_or(list(present.values()))  # no placement at all: infeasible
    return present


# -- solve and extract ---------------------------------------------------------------------------


def extract_plan(
    planner: PlannerModel, slots: tuple[Slot, ...], solver: cp_model.CpSolver
) -> list[PlanStep]:
    steps = []
    for slot, options, skipped in zip(slots, planner.choices, planner.skip, strict=True):
        if solver.boolean_value(skipped):
            continue
        chosen = next(o for o in options if solver.boolean_value(o.var))
        action = Action(
            slot.kind, slot.index, point=chosen.point, origin=chosen.origin, target=chosen.target
        )
        steps.append(PlanStep(slot.turn, action))
    return steps


def cp_reach(
    question: ReachQuestion, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> ReachAnswer:
    """Solve the question with CP-SAT; the plan is certified by the rules engine.

    :raises PlanError: if the rules engine rejects the plan (a bug, never reported).
    """
    started = time.perf_counter()
    if not question.targets:
        return ReachAnswer(Status.INFEASIBLE, None, "cp-sat", 0.0)
    planner = build_planner(question)
    solver = make_solver(time_limit, seed)
    solver.parameters.linearization_level = LINEARIZATION_LEVEL
    solver.parameters.cp_model_probing_level = PROBING_LEVEL
    solver.parameters.max_presolve_iterations = PRESOLVE_ITERATIONS
    status = cp_status(solver.solve(planner.model))
    certificate = None
    if status.has_value:
        certificate = certify(question, extract_plan(planner, question.slots, solver))
        assert len(certificate.steps) == round(solver.objective_value)
    return ReachAnswer(status, certificate, "cp-sat", time.perf_counter() - started)
