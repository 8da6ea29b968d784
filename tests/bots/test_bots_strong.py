"""The strong bots (heuristic, ismcts): legal choices, views only, determinism, tactics."""

import dataclasses
import math
import random
import statistics

import pytest

from sequence_stacks.bots import Bot, HeuristicBot, IsmctsBot, make_bot
from sequence_stacks.bots import ismcts as ismcts_module
from sequence_stacks.bots.heuristic import Evaluator, Planner
from sequence_stacks.bots.ismcts import (
    default_candidates,
    default_iterations,
    default_race,
    default_work_limit,
)
from sequence_stacks.bots.plans import finish_turn
from sequence_stacks.bots.playout import Rollout
from sequence_stacks.engine import (
    Action,
    ActionType,
    Phase,
    Settings,
    State,
    View,
    action_space,
    apply_in_place,
    new_game,
    observe,
    resample,
)
from sequence_stacks.sim import play_game, selfplay, summarize

from .rigging import Cards, rig

_SHORT: Settings = Settings(max_turns=40)


def _small_ismcts(seed: int) -> IsmctsBot:
    return IsmctsBot(seed=seed, iterations=3, candidates=3)


def _strong(name: str, seed: int) -> Bot:
    return _small_ismcts(seed) if name == "ismcts" else HeuristicBot(seed=seed)


class _Checked:
    """Wraps a bot: asserts it only ever gets a View holding no State, and legal picks."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def choose(self, view: View) -> Action:
        assert isinstance(view, View)
        assert not _holds_state(view)
        action = self.bot.choose(view)
        assert view.seat is not None
        space = action_space(view.settings.player_count, view.settings.piles_per_colour)
        assert space.id_of(action, view.seat) in view.legal_action_ids, action
        self.decisions += 1
        return action


def _holds_state(value: object) -> bool:
    if isinstance(value, State):
        return True
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_holds_state(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, tuple | list):
        return any(_holds_state(item) for item in value)
    return False


@pytest.mark.parametrize("player_count", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("bot_name", ["heuristic", "ismcts"])
def test_strong_bots_choose_legal_actions_from_views_only(bot_name: str, player_count: int) -> None:
    settings = _SHORT.replace(player_count=player_count)
    players = [_Checked(_strong(bot_name, seed)) for seed in range(player_count)]
    state, record = play_game(settings, 11 + player_count, players)
    assert state.is_over
    assert sum(p.decisions for p in players) == len(record.actions)


def test_heuristic_plays_full_games_against_every_bot_legally() -> None:
    for player_count in (2, 4, 6):
        names = ["heuristic", "greedy", "random"]
        players = [_Checked(make_bot(names[s % 3], seed=s)) for s in range(player_count)]
        state, _ = play_game(Settings(player_count=player_count), player_count, players)
        assert state.is_over


@pytest.mark.parametrize("bot_name", ["heuristic", "ismcts"])
def test_strong_bots_play_identically_for_the_same_seed(bot_name: str) -> None:
    settings = _SHORT.replace(player_count=3)
    first = play_game(settings, 5, [_strong(bot_name, s) for s in range(3)])[1]
    second = play_game(settings, 5, [_strong(bot_name, s) for s in range(3)])[1]
    assert first.actions == second.actions
    assert first.digest == second.digest


def _mid_game(player_count: int, seed: int, decisions: int) -> State:
    state = new_game(Settings(player_count=player_count), seed)
    bots = [make_bot("greedy", seed=s) for s in range(player_count)]
    for _ in range(decisions):
        seat = state.current_player()
        assert seat is not None
        apply_in_place(state, seat, bots[seat].choose(observe(state, seat)))
    return state


@pytest.mark.parametrize("bot_name", ["heuristic", "ismcts"])
def test_choice_is_unchanged_when_hidden_cards_are_permuted(bot_name: str) -> None:
    for seed in range(4):
        state = _mid_game(3, seed, 25 + seed)
        seat = state.current_player()
        assert seat is not None
        # Other seats' hidden cards and the draw pile, redealt within their shuffle epochs.
        other = resample(state, seat, random.Random(seed))
        assert other.hands[seat] == state.hands[seat]
        assert other.hands != state.hands or other.draw != state.draw
        view, other_view = observe(state, seat), observe(other, seat)
        assert view == other_view
        first = _strong(bot_name, 99).choose(view)
        second = _strong(bot_name, 99).choose(other_view)
        assert first == second


def test_ismcts_options_are_checked_and_a_time_budget_still_answers() -> None:
    with pytest.raises(ValueError, match="iterations"):
        IsmctsBot(iterations=0)
    with pytest.raises(ValueError, match="candidates"):
        IsmctsBot(candidates=0)
    state = _mid_game(2, 3, 10)
    seat = state.current_player()
    assert seat is not None
    view = observe(state, seat)
    action = IsmctsBot(seed=1, iterations=10_000, time_budget_s=0.0).choose(view)
    space = action_space(2, 2)
    assert space.id_of(action, seat) in view.legal_action_ids


def _turn_start(player_count: int, seed: int) -> State:
    """A position at the first decision of a turn with several legal actions."""
    state = _mid_game(player_count, seed, 6)
    bots = [make_bot("greedy", seed=s) for s in range(player_count)]
    while not (state.phase == Phase.PLAYING and state.turn_actions == 0 and len(_ids(state)) > 2):
        seat = state.current_player()
        assert seat is not None
        apply_in_place(state, seat, bots[seat].choose(observe(state, seat)))
    return state


def _ids(state: State) -> list[int]:
    seat = state.current_player()
    assert seat is not None
    return list(observe(state, seat).legal_action_ids)


@pytest.mark.parametrize("player_count", [2, 4])
def test_ismcts_plays_every_candidate_plan_out_on_every_deal(player_count: int) -> None:
    for seed in range(3):
        state = _turn_start(player_count, seed)
        seat = state.current
        view = observe(state, seat)
        result = IsmctsBot(seed=seed, iterations=6, candidates=4).search(view)
        assert 1 <= len(result.plans) <= 4
        assert 0 <= result.chosen < len(result.plans)
        assert len({plan.ids for plan in result.plans}) == len(result.plans)
        scores = [plan.heuristic_score for plan in result.plans]
        assert scores == sorted(scores, reverse=True)
        for plan in result.plans:
            assert plan.ids[0] in view.legal_action_ids
            if len(result.plans) > 1:
                assert len(plan.values) == result.iterations == 6
            assert all(0.0 <= value <= 1.0 for value in plan.values)


def test_ismcts_default_budget_shrinks_with_the_table_so_a_search_costs_the_same() -> None:
    # One playout plays a turn per opponent: 48 / players deals keeps the work per search
    # about constant (docs/bots.md, decision time).
    assert [default_iterations(count) for count in range(2, 7)] == [24, 16, 12, 10, 8]
    # Eight candidate plans with two players (58% vs 56% for five, docs/bots.md); five
    # at larger tables, where eight took searches past 1 s.
    assert [default_candidates(count) for count in range(2, 7)] == [8, 5, 5, 5, 5]
    assert [default_work_limit(count) for count in range(2, 7)] == [
        24_000,
        16_000,
        15_000,
        12_000,
        10_000,
    ]
    # Racing (two players by default): more deals and a larger cap, since most candidates
    # play only the first eight deals (docs/bots.md).
    assert [default_race(count) for count in range(2, 7)] == [True, False, False, False, False]
    assert default_iterations(2, race=True) == 48
    assert default_work_limit(2, race=True) == 36_000
    assert default_iterations(4, race=True) == 12  # no racing budget of its own
    assert default_work_limit(4, race=True) == 15_000
    for player_count, race in ((2, False), (2, True), (4, None)):
        for seed in range(4):
            state = _turn_start(player_count, seed)
            view = observe(state, state.current)
            bot = IsmctsBot(seed=seed, candidates=2, work_limit=10**9, race=race)
            result = bot.search(view)
            if len(result.plans) > 1 and result.iterations:
                if race:  # may stop early: the other plan fell behind
                    assert 8 <= result.iterations <= default_iterations(player_count, race=True)
                else:
                    assert result.iterations == default_iterations(player_count)
                break
        else:
            raise AssertionError("no position with two candidate plans was searched")


def _behind(values: list[float], base: list[float]) -> bool:
    """A standard error or more behind ``base`` on the deals both played (the racing
    rule, written out independently of the bot's own helper)."""
    diffs = [a - b for a, b in zip(values, base, strict=False)]
    return statistics.fmean(diffs) + statistics.stdev(diffs) / math.sqrt(len(diffs)) <= 0


def test_ismcts_racing_drops_plans_behind_the_first_and_deals_only_to_the_rest() -> None:
    dropped = ended_early = 0
    for seed in range(10):
        state = _turn_start(2, 40 + seed)
        view = observe(state, state.current)
        kwargs = {"seed": seed, "iterations": 16, "candidates": 5, "work_limit": 10**9}
        full = IsmctsBot(**kwargs, race=False).search(view)  # type: ignore[arg-type]
        raced = IsmctsBot(**kwargs, race=True).search(view)  # type: ignore[arg-type]
        if len(full.plans) < 3:
            continue
        assert full.iterations == 16
        assert all(len(plan.values) == 16 for plan in full.plans)
        base = raced.plans[0].values
        assert len(base) == raced.iterations  # the heuristic's first plays every deal
        for index, (plan, same) in enumerate(zip(raced.plans, full.plans, strict=True)):
            # The same seed deals the same deals: a raced plan's values are a prefix.
            assert plan.values == same.values[: len(plan.values)]
            count = len(plan.values)
            assert count >= 8  # nobody leaves before the eighth deal
            # Never behind at an earlier check (else it would have left then).
            if index:
                assert not any(_behind(plan.values[:k], base) for k in range(8, count))
        out = [_behind(plan.values, base) for plan in raced.plans[1:]]
        dropped += sum(out)
        if raced.iterations < 16:  # it stops only when every other plan is out
            assert all(out)
            ended_early += 1
        else:  # those still in played every deal
            assert all(
                len(p.values) == 16 for p, o in zip(raced.plans[1:], out, strict=True) if not o
            )
        assert raced.chosen == 0 or not out[raced.chosen - 1]
    assert dropped
    assert ended_early


def test_ismcts_work_limit_stops_dealing_early_but_keeps_the_plans_paired() -> None:
    with pytest.raises(ValueError, match="work_limit"):
        IsmctsBot(work_limit=0)
    searched = 0
    for seed in range(6):
        state = _turn_start(4, seed)
        view = observe(state, state.current)
        wide = IsmctsBot(seed=seed, iterations=8, candidates=3, work_limit=10**9).search(view)
        if len(wide.plans) < 2 or not wide.iterations:
            continue
        narrow = IsmctsBot(seed=seed, iterations=8, candidates=3, work_limit=1).search(view)
        assert narrow.iterations == 2  # always two deals, then the limit stops it
        assert wide.iterations == 8
        for plan in narrow.plans:
            assert len(plan.values) == 2
        # The same seed deals the same first two deals either way.
        assert [p.values for p in narrow.plans] == [p.values[:2] for p in wide.plans]
        searched += 1
    assert searched


def test_ismcts_keeps_the_heuristic_plan_unless_another_is_clearly_better() -> None:
    def pick(values: list[list[float]], z: float = 2.0) -> int:  # as IsmctsBot(z=z) picks
        return ismcts_module._pick(values, z)

    base = [0.5, 0.6, 0.4, 0.55, 0.45, 0.5]

    def stats(*rows: list[float]) -> list[list[float]]:  # the candidates' values, first first
        return [list(row) for row in rows]

    assert pick(stats(base, list(base), [v - 0.01 for v in base])) == 0
    # Better on every deal by 0.05 (and the third by 0.1): clearly better, the best wins.
    better = [v + 0.05 for v in base]
    best = [v + 0.1 for v in base]
    assert pick(stats(base, better, best)) == 2
    # Better on average but not beyond two standard errors of the paired difference.
    noisy = [v + d for v, d in zip(base, [0.3, -0.25, 0.2, -0.2, 0.1, -0.1], strict=True)]
    assert pick(stats(base, noisy)) == 0
    assert pick(stats(base, noisy), z=0.0) == 1


def test_ismcts_follows_its_plan_through_the_turn() -> None:
    followed = 0
    for seed in range(6):
        state = _turn_start(2, 20 + seed)
        seat = state.current
        result = IsmctsBot(seed=seed, iterations=4).search(observe(state, seat))
        plan = result.plans[result.chosen].ids
        bot = IsmctsBot(seed=seed, iterations=4)
        space = action_space(2, 2)
        taken: list[int] = []
        turn = state.turn_count
        drawn = False
        while state.turn_count == turn and not state.is_over and len(taken) < len(plan):
            if state.phase == Phase.BLOCK_WINDOW:
                asked = state.current_player()
                assert asked is not None
                apply_in_place(state, asked, Action(ActionType.PASS))
                continue
            before = len(state.draw)
            action = bot.choose(observe(state, seat))
            taken.append(space.id_of(action, seat))
            apply_in_place(state, seat, action)
            if len(state.draw) < before and state.turn_count == turn:
                drawn = True  # a draw on an empty hand (R18): the bot searches again
                break
        if not drawn:
            assert taken == list(plan)
            followed += len(taken)
        else:
            assert taken == list(plan[: len(taken)])
    assert followed > 6


# --- tactics on rigged positions ---------------------------------------------------------


def _heuristic_choice(state: State, seat: int | None = None) -> str:
    acting = state.current_player() if seat is None else seat
    assert acting is not None
    return HeuristicBot(seed=0).choose(observe(state, acting)).notation()


def test_heuristic_plays_the_discard_top_to_unlock_the_card_beneath() -> None:
    # Blue pile at 2; the hand has B4, the discard pile B5 under B3: B3 from the top,
    # then B4, then B5 (now the top) completes the pile.
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("B4", "R3", "R3", "R4", "R4"), 1: cards("R1")},
        piles={0: cards("B1", "B2")},
        discards={0: cards("B5", "B3")},
    )
    assert _heuristic_choice(state) == "^B3>1"


def test_heuristic_completes_a_winning_sequence() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("R5", "BW", "B2", "B2", "R3"), 1: cards("R1")},
        piles={2: cards("R1", "R2", "R3", "R4")},
        chips=[(2, 2), (1, 1)],
    )
    assert _heuristic_choice(state) == "R5>1"


def test_heuristic_steals_a_chip_from_the_leader() -> None:
    cards = Cards(4)
    state = rig(
        cards,
        player_count=4,
        hands={0: cards("SCHIP", "R3", "R3", "B4", "B4"), 1: cards("R1")},
        chips=[(0, 0), (1, 0), (2, 2), (0, 1)],
    )
    assert _heuristic_choice(state).startswith("SCHIP>p2:")


def test_heuristic_does_not_leave_a_pile_at_four_for_the_next_player() -> None:
    # B4 would leave the pile at four; the opponent's discard top is the B5 that
    # completes it. Discarding (not playing B4) is better.
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("B4", "R3", "R3", "R4", "SCARD"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3")},
        discards={1: cards("B5")},
        chips=[(1, 1), (1, 1)],
    )
    assert _heuristic_choice(state) != "B4>1"


def test_heuristic_saves_its_block_for_a_decisive_completion() -> None:
    cards = Cards(3)
    base = {
        "player_count": 3,
        "hands": {0: cards("R1"), 1: cards("BLOCK", "R2"), 2: cards("R3")},
        "piles": {0: cards("B1", "B2", "B3", "B4", "B5")},
        "window": (0, 0),
    }
    winning = rig(cards, chips=[(1, 3), (0, 0), (0, 0)], **base)  # type: ignore[arg-type]
    early = rig(cards, chips=[(0, 0), (0, 1), (0, 0)], **base)  # type: ignore[arg-type]
    assert _heuristic_choice(winning, seat=1) == "block"
    assert _heuristic_choice(early, seat=1) == "pass"


def test_heuristic_beats_random_in_two_player_games() -> None:
    rows = selfplay(Settings(player_count=2), ["heuristic", "random"], games=20, seed=3)
    summary = summarize(rows, 2)
    assert summary.bots["heuristic"].wins >= 17


def test_ismcts_searches_eight_plans_with_two_players_and_five_with_more() -> None:
    counts: dict[int, list[int]] = {2: [], 4: []}
    for player_count, found in counts.items():
        for seed in range(6):
            state = _turn_start(player_count, seed)
            view = observe(state, state.current)
            found.append(len(IsmctsBot(seed=seed, iterations=2).search(view).plans))
    assert max(counts[2]) == 8
    assert max(counts[4]) == 5


def _modelled(seed: int) -> IsmctsBot:
    return IsmctsBot(seed=seed, iterations=3, candidates=3, horizon=2, opponent_nodes=300)


def test_longer_playouts_still_choose_from_the_view_alone() -> None:
    """Playouts two rounds deep with the heuristic's own planner budget for the opponents
    (the options measured in docs/bots.md): the same choice when every card the seat
    cannot see is dealt anew, and the same game for the same seeds."""
    for seed in range(3):
        state = _mid_game(2, seed, 20 + seed)
        seat = state.current_player()
        assert seat is not None
        other = resample(state, seat, random.Random(seed))
        assert other.hands != state.hands or other.draw != state.draw
        view, other_view = observe(state, seat), observe(other, seat)
        assert view == other_view
        assert _modelled(7).choose(view) == _modelled(7).choose(other_view)
    settings = _SHORT.replace(player_count=2)
    first = play_game(settings, 3, [_Checked(_modelled(0)), HeuristicBot(seed=1)])[1]
    second = play_game(settings, 3, [_modelled(0), HeuristicBot(seed=1)])[1]
    assert first.digest == second.digest


class _Turns:
    """A leaf value that remembers the turn it was asked to value."""

    def __init__(self) -> None:
        self.turns: list[int] = []

    def __call__(self, state: State, seat: int, evaluator: Evaluator, played: int) -> float:
        assert state.current == seat
        assert state.phase == Phase.PLAYING
        self.turns.append(state.turn_count)
        return 0.5


def test_a_longer_horizon_values_the_turn_after_next() -> None:
    state = _turn_start(2, 5)
    seat = state.current_player()
    assert seat is not None
    evaluator = Evaluator.from_view(observe(state, seat))
    finish_turn(state, seat, Planner(evaluator, seat, state.settings))
    assert not state.is_over
    assert state.current != seat
    reached: list[int] = []
    for horizon in (1, 2):
        leaf = _Turns()
        Rollout(leaf, horizon=horizon).to_next_turn(
            state.clone(), seat=seat, evaluator=evaluator, played=0
        )
        reached.extend(leaf.turns)
    # One turn of the opponent, then (horizon 2) the seat's own and the opponent's again.
    assert reached == [state.turn_count + 1, state.turn_count + 3]
