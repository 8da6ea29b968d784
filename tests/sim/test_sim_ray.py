"""The Ray backend on a local Ray instance (skipped unless the ray extra is installed).

Run it with ``pip install -e '.[ray]'`` then ``pytest tests/sim/test_sim_ray.py``.
"""

from pathlib import Path

import pytest

from sequence_stacks.engine import Settings
from sequence_stacks.sim import (
    DossierSpec,
    ResultsWriter,
    SimConfig,
    read_results,
    read_traces,
    row_key,
    run_dossier,
    run_tasks,
    tasks_of,
)
from sequence_stacks.sim.dossier.plan import allocate, build_jobs

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


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_dossier_on_ray_plays_the_same_games_as_on_processes(tmp_path: Path) -> None:
    spec = DossierSpec(players=(2,), budget_s=1.0, reference="greedy", ladder=("random", "greedy"))
    costs = {job.config.config_id: 1.0 for job in build_jobs(spec)}
    plan = allocate(spec, costs, core_seconds=60.0)
    run_dossier(spec, tmp_path / "local", plan=plan)
    run_dossier(spec, tmp_path / "ray", plan=plan, backend="ray")

    def games(folder: str) -> list[dict[str, object]]:
        traces = sorted(read_traces(tmp_path / folder / "traces.jsonl"), key=lambda t: t.key)
        return [{**t.to_dict(), "seconds": 0} for t in traces]

    assert games("ray") == games("local")
    assert len(games("ray")) == sum(plan.games.values())
