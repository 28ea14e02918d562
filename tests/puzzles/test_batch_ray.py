"""``--backend ray``: the same puzzles as the local pool, on a local Ray started by the test
(skipped where the optional extra ``ray`` is not installed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from asterion.puzzles.batch import run_batch

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_batch_matches_the_process_pool(local_ray: None) -> None:
    on_ray = run_batch("aster", 2, "easy", 4, backend="ray")
    local = run_batch("aster", 2, "easy", 4, workers=1)
    assert [m.files for m in on_ray.made] == [m.files for m in local.made]
    assert len(on_ray.made) == 2
