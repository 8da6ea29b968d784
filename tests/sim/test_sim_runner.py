"""Simulation at scale: rows per game, 1 vs 2 processes, interruption and resumption."""

from pathlib import Path

import pytest

from sequence_stacks.engine import Settings
from sequence_stacks.sim import (
    COLUMNS,
    ResultsWriter,
    Row,
    SimConfig,
    has_pyarrow,
    play_row,
    read_results,
    row_key,
    run_tasks,
    seat_values,
    selfplay,
    tasks_of,
)


def _configs() -> list[SimConfig]:
    return [
        SimConfig(Settings(player_count=2), ("greedy", "random"), 6, seed=3),
        SimConfig(Settings(player_count=3, chip_supply=None), ("greedy",), 4, seed=5),
    ]


def _run(path: Path, *, workers: int, resume: bool = False) -> list[Row]:
    with ResultsWriter(path, resume=resume) as writer:
        tasks = tasks_of(_configs(), writer.done_keys())
        run_tasks(tasks, writer, workers=workers, batch_size=2)
    return sorted(read_results(path), key=row_key)


def test_rows_have_every_column_and_match_selfplay(tmp_path: Path) -> None:
    config = _configs()[0]
    rows = [play_row(config, index) for index in range(config.games)]
    reference = selfplay(config.settings, config.bot_names, games=config.games, seed=config.seed)
    for row, game in zip(rows, reference, strict=True):
        assert set(row) == set(COLUMNS)
        assert row["winner_seat"] == (-1 if game.winner is None else game.winner)
        assert row["turns"] == game.turns
        assert row["actions"] == game.action_count
        assert row["bots"] == "|".join(game.bots)
        chips = [*seat_values(row, "chips_blue"), *seat_values(row, "chips_red")]
        assert all(chip >= 0 for chip in chips)
        assert sum(seat_values(row, "completions")) >= sum(chips) - sum(
            seat_values(row, "steal_chips")
        )


def test_results_are_identical_on_one_and_two_processes(tmp_path: Path) -> None:
    single = _run(tmp_path / "one.csv", workers=1)
    double = _run(tmp_path / "two.csv", workers=2)
    assert len(single) == 10
    assert single == double


def test_an_interrupted_run_keeps_its_rows_and_resumes_to_the_full_result(
    tmp_path: Path,
) -> None:
    full = _run(tmp_path / "full.csv", workers=1)
    path = tmp_path / "part.csv"
    seen: list[Row] = []

    def stop_after_three(row: Row) -> None:
        seen.append(row)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with ResultsWriter(path) as writer:
        stats = run_tasks(tasks_of(_configs()), writer, on_row=stop_after_three)
    assert stats.interrupted
    assert stats.played == 3
    assert len(read_results(path)) == 3
    resumed = _run(path, workers=2, resume=True)
    assert resumed == full


def test_a_stopped_pool_keeps_the_games_its_workers_were_playing(tmp_path: Path) -> None:
    full = _run(tmp_path / "full.csv", workers=1)
    path = tmp_path / "part.csv"

    stopped: list[Row] = []

    def stop_at_once(row: Row) -> None:
        if not stopped:  # Ctrl-C (once) as the first game's row arrives
            stopped.append(row)
            raise KeyboardInterrupt

    with ResultsWriter(path) as writer:
        tasks = tasks_of(_configs())
        stats = run_tasks(tasks, writer, workers=2, batch_size=1, on_row=stop_at_once)
    assert stats.interrupted
    rows = read_results(path)
    # The first row, and the other worker's game that was under way (waited for).
    assert 2 <= stats.played == len(rows) < len(tasks)
    assert len({row_key(row) for row in rows}) == len(rows)
    assert _run(path, workers=2, resume=True) == full


def test_tasks_skip_done_keys_and_interleave_configs() -> None:
    configs = _configs()
    tasks = tasks_of(configs, {(configs[0].config_id, 0)})
    assert len(tasks) == 9
    assert (configs[0], 0) not in tasks
    assert tasks[:3] == [(configs[0], 1), (configs[1], 0), (configs[0], 2)]


def test_config_ids_are_stable_and_name_the_options() -> None:
    first, second = _configs()
    assert first.config_id == _configs()[0].config_id
    assert first.config_id.startswith("p2/greedy-random#")
    assert "chip_supply=unlimited" in second.config_id
    assert second.options == {"chip_supply": "unlimited"}
    other_seed = SimConfig(first.settings, first.bot_names, first.games, seed=4)
    assert other_seed.config_id != first.config_id


@pytest.mark.skipif(not has_pyarrow(), reason="pyarrow (the sim extra) is not installed")
def test_parquet_results_round_trip_and_resume(tmp_path: Path) -> None:
    csv_rows = _run(tmp_path / "r.csv", workers=1)
    path = tmp_path / "r.parquet"
    with ResultsWriter(path) as writer:
        run_tasks(tasks_of(_configs())[:4], writer)
    assert len(read_results(path)) == 4
    assert _run(path, workers=1, resume=True) == csv_rows


def test_records_are_written_when_asked(tmp_path: Path) -> None:
    records = tmp_path / "records"
    with ResultsWriter(tmp_path / "r.csv") as writer:
        run_tasks(tasks_of(_configs())[:3], writer, records_dir=str(records))
    assert len(list(records.glob("*.json"))) == 3
