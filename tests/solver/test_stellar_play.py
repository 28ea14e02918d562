"""Stellar policies, Monte Carlo advice and self-play: legal, exact where exactness is claimed,
and the same for the same seed. Sample counts are small so the file runs in seconds."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from asterion.errors import InputError
from asterion.models.stellar import (
    FinalNote,
    Move,
    Placed,
    PlayerArea,
    ResetDisplay,
    StellarState,
    Turn,
    apply_unchecked,
    legal_moves,
    score,
)
from asterion.models.stellar_cards import default_deck
from asterion.solver.stellar_play import (
    AdvicePolicy,
    GreedyPolicy,
    MoveAdvice,
    RandomPolicy,
    advise,
    confidence_interval,
    final_totals,
    legal_turns,
    make_policy,
    mover,
    play_out,
    selfplay,
)

GREEDY = GreedyPolicy()
RANDOM = RandomPolicy()


def random_game_states(
    seed: int, policy: GreedyPolicy | RandomPolicy = RANDOM
) -> list[StellarState]:
    """Every state of one game played by ``policy`` in both seats, the last one over."""
    rng = random.Random(seed)
    state = StellarState.new_game(seed=seed)
    states = [state]
    while not state.is_over:
        state = apply_unchecked(state, policy.choose(state, rng))
        states.append(state)
    return states


def late_position(seed: int, turns: int = 9) -> StellarState:
    """A turn-phase position after ``turns`` greedy turns each (short rollouts)."""
    rng = random.Random(seed)
    state = StellarState.new_game(seed=seed)
    while not (state.phase == "turn" and min(state.turns_taken) >= turns):
        state = apply_unchecked(state, GREEDY.choose(state, rng))
    return state


def covered_moves(advice: list[MoveAdvice]) -> list[Move]:
    return [move for entry in advice for move in entry.moves]


# -- the policies' own move generator and valuation, against the engine -------------------------


@pytest.mark.parametrize("seed", range(6))
def test_legal_turns_are_the_engines_legal_moves_in_order(seed: int) -> None:
    for state in random_game_states(seed):
        if state.phase == "turn":
            engine = [m for m in legal_moves(state) if isinstance(m, Turn)]
            assert legal_turns(state) == engine


@pytest.mark.parametrize("policy", [RANDOM, GREEDY], ids=["random", "greedy"])
def test_policies_choose_legal_moves_in_every_phase(policy: GreedyPolicy | RandomPolicy) -> None:
    phases = set()
    for seed in range(4):
        for state in random_game_states(seed, policy)[:-1]:
            move = policy.choose(state, random.Random(seed))
            assert move in set(legal_moves(state)), (state.phase, move)
            phases.add(state.phase)
    assert {"turn", "final"} <= phases


def test_greedy_plays_a_turn_its_own_valuation_rates_best() -> None:
    rng = random.Random(0)
    for state in random_game_states(11)[:-1:3]:
        if state.phase != "turn":
            continue
        chosen = GREEDY.choose(state, rng)
        best = max(GREEDY.value(state, move) for move in legal_moves(state))
        assert GREEDY.value(state, chosen) == best


def test_greedy_value_of_a_visible_turn_is_the_score_difference_after_it() -> None:
    """With no card drawn from the deck, the valuation is the rules' score difference after
    the move, up to the opponent's own type and diversity points (a constant)."""
    state = late_position(3)
    player = mover(state)
    before = score(state)
    constant = sum(before[1 - player].types.values()) + before[1 - player].diversity
    checked = 0
    for move in legal_moves(state):
        after = apply_unchecked(state, move)
        if len(after.deck) != len(state.deck) - _refills(state, move):
            continue  # the turn drew from the deck: valued without the unknown card
        scores = score(after)
        expected = scores[player].total - scores[1 - player].total + constant
        assert GREEDY.value(state, move) == expected, move
        checked += 1
    assert checked >= 10


def _refills(state: StellarState, move: Move) -> int:
    """Display gaps a turn leaves (each refilled from the deck) when it draws nothing."""
    assert isinstance(move, Turn)
    played = state.card(move.play)
    second_from_display = (
        1 <= played.number <= 5 and played.number != move.take and state.display[played.number - 1]
    )
    return (1 if move.take else 0) + (1 if second_from_display else 0)


def random_scoring_position(rng: random.Random) -> StellarState:
    """Random telescopes and notebooks, rich in satellites and 0/6 cards (placement rules
    are not checked: only scoring is)."""
    cards = list(default_deck().cards)
    rng.shuffle(cards)
    free = [c.id for c in cards if c.kind is None or c.number == 0]
    fixed = [c.id for c in cards if c.kind is not None and c.number != 0]
    areas = []
    for _ in range(2):
        telescope = tuple(
            (slot, Placed(fixed.pop(), face_down=rng.random() < 0.15))
            for slot in sorted(rng.sample(range(1, 13), rng.randint(4, 12)))
        )
        notebook = [fixed.pop() for _ in range(rng.randint(2, 7))]
        notebook += [free.pop() for _ in range(rng.randint(0, 3))]
        areas.append(PlayerArea(telescope, tuple(notebook)))
    return StellarState((areas[0], areas[1]), (None,) * 5, ())


@pytest.mark.parametrize("seed", range(4))
def test_final_totals_are_the_engines_scores(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        state = random_scoring_position(rng)
        assert final_totals(state) == tuple(s.total for s in score(state))
    finished = random_game_states(100 + seed)[-1]
    assert final_totals(finished) == tuple(s.total for s in score(finished))


# -- advice ----------------------------------------------------------------------------------------


def test_advice_lists_every_legal_move_once_ranked_by_mean() -> None:
    state = late_position(5)
    advice = advise(state, samples=3, seed=1, halving=False)
    covered = covered_moves(advice)
    assert len(covered) == len(set(covered))
    assert set(covered) == set(legal_moves(state))
    means = [entry.mean for entry in advice]
    assert means == sorted(means, reverse=True)
    for entry in advice:
        assert entry.samples == 3
        assert entry.ci_low <= entry.mean <= entry.ci_high


def test_advice_is_the_same_for_the_same_seed() -> None:
    state = late_position(6)
    first = advise(state, samples=4, seed=7)
    assert advise(state, samples=4, seed=7) == first


def test_advice_sees_only_what_the_player_sees() -> None:
    # The opponent's hand and the deck reordered (one hand card swapped into the deck, the
    # deck reversed): the player to move cannot tell the two positions apart, so the advice
    # must rank the moves alike.
    state = late_position(6)
    opponent = 1 - state.active
    hand, deck = state.areas[opponent].hand, state.deck
    swapped = (deck[0], *hand[1:])
    area = replace(state.areas[opponent], hand=swapped)
    areas = (area, state.areas[1]) if opponent == 0 else (state.areas[0], area)
    other = replace(state, areas=areas, deck=(*deck[1:], hand[0])[::-1])
    assert other != state

    def ranking(position: StellarState) -> list[tuple[float, Move]]:
        # (a move that draws from the deck is shown with the file's deck top; compare the
        # moves that do not)
        advice = advise(position, samples=6, seed=3, halving=False)
        return [(a.mean, a.move) for a in advice if not a.slot_after_draw]

    assert len(ranking(state)) > 10
    assert ranking(other) == ranking(state)


def test_halving_ranks_by_round_reached_then_mean() -> None:
    state = late_position(2, turns=8)
    advice = advise(state, samples=8, seed=0)
    counts = [entry.samples for entry in advice]
    assert counts == sorted(counts, reverse=True)
    assert counts[0] == 8
    assert sum(1 for c in counts if c == 8) >= min(len(advice), 8)
    for count in set(counts):
        means = [e.mean for e in advice if e.samples == count]
        assert means == sorted(means, reverse=True)
    assert set(covered_moves(advice)) == set(legal_moves(state))


def final_phase_position() -> StellarState:
    """Player 0 holds moon 5 and black hole 1 for the last notebook card. Their telescope has
    6 moon stars and no black hole, their notebook moons 2, 3, 4: the moon 5 makes the run
    4 long, worth 6 points more than the black hole, which scores nothing. Nothing else (the
    sections, the opponent's last card) depends on the choice."""
    deck = default_deck()
    telescope_0 = [
        "P3s",
        "M0a",
        "M1a",
        "M4a",
        "P1a",
        "P2a",
        "P4a",
        "A1a",
        "A2a",
        "A4a",
        "C1b",
        "C2a",
    ]
    notebook_0 = [
        "M2a",
        "M3a",
        "M4b",
        "P5b",
        "A5b",
        "C5b",
        "P1b",
        "A1b",
        "C2b",
        "A2b",
        "P2b",
        "C4b",
    ]
    telescope_1 = [
        "M3s",
        "B2a",
        "B2b",
        "B4a",
        "B4b",
        "B5a",
        "B5b",
        "B3a",
        "B3s",
        "B0a",
        "B1a",
        "M5b",
    ]
    notebook_1 = ["S1", "S2", "S3", "M1b", "M2b", "C3s", "A3s", "C3a", "A3a", "C5a", "A5a", "P5a"]
    hands = (("M5a", "B1b"), ("P4b", "C1a"))
    used = {*telescope_0, *notebook_0, *telescope_1, *notebook_1, *hands[0], *hands[1]}
    rest = tuple(card.id for card in deck.cards if card.id not in used)
    areas = tuple(
        PlayerArea(tuple((i + 1, Placed(c)) for i, c in enumerate(t)), tuple(n), h)
        for t, n, h in ((telescope_0, notebook_0, hands[0]), (telescope_1, notebook_1, hands[1]))
    )
    return StellarState(
        (areas[0], areas[1]), (None,) * 5, rest, active=0, turns_taken=(11, 11), phase="final"
    )


def test_the_card_that_extends_the_run_is_advised_first() -> None:
    state = final_phase_position()
    advice = advise(state, samples=5, seed=0)
    assert [entry.move for entry in advice] == [FinalNote("M5a"), FinalNote("B1b")]
    # Common random numbers: the same deals for both, so the means differ by exactly 6.
    assert advice[0].mean - advice[1].mean == pytest.approx(6)
    margin = advise(state, samples=5, seed=0, objective="margin")
    assert margin[0].move == FinalNote("M5a")


def test_a_drawn_cards_slot_is_chosen_after_the_draw() -> None:
    for seed in range(10):
        state = late_position(seed, turns=6)
        advice = advise(state, samples=2, seed=0, halving=False, rollout_policy=RANDOM)
        drawn = [entry for entry in advice if entry.slot_after_draw]
        if drawn:
            break
    else:
        pytest.fail("no position with a card drawn for the telescope")
    for entry in drawn:
        shapes = {(m.take, m.play, m.to) for m in entry.moves if isinstance(m, Turn)}
        assert len(shapes) == 1 and next(iter(shapes))[2] == "notebook"
        assert "slot chosen after the draw" in entry.describe()


def test_reset_decisions_are_advised() -> None:
    for seed in range(30):
        states = [s for s in random_game_states(seed, GREEDY) if s.phase == "reset"]
        if states:
            break
    else:
        pytest.fail("no reset phase in the sampled games")
    state = states[-1]
    advice = advise(state, samples=2, seed=0, rollout_policy=RANDOM)
    assert {entry.move for entry in advice} == {ResetDisplay(True), ResetDisplay(False)}


def test_advice_refuses_bad_requests() -> None:
    state = late_position(1)
    with pytest.raises(InputError, match="samples"):
        advise(state, samples=1)
    finished = random_game_states(1)[-1]
    with pytest.raises(InputError, match="over"):
        advise(finished, samples=2)


def test_confidence_interval_uses_student_t_for_small_samples() -> None:
    low, high = confidence_interval([10, 12, 14, 16])
    half = 3.182 * math.sqrt(20 / 3) / 2  # t(3) · s / √n
    assert (low, high) == pytest.approx((13 - half, 13 + half))
    assert confidence_interval([5, 5, 5]) == (5, 5)


def test_advice_policy_plays_a_legal_move_deterministically() -> None:
    state = late_position(4, turns=10)
    policy = AdvicePolicy(samples=2, width=4)
    move = policy.choose(state, random.Random(3))
    assert move in set(legal_moves(state))
    assert policy.choose(state, random.Random(3)) == move


# -- self-play -------------------------------------------------------------------------------------


def test_selfplay_is_deterministic_and_counts_every_game() -> None:
    report = selfplay(GREEDY, RANDOM, 6, seed=3)
    again = selfplay(GREEDY, RANDOM, 6, seed=3)
    assert report == again
    wins_a, wins_b = report.wins
    assert wins_a + wins_b + report.ties == report.games == 6
    assert [r.a_seat for r in report.records] == [0, 1, 0, 1, 0, 1]
    assert report.records[0].deal == report.records[1].deal != report.records[2].deal
    assert wins_a > wins_b  # greedy beats random
    assert report.mean_scores[0] == pytest.approx(sum(report.scores[0]) / 6)
    assert sum(report.win_rates) + report.tie_rate == pytest.approx(1)


def test_selfplay_scores_are_the_engines() -> None:
    report = selfplay(RANDOM, GREEDY, 2, seed=1)
    for g, record in enumerate(report.records):
        seats = (RANDOM, GREEDY) if record.a_seat == 0 else (GREEDY, RANDOM)
        rngs = (
            random.Random(f"stellar-selfplay:1:{g}:0"),
            random.Random(f"stellar-selfplay:1:{g}:1"),
        )
        final = play_out(StellarState.new_game(seed=record.deal), seats, rngs)
        totals = [s.total for s in score(final)]
        assert (record.score_a, record.score_b) == (
            totals[record.a_seat],
            totals[1 - record.a_seat],
        )


def test_same_policy_twice_gets_distinct_labels() -> None:
    report = selfplay(GREEDY, GreedyPolicy(), 2, seed=0)
    assert list(report.distributions) == ["greedy (A)", "greedy (B)"]
    data = report.to_data()
    assert data["games"] == 2 and data["wins"] == list(report.wins)


def test_policies_by_name() -> None:
    assert isinstance(make_policy("Greedy"), GreedyPolicy)
    assert isinstance(make_policy("random"), RandomPolicy)
    assert make_policy("advice:6").samples == 6 and make_policy("advice").name == "advice"
    # the sample count is in the name, so that two advice policies are told apart in reports
    assert make_policy("advice:6").name == "advice:6"
    bad_counts = ("advice:1", "advice:x", "advice:", "advice:²", "advice:٣", "advice:" + "9" * 5000)
    for bad in ("minimax", *bad_counts):
        with pytest.raises(InputError):
            make_policy(bad)
    with pytest.raises(InputError):
        selfplay(GREEDY, RANDOM, 0)


def test_play_out_ends_the_game() -> None:
    state = StellarState.new_game(seed=9)
    final = play_out(state, (GREEDY, RANDOM), random.Random(0), checked=False)
    assert final.is_over


def test_moves_to_the_same_position_share_an_entry() -> None:
    """Seed 1 deals P4a (number 4) to display 2 and P2b (number 2) to display 4: taking either
    one and playing it takes the other as the second card, so "take 2, play P4a to telescope
    5" and "take 4, play P2b to notebook, second card to telescope 5" are the same turn."""
    from asterion.solver.stellar_play import _groups  # the grouping advise uses

    state = StellarState.new_game(seed=1)
    moves = list(legal_moves(state))
    entries = _groups(state, moves)
    grouped = [m for entry in entries for m in entry.moves]
    assert len(grouped) == len(moves) and set(grouped) == set(moves)
    shared = [e for e in entries if len(e.moves) > 1 and not e.slot_after_draw]
    assert len(shared) == 22  # 11 slots, each card to the telescope or the notebook
    for entry in shared:
        assert len({apply_unchecked(state, m) for m in entry.moves}) == 1
    pair = {Turn(2, "P4a", "telescope", 5), Turn(4, "P2b", "notebook", None, 5)}
    assert any(set(entry.moves) == pair for entry in shared)
