"""The balance report: statistics, OpenSkill ratings, figures and the HTML page."""

import io
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

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

from .pages import Page, check_self_contained, parse_page

_FIGURES = ("seat_win_rates", "bot_win_rates", "game_length", "action_card_use")


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[Row]:
    path = tmp_path_factory.mktemp("report") / "r.csv"
    configs = [
        SimConfig(Settings(player_count=2), ("greedy", "random"), 16, seed=1),
        SimConfig(Settings(player_count=3), ("greedy", "random", "random"), 9, seed=2),
        # 2 bots over 3 seats: the seats face different line-ups.
        SimConfig(Settings(player_count=3), ("greedy", "random"), 6, seed=3),
        SimConfig(Settings(player_count=2, two_player_reverses=True), ("random",), 6, seed=4),
    ]
    with ResultsWriter(path) as writer:
        run_tasks(tasks_of(configs), writer)
    return read_results(path)


def _config(data: dict[str, Any], prefix: str) -> dict[str, Any]:
    (summary,) = [s for cid, s in data["configs"].items() if cid.startswith(prefix + "#")]
    return summary  # type: ignore[no-any-return]


def test_analysis_counts_wins_per_bot_and_seat(rows: list[Row]) -> None:
    data = analyse(rows)
    assert data["games"] == 37
    assert data["player_counts"] == [2, 3]
    assert len(data["configs"]) == 4
    for summary in data["configs"].values():
        won = summary["reasons"].get("win", 0)
        assert sum(rate["wins"] for rate in summary["seats"]) == won
        assert sum(rate["wins"] for rate in summary["bots"].values()) == won
        if not summary["self_play"]:
            assert summary["bots"]["greedy"]["rate"] > summary["bots"]["random"]["rate"]
        for effect in summary["action_cards"].values():
            players = effect["played"]["played"] + effect["not_played"]["played"]
            assert players == summary["games"] * summary["player_count"]
            low, high = effect["played"]["ci95"]  # Wilson intervals are kept
            assert 0.0 <= low <= high <= 1.0


def test_analysis_orders_configs_by_player_count_and_labels_them(rows: list[Row]) -> None:
    data = analyse(rows)
    counts = [summary["player_count"] for summary in data["configs"].values()]
    assert counts == sorted(counts)
    assert _config(data, "p2/greedy-random")["label"] == "greedy-random"
    assert _config(data, "p2/random/two_player_reverses=True")["self_play"] is True


def test_seats_are_comparable_only_when_the_bots_rotate_evenly(rows: list[Row]) -> None:
    data = analyse(rows)
    assert _config(data, "p2/greedy-random")["seats_comparable"] is True
    assert _config(data, "p3/greedy-random-random")["seats_comparable"] is True
    assert _config(data, "p3/greedy-random")["seats_comparable"] is False


def test_two_player_reverse_row_is_absent_or_annotated(rows: list[Row]) -> None:
    data = analyse(rows)
    assert "reverses" not in _config(data, "p2/greedy-random")["action_cards"]  # R2
    assert _config(data, "p3/greedy-random-random")["action_cards"]["reverses"]["note"] is None
    kept = _config(data, "p2/random/two_player_reverses=True")["action_cards"]["reverses"]
    assert "R30" in kept["note"]


def test_openskill_rates_greedy_above_random(rows: list[Row]) -> None:
    pytest.importorskip("openskill", reason="openskill (the sim extra) is not installed")
    ratings = rate_bots(rows)
    assert ratings is not None
    assert next(iter(ratings)) == "greedy"
    assert ratings["greedy"]["mu"] > ratings["random"]["mu"]


def _turns(rows: list[Row]) -> dict[str, list[int]]:
    turns: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        turns[str(row["config_id"])].append(int(row["turns"]))
    return turns


def test_every_figure_is_titled_labelled_and_its_legends_clear_the_data(
    rows: list[Row],
) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    from sequence_stacks.sim.report_figures import report_figures  # noqa: PLC0415

    figures = report_figures(analyse(rows), _turns(rows))
    assert set(figures) == {*_FIGURES, "action_card_wins"}
    for name, figure in figures.items():
        assert figure.get_suptitle(), name
        figure.savefig(io.BytesIO(), format="png")  # lays out and draws
        panels = figure.get_axes()
        assert len(panels) == 2, name  # one panel per player count, never pooled
        for axes in panels:
            assert re.fullmatch(r"[23] players.*", axes.get_title()), name
            assert axes.get_xlabel(), name
            assert axes.get_ylabel(), name
            legend = axes.get_legend()
            if name == "game_length":  # configs are named on the y axis: no legend
                assert legend is None
                continue
            assert legend is not None, name
            box = legend.get_window_extent()
            for other in panels:
                assert not box.overlaps(other.get_window_extent()), name


def test_two_player_panels_draw_no_reverse(rows: list[Row]) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    from sequence_stacks.sim.report_figures import report_figures  # noqa: PLC0415

    figures = report_figures(analyse(rows), _turns(rows))
    use = figures["action_card_use"].get_axes()
    wins = figures["action_card_wins"].get_axes()
    assert "Reverse" not in [label.get_text() for label in use[0].get_xticklabels()]
    assert "Reverse" in [label.get_text() for label in use[1].get_xticklabels()]
    assert "Reverse" not in [label.get_text() for label in wins[0].get_yticklabels()]


def test_report_writes_a_well_formed_self_contained_page(rows: list[Row], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    page = write_report(rows, tmp_path, title="Test run")
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>")
    check_self_contained(text, images=5)
    for section in ("Win rate by seat", "Bots", "Game length", "Action cards", "Configurations"):
        assert f"<h2>{section}</h2>" in text
    for name in (*_FIGURES, "action_card_wins"):
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 37


def _card_rows(parsed: Page, prefix: str) -> list[str]:
    """The action-card names in the card table of the config whose id starts so."""
    names: list[str] = []
    inside = False
    for row in parsed.rows:
        if row and row[0].startswith("h4:"):
            inside = row[0][3:].startswith(prefix + "#")
        elif (
            inside
            and row
            and row[0] in {"Skip", "Reverse", "Steal-a-Card", "Steal-a-Chip", "Block"}
        ):
            names.append(row[0])
    return names


def test_page_has_no_two_player_reverse_row(rows: list[Row], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    parsed = parse_page(write_report(rows, tmp_path).read_text(encoding="utf-8"))
    assert _card_rows(parsed, "p2/greedy-random") == [
        "Skip",
        "Steal-a-Card",
        "Steal-a-Chip",
        "Block",
    ]
    assert "Reverse" in _card_rows(parsed, "p3/greedy-random-random")
    kept = [r for r in parsed.rows if r and r[0] == "Reverse" and any("R30" in c for c in r)]
    assert len(kept) == 1  # the two_player_reverses config: kept, annotated
    text = " ".join(parsed.text)
    assert "Left out of the seat figure: greedy-random (3 players)" in text
    assert "Self-play: one bot held every seat" in text


def test_self_play_only_leaves_out_the_bot_figure(rows: list[Row], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    self_play = [row for row in rows if len(set(str(row["bots"]).split("|"))) == 1]
    assert {str(row["bots"]) for row in self_play} == {"random|random"}
    parsed = parse_page(write_report(self_play, tmp_path).read_text(encoding="utf-8"))
    assert len([tag for tag, _ in parsed.tags if tag == "img"]) == 4
    assert not (tmp_path / "bot_win_rates.png").exists()
    text = " ".join(parsed.text)
    assert "Every configuration is self-play" in text
    assert "No ratings" not in text


def _hostile(rows: list[Row]) -> list[Row]:
    names = {"greedy": "<script>alert(1)</script>", "random": "$\\frac{1}{$ & _x"}
    renamed = []
    for row in rows:
        copy = dict(row)
        copy["bots"] = "|".join(names.get(n, n) for n in str(row["bots"]).split("|"))
        copy["winner_bot"] = names.get(str(row["winner_bot"]), str(row["winner_bot"]))
        copy["config_id"] = f"{row['config_id']}<img src=x onerror=alert(2)>"
        renamed.append(copy)
    renamed[0]["reason"] = "<b>win</b>"
    return renamed


def test_hostile_names_are_escaped_and_drawn(rows: list[Row], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib (the sim extra) is not installed")
    page = write_report(_hostile(rows), tmp_path, title='<i>run</i> "quoted"')
    text = page.read_text(encoding="utf-8")
    parsed = parse_page(text)
    assert "<script" not in text
    for tag, attrs in parsed.tags:
        assert set(attrs) <= {"src", "alt", "width", "height"} or tag != "img"
    assert {tag for tag, _ in parsed.tags}.isdisjoint({"script", "b", "i"})
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;i&gt;run&lt;/i&gt; &quot;quoted&quot;" in text
    assert "<script>alert(1)</script>" in " ".join(parsed.text)  # shown, as text
    assert len([tag for tag, _ in parsed.tags if tag == "img"]) == 5


def test_report_refuses_no_rows(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no games"):
        write_report([], tmp_path)
