"""Balance self-play: metric definitions on hand-made records, the policies against the rules
engine, determinism."""

from __future__ import annotations

import random

import pytest

from asterion.errors import InputError
from asterion.models.akelarre import (
    DESTINATIONS,
    LOCATIONS,
    WELL,
    AkelarreState,
    Decider,
    apply,
    is_chance_node,
    legal_actions,
    resolve_turn,
)
from asterion.models.akelarre_files import build_rules
from asterion.solver.akelarre_balance import (
    BalanceReport,
    GameRecord,
    make_policy,
    quick_progress,
    selfplay,
)
from asterion.solver.akelarre_equilibria import objective_progress


def record(first: int, winners: tuple[int, ...], decided: Decider, **kw: int) -> GameRecord:
    fields = {
        "completed": (1, 1, 1),
        "turns": 13,
        "deck_ran_out": False,
        "decisions": 39,
        "legal_total": 39 * 6,
        "decisions_with_choice": 39,
        "well_visits": 0,
        "well_taken": 0,
        "alone_rites": 0,
        "alone_taken": 0,
        "company_rites": 39,
        "company_taken": 39 * 3,
    }
    fields.update(kw)
    return GameRecord(("random",) * 3, first, winners, decided, **fields)  # type: ignore[arg-type]


def test_metrics_on_hand_made_records() -> None:
    # Four 3-player games. Positions are counted from each game's first player:
    # game 1: first 0, seat 0 wins → position 1; game 2: first 1, seat 1 wins → position 1;
    # game 3: first 2, seat 0 wins → position 2; game 4: first 0, seats 1 and 2 share →
    # positions 2 and 3 get 1/2 each. Win rates: (2/4, 1.5/4, 0.5/4) = (.5, .375, .125).
    records = (
        record(0, (0,), Decider.OBJECTIVES, well_visits=2, well_taken=6),
        record(1, (1,), Decider.RESOURCES, alone_rites=3, alone_taken=6, company_rites=36),
        record(2, (0,), Decider.OBJECTIVES, turns=11, deck_ran_out=True),
        record(0, (1, 2), Decider.SHARED, completed=(0, 2, 2)),
    )
    report = BalanceReport(3, ("random",) * 3, 0, records, 26)
    assert report.position_win_rates == pytest.approx((0.5, 0.375, 0.125))
    metrics = report.metrics
    assert metrics["balance"] == pytest.approx(1 - (0.5 - 0.125))
    assert metrics["first_player_advantage"] == pytest.approx(0.5 - 1 / 3)
    assert metrics["win_rate_error"] == pytest.approx((0.5 * 0.5 / 4) ** 0.5)
    assert metrics["drawishness"] == pytest.approx(2 / 4)  # resources and shared
    assert metrics["shared_wins"] == pytest.approx(1 / 4)
    assert metrics["duration"] == pytest.approx((13 * 3 + 11) / 4)
    assert metrics["deck_ran_out"] == pytest.approx(1 / 4)
    assert metrics["completion"] == pytest.approx((3 + 3 + 3 + 4) / 12)
    assert metrics["branching_factor"] == pytest.approx(6)
    assert metrics["decision_moves"] == pytest.approx(1)
    assert metrics["well_taken"] == pytest.approx(2 / 50)  # 2 visits in 50 turns
    assert metrics["well_yield"] == pytest.approx(3)
    assert metrics["alone_yield"] == pytest.approx(2)


def test_policies_rotate_over_the_seats() -> None:
    report = selfplay(build_rules(3), ["greedy", "random", "random"], games=3, seed=2)
    assert [r.policies.index("greedy") for r in report.records] == [0, 2, 1]


def test_same_seed_same_report() -> None:
    rules = build_rules(4)
    first = selfplay(rules, ["greedy", "random", "equilibrium", "random"], games=4, seed=9)
    again = selfplay(rules, ["greedy", "random", "equilibrium", "random"], games=4, seed=9)
    assert first.to_data() == again.to_data()


@pytest.mark.parametrize("name", ["random", "greedy", "equilibrium"])
def test_policies_choose_legal_messages(name: str) -> None:
    policy = make_policy(name)
    rng = random.Random(3)
    for players in (2, 3, 5):
        state = AkelarreState.new_game(build_rules(players), seed=players)
        while not state.is_over and state.turn <= 4:
            legal = list(legal_actions(state))
            action = rng.choice(legal) if is_chance_node(state) else policy.choose(state, rng)
            assert action in legal
            state = apply(state, action)


def test_quick_progress_matches_the_engine_when_nothing_is_completed() -> None:
    # The policies' shortcut against the rules engine on random positions and profiles:
    # wherever the engine's turn completes no objective, the two valuations agree exactly.
    rng = random.Random(0)
    compared = 0
    for trial in range(300):
        players = rng.choice((2, 3, 4, 5))
        state = AkelarreState.new_game(build_rules(players), seed=trial)
        while state.turn < rng.randint(1, 8) and not state.is_over:
            state = apply(state, rng.choice(list(legal_actions(state))))
        if state.is_over or state.chain:
            continue
        profile = [rng.choice(DESTINATIONS) for _ in range(players)]
        if profile.count(WELL) > 1:
            continue
        profile += [rng.choice(LOCATIONS)] if state.virtual_seat is not None else []
        after, report = resolve_turn(state, profile)
        if any(rite.completed for rite in report.rites):
            continue
        for seat in state.players:
            assert quick_progress(state, seat, profile) == objective_progress(after, seat)
        compared += 1
    assert compared > 60


def test_greedy_completes_more_than_random() -> None:
    report = selfplay(build_rules(3), ["greedy", "random", "random"], games=6, seed=1)
    by_policy = report.completed_by_policy
    assert sum(by_policy["greedy"]) / len(by_policy["greedy"]) > sum(by_policy["random"]) / len(
        by_policy["random"]
    )


def test_bad_arguments() -> None:
    with pytest.raises(InputError, match="one policy per player"):
        selfplay(build_rules(3), ["random"], games=1)
    with pytest.raises(InputError, match="unknown policy 'psychic'"):
        make_policy("psychic")
    with pytest.raises(InputError, match="games must be at least 1"):
        selfplay(build_rules(2), ["random", "random"], games=0)
