"""One Akelarre turn's destination choice as a game: exact payoffs, equilibria, best responses
(rules/akelarre.md, question 1).

**The game.** At the start of a turn each Sorginak picks one of five destinations (the four
locations and the Well). The message chain is set aside: the choices are taken as
simultaneous, which is what they are for a player told nothing. The virtual player of a
two-player game is chance: its four locations are equally likely and payoffs are averaged
over them. Only one player may go to the Well; when several pick it, the earliest in turn
order goes there and the others sit the turn out (no resources; the stand-in for "the Well
was already declared").

**Payoffs** are exact rationals (:class:`fractions.Fraction` inside, :class:`sympy.Rational`
outside): the change of a *valuation* of the position from before the turn to after it, the
rules engine playing the turn (:func:`~asterion.models.akelarre.resolve_turn`). The default
valuation, :func:`objective_progress`, counts completed objectives plus half the share of each
objective in play (the private one and the public one) the player's resources already cover::

    progress = completed + ½ · Σ_{o ∈ {private, public}} Σ_e min(held_e, need_e) / Σ_e need_e

so a completed objective is worth more than any partial progress, and a resource is worth
something only while an objective still needs it.

**Equilibria.** :func:`pure_equilibria` checks every profile against every unilateral
deviation (5ⁿ profiles). :func:`mixed_equilibria_2p` enumerates pairs of equal-size supports
and solves the indifference equations exactly (support enumeration, Nisan et al.,
*Algorithmic Game Theory*, §3.4); it finds every equilibrium of a nondegenerate game and, in
a degenerate one (ties in payoffs are common here), the equilibria with equal-size supports
that the equations pin down. :func:`mixed_equilibria_3p` does the same for three players with
supports of at most two destinations each, solving the multilinear indifference equations with
sympy (roots may be irrational), within a time limit. :func:`is_equilibrium` checks any
profile of mixed strategies exactly against every pure deviation.

**Best responses** (:func:`advise`): for the seat choosing in the message chain, the expected
payoff of each legal destination given what it was told (the message handed to it, a public
Well), the other destinations being equally likely.

>>> from asterion.models.akelarre import AkelarreRules, AkelarreState
>>> state = AkelarreState.new_game(AkelarreRules.default(3), seed=2)
>>> game = turn_game(state)
>>> len(game.profiles)
125
>>> all(is_equilibrium(game, pure_strategy(game, p)) for p in pure_equilibria(game))
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

import sympy  # type: ignore[import-untyped]

from asterion.models.akelarre import (
    ABSENT,
    DESTINATIONS,
    LOCATIONS,
    WELL,
    AkelarreState,
    Destination,
    Seat,
    resolve_turn,
    rite_order,
)
from asterion.solver.result import Status

Profile = tuple[Destination, ...]
"""One destination per strategic player, in the order of :attr:`TurnGame.players`."""
Valuation = Callable[[AkelarreState, Seat], Fraction]
Strategy = tuple[Fraction, ...]
"""Probabilities over :data:`~asterion.models.akelarre.DESTINATIONS`."""

DEFAULT_3P_TIME_LIMIT = 20.0


def objective_progress(state: AkelarreState, seat: Seat) -> Fraction:
    """Completed objectives plus half the covered share of each objective in play.

    >>> from asterion.models.akelarre import AkelarreRules, AkelarreState, Sorginak
    >>> rules = AkelarreRules.default(3)
    >>> state = AkelarreState.new_game(rules, seed=0)
    >>> objective_progress(state, 0)
    Fraction(0, 1)
    """
    board = state.seats[seat]
    value = Fraction(len(board.completed))
    for objective in state.objectives_in_play(seat):
        covered = sum(min(h, n) for h, n in zip(board.resources, objective.needs, strict=True))
        value += Fraction(covered, 2 * sum(objective.needs))
    return value


def rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


# -- the game ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnGame:
    """The normal form of one turn: ``table[profile][i]`` is player ``players[i]``'s payoff."""

    state: AkelarreState
    players: tuple[Seat, ...]
    table: dict[Profile, tuple[Fraction, ...]]

    @property
    def profiles(self) -> tuple[Profile, ...]:
        return tuple(self.table)

    def payoff(self, profile: Profile) -> tuple[sympy.Rational, ...]:
        """Exact payoffs of ``profile`` as sympy rationals."""
        return tuple(rational(value) for value in self.table[profile])

    def utility(self, profile: Profile, player: int) -> Fraction:
        return self.table[profile][player]


def settle_well(state: AkelarreState, destinations: Sequence[Destination]) -> list[Destination]:
    """Several at the Well: the earliest in turn order goes, the others sit the turn out."""
    settled = list(destinations)
    claimed = False
    for seat in rite_order(state):
        if settled[seat] == WELL:
            if claimed:
                settled[seat] = ABSENT
            claimed = True
    return settled


def outcome_values(
    state: AkelarreState,
    destinations: Sequence[Destination],
    seats: Sequence[Seat],
    valuation: Valuation,
    before: Sequence[Fraction],
) -> tuple[Fraction, ...]:
    """Each of ``seats``' valuation change when every seat goes to ``destinations``."""
    after, _ = resolve_turn(state, settle_well(state, destinations))
    return tuple(valuation(after, s) - b for s, b in zip(seats, before, strict=True))


def turn_game(state: AkelarreState, valuation: Valuation = objective_progress) -> TurnGame:
    """The destination game of ``state``'s turn (the chain must not have started)."""
    if state.is_over or state.chain:
        raise ValueError("the turn game starts from a turn with no message given yet")
    players = state.players
    virtual = state.virtual_seat
    before = [valuation(state, seat) for seat in players]
    table: dict[Profile, tuple[Fraction, ...]] = {}
    for profile in product(DESTINATIONS, repeat=len(players)):
        if virtual is None:
            table[profile] = outcome_values(state, profile, players, valuation, before)
            continue
        totals = [Fraction(0)] * len(players)
        for chance in LOCATIONS:
            values = outcome_values(state, (*profile, chance), players, valuation, before)
            totals = [t + v for t, v in zip(totals, values, strict=True)]
        table[profile] = tuple(t / len(LOCATIONS) for t in totals)
    return TurnGame(state, players, table)


# -- pure equilibria ---------------------------------------------------------------------------


def pure_equilibria(game: TurnGame) -> list[Profile]:
    """Every profile where no player gains by changing destination alone, in profile order."""
    return list(_pure_equilibria(game))


def _pure_equilibria(game: TurnGame) -> Iterator[Profile]:
    best: dict[tuple[int, Profile], Fraction] = {}
    for profile in game.table:
        if all(_is_best(game, best, profile, i) for i in range(len(game.players))):
            yield profile


def _is_best(
    game: TurnGame, best: dict[tuple[int, Profile], Fraction], profile: Profile, i: int
) -> bool:
    """Is ``profile[i]`` a best reply to the others? Best values are cached per context."""
    context = (*profile[:i], ABSENT, *profile[i + 1 :])
    key = (i, context)
    if key not in best:
        best[key] = max(game.utility((*profile[:i], a, *profile[i + 1 :]), i) for a in DESTINATIONS)
    return game.utility(profile, i) == best[key]


# -- mixed strategies --------------------------------------------------------------------------


def pure_strategy(game: TurnGame, profile: Profile) -> tuple[Strategy, ...]:
    return tuple(tuple(Fraction(int(a == d)) for a in DESTINATIONS) for d in profile)


def expected_payoffs(game: TurnGame, strategies: Sequence[Strategy]) -> tuple[Fraction, ...]:
    """Each player's expected payoff when all play ``strategies`` independently."""
    supports = [[(a, p) for a, p in zip(DESTINATIONS, s, strict=True) if p] for s in strategies]
    totals = [Fraction(0)] * len(game.players)
    for combo in product(*supports):
        weight = Fraction(1)
        for _, p in combo:
            weight *= p
        values = game.table[tuple(a for a, _ in combo)]
        totals = [t + weight * v for t, v in zip(totals, values, strict=True)]
    return tuple(totals)


def deviation_payoffs(
    game: TurnGame, strategies: Sequence[Strategy], player: int
) -> tuple[Fraction, ...]:
    """``player``'s expected payoff for each pure destination, the others keeping theirs."""
    result = []
    for destination in DESTINATIONS:
        pure = tuple(Fraction(int(a == destination)) for a in DESTINATIONS)
        mixed = [*strategies[:player], pure, *strategies[player + 1 :]]
        result.append(expected_payoffs(game, mixed)[player])
    return tuple(result)


def is_equilibrium(game: TurnGame, strategies: Sequence[Strategy]) -> bool:
    """Exactly: every player's strategy is a probability vector and no pure deviation gains."""
    for i, strategy in enumerate(strategies):
        if any(p < 0 for p in strategy) or sum(strategy) != 1:
            return False
        value = expected_payoffs(game, strategies)[i]
        if max(deviation_payoffs(game, strategies, i)) > value:
            return False
    return True


@dataclass(frozen=True)
class MixedEquilibrium:
    """Strategies over the five destinations (exact; sympy numbers, possibly irrational for
    three players) and each player's expected payoff."""

    strategies: tuple[tuple[sympy.Expr, ...], ...]
    values: tuple[sympy.Expr, ...]

    @property
    def is_pure(self) -> bool:
        return all(sum(1 for p in s if p != 0) == 1 for s in self.strategies)


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of a square system, exactly (Gaussian elimination), or ``None``."""
    size = len(matrix)
    rows = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if rows[r][column] != 0), None)
        if pivot is None:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(size):
            if r != column and rows[r][column] != 0:
                factor = rows[r][column] / rows[column][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [rows[r][size] / rows[r][r] for r in range(size)]


def _indifference(
    payoff: Callable[[int, int], Fraction], own: tuple[int, ...], other: tuple[int, ...]
) -> tuple[list[Fraction], Fraction] | None:
    """The mix over ``other`` that makes every action in ``own`` pay the same, and that pay."""
    size = len(own)
    matrix = [[payoff(a, b) for b in other] + [Fraction(-1)] for a in own]
    matrix.append([Fraction(1)] * size + [Fraction(0)])
    solution = _solve(matrix, [Fraction(0)] * size + [Fraction(1)])
    if solution is None or any(p < 0 for p in solution[:size]):
        return None
    return solution[:size], solution[size]


def mixed_equilibria_2p(game: TurnGame) -> list[MixedEquilibrium]:
    """Support enumeration over equal-size supports, exact (two strategic players)."""
    if len(game.players) != 2:
        raise ValueError("mixed_equilibria_2p needs a two-player game")
    row = {(a, b): game.utility((a, b), 0) for a in DESTINATIONS for b in DESTINATIONS}
    col = {(a, b): game.utility((a, b), 1) for a in DESTINATIONS for b in DESTINATIONS}
    found: list[MixedEquilibrium] = []
    seen: set[tuple[Strategy, Strategy]] = set()
    for size in range(1, len(DESTINATIONS) + 1):
        for rows, cols in product(combinations(DESTINATIONS, size), repeat=2):
            # y over cols makes the row player indifferent on rows; x likewise for columns.
            y_part = _indifference(lambda a, b: row[(a, b)], rows, cols)
            x_part = _indifference(lambda b, a: col[(a, b)], cols, rows)
            if y_part is None or x_part is None:
                continue
            x = _spread(rows, x_part[0])
            y = _spread(cols, y_part[0])
            if (x, y) in seen or not is_equilibrium(game, (x, y)):
                continue
            seen.add((x, y))
            found.append(_mixed(game, (x, y)))
    return found


def _spread(support: tuple[int, ...], probabilities: list[Fraction]) -> Strategy:
    mix = dict(zip(support, probabilities, strict=True))
    return tuple(mix.get(a, Fraction(0)) for a in DESTINATIONS)


def _mixed(game: TurnGame, strategies: tuple[Strategy, ...]) -> MixedEquilibrium:
    values = expected_payoffs(game, strategies)
    return MixedEquilibrium(
        tuple(tuple(rational(p) for p in s) for s in strategies),
        tuple(rational(v) for v in values),
    )


@dataclass(frozen=True)
class MixedSearch:
    """Mixed equilibria of a three-player turn with small supports, and whether every
    support profile was examined (``status`` optimal) or time ran out (unknown)."""

    equilibria: tuple[MixedEquilibrium, ...]
    status: Status
    supports_examined: int
    supports_total: int
    wall_time: float


def mixed_equilibria_3p(
    game: TurnGame, *, max_support: int = 2, time_limit: float = DEFAULT_3P_TIME_LIMIT
) -> MixedSearch:
    """Equilibria of a three-player turn whose supports have at most ``max_support``
    destinations each: the multilinear indifference equations are solved exactly by sympy;
    every candidate is checked against every pure deviation in exact arithmetic."""
    if len(game.players) != 3:
        raise ValueError("mixed_equilibria_3p needs a three-player game")
    start = time.perf_counter()
    supports = [s for k in range(1, max_support + 1) for s in combinations(DESTINATIONS, k)]
    total = len(supports) ** 3
    found: list[MixedEquilibrium] = []
    examined = 0
    for triple in product(supports, repeat=3):
        if time.perf_counter() - start > time_limit:
            break
        examined += 1
        if not _supports_can_be_best(game, triple):
            continue
        for strategies in _solve_supports(game, triple):
            if strategies not in [e.strategies for e in found] and _is_equilibrium_sym(
                game, strategies
            ):
                values = tuple(sympy.nsimplify(v) for v in _expected_sym(game, strategies))
                found.append(MixedEquilibrium(strategies, values))
    status = Status.OPTIMAL if examined == total else Status.UNKNOWN
    return MixedSearch(tuple(found), status, examined, total, time.perf_counter() - start)


def _supports_can_be_best(game: TurnGame, triple: tuple[tuple[int, ...], ...]) -> bool:
    """Cheap filter: a support action that some other support action beats against every
    pure choice of the others' supports can never be played in an equilibrium."""
    for i, support in enumerate(triple):
        others = [triple[j] for j in range(3) if j != i]
        for a in support:
            for b in DESTINATIONS:
                if b == a:
                    continue
                if all(
                    game.utility(_with(i, a, rest), i) < game.utility(_with(i, b, rest), i)
                    for rest in product(*others)
                ):
                    return False
    return True


def _with(i: int, action: int, rest: tuple[int, ...]) -> Profile:
    return (*rest[:i], action, *rest[i:])


def _solve_supports(
    game: TurnGame, triple: tuple[tuple[int, ...], ...]
) -> Iterator[tuple[tuple[sympy.Expr, ...], ...]]:
    symbols = [
        [sympy.Symbol(f"p{i}_{a}", nonnegative=True) for a in support]
        for i, support in enumerate(triple)
    ]
    mixes = [dict(zip(triple[i], symbols[i], strict=True)) for i in range(3)]
    equations = [sum(symbols[i]) - 1 for i in range(3)]
    for i, support in enumerate(triple):
        payoffs = [_pure_payoff_sym(game, mixes, i, a) for a in support]
        equations += [p - payoffs[0] for p in payoffs[1:]]
    unknowns = [s for group in symbols for s in group]
    solutions = sympy.solve(equations, unknowns, dict=True)
    for solution in solutions:
        values = [solution.get(s, s) for s in unknowns]
        if any(v.free_symbols for v in values):
            continue  # a continuum: not listed (documented limitation)
        if not all(v.is_real and v >= 0 for v in values):
            continue
        yield tuple(
            tuple(
                sympy.nsimplify(solution[mixes[i][a]]) if a in mixes[i] else sympy.Integer(0)
                for a in DESTINATIONS
            )
            for i in range(3)
        )


def _pure_payoff_sym(
    game: TurnGame, mixes: list[dict[int, sympy.Expr]], player: int, action: int
) -> sympy.Expr:
    others = [j for j in range(3) if j != player]
    total: sympy.Expr = sympy.Integer(0)
    for rest in product(*(mixes[j].items() for j in others)):
        weight = sympy.Mul(*(p for _, p in rest))
        profile = _with(player, action, tuple(a for a, _ in rest))
        total += weight * rational(game.utility(profile, player))
    return sympy.expand(total)


def _expected_sym(
    game: TurnGame, strategies: tuple[tuple[sympy.Expr, ...], ...]
) -> tuple[sympy.Expr, ...]:
    totals = [sympy.Integer(0)] * len(game.players)
    for profile, values in game.table.items():
        weight = sympy.Mul(*(strategies[i][d] for i, d in enumerate(profile)))
        if weight != 0:
            totals = [t + weight * rational(v) for t, v in zip(totals, values, strict=True)]
    return tuple(sympy.simplify(t) for t in totals)


def _is_equilibrium_sym(game: TurnGame, strategies: tuple[tuple[sympy.Expr, ...], ...]) -> bool:
    values = _expected_sym(game, strategies)
    for i in range(len(game.players)):
        for destination in DESTINATIONS:
            pure = tuple(sympy.Integer(int(a == destination)) for a in DESTINATIONS)
            deviated = (*strategies[:i], pure, *strategies[i + 1 :])
            gain = sympy.simplify(_expected_sym(game, deviated)[i] - values[i])
            if gain.is_positive:
                return False
    return True


# -- best responses in the message chain -------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """Expected payoff of each destination the holder may choose, and the best ones."""

    seat: Seat
    known: dict[Seat, Destination]
    values: dict[Destination, Fraction]

    @property
    def best(self) -> tuple[Destination, ...]:
        top = max(self.values.values())
        return tuple(d for d, v in self.values.items() if v == top)


def advise(
    state: AkelarreState,
    valuation: Valuation = objective_progress,
    beliefs: Mapping[Seat, Mapping[Destination, Fraction]] | None = None,
) -> Advice:
    """Best responses of the seat choosing now, given what it was told.

    Destinations it knows (the message handed to it, a public Well) are fixed; a seat that
    chose unseen is at one of the four locations (a Well would be public); a seat still to
    choose may go anywhere still open, and the virtual player anywhere but the Well. Unless
    ``beliefs`` says otherwise, every possibility is equally likely.
    """
    if state.is_over or state.is_virtual(state.holder):
        raise ValueError("advice is for a Sorginak choosing a message")
    seat = state.holder
    known = state.known_to(seat)
    chosen = state.chosen()
    well_taken = state.well_declared_by is not None
    options = LOCATIONS if well_taken else DESTINATIONS
    before = valuation(state, seat)
    values = {}
    for mine in options:
        guesses = []
        for other in range(state.rules.seats):
            if other == seat:
                guesses.append({mine: Fraction(1)})
            elif other in known:
                guesses.append({known[other]: Fraction(1)})
            elif beliefs is not None and other in beliefs:
                guesses.append(dict(beliefs[other]))
            else:
                open_to = (
                    LOCATIONS
                    if other in chosen or state.is_virtual(other) or well_taken or mine == WELL
                    else DESTINATIONS
                )
                guesses.append({d: Fraction(1, len(open_to)) for d in open_to})
        total = Fraction(0)
        for combo in product(*(g.items() for g in guesses)):
            weight = Fraction(1)
            for _, p in combo:
                weight *= p
            destinations = [d for d, _ in combo]
            (value,) = outcome_values(state, destinations, [seat], valuation, [before])
            total += weight * value
        values[mine] = total
    return Advice(seat, known, values)
