"""The Stellar post-mortem: exact where nothing hidden matters (the final notes), unknown
when the clock runs out, the same for the same seed."""

from __future__ import annotations

import math
import random

import pytest

from asterion.models.stellar import (
    FinalNote,
    Move,
    StellarRules,
    StellarState,
    apply,
    legal_moves,
    score,
)
from asterion.solver.stellar_play import (
    GreedyPolicy,
    advise,
    distinct_moves,
    mover,
    play_out,
    selfplay_game,
)
from asterion.solver.stellar_review import review_game


def greedy_until_final(deal: int) -> tuple[list[StellarState], list[Move]]:
    """A greedy game's states and moves up to the first final note (excluded)."""
    moves: list[Move] = []
    greedy = GreedyPolicy()
    play_out(
        StellarState.new_game(StellarRules(), seed=deal),
        (greedy, greedy),
        random.Random(deal),
        moves=moves,
    )
    states = [StellarState.new_game(StellarRules(), seed=deal)]
    for move in moves:
        if isinstance(move, FinalNote):
            break
        states.append(apply(states[-1], move))
    return states, moves[: len(states) - 1]


def final_choice(deal_from: int) -> StellarState:
    """The first final note of a greedy game whose two cards are not alike."""
    for deal in range(deal_from, deal_from + 50):
        states, _ = greedy_until_final(deal)
        if distinct_moves(states[-1]) == 2:
            return states[-1]
    raise AssertionError("no final note with a choice in 50 deals")


def exact_final_score(state: StellarState, note: FinalNote) -> int:
    """rules/stellar.md, Scoring: once the telescopes are full, the mover's score depends on
    its own cards only, whatever the opponent's last note."""
    player = mover(state)
    after = apply(state, note)
    other = next(iter(legal_moves(after)))
    return score(apply(after, other))[player].total


def test_a_final_note_is_weighed_exactly() -> None:
    state = final_choice(0)
    notes = [m for m in legal_moves(state) if isinstance(m, FinalNote)]
    values = {m: exact_final_score(state, m) for m in notes}
    for played in notes:
        review = review_game([state, apply(state, played)], [played], samples=4, width=2)
        (reviewed,) = review.moves
        assert not reviewed.forced and reviewed.comparison is not None
        # every sampled deal gives the same value: the loss is exact, its interval a point
        assert reviewed.loss == max(values.values()) - values[played]
        assert reviewed.loss_interval == (reviewed.loss, reviewed.loss)
        assert reviewed.clear == (reviewed.loss > 0)
        if reviewed.loss == 0:
            assert reviewed.best == reviewed.played
        else:
            best = max(values, key=lambda m: values[m])
            assert reviewed.best == str(best)


def test_each_deal_measures_the_pick_of_the_other_half() -> None:
    states, moves = greedy_until_final(3)
    review = review_game(states[:6], moves[:5], samples=8, width=3, seed=2)
    for m in review.moves:
        if m.forced:
            assert m.loss == 0 and m.comparison is None
            continue
        c = m.comparison
        assert c is not None and len(c.values[0]) == 8
        assert str(moves[m.index]) in {str(x) for x in c.candidates[c.played].moves}
        # cross-fitting, by hand: each half picks on its own deals, the other half measures
        first = [sum(values[:4]) for values in c.values]
        second = [sum(values[4:]) for values in c.values]
        for picked, sums in ((m.differences[4:], first), (m.differences[:4], second)):
            top = max(sums)
            pick = c.played if sums[c.played] == top else sums.index(top)
            others = c.values[pick]
            span = range(4, 8) if sums is first else range(4)
            assert list(picked) == [others[j] - c.values[c.played][j] for j in span]
        assert m.loss is not None and abs(m.loss - sum(m.differences) / 8) < 1e-9
        # the move suggested is the best over all the deals
        data = m.to_json()
        assert data["best_mean"] == round(max(x.mean for x in c.candidates), 4)
        assert data["best_mean"] >= data["played_mean"]


def test_no_time_left_is_unknown_not_zero() -> None:
    states, moves = greedy_until_final(3)
    review = review_game(states[:4], moves[:3], samples=4, width=2, time_limit=-1.0)
    assert not review.decided
    for m in review.moves:
        assert m.known == m.forced
        assert (m.loss is None) == (not m.forced)
    summary = review.player_summary(0)
    assert summary.unknown == sum(1 for m in review.moves if m.player == 0 and not m.forced)


def test_the_same_seed_gives_the_same_review() -> None:
    states, moves = greedy_until_final(4)
    first = review_game(states[:4], moves[:3], samples=4, width=2, seed=7).to_json()
    assert review_game(states[:4], moves[:3], samples=4, width=2, seed=7).to_json() == first


def test_the_summary_adds_the_losses_up() -> None:
    states, moves = greedy_until_final(5)
    review = review_game(states[:7], moves[:6], samples=4, width=2)
    for player in (0, 1):
        own = [m for m in review.moves if m.player == player]
        summary = review.player_summary(player)
        assert summary.loss == pytest.approx(sum(m.loss or 0 for m in own))
        low, high = summary.loss_interval
        widths = [(m.loss_interval[1] - m.loss_interval[0]) / 2 for m in own if m.loss_interval]
        assert high - summary.loss == pytest.approx(math.sqrt(sum(w * w for w in widths)))
        assert summary.loss - low == pytest.approx(high - summary.loss)


def test_candidates_are_valued_deal_by_deal_as_advise_values_them() -> None:
    state = StellarState.new_game(StellarRules(), seed=8)
    played = next(iter(legal_moves(state)))
    review = review_game([state, apply(state, played)], [played], samples=6, width=3, seed=1)
    comparison = review.moves[0].comparison
    assert comparison is not None
    # the hidden cards matter at the opening: some candidate's value changes with the deal
    assert any(len(set(values)) > 1 for values in comparison.values)
    advice = advise(state, samples=6, seed=1, halving=False)
    means = {str(a.move): a.mean for a in advice}
    for candidate in comparison.candidates:
        assert candidate.mean == means[str(candidate.move)]


def test_a_whole_game_ends_with_both_scores() -> None:
    moves: list[Move] = []
    game = selfplay_game(GreedyPolicy(), GreedyPolicy(), 1, 0, StellarRules(), moves)
    states = [StellarState.new_game(StellarRules(), seed=game.deal)]
    for move in moves:
        states.append(apply(states[-1], move))
    review = review_game(states, moves, samples=4, width=1, time_limit=-1.0)
    # scored by the rules engine in self-play; seat A moved first in game 0
    assert review.final == (game.score_a, game.score_b)
