"""Nacht der Sterne play: strategies, seeded simulation, exact two-player values, and the
expected value of declining (rules/nacht.md, question 4).

**Strategies** (:class:`Policy`: ``choose(state, rng) -> Move``) see what a player at the
table sees: the laid tiles, every display (face up), the coins, and which tiles are still in
the pile, but not their order.

- ``always``: lays whatever fits (the drawn tile first, then display tiles in cell order),
  never declines, always knocks.
- ``greedy``: by immediate coins: the drawn tile is laid (its gain is never below 0, a
  decline costs 1), then the display tile that pays most, while lays are left; always knocks.
- ``denial``: the denial-decliner. Laying tile t is scored ``gain(t) - handed(t) - held(t)``:
  *handed* is how much more the best lay in some opponent's display pays once t is laid (what
  laying t sets up for them), *held* what holding t is worth: for each constellation t would
  leave one or two tiles short of completion (with those tiles not all in the own display),
  its span times ``(P - 1) / P``, since holding t makes sure nobody else completes it. A
  fitting drawn tile is declined when ``-1`` beats the lay's score; a display tile is laid
  when its score is at least 0, or when passing would let an opponent knock.
- ``lookahead``: plans the whole own turn (every sequence of lays and declines up to the
  pass) and scores each by its coins minus the next player's expected best turn (their
  display and a tile drawn uniformly from the pile, laid greedily, two at most), and a knock
  it would invite (the knock coin plus the tile's value to the knocker's turn).
- ``random``: a legal move uniformly at random (tests and baselines).

All but ``random`` are deterministic functions of the position (ties go to the first move in
:func:`~asterion.models.nacht_game.legal_moves` order), so the exact search can play against
them.

**Simulation** (:func:`simulate`): seeded deals; each deal is played ``P`` times with the
strategies' seats rotated, so every strategy sits in every seat on the same deals. Reported:
mean and spread of final coins per strategy, wins (a tie shares the win), and win rates by
seat.

**Exact value** (:func:`solve_known_order`): two players, the draw order known to both, so the
game has perfect information. Its value is the final coin difference (seat 0 minus seat 1)
under optimal play by both, found by minimax with alpha-beta pruning and a transposition table
keyed by the position without the coins (only whether a decline can still be paid matters;
the coins are capped where that is decided), driven by MTD(f) null-window searches from the
greedy players' outcome, and cut where even every open reward, knock and decline going one
way could not reach the window; checked in the tests against plain minimax without pruning.
An optimal line follows, one null-window test per move, and is replayed by the checked rules
engine. :func:`heuristic_shortfall` fixes one seat's moves to a strategy and lets
the other seat answer perfectly: what optimal play guarantees that seat, minus what the
strategy guarantees, is how far the strategy falls short (never negative).

**Declining** (:func:`advise`): each legal move of the player to move, with the pile
reshuffled in each sample (the same orders for every move: common random numbers) and the
game played out with a rollout strategy in every seat; the mean final coins and margin (own
coins minus the best opponent's), with 95% confidence intervals, and for a fitting drawn tile
the paired difference "decline minus lay".

>>> from asterion.models.nacht_game import Sky
>>> sky = Sky.grid(3, 3, {"A": (0, 1, 2)})
>>> report = simulate(sky, ["greedy", "always"], games=4, players=2, seed=1)
>>> report.games, sorted(report.labels)
(4, ['always', 'greedy'])
"""

from __future__ import annotations

import math
import random
import statistics
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from asterion.errors import InputError, TooLargeError
from asterion.models.nacht import TileSet
from asterion.models.nacht_game import (
    Cell,
    Decline,
    Knock,
    Lay,
    Move,
    NachtRules,
    NachtState,
    NoKnock,
    Pass,
    Sky,
    apply,
    apply_unchecked,
    bits,
    describe,
    legal_moves,
)
from asterion.solver.nacht_play_defaults import (
    DEFAULT_EXACT_TIME_LIMIT,
    DEFAULT_SAMPLES,
)
from asterion.solver.nacht_verify import verify
from asterion.solver.result import DEFAULT_TIME_LIMIT, Status
from asterion.solver.stats import confidence_interval

MAX_GAMES = 1_000_000
MAX_SAMPLES = 100_000
MAX_EXACT_CELLS = 24
"""The exact search takes grids up to 24 tiles (4x6); larger ones are refused."""
MAX_TABLE = 4_000_000
"""Positions the transposition table keeps (about 2 GB); past that, new ones are not stored
(the table is only a cache: values stay exact, the search slows down)."""


def solved_sky(tileset: TileSet, *, time_limit: float = DEFAULT_TIME_LIMIT) -> Sky:
    """The play sky of a tile set: its unique arrangement, found and checked by the verifier.

    :raises InputError: when the set is not consistent (or not decided in time): a game
        needs the one picture its tiles make.
    """
    report = verify(tileset, time_limit=time_limit)
    if not report.consistent or not report.placements:
        codes = ", ".join(sorted({f.code for f in report.problems})) or "undecided"
        named = f" {tileset.name!r}" if tileset.name else ""
        raise InputError(  # (no source: the caller knows the file, see InputError.located)
            f"the tile set{named} is not consistent ({codes}): a game needs its one "
            "arrangement; `asterion nacht verify` explains"
        )
    return Sky.from_arrangement(tileset, report.placements[0])


# -- strategies ------------------------------------------------------------------------------------


class Policy(ABC):
    """A strategy: ``choose(state, rng)`` gives the move of the player to decide. In a knock
    window it knocks (a free coin); in a turn it asks :meth:`turn`."""

    name = "policy"

    def choose(self, state: NachtState, rng: random.Random) -> Move:
        moves = list(legal_moves(state))
        if state.phase == "knock":
            return next((m for m in moves if isinstance(m, Knock)), NoKnock())
        return self.turn(state, moves, rng)

    @abstractmethod
    def turn(self, state: NachtState, moves: list[Move], rng: random.Random) -> Move: ...

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _lays(moves: Sequence[Move]) -> list[Lay]:
    return [m for m in moves if isinstance(m, Lay)]


class RandomPolicy(Policy):
    name = "random"

    def choose(self, state: NachtState, rng: random.Random) -> Move:
        return rng.choice(list(legal_moves(state)))

    def turn(self, state: NachtState, moves: list[Move], rng: random.Random) -> Move:
        return rng.choice(moves)


class AlwaysLayPolicy(Policy):
    name = "always"

    def turn(self, state: NachtState, moves: list[Move], rng: random.Random) -> Move:
        lays = _lays(moves)
        return lays[0] if lays else Pass()


class GreedyPolicy(Policy):
    name = "greedy"

    def turn(self, state: NachtState, moves: list[Move], rng: random.Random) -> Move:
        lays = _lays(moves)
        if not lays:
            return Pass()
        gain = state.sky.gain
        return max(lays, key=lambda m: gain(state.laid, m.tile))


def _best_display_gain(sky: Sky, laid: int, display: int) -> int:
    """The most one lay from ``display`` pays on ``laid`` (0 when nothing fits)."""
    best = 0
    for cell in bits(display):
        if sky.fits(laid, cell):
            best = max(best, sky.gain(laid, cell))
    return best


def handed(state: NachtState, cell: Cell) -> int:
    """How much more the best lay in some opponent's display pays once ``cell`` is laid."""
    sky, me = state.sky, state.active
    after = state.laid | 1 << cell
    worst = 0
    for p, display in enumerate(state.displays):
        if p != me and display:
            more = _best_display_gain(sky, after, display) - _best_display_gain(
                sky, state.laid, display
            )
            worst = max(worst, more)
    return worst


def held(state: NachtState, cell: Cell) -> float:
    """What holding ``cell`` back is worth (the ``denial`` strategy's estimate)."""
    sky, me = state.sky, state.active
    after = state.laid | 1 << cell
    mine = state.displays[me]
    value = 0.0
    for mask, size in sky.spans_at[cell]:
        missing = mask & ~after
        if 1 <= missing.bit_count() <= 2 and missing & ~mine:
            value += size * (state.players - 1) / state.players
    return value


class DenialPolicy(Policy):
    name = "denial"

    def score(self, state: NachtState, cell: Cell) -> float:
        return state.sky.gain(state.laid, cell) - handed(state, cell) - held(state, cell)

    def turn(self, state: NachtState, moves: list[Move], rng: random.Random) -> Move:
        if state.drawn is not None:
            if Decline() in moves and -state.rules.decline_cost > self.score(state, state.drawn):
                return Decline()
            return Lay(state.drawn)
        lays = _lays(moves)
        if not lays:
            return Pass()
        best = max(lays, key=lambda m: self.score(state, m.tile))
        if self.score(state, best.tile) >= 0 or Pass() not in moves:
            return best
        knockable = state.lays == 0 and state.declined is None and state.players > 1
        return best if knockable else Pass()


class LookaheadPolicy(Policy):
    name = "lookahead"

    def turn(self, state: NachtState, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        me = state.active
        best_move, best_value = moves[0], -math.inf
        for first, end in _turn_plans(state):
            value = end.coins[me] - state.coins[me] - _reply_value(end, me)
            if value > best_value:
                best_move, best_value = first, value
        return best_move


def _turn_plans(state: NachtState) -> Iterator[tuple[Move, NachtState]]:
    """Every way to finish the current turn: (its first move, the state after the pass)."""
    player = state.active
    stack: list[tuple[Move | None, NachtState]] = [(None, state)]
    while stack:
        first, node = stack.pop()
        for move in legal_moves(node):
            child = apply_unchecked(node, move)
            head = first if first is not None else move
            if isinstance(move, Pass) or child.is_over or child.active != player:
                yield head, child
            else:
                stack.append((head, child))


def _reply_value(state: NachtState, me: int) -> float:
    """The next decider's expected best turn after ``me`` passed: a knock if one is open,
    else their greedy turn over a uniform draw from the pile."""
    if state.is_over:
        return 0.0
    sky = state.sky
    if state.phase == "knock":
        # The first opponent in turn order knocks the tile that leaves them most.
        return state.rules.knock_reward + max(
            _best_display_gain(sky, state.laid | 1 << c, state.displays[state.decider])
            for c in bits(state.fitting_display(state.active))
        )
    other = state.active
    if other == me:
        return 0.0
    display = state.displays[other]
    if state.drawn is not None or not state.pile:
        draws: list[int | None] = [state.drawn]
    else:
        draws = list(state.pile)
    total = 0.0
    for drawn in draws:
        laid, gain, lays, hand = state.laid, 0, 0, display
        if drawn is not None and sky.fits(laid, drawn):
            gain += sky.gain(laid, drawn)
            laid |= 1 << drawn
            lays = 1
        elif drawn is not None:
            hand |= 1 << drawn
        while lays < state.rules.lays_per_turn:
            options = [(sky.gain(laid, c), c) for c in bits(hand) if sky.fits(laid, c)]
            if not options:
                break
            g, c = max(options)
            gain, laid, hand, lays = gain + g, laid | 1 << c, hand & ~(1 << c), lays + 1
        total += gain
    return total / len(draws)


POLICIES: dict[str, Callable[[], Policy]] = {
    "always": AlwaysLayPolicy,
    "greedy": GreedyPolicy,
    "denial": DenialPolicy,
    "lookahead": LookaheadPolicy,
    "random": RandomPolicy,
}


def make_policy(name: str) -> Policy:
    """:raises InputError: for an unknown name."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise InputError(
            f"unknown strategy {name!r} (one of {', '.join(POLICIES)})", field="strategies"
        ) from None


def play_out(
    state: NachtState,
    seats: Sequence[Policy],
    rng: random.Random,
    *,
    checked: bool = True,
) -> NachtState:
    """Play to the end, ``seats[p]`` moving for player p."""
    step = apply if checked else apply_unchecked
    while not state.is_over:
        state = step(state, seats[state.decider].choose(state, rng))
    return state


# -- simulation ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationReport:
    """Games of the strategies ``labels`` (one per seat, rotated): ``coins[g][p]`` is seat
    p's final coins in game g and ``seating[g][p]`` the index of the strategy in that seat."""

    labels: tuple[str, ...]
    players: int
    seed: int
    coins: tuple[tuple[int, ...], ...]
    seating: tuple[tuple[int, ...], ...]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.coins)

    def _shares(self, game: int) -> list[float]:
        coins = self.coins[game]
        best = max(coins)
        winners = [p for p, c in enumerate(coins) if c == best]
        return [1 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    def strategy_coins(self, index: int) -> tuple[int, ...]:
        """Final coins of strategy ``index``, one per seat it held in each game."""
        return tuple(
            coins[p]
            for coins, seats in zip(self.coins, self.seating, strict=True)
            for p in range(self.players)
            if seats[p] == index
        )

    @property
    def distributions(self) -> dict[str, tuple[int, ...]]:
        """Final coins by strategy (what ``score_distribution_svg`` draws)."""
        return {label: self.strategy_coins(i) for i, label in enumerate(self.labels)}

    def strategy_wins(self, index: int) -> float:
        """Games won by strategy ``index``, a tie of k players counting 1/k each."""
        return sum(
            share
            for g, seats in enumerate(self.seating)
            for p, share in enumerate(self._shares(g))
            if seats[p] == index
        )

    def seat_win_rates(self) -> tuple[float, ...]:
        totals = [0.0] * self.players
        for g in range(self.games):
            for p, share in enumerate(self._shares(g)):
                totals[p] += share
        return tuple(t / self.games for t in totals)

    def seat_means(self) -> tuple[float, ...]:
        return tuple(statistics.fmean(c[p] for c in self.coins) for p in range(self.players))

    def summary(self) -> list[dict[str, Any]]:
        rows = []
        for i, label in enumerate(self.labels):
            coins = self.strategy_coins(i)
            seats = sum(1 for s in self.seating for x in s if x == i)
            rows.append(
                {
                    "strategy": label,
                    "seats_played": seats,
                    "mean": round(statistics.fmean(coins), 4),
                    "stdev": round(statistics.pstdev(coins), 4),
                    "min": min(coins),
                    "max": max(coins),
                    "wins": round(self.strategy_wins(i), 4),
                    "win_rate": round(self.strategy_wins(i) / seats, 4),
                }
            )
        return rows

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "strategies": self.summary(),
            "seat_win_rates": [round(r, 4) for r in self.seat_win_rates()],
            "seat_mean_coins": [round(m, 4) for m in self.seat_means()],
            "coins": [list(c) for c in self.coins],
            "seating": [[self.labels[i] for i in s] for s in self.seating],
        }


def strategy_labels(names: Sequence[str]) -> tuple[str, ...]:
    """The names, made distinct by their position when one repeats."""
    return tuple(
        f"{name} ({i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)
    )


def simulate(
    sky: Sky,
    strategies: Sequence[str],
    games: int,
    players: int = 3,
    seed: int = 0,
    *,
    rules: NachtRules | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationReport:
    """``games`` seeded games. ``strategies`` names one strategy per seat (or one for every
    seat); game ``g`` is deal ``g // P`` with the strategies turned by ``g % P`` seats, so
    with ``games`` a multiple of P each strategy plays each seat on each deal. Every move is
    checked by the rules engine.

    :raises InputError: for unknown strategies, a count that does not match ``players``, or
        fewer than 1 game; :class:`TooLargeError` over :data:`MAX_GAMES`.
    """
    names = list(strategies)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise InputError(
            f"{len(names)} strategies for {players} players: give one per seat, or one for all",
            field="strategies",
        )
    policies = [make_policy(name) for name in names]
    if games < 1:
        raise InputError(f"games must be at least 1, not {games}", field="games")
    if games > MAX_GAMES:
        raise TooLargeError(f"at most {MAX_GAMES} games", field="games")
    started = time.perf_counter()
    coins, seating = [], []
    for g in range(games):
        turn = g % players
        seats = tuple((p + turn) % players for p in range(players))
        state = NachtState.new_game(sky, players, seed=_deal_seed(seed, g // players), rules=rules)
        rng = random.Random(f"nacht-sim:{seed}:{g}")
        final = play_out(state, [policies[i] for i in seats], rng)
        coins.append(final.coins)
        seating.append(seats)
        if progress is not None:
            progress(g + 1, games)
    return SimulationReport(
        strategy_labels(names),
        players,
        seed,
        tuple(coins),
        tuple(seating),
        time.perf_counter() - started,
    )


def _deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"nacht-sim-deal:{seed}:{deal}").getrandbits(32)


# -- exact two-player value with a known order ----------------------------------------------------

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Timeout(Exception):
    pass


def _key(state: NachtState) -> tuple[Any, ...]:
    """The position without the coins: a decline needs ``decline_cost`` coins not set
    aside, and at most ``len(pile) + 1`` more declines can come, so capping the available
    coins there keeps every future move's legality."""
    cap = (len(state.pile) + 2) * state.rules.decline_cost
    coins, owed = state.coins, state.owed
    return (
        state.laid,
        state.displays,
        len(state.pile),
        state.streaks,
        state.owed,
        state.active,
        state.phase,
        state.drawn,
        state.lays,
        state.declined,
        state.knocker,
        state.first_out,
        min(coins[0] - owed[0], cap),
        min(coins[1] - owed[1], cap),
    )


def _diff(before: NachtState, after: NachtState) -> int:
    return (after.coins[0] - before.coins[0]) - (after.coins[1] - before.coins[1])


def _open_rewards(sky: Sky, laid: int) -> int:
    """Coins for the holes and constellations not yet complete."""
    coins = sum(1 for hole in sky.hole_masks if hole & laid != hole)
    return coins + sum(size for mask, size in sky.span_sizes if mask & laid != mask)


def _room(state: NachtState, open_rewards: int) -> int:
    """A bound on how far the future coin difference can move either way: every reward
    still open, every knock and every decline to come going one way, and the coins set
    aside (variant) paid; with the empty-display bonus, a coin per round still to come."""
    rules = state.rules
    unlaid = state.sky.cells - state.laid.bit_count()
    room = open_rewards + unlaid * rules.knock_reward
    room += (len(state.pile) + 1) * rules.decline_cost + max(state.owed)
    if rules.empty_display_bonus:
        room += unlaid + len(state.pile)
    return room


class _Search:
    """Alpha-beta with a transposition table over the future coin difference (seat 0 minus
    seat 1); ``fixed`` pins one seat's moves to a strategy."""

    def __init__(self, deadline: float, fixed: tuple[int, Policy] | None = None) -> None:
        self.table: dict[tuple[Any, ...], tuple[int, int, Move | None]] = {}
        self.nodes = 0
        self.deadline = deadline
        self.fixed = fixed
        self.rng = random.Random(0)
        self.open: dict[int, int] = {}

    def moves(self, state: NachtState) -> list[Move]:
        if self.fixed is not None and state.decider == self.fixed[0]:
            return [self.fixed[1].choose(state, self.rng)]
        moves = list(legal_moves(state))
        gain = state.sky.gain
        # Likely-good first: paying lays and knocks by what they pay, then passing (keeping
        # the tiles), then the rest (measured: about 10% fewer nodes than passing last).
        moves.sort(
            key=lambda m: (
                -gain(state.laid, m.tile)
                if isinstance(m, Lay | Knock)
                else -0.5
                if isinstance(m, Pass)
                else 1
            )
        )
        return moves

    def value(self, state: NachtState, alpha: float, beta: float) -> int:
        if state.phase == "over":
            return 0
        self.nodes += 1
        if self.nodes & 4095 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        rewards = self.open.get(state.laid)
        if rewards is None:
            rewards = self.open[state.laid] = _open_rewards(state.sky, state.laid)
        room = _room(state, rewards)
        if room <= alpha:
            return room
        if -room >= beta:
            return -room
        key = _key(state)
        entry = self.table.get(key)
        hint: Move | None = None
        if entry is not None:
            stored, flag, hint = entry
            if (
                flag == _EXACT
                or (flag == _LOWER and stored >= beta)
                or (flag == _UPPER and stored <= alpha)
            ):
                return stored
        moves = self.moves(state)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        maximizing = state.decider == 0
        low, high = alpha, beta
        best = -math.inf if maximizing else math.inf
        best_move: Move | None = None
        for move in moves:
            child = apply_unchecked(state, move)
            step = _diff(state, child)
            v = step + self.value(child, alpha - step, beta - step)
            if (maximizing and v > best) or (not maximizing and v < best):
                best, best_move = v, move
            if maximizing:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                break
        result = int(best)
        flag = _UPPER if result <= low else _LOWER if result >= high else _EXACT
        if len(self.table) < MAX_TABLE or key in self.table:
            self.table[key] = (result, flag, best_move)
        return result

    def exact(self, state: NachtState) -> int:
        """The exact value by MTD(f): null-window searches closing in on it, the table
        kept between them (Plaat et al., "Best-first fixed-depth minimax algorithms", 1996),
        starting from the greedy players' outcome."""
        lower, upper = -math.inf, math.inf
        guess = _diff(state, play_out(state, [GreedyPolicy()] * 2, self.rng, checked=False))
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            guess = self.value(state, beta - 1, beta)
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return guess

    def line(self, state: NachtState, value: int) -> list[tuple[int, Move]]:
        """An optimal line of play from ``state``, whose exact ``value`` is known:
        (decider, move) to the end. A move is on it when one null-window search shows its
        child reaches the value (no move does better, so reaching it is attaining it)."""
        played = []
        while not state.is_over:
            maximizing = state.decider == 0
            for move in self.moves(state):
                child = apply_unchecked(state, move)
                need = value - _diff(state, child)
                if maximizing:
                    reaches = self.value(child, need - 1, need) >= need
                else:
                    reaches = self.value(child, need, need + 1) <= need
                if reaches:
                    played.append((state.decider, move))
                    state, value = child, need
                    break
            else:  # pragma: no cover - some move attains the value
                raise AssertionError("no move attains the value")
        return played


def minimax_value(state: NachtState) -> int:
    """Plain minimax, no pruning and no table: the future coin difference (seat 0 minus
    seat 1) under optimal play. Exponential; for checking the search on tiny grids."""
    if state.is_over:
        return 0
    values = [
        _diff(state, child) + minimax_value(child)
        for child in (apply_unchecked(state, m) for m in legal_moves(state))
    ]
    return max(values) if state.decider == 0 else min(values)


@dataclass(frozen=True)
class GameValue:
    """The two-player known-order game: ``value`` = seat 0's final coins minus seat 1's
    under optimal play (None when the time limit struck first), an optimal line, and the
    search's effort."""

    status: Status
    value: int | None
    final_coins: tuple[int, int] | None
    line: tuple[tuple[int, Move], ...]
    nodes: int
    table_size: int
    seconds: float
    sky: Sky = field(repr=False, compare=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "value": self.value,
            "final_coins": list(self.final_coins) if self.final_coins else None,
            "line": [{"player": p, "move": describe(m, self.sky)} for p, m in self.line],
            "nodes": self.nodes,
            "table_size": self.table_size,
            "seconds": round(self.seconds, 3),
        }


def _check_exact(state: NachtState) -> None:
    if state.players != 2:
        raise InputError(f"the exact search takes 2 players, not {state.players}", field="players")
    if state.sky.cells > MAX_EXACT_CELLS:
        raise TooLargeError(
            f"a {state.sky.width}x{state.sky.height} sky has {state.sky.cells} tiles; the "
            f"exact search takes at most {MAX_EXACT_CELLS} (4x6)",
            field="grid",
        )


def solve_known_order(
    state: NachtState, *, time_limit: float = DEFAULT_EXACT_TIME_LIMIT
) -> GameValue:
    """The value of a two-player position whose draw order (``state.pile``) both know, and
    an optimal line, replayed through the checked rules engine.

    :raises InputError: for other than 2 players; :class:`TooLargeError` over
        :data:`MAX_EXACT_CELLS` tiles.
    """
    _check_exact(state)
    started = time.perf_counter()
    search = _Search(started + time_limit)
    try:
        future = search.exact(state)
        line = search.line(state, future)
    except _Timeout:
        return GameValue(
            Status.UNKNOWN,
            None,
            None,
            (),
            search.nodes,
            len(search.table),
            time.perf_counter() - started,
            state.sky,
        )
    final = state
    for _, move in line:
        final = apply(final, move)
    assert final.is_over and _diff(state, final) == future
    coins = (final.coins[0], final.coins[1])
    return GameValue(
        Status.OPTIMAL,
        coins[0] - coins[1],
        coins,
        tuple(line),
        search.nodes,
        len(search.table),
        time.perf_counter() - started,
        state.sky,
    )


@dataclass(frozen=True)
class Shortfall:
    """Strategy ``name`` in ``seat`` against a perfect opponent: ``guaranteed`` is that
    seat's final coin margin (own minus the other's), ``optimal`` what perfect play there
    guarantees; ``shortfall = optimal - guaranteed``."""

    name: str
    seat: int
    guaranteed: int
    optimal: int

    @property
    def shortfall(self) -> int:
        return self.optimal - self.guaranteed

    def to_data(self) -> dict[str, Any]:
        return {
            "strategy": self.name,
            "seat": self.seat,
            "guaranteed_margin": self.guaranteed,
            "optimal_margin": self.optimal,
            "shortfall": self.shortfall,
        }


def heuristic_shortfall(
    state: NachtState,
    policy: Policy,
    seat: int,
    *,
    optimal: int | None = None,
    time_limit: float = DEFAULT_EXACT_TIME_LIMIT,
) -> Shortfall | None:
    """How far ``policy`` in ``seat`` falls short of optimal play against a perfect
    opponent (None when the time limit struck). ``optimal`` is the known game value (seat 0
    minus seat 1), computed when not given."""
    _check_exact(state)
    deadline = time.perf_counter() + time_limit
    now = state.coins[0] - state.coins[1]
    try:
        if optimal is None:
            optimal = now + _Search(deadline).exact(state)
        fixed = now + _Search(deadline, (seat, policy)).exact(state)
    except _Timeout:
        return None
    sign = 1 if seat == 0 else -1
    return Shortfall(policy.name, seat, sign * fixed, sign * optimal)


# -- advice: the value of declining ---------------------------------------------------------------


@dataclass(frozen=True)
class MoveValue:
    """A move's sampled outcome for the player making it."""

    move: Move
    coins: float
    coins_ci: tuple[float, float]
    margin: float
    margin_ci: tuple[float, float]


@dataclass(frozen=True)
class Advice:
    player: int
    samples: int
    rollout: str
    moves: tuple[MoveValue, ...]
    """Best mean margin first."""
    decline_minus_lay: tuple[float, float, float] | None
    """Mean and 95% interval of the paired margin difference, when a decline is legal."""
    sky: Sky = field(repr=False, compare=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "samples": self.samples,
            "rollout": self.rollout,
            "moves": [
                {
                    "move": describe(m.move, self.sky),
                    "mean_coins": round(m.coins, 4),
                    "coins_ci95": [round(x, 4) for x in m.coins_ci],
                    "mean_margin": round(m.margin, 4),
                    "margin_ci95": [round(x, 4) for x in m.margin_ci],
                }
                for m in self.moves
            ],
            "decline_minus_lay": None
            if self.decline_minus_lay is None
            else {
                "mean": round(self.decline_minus_lay[0], 4),
                "ci95": [round(x, 4) for x in self.decline_minus_lay[1:]],
            },
        }


def advise(
    state: NachtState,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    rollout: str = "greedy",
    progress: Callable[[int, int], None] | None = None,
) -> Advice:
    """Every legal move of the player to move, valued over ``samples`` reshuffled piles
    (the same orders for every move) played out with ``rollout`` in every seat.

    :raises InputError: for a finished game, fewer than 2 samples, or an unknown rollout.
    """
    if state.is_over:
        raise InputError("the game is over: no move to advise", field="state")
    if samples < 2:
        raise InputError(f"samples must be at least 2, not {samples}", field="samples")
    if samples > MAX_SAMPLES:
        raise TooLargeError(f"at most {MAX_SAMPLES} samples", field="samples")
    policy = make_policy(rollout)
    seats = [policy] * state.players
    me = state.decider
    moves = list(legal_moves(state))
    margins: dict[Move, list[float]] = {m: [] for m in moves}
    coins: dict[Move, list[float]] = {m: [] for m in moves}
    for j in range(samples):
        rng = random.Random(f"nacht-advise:{seed}:{j}")
        pile = list(state.pile)
        rng.shuffle(pile)
        world = _with_pile(state, tuple(pile))
        for move in moves:
            final = play_out(
                apply_unchecked(world, move),
                seats,
                random.Random(f"nacht-rollout:{seed}:{j}"),
                checked=False,
            )
            others = max((c for p, c in enumerate(final.coins) if p != me), default=0)
            coins[move].append(final.coins[me])
            margins[move].append(final.coins[me] - others)
        if progress is not None:
            progress(j + 1, samples)
    values = [
        MoveValue(
            m,
            statistics.fmean(coins[m]),
            confidence_interval(coins[m]),
            statistics.fmean(margins[m]),
            confidence_interval(margins[m]),
        )
        for m in moves
    ]
    values.sort(key=lambda v: -v.margin)
    paired = None
    if Decline() in margins and state.drawn is not None:
        lay = margins[Lay(state.drawn)]
        differences = [d - x for d, x in zip(margins[Decline()], lay, strict=True)]
        low, high = confidence_interval(differences)
        paired = (statistics.fmean(differences), low, high)
    return Advice(me, samples, rollout, tuple(values), paired, state.sky)


def _with_pile(state: NachtState, pile: tuple[Cell, ...]) -> NachtState:
    return replace(state, pile=pile)
