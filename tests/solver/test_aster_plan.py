"""The CP-SAT planner's model is built in a fixed order, so one input and seed give one answer.

Placements are frozensets of point names, whose iteration order changes with Python's string
hashing (``PYTHONHASHSEED``) from one process to the next. The model used to add the target's
constraints in that order, so two runs of the same question built different models, and
CP-SAT's time (and possibly its plan) changed from run to run (DESIGN.md, principle 5).
"""

from __future__ import annotations

import os
import subprocess
import sys

from asterion.solver.aster_plan import LINEARIZATION_LEVEL, build_planner, cp_reach
from asterion.solver.aster_reach import ReachQuestion
from asterion.solver.result import Status

PROGRAM = """
import hashlib, json
from asterion.models.aster_files import parse_state
from asterion.solver.aster_plan import build_planner
from asterion.solver.aster_reach import ReachQuestion
state = parse_state(json.dumps({
    "player": "red", "players": ["red", "blue"],
    "stars": {"4E": "red", "2NW": "blue", "3S": "red"},
    "actions": ["nudge", "generate", "move_line"],
}))
question = ReachQuestion.build(state, [[0, 0], [1, 0], [0, 1], [2, 2]], turns=2)
print(hashlib.sha256(str(build_planner(question).model.proto).encode()).hexdigest())
"""


def _model_digest(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_model_does_not_depend_on_string_hashing() -> None:
    assert len({_model_digest(seed) for seed in ("0", "1", "2")}) == 1


def test_cp_reach_uses_the_stronger_linear_relaxation_and_stays_exact() -> None:
    # Red 4E = (1, 0) alone with one generate: the pair needs C = (0, 0), one action.
    from asterion.models.aster_files import parse_state

    state = parse_state('{"player": "red", "stars": {"4E": "red"}, "actions": ["generate"]}')
    question = ReachQuestion.build(state, [(0, 0), (1, 0)])
    assert LINEARIZATION_LEVEL == 2
    assert build_planner(question).model.proto.objective.vars
    answer = cp_reach(question)
    assert answer.status is Status.OPTIMAL and answer.min_actions == 1
