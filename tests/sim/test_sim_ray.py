"""The Ray backend on a local Ray instance (skipped unless the ray extra is installed).

Run it with ``pip install -e '.[ray]'`` then ``pytest tests/sim/test_sim_ray.py``.
"""

from pathlib import Path

import pytest

from sequence_stacks.engine import Settings
from sequence_stacks.sim import ResultsWriter, SimConfig, read_results, row_key, run_tasks, tasks_of

pytest.importorskip("ray", reason="ray is not installed: pip install -e '.[ray]' to run this")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ray_backend_gives_the_same_rows_as_a_local_run(tmp_path: Path) -> None:
    from sequence_stacks.sim.ray_backend import run_ray  # noqa: PLC0415 (needs ray)

    configs = [SimConfig(Settings(player_count=2), ("greedy", "random"), 6, seed=9)]
    with ResultsWriter(tmp_path / "local.csv") as writer:
        run_tasks(tasks_of(configs), writer)
    with ResultsWriter(tmp_path / "ray.csv") as writer:
        stats = run_ray(tasks_of(configs), writer, batch_size=2)
    assert stats.played == 6
    assert not stats.interrupted
    local = sorted(read_results(tmp_path / "local.csv"), key=row_key)
    remote = sorted(read_results(tmp_path / "ray.csv"), key=row_key)
    assert remote == local
