"""The balance report: statistics, OpenSkill ratings, PNG plots and the HTML page."""

import json
from pathlib import Path

import pytest

from sequence_stacks.engine import Settings
from sequence_stacks.sim import (
    ResultsWriter,
    Row,
    SimConfig,
    analyse,
    rate_bots,
    read_results,
    run_tasks,
    tasks_of,
    write_report,
)


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[Row]:
    path = tmp_path_factory.mktemp("report") / "r.csv"
    configs = [
        SimConfig(Settings(player_count=2), ("greedy", "random"), 16, seed=1),
        SimConfig(Settings(player_count=3), ("greedy", "random", "random"), 9, seed=2),
    ]
    with ResultsWriter(path) as writer:
        run_tasks(tasks_of(configs), writer)
    return read_results(path)


def test_analysis_counts_wins_per_bot_and_seat(rows: list[Row]) -> None:
    data = analyse(rows)
    assert data["games"] == 25
    assert len(data["configs"]) == 2
    for summary in data["configs"].values():
        won = summary["reasons"].get("win", 0)
        assert sum(rate["wins"] for rate in summary["seats"]) == won
        assert sum(rate["wins"] for rate in summary["bots"].values()) == won
        assert summary["bots"]["greedy"]["rate"] > summary["bots"]["random"]["rate"]
        for effect in summary["action_cards"].values():
            players = effect["played"]["played"] + effect["not_played"]["played"]
            assert players == summary["games"] * summary["player_count"]


def test_openskill_rates_greedy_above_random(rows: list[Row]) -> None:
    pytest.importorskip("openskill", reason="openskill (the sim extra) is not installed")
    ratings = rate_bots(rows)
    assert ratings is not None
    assert next(iter(ratings)) == "greedy"
    assert ratings["greedy"]["mu"] > ratings["random"]["mu"]


def test_report_writes_html_with_embedded_plots_and_pngs(rows: list[Row], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    page = write_report(rows, tmp_path, title="Test run")
    text = page.read_text(encoding="utf-8")
    for section in ("Win rates", "Ratings", "Game length", "Action cards", "Configurations"):
        assert f"<h2>{section}" in text
    assert text.count("data:image/png;base64,") == 4
    assert "Steal-a-Chip" in text
    for name in ("bot_win_rates", "seat_advantage", "game_length", "action_cards"):
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 25


def test_report_refuses_no_rows(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no games"):
        write_report([], tmp_path)
