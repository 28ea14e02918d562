"""Stellar scoring with the free choices made by CP-SAT (rules/stellar.md, "Scoring").

In the notebook a satellite joins any type's group and a 0/6 card reads 0 or 6, freely until
the end. The model picks one reading per free card and, per type, one run of consecutive
numbers all present in that type's group; it maximizes the sum of (telescope stars of the
type) × (run length). The enumeration in :mod:`asterion.models.stellar` is the exact baseline
it is checked against; the answer is re-scored by the model code before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from asterion.models.stellar import (
    Score,
    StellarState,
    longest_run,
    notebook_options,
    score,
    telescope_stars,
)
from asterion.models.stellar_cards import TYPES, CardId, CelestialType
from asterion.solver.result import DEFAULT_TIME_LIMIT, SolveResult, cp_status, make_solver

NUMBERS = range(0, 7)
"""Notebook numbers: 1–5, and 0 or 6 for a 0/6 card."""


@dataclass(frozen=True)
class TypeScores:
    scores: dict[CelestialType, int]
    choices: dict[CardId, tuple[CelestialType, int]]

    @property
    def total(self) -> int:
        return sum(self.scores.values())


def type_scores(
    state: StellarState, player: int, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0
) -> SolveResult[TypeScores]:
    """The best type scores (stars × longest run) over every reading of the free cards."""
    started = time.perf_counter()
    stars = telescope_stars(state, player)
    options = notebook_options(state, player)
    model = cp_model.CpModel()

    # One reading per notebook card.
    reading: dict[tuple[int, CelestialType, int], cp_model.IntVar] = {}
    for i, card_options in enumerate(options):
        card_vars = []
        for card_id, kind, number in card_options:
            var = model.new_bool_var(f"card{i}_{card_id}_{kind.value}_{number}")
            reading[i, kind, number] = var
            card_vars.append(var)
        model.add_exactly_one(card_vars)

    # A number is present in a type's group only if some card reads it.
    present = {}
    for kind in TYPES:
        for n in NUMBERS:
            var = model.new_bool_var(f"present_{kind.value}_{n}")
            readers = [v for (_, k, m), v in reading.items() if k is kind and m == n]
            model.add(var <= sum(readers))
            present[kind, n] = var

    # One run per type (or none): every number in it present.
    run_length = {}
    for kind in TYPES:
        intervals = []
        for low in NUMBERS:
            for high in NUMBERS:
                if high < low:
                    continue
                var = model.new_bool_var(f"run_{kind.value}_{low}_{high}")
                for n in range(low, high + 1):
                    model.add_implication(var, present[kind, n])
                intervals.append((var, high - low + 1))
        none = model.new_bool_var(f"run_{kind.value}_none")
        model.add_exactly_one([none, *(v for v, _ in intervals)])
        run_length[kind] = sum(length * v for v, length in intervals)

    model.maximize(sum(stars[kind] * run_length[kind] for kind in TYPES))

    solver = make_solver(time_limit, seed)
    status = cp_status(solver.solve(model))
    elapsed = time.perf_counter() - started
    if not status.has_value:
        return SolveResult(status, None, None, None, elapsed)

    # Extract the readings, then score them with the model code (certification).
    choices: dict[CardId, tuple[CelestialType, int]] = {}
    groups: dict[CelestialType, list[int]] = {kind: [] for kind in TYPES}
    for (i, kind, number), var in reading.items():
        if solver.boolean_value(var):
            groups[kind].append(number)
            if len(options[i]) > 1:
                choices[options[i][0][0]] = (kind, number)
    scores = {kind: stars[kind] * longest_run(groups[kind]) for kind in TYPES}
    result = TypeScores(scores, choices)
    assert result.total == round(solver.objective_value), "CP-SAT score disagrees"
    return SolveResult(status, result, float(result.total), solver.best_objective_bound, elapsed)


def cp_type_scorer(
    state: StellarState, player: int
) -> tuple[dict[CelestialType, int], dict[CardId, tuple[CelestialType, int]]]:
    """:func:`type_scores` in the shape :func:`asterion.models.stellar.score` takes."""
    result = type_scores(state, player)
    if result.value is None:
        raise RuntimeError(f"scoring did not finish: {result.status.value}")
    return result.value.scores, result.value.choices


def score_position(state: StellarState) -> tuple[Score, Score]:
    """Both players' scores, the free choices made by CP-SAT."""
    return score(state, cp_type_scorer)
