"""Fewest turns to complete a list of objectives, under an assumed behaviour of the others
(rules/akelarre.md, question 2).

**The question.** One seat (the *planner*) must complete objectives in a given order: the
first is its private objective, each next one is what it draws when the previous is completed.
The other seats follow a known schedule of destinations (each a list cycled turn by turn; the
virtual player of a two-player game too). They collect resources but have no objectives, and
there is no public objective, so only the planner completes anything. The answer is the
fewest turns, counting the current one, after which every objective is complete, and a
destination for each of those turns.

**The CP-SAT model** (:func:`plan_cp_sat`) encodes one turn after another, in the rules' own
steps: the planner's destination (one of five, the Well not when a scheduled seat takes it);
the crowd at each location; the Well transfer (1 from each location nobody chose, if any is
left, unless someone is at the Well); the rites in turn order, each take the smaller of what
the payout table (with K4's Sabba bonus for a lone Sorginak) grants and what is left; the
planner's completions at its rite, forced as in the rules engine (K6: it completes whatever
it can), the sacrificed resources going back to their locations at once, where the seats after
it may take them. It minimises the number of turns before the last completion. The plan is
replayed by the rules engine (every message through :func:`~asterion.models.akelarre.apply`)
before it is reported; a disagreement raises.

**The baseline** (:func:`plan_search`) is breadth-first search over the rules engine's own
states, one level per turn, each of the planner's destinations tried: the first level where
the objectives are done is the optimum. The tests compare the two on small cases.

>>> from asterion.models.akelarre import AkelarreRules
>>> rules = AkelarreRules.default(3)
>>> instance = PlanInstance.start(rules, seat=0, objectives=("O13",), others=((0,), (1,)))
>>> answer = plan_cp_sat(instance)
>>> answer.status.value, answer.turns
('optimal', 3)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from asterion.errors import InputError
from asterion.models.akelarre import (
    DESTINATIONS,
    LOCATIONS,
    WELL,
    AkelarreRules,
    AkelarreState,
    Destination,
    Message,
    Seat,
    Sorginak,
    apply,
    destination_name,
    first_chooser,
    resolve_turn,
    rite_order,
    virtual_target,
)
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status, cp_status, make_solver

MAX_OBJECTIVES = 12
MAX_SEARCH_STATES = 200_000
"""The breadth-first baseline gives up (``unknown``) beyond this many states."""


@dataclass(frozen=True)
class PlanInstance:
    """The planner's seat, its objectives in order, and every other seat's destinations
    (cycled turn by turn, the seats in order, the planner left out), from ``state``."""

    state: AkelarreState
    seat: Seat
    objectives: tuple[str, ...]
    others: tuple[tuple[Destination, ...], ...]

    @classmethod
    def start(
        cls,
        rules: AkelarreRules,
        *,
        seat: Seat,
        objectives: Sequence[str],
        others: Sequence[Sequence[Destination]],
        first: Seat = 0,
        base: AkelarreState | None = None,
    ) -> PlanInstance:
        """The planning position: ``base`` (default: the start of a game) with the planner's
        private objective the first of ``objectives``, the rest its deck, and no objectives
        for anyone else. :raises InputError: for a bad seat, objective or schedule."""
        if not 0 <= seat < rules.players:
            raise InputError(f"seat must be 0-{rules.players - 1}", field="seat")
        if not 1 <= len(objectives) <= MAX_OBJECTIVES:
            raise InputError(f"give 1 to {MAX_OBJECTIVES} objectives", field="objectives")
        for objective in objectives:
            if objective not in rules.objective_by_id:
                raise InputError(f"unknown objective {objective!r}", field="objectives")
        twice = sorted({o for o in objectives if objectives.count(o) > 1})
        if twice:
            raise InputError(
                f"objective {twice[0]} given twice (one card each)", field="objectives"
            )
        if not 0 <= first < rules.players:
            raise InputError(f"first must be a seat 0-{rules.players - 1}", field="first")
        if base is not None and base.chain:
            raise InputError(
                "a message chain is under way: plans start at the beginning of a turn",
                field="chain",
            )
        if len(others) != rules.seats - 1:
            raise InputError(
                f"{rules.seats - 1} other seats need a schedule, not {len(others)}",
                field="others",
            )
        if any(not schedule for schedule in others):
            raise InputError("every schedule needs at least one destination", field="others")
        other_seats = [s for s in range(rules.seats) if s != seat]
        for s, schedule in zip(other_seats, others, strict=True):
            if s == (2 if rules.has_virtual else -1) and WELL in schedule:
                raise InputError("the virtual player never goes to the Well", field="others")
            if any(d not in DESTINATIONS for d in schedule):
                raise InputError("a destination is 0-4", field="others")
        base = base or AkelarreState(
            seats=tuple(Sorginak() for _ in range(rules.seats)),
            supply=rules.supply,
            well=(0, 0, 0, 0),
            public=None,
            objective_deck=(),
            power_deck=tuple(p.id for p in rules.powers),
            first=first,
            rules=rules,
        )
        seats = tuple(
            replace(b, private=objectives[0] if s == seat else None)
            for s, b in enumerate(base.seats)
        )
        state = replace(
            base, seats=seats, public=None, objective_deck=tuple(objectives[1:]), chain=()
        )
        state = replace(state, holder=first_chooser(state))
        instance = cls(state, seat, tuple(objectives), tuple(tuple(s) for s in others))
        for t in range(instance.horizon):
            at_well = [s for s in other_seats if instance.other_destination(s, t) == WELL]
            if len(at_well) > 1:
                raise InputError(
                    f"seats {at_well[0]} and {at_well[1]} both go to the Well on turn "
                    f"{state.turn + t} (one per turn)",
                    field="others",
                )
        return instance

    @property
    def rules(self) -> AkelarreRules:
        return self.state.rules

    @property
    def horizon(self) -> int:
        return self.rules.turns - self.state.turn + 1

    def other_destination(self, other: Seat, turn_index: int) -> Destination:
        """Where seat ``other`` goes on the ``turn_index``-th turn of the plan (0-based)."""
        index = other if other < self.seat else other - 1
        schedule = self.others[index]
        return schedule[turn_index % len(schedule)]

    def profile(self, turn_index: int, mine: Destination) -> tuple[Destination, ...]:
        return tuple(
            mine if s == self.seat else self.other_destination(s, turn_index)
            for s in range(self.rules.seats)
        )

    def done(self, state: AkelarreState) -> int:
        """How many of the objectives the planner has completed in ``state``."""
        return len(state.seats[self.seat].completed) - len(self.state.seats[self.seat].completed)


@dataclass(frozen=True)
class PlanAnswer:
    """``turns`` is the fewest turns (``None`` unless a plan was found); ``plan`` one
    destination per turn; ``final`` the engine's state after replaying it."""

    status: Status
    turns: int | None
    plan: tuple[Destination, ...]
    bound: int | None
    wall_time: float
    method: str
    final: AkelarreState | None = None

    def to_data(self) -> dict[str, object]:
        return {
            "status": self.status.value,
            "method": self.method,
            "turns": self.turns,
            "bound": self.bound,
            "plan": [destination_name(d) for d in self.plan],
            "wall_time": round(self.wall_time, 3),
        }


# -- replay --------------------------------------------------------------------------------------


def replay(instance: PlanInstance, plan: Sequence[Destination]) -> AkelarreState:
    """Play ``plan`` with the rules engine, every message checked: the chain follows the turn
    order, each seat handing its card to the next. :raises IllegalActionError: if any
    message is illegal."""
    state = instance.state
    for turn_index, mine in enumerate(plan):
        profile = instance.profile(turn_index, mine)
        order = list(rite_order(state))
        if state.virtual_seat is not None:
            target = virtual_target(state.turn)
            order = [order[0], target, *(s for s in order[1:] if s != target)]
        for position, seat in enumerate(order):
            to = order[position + 1] if position + 1 < len(order) else None
            state = apply(state, Message(profile[seat], to))
        if state.is_over:
            break
    return state


def _checked(instance: PlanInstance, plan: tuple[Destination, ...]) -> AkelarreState:
    final = replay(instance, plan)
    if instance.done(final) != len(instance.objectives):
        raise AssertionError(f"the plan {plan} does not complete the objectives when replayed")
    return final


# -- the baseline: breadth-first search ----------------------------------------------------------


def plan_search(
    instance: PlanInstance,
    max_turns: int | None = None,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> PlanAnswer:
    """Breadth-first over the engine's states, a level per turn (the exact baseline); unknown
    past ``time_limit`` seconds (read at every state: a 3-player level took some 16 s)."""
    start = time.perf_counter()
    deadline = start + time_limit
    horizon = min(instance.horizon, max_turns or instance.horizon)
    level: dict[AkelarreState, tuple[Destination, ...]] = {instance.state: ()}
    seen = 0
    for turn_index in range(horizon):
        following: dict[AkelarreState, tuple[Destination, ...]] = {}
        for state, plan in level.items():
            if time.perf_counter() > deadline:
                elapsed = time.perf_counter() - start
                return PlanAnswer(Status.UNKNOWN, None, (), None, elapsed, "search")
            for mine in _options(instance, turn_index):
                after, _ = resolve_turn(state, instance.profile(turn_index, mine))
                if instance.done(after) == len(instance.objectives):
                    found = (*plan, mine)
                    final = _checked(instance, found)
                    elapsed = time.perf_counter() - start
                    return PlanAnswer(
                        Status.OPTIMAL, len(found), found, len(found), elapsed, "search", final
                    )
                if not after.is_over and after not in following:
                    following[after] = (*plan, mine)
        seen += len(following)
        if seen > MAX_SEARCH_STATES:
            elapsed = time.perf_counter() - start
            return PlanAnswer(Status.UNKNOWN, None, (), turn_index + 2, elapsed, "search")
        level = following
    elapsed = time.perf_counter() - start
    complete = horizon == instance.horizon
    return PlanAnswer(
        Status.INFEASIBLE if complete else Status.UNKNOWN, None, (), None, elapsed, "search"
    )


def _options(instance: PlanInstance, turn_index: int) -> tuple[Destination, ...]:
    others_at_well = any(
        instance.other_destination(s, turn_index) == WELL
        for s in range(instance.rules.seats)
        if s != instance.seat
    )
    return LOCATIONS if others_at_well else DESTINATIONS


# -- the CP-SAT model ----------------------------------------------------------------------------


@dataclass
class _Model:
    model: cp_model.CpModel
    go: list[dict[Destination, cp_model.IntVar]]
    finished: list[cp_model.IntVar]


def plan_cp_sat(
    instance: PlanInstance, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> PlanAnswer:
    """The fewest turns by CP-SAT, the plan replayed by the rules engine."""
    start = time.perf_counter()
    built = _build(instance)
    solver = make_solver(time_limit, seed)
    code = solver.solve(built.model)
    status = cp_status(code)
    elapsed = time.perf_counter() - start
    if not status.has_value:
        return PlanAnswer(status, None, (), None, elapsed, "cp-sat")
    turns = round(solver.objective_value) + 1
    bound = round(solver.best_objective_bound) + 1
    plan = tuple(
        next(d for d, var in built.go[t].items() if solver.boolean_value(var)) for t in range(turns)
    )
    final = _checked(instance, plan)
    return PlanAnswer(status, turns, plan, bound, time.perf_counter() - start, "cp-sat", final)


def _build(instance: PlanInstance) -> _Model:
    # Data.
    rules, state, me = instance.rules, instance.state, instance.seat
    needs = [rules.objective(o).needs for o in instance.objectives]
    count = len(needs)
    cumulative = [[sum(n[e] for n in needs[:k]) for k in range(count + 1)] for e in range(4)]
    top = sum(state.supply) + sum(state.well) + sum(sum(b.resources) for b in state.seats) + 1
    model = cp_model.CpModel()
    supply = [model.new_constant(n) for n in state.supply]
    well = [model.new_constant(n) for n in state.well]
    held = [model.new_constant(n) for n in state.seats[me].resources]
    completed = model.new_constant(0)
    go: list[dict[Destination, cp_model.IntVar]] = []
    finished: list[cp_model.IntVar] = []
    for t in range(instance.horizon):
        # Variables: the planner's destination this turn.
        choice = {d: model.new_bool_var(f"go_t{t}_{destination_name(d)}") for d in DESTINATIONS}
        model.add_exactly_one(choice.values())
        if WELL not in _options(instance, t):
            model.add(choice[WELL] == 0)
        go.append(choice)
        others = {s: instance.other_destination(s, t) for s in range(rules.seats) if s != me}
        fixed_crowd = [sum(1 for d in others.values() if d == loc) for loc in LOCATIONS]
        # Step 3: the Well transfer.
        supply, well = _add_well_transfer(model, t, supply, well, choice, others, fixed_crowd)
        # Step 4: the rites in turn order.
        order = rite_order(replace(state, turn=state.turn + t, first=_first(state, t)))
        for seat in order:
            if seat != me and others[seat] == WELL:
                well = [model.new_constant(0) for _ in LOCATIONS]  # it takes everything
            elif seat != me:
                supply = _add_other_rite(
                    model, t, seat, others[seat], supply, choice, fixed_crowd, state, top
                )
            else:
                takes, supply, well = _add_planner_rite(
                    model, t, supply, well, choice, fixed_crowd, rules, top
                )
                held, completed, returned, done = _add_completions(
                    model, t, held, takes, completed, needs, cumulative, top
                )
                supply = [
                    _sum(model, f"supply_t{t}_back{e}", supply[e], returned[e]) for e in LOCATIONS
                ]
        finished.append(done)
    # Objective: the turns before the last completion; it must happen within the horizon.
    model.add(finished[-1] == 1)
    model.minimize(sum(1 - f for f in finished))
    return _Model(model, go, finished)


def _first(state: AkelarreState, t: int) -> Seat:
    return (state.first + t) % state.rules.players


def _add_well_transfer(
    model: cp_model.CpModel,
    t: int,
    supply: list[cp_model.IntVar],
    well: list[cp_model.IntVar],
    choice: dict[Destination, cp_model.IntVar],
    others: dict[Seat, Destination],
    fixed_crowd: list[int],
) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar]]:
    """Nobody at the Well: 1 moves to it from each location nobody chose, if any is left."""
    new_supply, new_well = [], []
    someone_else_at_well = WELL in others.values()
    for loc in LOCATIONS:
        moves = model.new_bool_var(f"transfer_t{t}_{destination_name(loc)}")
        if someone_else_at_well or fixed_crowd[loc] > 0:
            model.add(moves == 0)
        else:
            # moves ⇔ planner neither here nor at the Well, and the location is not empty.
            nonempty = model.new_bool_var(f"nonempty_t{t}_{loc}")
            model.add(supply[loc] >= 1).only_enforce_if(nonempty)
            model.add(supply[loc] == 0).only_enforce_if(nonempty.negated())
            model.add_bool_and(
                [choice[loc].negated(), choice[WELL].negated(), nonempty]
            ).only_enforce_if(moves)
            model.add_bool_or([choice[loc], choice[WELL], nonempty.negated(), moves])
        after = model.new_int_var(0, 10_000, f"supply_t{t}_after_transfer{loc}")
        model.add(after == supply[loc] - moves)
        grown = model.new_int_var(0, 10_000, f"well_t{t}_{loc}")
        model.add(grown == well[loc] + moves)
        new_supply.append(after)
        new_well.append(grown)
    return new_supply, new_well


def _add_other_rite(
    model: cp_model.CpModel,
    t: int,
    seat: Seat,
    where: Destination,
    supply: list[cp_model.IntVar],
    choice: dict[Destination, cp_model.IntVar],
    fixed_crowd: list[int],
    state: AkelarreState,
    top: int,
) -> list[cp_model.IntVar]:
    """A scheduled seat's rite at a location: the smaller of its due (which depends on
    whether the planner joins its crowd) and what is left."""
    rules = state.rules
    alone = fixed_crowd[where] == 1 and not state.is_virtual(seat)
    due_without = rules.rite_amount(fixed_crowd[where], alone)
    due_with = rules.rite_amount(fixed_crowd[where] + 1, False)
    due = model.new_int_var(0, 10_000, f"due_t{t}_s{seat}")
    model.add(due == due_without + (due_with - due_without) * choice[where])
    take = model.new_int_var(0, top, f"take_t{t}_s{seat}")
    model.add_min_equality(take, [due, supply[where]])
    left = model.new_int_var(0, top, f"supply_t{t}_s{seat}")
    model.add(left == supply[where] - take)
    return [left if loc == where else supply[loc] for loc in LOCATIONS]


def _add_planner_rite(
    model: cp_model.CpModel,
    t: int,
    supply: list[cp_model.IntVar],
    well: list[cp_model.IntVar],
    choice: dict[Destination, cp_model.IntVar],
    fixed_crowd: list[int],
    rules: AkelarreRules,
    top: int,
) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar], list[cp_model.IntVar]]:
    """The planner's take: at a location the smaller of its due and what is left; at the
    Well everything in it."""
    rules_takes = []
    new_supply = []
    for loc in LOCATIONS:
        crowd = fixed_crowd[loc] + 1
        due = rules.rite_amount(crowd, sabba=crowd == 1)
        possible = model.new_int_var(0, top, f"possible_t{t}_{loc}")
        model.add_min_equality(possible, [model.new_constant(due), supply[loc]])
        take = model.new_int_var(0, top, f"take_t{t}_me_{loc}")
        model.add(take == possible).only_enforce_if(choice[loc])
        model.add(take == 0).only_enforce_if(choice[loc].negated())
        from_well = model.new_int_var(0, top, f"take_t{t}_me_well{loc}")
        model.add(from_well == well[loc]).only_enforce_if(choice[WELL])
        model.add(from_well == 0).only_enforce_if(choice[WELL].negated())
        left = model.new_int_var(0, top, f"supply_t{t}_me{loc}")
        model.add(left == supply[loc] - take)
        new_supply.append(left)
        gained = model.new_int_var(0, top, f"gain_t{t}_{loc}")
        model.add(gained == take + from_well)
        rules_takes.append(gained)
    # Someone at the Well (the planner or a scheduled seat) empties it.
    new_well = []
    for loc in LOCATIONS:
        emptied = model.new_int_var(0, top, f"well_t{t}_after{loc}")
        model.add(emptied == 0).only_enforce_if(choice[WELL])
        model.add(emptied == well[loc]).only_enforce_if(choice[WELL].negated())
        new_well.append(emptied)
    return rules_takes, new_supply, new_well


def _add_completions(
    model: cp_model.CpModel,
    t: int,
    held: list[cp_model.IntVar],
    takes: list[cp_model.IntVar],
    completed: cp_model.IntVar,
    needs: list[tuple[int, int, int, int]],
    cumulative: list[list[int]],
    top: int,
) -> tuple[list[cp_model.IntVar], cp_model.IntVar, list[cp_model.IntVar], cp_model.IntVar]:
    """K6: at its rite the planner completes objectives in order while it can. ``completed``
    counts them; the resources of those completed now go back to the board."""
    count = len(needs)
    now = model.new_int_var(0, count, f"completed_t{t}")
    model.add(now >= completed)
    new_held, returned = [], []
    for e in range(4):
        used_before = model.new_int_var(0, top, f"used_before_t{t}_{e}")
        model.add_element(completed, cumulative[e], used_before)
        used_now = model.new_int_var(0, top, f"used_t{t}_{e}")
        model.add_element(now, cumulative[e], used_now)
        back = model.new_int_var(0, top, f"returned_t{t}_{e}")
        model.add(back == used_now - used_before)
        after = model.new_int_var(0, top, f"held_t{t}_{e}")
        model.add(after == held[e] + takes[e] - back)
        new_held.append(after)
        returned.append(back)
    # Forced: unless all are done, the next objective is not covered (some element short).
    finished = model.new_bool_var(f"all_done_t{t}")
    model.add(now == count).only_enforce_if(finished)
    model.add(now < count).only_enforce_if(finished.negated())
    short = []
    for e in range(4):
        next_need = model.new_int_var(0, top, f"next_need_t{t}_{e}")
        model.add_element(now, [n[e] for n in needs] + [0], next_need)
        lacking = model.new_bool_var(f"short_t{t}_{e}")
        model.add(new_held[e] < next_need).only_enforce_if(lacking)
        short.append(lacking)
    model.add_bool_or([*short, finished])
    return new_held, now, returned, finished


def _sum(
    model: cp_model.CpModel, name: str, first: cp_model.IntVar, second: cp_model.IntVar
) -> cp_model.IntVar:
    total = model.new_int_var(0, 10_000, name)
    model.add(total == first + second)
    return total
