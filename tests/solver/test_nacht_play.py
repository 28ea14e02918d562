"""Nacht der Sterne play: strategies, simulation, the exact two-player value, advice.

Independent reasons for the expected values: plain minimax without pruning (for the
alpha-beta search), the solo invariant of the issue (for simulation and advice: with one
player every reward is collected, so coins are fixed and a decline costs exactly its coin),
and the definition of a best response (a strategy's guaranteed margin is at most what it
scores against any particular opponent).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asterion.errors import InputError, TooLargeError
from asterion.models.nacht_files import default_tileset
from asterion.models.nacht_game import (
    Decline,
    Lay,
    NachtRules,
    NachtState,
    Sky,
    apply,
    legal_moves,
)
from asterion.models.nacht_game_files import practice_tileset
from asterion.solver.nacht_play import (
    POLICIES,
    GreedyPolicy,
    advise,
    heuristic_shortfall,
    make_policy,
    minimax_value,
    play_out,
    simulate,
    solve_known_order,
    solved_sky,
)
from asterion.solver.nacht_play_defaults import STRATEGY_NAMES
from asterion.solver.nacht_verify import verify
from asterion.solver.result import Status


@cache
def shipped_sky() -> Sky:
    return solved_sky(default_tileset())


@cache
def shipped_solo_coins() -> int:
    """15 + the 5x5 grid's 16 holes + the verifier's spans not wholly on the start tile."""
    report = verify(default_tileset())
    start = report.arrangements[0][2][2]
    return 15 + 16 + sum(len(s.tiles) for s in report.constellations if s.tiles != (start,))


@cache
def practice_sky(width: int, height: int, seed: int) -> Sky:
    return solved_sky(practice_tileset(width, height, seed))


# -- the exact search against plain minimax -------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "height", "seed"), [(2, 3, 0), (2, 3, 1), (3, 2, 2), (2, 4, 0), (4, 2, 0)]
)
def test_alpha_beta_agrees_with_plain_minimax_on_tiny_skies(
    width: int, height: int, seed: int
) -> None:
    sky = practice_sky(width, height, seed)
    state = NachtState.new_game(sky, players=2, seed=seed)
    answer = solve_known_order(state)
    assert answer.status is Status.OPTIMAL
    assert answer.value == minimax_value(state)  # both start with 15 coins


@st.composite
def midgame(draw: st.DrawFn) -> NachtState:
    """A 3x3 game with random constellations and variants, played randomly to a point with
    at most 3 tiles left in the pile (small enough for plain minimax)."""
    constellations = {
        f"K{i}": draw(st.sets(st.integers(0, 8), min_size=1, max_size=5))
        for i in range(draw(st.integers(0, 4)))
    }
    sky = Sky.grid(3, 3, constellations)
    rules = NachtRules(
        set_aside_declines=draw(st.booleans()),
        knocker_collects_holes=draw(st.booleans()),
        empty_display_bonus=draw(st.booleans()),
        start_coins=draw(st.sampled_from([0, 1, 15])),
    )
    order = draw(st.permutations([c for c in range(9) if c != 4]))
    state = NachtState.start(sky, order, players=2, rules=rules)
    rng = random.Random(draw(st.integers(0, 10**6)))
    while len(state.pile) > 3 and not state.is_over:
        state = apply(state, rng.choice(list(legal_moves(state))))
    return state


@settings(max_examples=25, deadline=None)
@given(midgame())
def test_alpha_beta_agrees_with_plain_minimax_midgame(state: NachtState) -> None:
    answer = solve_known_order(state)
    now = state.coins[0] - state.coins[1]
    assert answer.value == now + minimax_value(state)
    if answer.final_coins is not None:  # the line is replayed by the checked engine inside
        assert answer.final_coins[0] - answer.final_coins[1] == answer.value


def test_exact_search_refuses_what_it_cannot_answer() -> None:
    with pytest.raises(InputError, match="2 players"):
        solve_known_order(NachtState.new_game(practice_sky(2, 3, 0), players=3))
    with pytest.raises(TooLargeError, match="at most 24"):
        solve_known_order(NachtState.new_game(shipped_sky(), players=2))


def test_a_time_limit_gives_unknown_not_a_wrong_value() -> None:
    state = NachtState.new_game(practice_sky(4, 4, 0), players=2, seed=0)
    answer = solve_known_order(state, time_limit=0.01)
    assert answer.status is Status.UNKNOWN and answer.value is None


# -- shortfalls -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_heuristics_fall_short_by_a_non_negative_amount(seed: int) -> None:
    state = NachtState.new_game(practice_sky(3, 3, seed), players=2, seed=seed)
    optimal = solve_known_order(state).value
    assert optimal is not None
    for name in STRATEGY_NAMES:
        for seat in (0, 1):
            found = heuristic_shortfall(state, make_policy(name), seat, optimal=optimal)
            assert found is not None and found.shortfall >= 0
            # A guarantee holds against every opponent: here, each heuristic.
            for other in STRATEGY_NAMES:
                seats = [make_policy(name), make_policy(other)]
                if seat == 1:
                    seats.reverse()
                final = play_out(state, seats, random.Random(0))
                margin = final.coins[seat] - final.coins[1 - seat]
                assert found.guaranteed <= margin, (name, seat, other)


# -- strategies and simulation -------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(POLICIES)), st.integers(0, 10**6), st.integers(1, 5))
def test_every_strategy_plays_only_legal_moves(name: str, seed: int, players: int) -> None:
    state = NachtState.new_game(practice_sky(3, 3, seed % 3), players, seed=seed)
    final = play_out(state, [make_policy(name)] * players, random.Random(seed), checked=True)
    assert final.is_over


def test_solo_simulation_collects_every_reward_of_the_shipped_sky() -> None:
    # One player, strategies that never decline: every reward, whatever the deal.
    coins = shipped_solo_coins()
    report = simulate(shipped_sky(), ["always"], games=3, players=1, seed=0)
    assert report.coins == ((coins,), (coins,), (coins,))
    report = simulate(shipped_sky(), ["greedy"], games=2, players=1, seed=5)
    assert report.coins == ((coins,), (coins,))


def test_simulation_is_seeded_and_rotates_seats() -> None:
    sky = practice_sky(3, 3, 0)
    first = simulate(sky, ["always", "greedy", "denial"], games=6, players=3, seed=4)
    again = simulate(sky, ["always", "greedy", "denial"], games=6, players=3, seed=4)
    assert first.coins == again.coins and first.seating == again.seating
    # Each strategy sits in each seat once per deal of three games.
    assert first.seating[:3] == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    assert sum(first.strategy_wins(i) for i in range(3)) == pytest.approx(6)
    assert sum(first.seat_win_rates()) == pytest.approx(1)
    data = first.to_data()
    assert [row["strategy"] for row in data["strategies"]] == ["always", "greedy", "denial"]


def test_simulation_refuses_bad_requests() -> None:
    sky = practice_sky(3, 3, 0)
    with pytest.raises(InputError, match="2 strategies for 3 players"):
        simulate(sky, ["always", "greedy"], games=1, players=3)
    with pytest.raises(InputError, match="unknown strategy 'best'"):
        simulate(sky, ["best"], games=1, players=3)
    with pytest.raises(InputError, match="at least 1"):
        simulate(sky, ["always"], games=0, players=3)


def test_solved_sky_refuses_a_set_without_one_arrangement() -> None:
    # A practice set with one tile wiped blank: its neighbours' lines dangle, so no
    # arrangement fits every side.
    tileset = practice_tileset(3, 3, 0)
    blank = replace(tileset.tiles[0], stars=(), segments=())
    with pytest.raises(InputError, match="not consistent"):
        solved_sky(replace(tileset, tiles=(blank, *tileset.tiles[1:])))


# -- advice ----------------------------------------------------------------------------------------


def first_fitting_draw(sky: Sky, players: int, seed: int) -> NachtState:
    """A deal played greedily until the player to move has a fitting drawn tile and may
    decline it."""
    state = NachtState.new_game(sky, players, seed=seed)
    policy, rng = GreedyPolicy(), random.Random(0)
    while not (state.drawn is not None and state.can_decline()):
        state = apply(state, policy.choose(state, rng))
    return state


def test_with_one_player_declining_costs_exactly_its_coin() -> None:
    # The issue: with one player every reward is collected anyway, so declining only costs.
    state = first_fitting_draw(shipped_sky(), 1, seed=2)
    advice = advise(state, samples=5, seed=0)
    assert advice.decline_minus_lay == (-1.0, -1.0, -1.0)
    by_move = {m.move: m for m in advice.moves}
    assert by_move[Lay(state.drawn)].coins == shipped_solo_coins()  # type: ignore[arg-type]
    assert by_move[Decline()].coins == shipped_solo_coins() - 1


def test_advice_is_seeded_with_intervals_around_the_means() -> None:
    state = first_fitting_draw(practice_sky(4, 4, 1), 3, seed=3)
    advice = advise(state, samples=12, seed=7)
    assert advice == advise(state, samples=12, seed=7)
    assert {m.move for m in advice.moves} == set(legal_moves(state))
    for m in advice.moves:
        assert m.margin_ci[0] <= m.margin <= m.margin_ci[1]
    assert advice.decline_minus_lay is not None
    mean, low, high = advice.decline_minus_lay
    assert low <= mean <= high
    margins = [m.margin for m in advice.moves]
    assert margins == sorted(margins, reverse=True)


def test_advice_refuses_bad_requests() -> None:
    state = first_fitting_draw(practice_sky(3, 3, 0), 2, seed=1)
    with pytest.raises(InputError, match="at least 2"):
        advise(state, samples=1)
    with pytest.raises(InputError, match="unknown strategy"):
        advise(state, samples=2, rollout="oracle")
