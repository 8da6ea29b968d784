"""The dossier's win chances (the learned model from each seat's own view, chips where
the model has no network) and its refusals: bad options, a bad --vary, a folder it
cannot write, damaged resume files; each refused with the problem named and nothing
changed."""

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from sequence_stacks.bots.winchance import default_model
from sequence_stacks.cli import main
from sequence_stacks.engine import Settings, View
from sequence_stacks.sim import (
    ChipsWinChance,
    DossierError,
    DossierSpec,
    ModelWinChance,
    SimConfig,
    play_trace,
    run_dossier,
)
from sequence_stacks.sim.dossier.traces import GameTrace, TraceFileError, read_traces

GREEDY = ["--players", "2", "--reference", "greedy", "--ladder", "random,greedy"]


class _Recording:
    """An estimate that records the views it is given and answers like the model."""

    name = "recording"

    def __init__(self) -> None:
        self.calls: list[tuple[View, ...]] = []

    def for_players(self, player_count: int) -> "_Recording":
        del player_count
        return self

    def __call__(self, views: Sequence[View]) -> tuple[float, ...]:
        self.calls.append(tuple(views))
        return ModelWinChance()(views)


def test_each_seat_is_judged_from_its_own_view_only() -> None:
    config = SimConfig(Settings(player_count=3), ("greedy",), 1, seed=5)
    recording = _Recording()
    trace = GameTrace.from_dict(play_trace(config, 0, win_chance=recording))
    assert trace.estimate == "recording"
    assert len(recording.calls) == len(trace.chances)
    model = default_model()
    for views, chances in zip(recording.calls, trace.chances, strict=True):
        assert [view.seat for view in views] == [0, 1, 2]
        assert all(isinstance(view, View) for view in views)  # never the whole state
        for seat, view in enumerate(views):
            assert view.hand_sizes[seat] == len(view.hand or ())  # its own hand, seen
            assert chances[seat] == pytest.approx(model.chance(view), abs=1e-4)
    assert trace.chances[-1][trace.winner or 0] == 1.0  # the game over: the winner's 1


def test_the_model_judges_the_table_sizes_it_has_a_network_for() -> None:
    model = ModelWinChance()
    assert all(model.for_players(count) is model for count in range(2, 7))
    assert model.for_players(7) == ChipsWinChance()  # none for 7 seats: chips


def test_only_the_tables_games_ask_the_model() -> None:
    config = SimConfig(Settings(player_count=2), ("greedy",), 1, seed=3)
    asked = play_trace(config, 0, win_chance=ModelWinChance(), chances_for=frozenset())
    assert asked["estimate"] == "chips"
    table = frozenset({config.config_id})
    assert play_trace(config, 0, win_chance=ModelWinChance(), chances_for=table)["estimate"] == (
        "model"
    )


def test_a_damaged_trace_file_is_refused_but_a_cut_off_last_line_is_not(
    tmp_path: Path,
) -> None:
    config = SimConfig(Settings(player_count=2), ("greedy",), 1, seed=3)
    line = json.dumps(play_trace(config, 0))
    path = tmp_path / "traces.jsonl"
    path.write_text(line + "\n" + line[:30], encoding="utf-8")  # a stop mid-write
    assert len(read_traces(path)) == 1
    path.write_text("not a trace\n" + line + "\n", encoding="utf-8")
    with pytest.raises(TraceFileError, match=r"traces\.jsonl, line 1, is not a game trace"):
        read_traces(path)


# The command's refusals ----------------------------------------------------------------


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["dossier", *GREEDY, "--budget", "1s", *argv]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--option", "no_such_option=1"], "no_such_option"),
        (["--option", "hand_size=zero"], "hand_size"),
        (["--option", "hand_size"], "hand_size"),
        (["--vary", "hand_size"], "--vary"),
        (["--vary", "no_such_option=1,2"], "no_such_option"),
        (["--vary", "hand_size=5,many"], "hand_size"),
        (["--players", "7"], "2-6"),
    ],
)
def test_bad_rules_are_refused_before_anything_is_written(
    argv: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d"
    err = _refused([*argv, "--out", str(out)], capsys)
    assert named in err
    assert "Traceback" not in err
    assert not out.exists()


def test_a_folder_that_cannot_be_written_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    err = _refused(["--out", str(blocker / "dossier")], capsys)
    assert "cannot write the dossier in" in err
    assert str(blocker) in err
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize(
    ("name", "damage", "said"),
    [
        ("traces.jsonl", "{oops\n{}\n", "line 1, is not a game trace"),
        ("plan.json", '{"spec": 3}', "is not a dossier plan"),
        ("plan.json", "", "is not a dossier plan"),
    ],
)
def test_damaged_resume_files_are_named_and_left_alone(
    name: str, damage: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d"
    out.mkdir()
    (out / name).write_text(damage, encoding="utf-8")
    err = _refused(["--out", str(out)], capsys)
    assert said in err
    assert name in err
    assert [path.name for path in out.iterdir()] == [name]  # nothing written beside it
    assert (out / name).read_text(encoding="utf-8") == damage


def test_the_library_raises_the_same_errors(tmp_path: Path) -> None:
    out = tmp_path / "d"
    out.mkdir()
    (out / "traces.jsonl").write_text("[1, 2]\n\n", encoding="utf-8")
    spec = DossierSpec(players=(2,), reference="greedy", ladder=("random", "greedy"))
    with pytest.raises(DossierError, match="line 1"):
        run_dossier(spec, out)
