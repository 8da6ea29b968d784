"""`sequence-stacks review` and `train-value`: help, output, JSON, bad input."""

import json
from pathlib import Path

import pytest

from sequence_stacks.bots import make_bot
from sequence_stacks.bots.review_format import Review
from sequence_stacks.cli import main
from sequence_stacks.cli.app import build_parser
from sequence_stacks.cli.review import chart_line
from sequence_stacks.engine import Settings
from sequence_stacks.i18n import set_language
from sequence_stacks.sim import play_game


@pytest.fixture(name="record_file")
def _record_file(tmp_path: Path) -> Path:
    bots = [make_bot("random", seed=1), make_bot("heuristic", seed=2)]
    _, record = play_game(Settings(player_count=2, max_turns=12), 6, bots)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["review", "train-value"])
def test_the_new_commands_explain_themselves(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert f"usage: sequence-stacks {command}" in out
    assert "examples:" in out
    assert "resume" in out if command == "train-value" else "--seat" in out


def test_review_prints_the_graph_the_moments_and_the_mistakes(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(record_file), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "Game review for Player 1 (you)" in out
    assert "Chance of winning, turn by turn" in out
    assert "The moments that changed the game" in out
    assert "your chance" in out
    assert "Your decisions" in out
    assert "mistake" in out  # a random player makes some
    graph = [line for line in out.splitlines() if "at the end" in line]
    assert len(graph) == 2
    assert all(any(c in line for c in "▁▂▃▄▅▆▇█") for line in graph)


def test_review_lists_where_the_champion_would_have_played_otherwise_its_mistakes_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The terminal lists what the review page lists (``Review.better``), each mistake
    marked, under the count of mistakes (#27)."""
    bots = [make_bot("random", seed=1), make_bot("heuristic", seed=2)]
    _, record = play_game(Settings(player_count=2, max_turns=20), 7, bots)
    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    assert main(["review", str(record_file), "--seat", "0", "--json"]) == 0
    review = Review.from_dict(json.loads(capsys.readouterr().out))
    assert review.mistakes
    assert set(review.mistakes) <= set(review.better)
    assert main(["review", str(record_file), "--seat", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    count = (
        f"  {len(review.mistakes)} mistake{'s' if len(review.mistakes) > 1 else ''}, marked below."
    )
    heading = "  Where the Champion bot would have played otherwise:"
    assert lines.index(count) + 1 == lines.index(heading)
    listed = lines[lines.index(heading) + 1 : lines.index(heading) + 1 + len(review.better)]
    assert [line.startswith("  [Mistake] Turn ") for line in listed] == [
        d.mistake for d in review.better
    ]
    assert all(line.startswith(("  [Mistake] Turn ", "  Turn ")) for line in listed)


def test_review_speaks_the_chosen_language(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        assert main(["review", str(record_file), "--seat", "1", "--lang", "sl"]) == 0
    finally:
        set_language("en")
    out = capsys.readouterr().out
    assert "Game review" not in out
    assert "Igralec 2" in out


def test_review_as_json_is_a_review(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(record_file), "--seat", "1", "--json"]) == 0
    review = Review.from_dict(json.loads(capsys.readouterr().out))
    assert review.seat == 1
    assert review.points
    assert review.decisions


def test_review_refuses_a_bad_seat_or_a_bad_file(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(record_file), "--seat", "5"]) == 2
    assert "the game has seats 0-1" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    data = json.loads(record_file.read_text(encoding="utf-8"))
    data["actions"] = [*data["actions"][:3], "0 B5>2"]
    broken.write_text(json.dumps(data), encoding="utf-8")
    assert main(["review", str(broken)]) == 2
    assert "bad record" in capsys.readouterr().err


def test_chart_line_draws_chances_as_blocks() -> None:
    assert chart_line([0.0, 0.5, 1.0]) == "▁▅█"
    assert len(chart_line([i / 200 for i in range(200)], width=40)) == 40


def test_train_value_takes_games_for_every_count_or_for_some() -> None:
    parser = build_parser()
    assert parser.parse_args(["train-value", "--games", "300"]).games == dict.fromkeys(
        range(2, 7), 300
    )
    assert parser.parse_args(["train-value", "--games", "6=2300,5=40"]).games == {
        6: 2300,
        5: 40,
    }
    for bad in ("7=10", "six", "6=many"):
        with pytest.raises(SystemExit):
            parser.parse_args(["train-value", "--games", bad])
