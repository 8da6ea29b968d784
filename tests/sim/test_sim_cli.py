"""`sequence-stacks simulate` and `report` on the command line."""

import json
from pathlib import Path

import pytest

from sequence_stacks.cli import main
from sequence_stacks.sim import read_results, row_key


def _simulate(out: Path, *extra: str) -> int:
    return main(
        [
            "simulate",
            "--players",
            "2,3",
            "--bots",
            "greedy,random",
            "--games",
            "4",
            "--vary",
            "chip_supply=20,unlimited",
            "--option",
            "max_turns=300",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(out),
            *extra,
        ]
    )


def test_simulate_sweeps_players_and_variants_then_reports(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert _simulate(out) == 0
    rows = read_results(out)
    assert len(rows) == 16
    assert {row["player_count"] for row in rows} == {2, 3}
    options = {row["options"] for row in rows}
    assert options == {
        json.dumps({"max_turns": 300}),
        json.dumps({"chip_supply": "unlimited", "max_turns": 300}),
    }
    folder = tmp_path / "report"
    assert main(["report", str(out), "--out", str(folder)]) == 0
    assert (folder / "report.html").exists()
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 16
    assert len(summary["configs"]) == 4
    # The same games given twice are counted once.
    assert main(["report", str(out), str(out), "--out", str(folder), "--json"]) == 0
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 16


def test_simulate_takes_o_for_an_option_like_every_game_command(tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    args = ["simulate", "--players", "2", "--bots", "random", "--games", "2"]
    assert main([*args, "-o", "max_turns=40", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    assert {row["options"] for row in read_results(out)} == {json.dumps({"max_turns": 40})}


def test_simulate_resume_plays_only_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert _simulate(out) == 0
    before = sorted(read_results(out), key=row_key)
    assert _simulate(out, "--resume") == 0
    assert sorted(read_results(out), key=row_key) == before
    text = out.read_text(encoding="utf-8").splitlines()
    assert len(text) == 17  # header + 16 rows, nothing played twice


def test_simulate_records_and_parquet(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow (the sim extra) is not installed")
    out = tmp_path / "r.parquet"
    assert _simulate(out, "--records", str(tmp_path / "games")) == 0
    assert len(read_results(out)) == 16
    assert len(list((tmp_path / "games").glob("*.json"))) == 16


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "nonsense=1,2"], "unknown option"),
        (["--players", "7"], "2-6"),
        (["--games", "0"], "--games"),
        (["--option", "chip_supply=none"], "chip_supply"),
    ],
)
def test_simulate_refuses_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code = main(["simulate", "--quiet", "--out", str(tmp_path / "r.csv"), *args])
    assert code == 2
    assert message in capsys.readouterr().err


def test_report_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "none.csv")]) == 2
    assert "no results file" in capsys.readouterr().err


def test_report_without_matplotlib_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r.csv"
    assert main(["simulate", "--games", "1", "--workers", "1", "--quiet", "--out", str(out)]) == 0

    def missing(*_: object, **__: object) -> None:
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr("sequence_stacks.cli.simulate.write_report", missing)
    assert main(["report", str(out), "--out", str(tmp_path / "report")]) == 2
    assert "report needs matplotlib: pip install" in capsys.readouterr().err
