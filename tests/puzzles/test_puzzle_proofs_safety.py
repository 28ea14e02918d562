"""The uniqueness proofs that decide which puzzles are kept, given what they must refuse
(tests a mutation audit found missing)."""

from __future__ import annotations

from asterion.puzzles.aster import Difficulty, generate_puzzle, prove
from asterion.solver.result import Status


def test_an_aster_proof_out_of_states_is_undecided() -> None:
    made = generate_puzzle(5, 3, Difficulty.EASY)
    assert made.puzzle is not None
    assert prove(made.puzzle).unique is True
    # One state of budget: nothing is proven either way.
    verdict = prove(made.puzzle, max_states=1)
    assert not verdict.count.complete
    assert verdict.unique is None


def test_feasible_has_a_value() -> None:
    assert Status.FEASIBLE.has_value and Status.OPTIMAL.has_value
    assert not Status.UNKNOWN.has_value and not Status.INFEASIBLE.has_value


def test_aster_counts_called_complete_are_exact_whatever_the_budget() -> None:
    # "complete" promises exact counts (aster_plans docstring). For any state budget, a count
    # that says complete must equal the count with no budget: the shortest plans and the
    # near misses one action longer. (Budgets that stop the second walk must say incomplete.)
    from asterion.puzzles.aster_plans import count_plans

    made = generate_puzzle(5, 3, Difficulty.EASY)
    assert made.puzzle is not None
    question = made.puzzle.question()
    full = count_plans(question)
    assert full.complete and full.near_misses > 0
    step = max(1, full.effort // 80)
    incomplete = 0
    for budget in range(1, full.effort + 1, step):
        count = count_plans(question, max_states=budget)
        if count.complete:
            assert (count.min_actions, count.plans, count.near_misses) == (
                full.min_actions,
                full.plans,
                full.near_misses,
            ), budget
        else:
            incomplete += 1
    assert incomplete  # (precondition: some budgets were too small)


def test_a_nacht_count_stopped_early_is_undecided() -> None:
    from asterion.models.edges import Placement
    from asterion.puzzles.nacht import NachtVerdict
    from asterion.solver.edge_result import EdgeSearchResult

    one = ((Placement(0, 0), Placement(1, 0)), (Placement(2, 0), Placement(3, 0)))
    stopped_after_one = EdgeSearchResult(Status.FEASIBLE, 1, False, (one,))
    assert NachtVerdict(stopped_after_one).unique is None  # a second one may exist
    stopped_with_none = EdgeSearchResult(Status.UNKNOWN, 0, False, ())
    assert NachtVerdict(stopped_with_none).unique is None
    proven = EdgeSearchResult(Status.OPTIMAL, 1, True, (one,))
    assert NachtVerdict(proven).unique is True
