"""The set relaxation (the solo search's strong bound) and the two-core portfolio.

The relaxation must never fall below the true optimum (checked against a plain exhaustive
enumeration over the compiled rules on 2-turn deals, itself checked against the rules engine
in ``test_stellar_solo.py``) and must be exact where the card flow does not matter (a
hand-worked one-turn puzzle).
"""

from __future__ import annotations

import pytest
from test_stellar_solo import HAND_WORKED, SOURCE

from asterion.models.stellar_solo import deal_solo_puzzle, solo_puzzle_from_data
from asterion.solver.result import Status
from asterion.solver.stellar_solo import (
    BranchAndBound,
    Compiled,
    Node,
    cp_sat_solo,
    replay,
    search_solo,
)
from asterion.solver.stellar_solo_portfolio import portfolio_solo
from asterion.solver.stellar_solo_relax import relaxed_bound

NO_CEILING = 10**6


def exact(compiled: Compiled, node: Node) -> int:
    """The best final score below ``node`` by trying every turn (no pruning)."""
    if node.k == compiled.turns:
        return compiled.final_note(node)[0]
    return max(exact(compiled, child) for _, child in compiled.children(node))


def test_hand_worked_relaxation_is_the_optimum() -> None:
    # One turn: one telescope card and two notebook cards from the hand, display and the
    # deck's first card. Moons carry the only stars within reach: M0a (3 stars) next to the
    # starter M3s makes 4 stars; the notebook M4a (starter) with M5b and the satellite S3 as
    # a moon 3 makes the run 3-4-5: 4 x 3 = 12. Sections (targets 100) and diversity (4 types
    # missing) are out of reach even for free splits, so the relaxation is 12, the optimum
    # test_stellar_solo.py works out by hand.
    compiled = Compiled(solo_puzzle_from_data(HAND_WORKED, SOURCE))
    search = BranchAndBound(compiled)
    assert relaxed_bound(search.position(compiled.root), NO_CEILING, work=10.0) == 12


@pytest.mark.parametrize("seed", range(3))
def test_relaxation_is_never_below_the_best(seed: int) -> None:
    compiled = Compiled(deal_solo_puzzle(seed, turns=2))
    search = BranchAndBound(compiled)
    optimum = exact(compiled, compiled.root)
    assert relaxed_bound(search.position(compiled.root), NO_CEILING, work=10.0) >= optimum
    for _, child in list(compiled.children(compiled.root))[::9]:
        value = exact(compiled, child)
        assert relaxed_bound(search.position(child), NO_CEILING, work=10.0) >= value


def test_relaxation_stays_under_its_ceiling() -> None:
    compiled = Compiled(deal_solo_puzzle(1, turns=4))
    search = BranchAndBound(compiled)
    ceiling = search.bound(compiled.root)
    assert relaxed_bound(search.position(compiled.root), ceiling, work=10.0) <= ceiling


def test_portfolio_agrees_with_cp_sat_on_a_five_turn_deal() -> None:
    puzzle = deal_solo_puzzle(4, turns=5)
    answer = portfolio_solo(puzzle, time_limit=60)
    assert answer.status is Status.OPTIMAL and answer.best_score == answer.bound
    assert answer.best_score is not None and answer.method == "portfolio"
    assert replay(puzzle, answer.plan)[1] == answer.best_score
    alone = cp_sat_solo(puzzle, time_limit=60)
    assert alone.status is Status.OPTIMAL and alone.best_score == answer.best_score


def test_cp_sat_capped_by_a_proven_bound_keeps_the_optimum() -> None:
    # What "auto" does: CP-SAT capped by the search's bound; with the optimum as the cap it
    # must still find and prove the optimum (found by the search, uncapped).
    puzzle = deal_solo_puzzle(1, turns=3)
    optimum = search_solo(puzzle, time_limit=60).best_score
    assert optimum is not None
    capped = cp_sat_solo(puzzle, time_limit=60, ceiling=optimum)
    assert capped.status is Status.OPTIMAL and capped.best_score == capped.bound == optimum
    assert replay(puzzle, capped.plan)[1] == optimum
