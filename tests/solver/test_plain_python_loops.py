"""The compiled loops run as plain Python where numba is missing (``numba_loops.compiled``):
the same answers, far slower. Numba reads ``NUMBA_DISABLE_JIT`` when it is imported, so the
plain run is a subprocess; its answers are compared with this process's compiled ones, which
the other tests compare with exhaustive enumerations."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import asterion.solver.edge_search as edge_search
from asterion.models.edge_puzzles import generate
from asterion.solver import edge_search_parallel as parallel
from asterion.solver.edge_frame import FrameRun, frame_tables

ALL = 10**9
# 5x5 3/4: 14 classes on seed 0 (every peer of docs/benchmarks.md's first round agrees) and
# 2,144 on seed 5; each searched whole in a few seconds as plain Python
SEEDS = (0, 5)


def frame_answers(seed: int) -> list[int]:
    """The frame's counts (whole, then sieved from the start), its first arrangement's count,
    and the number of distinct arrangements it keeps when asked for three."""
    problem = generate(5, 5, 3, 4, seed=seed)
    frame = frame_tables(problem, edge_search.Run(problem, edge_search.Variant(), 1, 0).tables)
    assert frame is not None
    whole = edge_search.run_alone(FrameRun(frame, ALL, 3), deadline=float("inf"))
    sieving = parallel.Sieving(sides=range(2, 9), min_limit=1, after=0, log=16)
    sieved = parallel.count_by_frame(frame, ALL, 0, float("inf"), 1, 0, sieving)
    first = edge_search.run_alone(FrameRun(frame, 1, 1), deadline=float("inf"))
    kept = {edge_search._arrangement(problem, frame.problem, row) for row in whole.kept}
    return [whole.count, sieved.count, first.count, len(kept)]


PLAIN_RUN = f"""
import json, warnings
warnings.simplefilter("ignore")  # the 64-bit hashes overflow on purpose, as numba's do
from asterion.solver import numba_loops
from {__name__} import SEEDS, frame_answers
assert numba_loops.prefetch is numba_loops._nothing
print(json.dumps([frame_answers(seed) for seed in SEEDS]))
"""


def test_the_loops_as_plain_python_answer_as_compiled() -> None:
    here = os.path.dirname(__file__)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": here}
    plain = subprocess.run(
        [sys.executable, "-c", PLAIN_RUN], env=env, capture_output=True, text=True, timeout=600
    )
    assert plain.returncode == 0, plain.stderr[-2000:]
    compiled = [frame_answers(seed) for seed in SEEDS]
    assert json.loads(plain.stdout) == compiled
    assert compiled[0][0] == 14 and all(row[2] == 1 and row[3] == 3 for row in compiled)
