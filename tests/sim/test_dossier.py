"""The design dossier: traced games, barred and scaled players, a small dossier built in
seconds, resuming and replaying it, and the `dossier` command."""

import dataclasses
import functools
import json
import time
from pathlib import Path
from typing import Any

import pytest

from sequence_stacks.bots import IsmctsBot
from sequence_stacks.cli import main
from sequence_stacks.engine import ActionType, Settings
from sequence_stacks.sim import (
    DossierError,
    DossierSpec,
    PlayerSpec,
    Restriction,
    Row,
    RunStats,
    SimConfig,
    make_player,
    play_game,
    play_row,
    play_trace,
    read_traces,
    run_dossier,
    run_tasks,
    seat_values,
    tasks_of,
)
from sequence_stacks.sim.dossier import metrics as m
from sequence_stacks.sim.dossier.plan import Family, Plan, allocate, build_jobs
from sequence_stacks.sim.dossier.run import _top_up, cut_to_played
from sequence_stacks.sim.dossier.traces import GameTrace
from sequence_stacks.sim.dossier.words import Metric
from sequence_stacks.sim.runner import until

from .pages import check_self_contained

SMALL = DossierSpec(
    players=(2, 3),
    vary=("hand_size", ("5", "6")),
    budget_s=1.0,
    seed=11,
    reference="greedy",
    ladder=("random", "greedy"),
)


def small_plan(games: int = 8) -> Plan:
    """A plan of about ``games`` games a config (whole rounds of deals)."""
    costs = {job.config.config_id: 1.0 for job in build_jobs(SMALL)}
    groups = 4  # two variants at two player counts
    return allocate(SMALL, costs, core_seconds=games * groups * 9)


# Traces -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bots"), [(2, ("greedy",)), (4, ("greedy", "random"))])
def test_a_trace_agrees_with_the_results_row_of_the_same_game(
    players: int, bots: tuple[str, ...]
) -> None:
    config = SimConfig(Settings(player_count=players), bots, 4, seed=5)
    for index in range(4):
        row = play_row(config, index)
        trace = GameTrace.from_dict(json.loads(json.dumps(play_trace(config, index))))
        assert trace.played_turns == row["turns"]
        assert trace.actions == row["actions"] == sum(turn.actions for turn in trace.turns)
        assert (trace.winner if trace.winner is not None else -1) == row["winner_seat"]
        assert trace.blocks == sum(seat_values(row, "blocks"))
        assert trace.blocks == sum(1 for move in trace.moves if move.kind == "block")
        assert trace.block_windows == sum(turn.windows for turn in trace.turns)
        for card, column in [
            ("skip", "skips"),
            ("reverse", "reverses"),
            ("steal-card", "steal_cards"),
            ("steal-chip", "steal_chips"),
            ("block", "blocks"),
        ]:  # who played which action card, as the results row counts it
            assert list(trace.plays[card]) == seat_values(row, column)
        assert len(trace.plays["wilds"]) == players
        for turn in trace.turns:  # every asked opponent answers; answers are actions
            assert turn.windows <= turn.answers <= turn.windows * (players - 1)
            assert turn.answers <= turn.actions
        final = [blue + red for blue, red in trace.chips[-1]]
        blue, red = seat_values(row, "chips_blue"), seat_values(row, "chips_red")
        assert final == [b + r for b, r in zip(blue, red, strict=True)]
        assert len(trace.chips) == len(trace.chances) == trace.played_turns + 1
        if trace.winner is not None:
            assert trace.chances[-1][trace.winner] == 1.0
        for move in trace.moves:
            assert 0 <= move.point <= trace.played_turns
            assert move.seat != move.victim or move.kind == "skip"


# Players ------------------------------------------------------------------------------


def test_player_specs_read_back_and_refuse_nonsense() -> None:
    for text in ("heuristic", "ismcts:x0.5", "greedy:no-steal-chip", "random:no-wilds"):
        assert str(PlayerSpec.parse(text)) == text
    bad = {
        "heuristic:x2": "only ismcts",
        "ismcts:no-skip": "a barred player",
        "greedy:no-joker": "a bar is one of",
        "greedy:fast": "expected xSCALE",
        "nobody": "unknown bot",
    }
    for text, message in bad.items():
        with pytest.raises(ValueError, match=message):
            PlayerSpec.parse(text)


def test_a_scaled_search_has_that_share_of_the_default_budget() -> None:
    bot = make_player("ismcts:x0.25", seed=1, player_count=4)
    assert isinstance(bot, IsmctsBot)
    # budget_scale multiplies the default deals and work cap (tests/bots/test_expert.py)
    assert bot.budget_scale == 0.25
    assert (bot.iterations, bot.work_limit) == (None, None)


def _barred_kinds(record: Any, seat: int, restriction: Restriction) -> list[str]:
    """The seat's actions that play (or Block with) a barred card."""
    found = []
    for actor, action in record.actions:
        if actor != seat:
            continue
        blocks = action.type == ActionType.BLOCK and restriction == Restriction.BLOCK
        plays = action.type not in (ActionType.DISCARD, ActionType.PASS, ActionType.END)
        if blocks or (plays and action.kind in restriction.kinds):
            found.append(str(action))
    return found


@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
def test_a_barred_player_decides_as_the_unbarred_one_while_it_lacks_the_card(bot: str) -> None:
    """No Reverse in a 2-player deck: barred from it, a player plays the same games."""
    settings = Settings(player_count=2)
    barred = SimConfig(settings, (f"{bot}:no-reverse", bot), 4, seed=3)
    unbarred = SimConfig(settings, (bot, bot), 4, seed=3)
    for index in range(4):
        one = GameTrace.from_dict(play_trace(barred, index))
        two = GameTrace.from_dict(play_trace(unbarred, index))
        assert (one.turns, one.chips, one.moves, one.winner) == (
            two.turns,
            two.chips,
            two.moves,
            two.winner,
        )


@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
def test_a_barred_player_never_plays_its_card(bot: str) -> None:
    for index, restriction in enumerate(Restriction):
        players = 3
        barred = f"{bot}:no-{restriction.value}"
        bots = [make_player(barred, seed=index, player_count=players)] + [
            make_player(bot, seed=index * 8 + seat, player_count=players) for seat in (1, 2)
        ]
        _, record = play_game(Settings(player_count=players), 100 + index, bots)
        assert _barred_kinds(record, 0, restriction) == []


def test_barred_greedy_players_play_wilds_less_than_normal_ones() -> None:
    """Across games, the bar is what keeps the wilds out: a normal player lays many."""
    played = {"greedy": 0, "greedy:no-wilds": 0}
    for index in range(6):
        bots = [make_player(name, seed=index, player_count=2) for name in played]
        _, record = play_game(Settings(player_count=2), index, bots)
        for seat, name in enumerate(played):
            played[name] += len(_barred_kinds(record, seat, Restriction.WILDS))
    assert played["greedy:no-wilds"] == 0
    assert played["greedy"] > 5


def test_a_barred_player_discards_the_dead_card() -> None:
    bots = [
        make_player("greedy:no-steal-chip", seed=1, player_count=2),
        make_player("greedy", seed=2, player_count=2),
    ]
    _, record = play_game(Settings(player_count=2), 3, bots)
    discarded = [
        action.kind
        for seat, action in record.actions
        if seat == 0 and action.type == ActionType.DISCARD
    ]
    assert any(kind in Restriction.STEAL_CHIP.kinds for kind in discarded)


# Plans --------------------------------------------------------------------------------


def test_the_jobs_of_a_spec() -> None:
    jobs = build_jobs(SMALL)
    families = {(j.variant, j.players, j.family) for j in jobs}
    assert len(families) == 2 * 2 * 3  # no ismcts in this ladder: no search family
    two = [j for j in jobs if j.players == 2 and j.variant == "hand_size=5"]
    barred = sorted(str(j.restriction) for j in two if j.family == Family.RESTRICTED)
    # no 2-player Reverse; None: the control, the same table unbarred
    assert barred == ["None", "block", "skip", "steal-card", "steal-chip", "wilds"]
    ladder = [j.config.bot_names for j in two if j.family == Family.LADDER]
    assert ladder == [("greedy", "random")]  # the reference among random is the same step
    three = [j for j in jobs if j.players == 3 and j.family == Family.RESTRICTED]
    assert {j.config.bot_names[1:] for j in three} == {("greedy", "greedy")}


def test_allocation_shares_time_by_family_weight_in_whole_rounds() -> None:
    plan = small_plan(games=30)
    for job in plan.jobs():
        assert job.config.games % job.rotation == 0
        assert job.config.games >= 4
    games = {(j.variant, j.players, j.family): j.config.games for j in plan.jobs()}
    # same costs everywhere: the table (weight 0.2 of 0.65) plays more than one restricted
    # config (0.4 of 0.65 shared by five cards and the control)
    assert games[("hand_size=5", 2, Family.TABLE)] > games[("hand_size=5", 2, Family.RESTRICTED)]


# A small dossier, built in seconds ----------------------------------------------------


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dossier")
    outcome = run_dossier(SMALL, out, plan=small_plan())
    assert not outcome.interrupted
    assert outcome.page == out / "dossier.html"
    return out


def _data(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "dossier.json").read_text(encoding="utf-8"))
    return data


def test_the_dossier_holds_every_metric_for_every_group(dossier: Path) -> None:
    data = _data(dossier)
    assert data["variants"] == ["hand_size=5", "hand_size=6"]
    assert {(g["variant"], g["players"]) for g in data["groups"]} == {
        (v, p) for v in data["variants"] for p in (2, 3)
    }
    for group in data["groups"]:
        assert set(group["metrics"]) == {metric.value for metric in Metric}
        for figure in group["metrics"].values():
            low, high = figure["estimate"]["ci95"]
            assert low <= figure["estimate"]["value"] <= high
            assert figure["sentence"].endswith(".")
            assert figure["games"] > 0
        assert len(group["cards"]) == (5 if group["players"] == 2 else 6)
        for card in group["cards"]:
            assert card["unbarred_config_id"] != card["config_id"]
        assert group["typical_game"]["winner"] is not None
        assert group["win_chance"] == ["model"]  # the table's drama: the learned model
        floor = group["chance_floor"]
        assert 0 <= floor["below_won"] <= floor["below"] <= floor["seat_turns"]
    assert data["win_chance"]["by_players"] == {"2": "model", "3": "model"}
    assert data["pace"] == {"turn_s": 5.0, "action_s": 3.0, "window_s": 8.0}


def test_the_dossier_figures_are_the_metrics_of_its_traces(dossier: Path) -> None:
    data = _data(dossier)
    traces = read_traces(dossier / "traces.jsonl")
    for group in data["groups"]:
        table = [t for t in traces if t.config_id == group["table"]["config_id"]]
        assert len(table) == group["table"]["games"]
        metrics = group["metrics"]
        assert metrics["turns"]["estimate"]["value"] == pytest.approx(
            sum(t.played_turns for t in table) / len(table)
        )
        wins = sum(1 for t in table if t.winner == 0)
        edge = wins / len(table) - 1 / group["players"]
        assert metrics["first_player_edge"]["estimate"]["value"] == pytest.approx(edge)
        lead = m.lead_changes(table).estimate(metrics["lead_changes"]["bootstrap_seed"])
        assert metrics["lead_changes"]["estimate"]["ci95"] == [lead.low, lead.high]


def test_variants_are_compared_with_a_verdict(dossier: Path) -> None:
    comparisons = _data(dossier)["comparisons"]
    assert [(c["variant"], c["players"]) for c in comparisons] == [
        ("hand_size=6", 2),
        ("hand_size=6", 3),
    ]
    for comparison in comparisons:
        assert comparison["baseline"] == "hand_size=5"
        assert "length" in comparison["verdict"] or "shorter" in comparison["verdict"]
        turns = comparison["differences"]["turns"]
        assert turns["ci95"][0] <= turns["value"] <= turns["ci95"][1]


def test_the_page_is_self_contained_and_runs_no_script(dossier: Path) -> None:
    page = check_self_contained((dossier / "dossier.html").read_text(encoding="utf-8"), images=4)
    assert "How hopeless players get" in "".join(page.text)
    assert "P(that seat wins | what that seat may see" in "".join(page.text)
    ids = {attrs.get("id") for _, attrs in page.tags}
    assert {"glance", "fairness", "length", "skill", "drama", "cards", "variants"} <= ids
    for name in ("skill_trace", "swings", "card_worth", "length"):
        assert (dossier / f"{name}.png").exists()


def test_the_markdown_holds_the_same_figures(dossier: Path) -> None:
    text = (dossier / "dossier.md").read_text(encoding="utf-8")
    group = _data(dossier)["groups"][0]
    assert group["metrics"]["turns"]["sentence"] in text
    assert all(f"| {card['card']} |" in text for card in group["cards"])
    assert "![Skill trace" in text
    assert "### Win chances: how low they get, how well they predict" in text
    assert text.count("| 2 | hand_size=5 | ") >= len(Metric)


def test_a_stopped_dossier_resumes_and_a_plan_replays_it(dossier: Path, tmp_path: Path) -> None:
    replay = tmp_path / "replay"
    first = run_dossier(SMALL, replay, plan=Plan.from_dict(_data(dossier)["plan"]))
    assert _figures(_data(replay)) == _figures(_data(dossier))
    lines = (replay / "traces.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (replay / "traces.jsonl").write_text("".join(lines[:-5]) + lines[-5][:20], encoding="utf-8")
    resumed = run_dossier(SMALL, replay)  # the saved plan; the cut-off line is replayed
    assert resumed.played == 5
    assert first.played == len(lines)
    assert [run["games_played"] for run in _data(replay)["runs"]] == [len(lines), 5]
    assert _figures(_data(replay)) == _figures(_data(dossier))
    other = DossierSpec(players=(2,), reference="greedy", ladder=("random", "greedy"))
    with pytest.raises(DossierError, match="another study"):
        run_dossier(other, replay)


def _figures(data: dict[str, Any]) -> Any:
    return [data["groups"], data["comparisons"]]


# The command --------------------------------------------------------------------------


def test_the_dossier_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d"
    argv = ["dossier", "--players", "2", "--reference", "greedy", "--ladder", "random,greedy"]
    status = main([*argv, "--budget", "1s", "--workers", "1", "--out", str(out)])
    assert status == 0
    assert "dossier.html" in capsys.readouterr().out
    assert _data(out)["spec"]["players"] == [2]
    assert main([*argv, "--budget", "soon", "--out", str(out)]) == 2
    assert main([*argv, "--option", "hand_size=0", "--out", str(tmp_path / "e")]) == 2
    assert "hand_size" in capsys.readouterr().err


def test_a_deadline_starts_no_more_games() -> None:
    open_ended, late = RunStats(), RunStats()
    assert list(until([1, 2, 3], None, open_ended)) == [1, 2, 3]
    assert list(until([1, 2, 3], time.monotonic() - 1, late)) == []
    assert (open_ended.cut, late.cut) == (False, True)
    config = SimConfig(Settings(player_count=2), ("greedy",), 50, seed=1)
    played = run_tasks(tasks_of([config]), _Rows(), deadline=time.monotonic() - 1)
    assert (played.played, played.cut) == (0, True)


class _Rows:
    def __init__(self) -> None:
        self.rows: list[Row] = []

    def write(self, row: Row) -> None:
        self.rows.append(row)


def test_a_cut_plan_names_the_games_played() -> None:
    plan = small_plan(games=30)
    jobs = plan.jobs()
    table = next(j for j in jobs if j.family == Family.TABLE and j.players == 2)
    lone = next(j for j in jobs if j.family == Family.RESTRICTED and j.players == 3)
    played = [_trace(table.config.config_id, i) for i in (*range(13), 14)]  # 13 missing
    played += [_trace(lone.config.config_id, i) for i in range(8)]
    cut = cut_to_played(plan, played)
    assert cut.games[table.config.config_id] == 13  # games 0-12 (the table deals singly)
    assert cut.games[lone.config.config_id] == 6  # whole rounds of three deals
    others = [j for j in jobs if j not in (table, lone)]
    assert all(cut.games[j.config.config_id] == 4 or j.rotation == 3 for j in others)


def test_time_left_over_plays_more_games_of_every_config() -> None:
    plan = small_plan(games=8)
    table = next(j for j in plan.jobs() if j.family == Family.TABLE and j.players == 2)
    # the table's games took 0.5 s each; the other configs, unmeasured, count 0.01 s
    played = [
        dataclasses.replace(_trace(table.config.config_id, i), seconds=0.5)
        for i in range(table.config.games)
    ]
    grown = _top_up(plan, played, RunStats(), workers=2, deadline=time.monotonic() + 100)
    assert grown is not None
    assert all(grown.games[cid] >= count for cid, count in plan.games.items())
    assert sum(grown.games.values()) > sum(plan.games.values())
    assert grown.seconds_per_game[table.config.config_id] == pytest.approx(0.5)
    for job in grown.jobs():
        assert job.config.games % job.rotation == 0
    # too little time left to matter: the plan stays
    assert _top_up(plan, played, RunStats(), workers=2, deadline=time.monotonic() + 5) is None


def _trace(config_id: str, index: int) -> GameTrace:
    return dataclasses.replace(_any_trace(), config_id=config_id, game_index=index)


@functools.cache
def _any_trace() -> GameTrace:
    config = SimConfig(Settings(player_count=2), ("random",), 1, seed=1)
    return GameTrace.from_dict(play_trace(config, 0))
