"""Timers: Block windows that time out are passes, slow turns are finished by a bot,
absent players are replaced after the grace period, bots' Block timing ignores the hand."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    Phase,
    Settings,
    View,
    new_game,
)
from sequence_stacks.server import MemoryStorage, ServerSettings, create_app
from sequence_stacks.server.play.entries import SeatKind
from sequence_stacks.server.play.schedule import Schedule, Thinker, TimedOut, WindowEnds
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import TableRow

from .harness import FAST, SHORT_GAME, connect, create_table, sit

pytestmark = pytest.mark.timeout(90)


def _over(frame: dict[str, object]) -> bool:
    view = frame.get("view")
    return frame["type"] == "update" and isinstance(view, dict) and bool(view["result"])


def test_players_who_never_act_are_timed_out_until_the_game_ends() -> None:
    storage = MemoryStorage()
    settings = dataclasses.replace(FAST, turn_timeout=0.03, block_timeout=0.03)
    with TestClient(create_app(settings, storage=storage)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "ann") as ann, connect(client, table_id, "bob") as bob:
            ann.hello(tokens[0])
            bob.hello(tokens[1])
            ann.reply(ann.command("start"))
            timers = []
            while True:
                frame = ann.wait_for(lambda f: f["type"] == "update", timeout=30)
                timers.append(frame["timer"])
                if _over(frame):
                    break
            bob.drain()
    payloads = [entry.payload for entry in storage.entries(table_id)]
    acts = [p for p in payloads if p["op"] == "act"]
    assert acts
    assert all(p["client"] is None for p in acts)
    answers = [p for p in acts if p["action"] in ("pass", "block")]
    assert all(p["action"] == "pass" for p in answers)  # a timed-out window is a pass
    assert {t["kind"] for t in timers if t} <= {"turn", "block"}
    assert any(t and t["kind"] == "turn" for t in timers)


def test_an_absent_player_is_replaced_by_a_bot_after_the_grace_period() -> None:
    storage = MemoryStorage()
    settings = dataclasses.replace(FAST, grace_period=0.05)
    with TestClient(create_app(settings, storage=storage)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        _, token = sit(client, table_id, "Ann")
        with connect(client, table_id, "eve") as eve:
            eve.hello()
            with connect(client, table_id, "ann") as ann:
                ann.hello(token)
                ann.reply(ann.command("start"))
            frame = eve.wait_for(_over, timeout=30)
    assert frame["table"]["seats"][0] == {
        "seat": 0,
        "kind": "bot",
        "name": "Ann (bot)",
        "bot": FAST.default_bot,
        "label": {"key": "seat.stand_in", "args": {"name": "Ann"}},
        "connected": False,
    }
    ops = [entry.payload["op"] for entry in storage.entries(table_id)]
    assert ops.count("replace") == 1


def _window_table(block_in_hand: bool) -> Table:
    """A 3-seat table whose seat 1 is a bot, in a Block window asking seats 1 and 2."""
    row = TableRow("t", 0.0, "public", Settings(player_count=3).to_dict())
    table = Table(row)
    table.seats[1].kind = SeatKind.BOT
    state = new_game(table.settings, 5)
    hand = state.hands[1]
    blocks = [c for c in state.draw if CARD_KIND[c] == Kind.BLOCK]
    if block_in_hand and not any(CARD_KIND[c] == Kind.BLOCK for c in hand):
        state.draw.remove(blocks[0])
        state.draw.append(hand.pop())
        hand.append(blocks[0])
    if not block_in_hand:
        for card in [c for c in hand if CARD_KIND[c] == Kind.BLOCK]:
            hand.remove(card)
            swap = next(c for c in state.draw if CARD_KIND[c] != Kind.BLOCK)
            state.draw.remove(swap)
            state.draw.append(card)
            hand.append(swap)
    state.phase = Phase.BLOCK_WINDOW
    state.window_pending = [1, 2]
    table.state = state
    return table


def _schedule(settings: ServerSettings) -> Schedule:
    return Schedule(settings, clock=lambda: 100.0, rng=random.Random(11), thinker=Thinker())


def test_bot_block_answer_timing_does_not_depend_on_its_hand() -> None:
    """R36: the delay is drawn the same way whether or not the bot holds a Block."""
    delays = []
    for block_in_hand in (True, False):
        table = _window_table(block_in_hand)
        assert block_in_hand == any(CARD_KIND[c] == Kind.BLOCK for c in table.state.hands[1])  # type: ignore[union-attr]
        settings = dataclasses.replace(FAST, bot_block_delay=(0.5, 3.0), block_timeout=10.0)
        schedule = _schedule(settings)
        schedule.window_opened_at = 100.0
        plans = [schedule.window_plan(table, 1) for _ in range(20)]
        delays.append([plan.due for plan in plans])
    assert delays[0] == delays[1]
    assert len(set(delays[0])) == 20
    assert all(100.5 <= due <= 103.0 for due in delays[0])


def test_a_bot_chooses_its_block_answer_as_the_window_opens_off_the_event_loop() -> None:
    """R36: a bot may think longer when it holds a Block (ismcts searches then), so its
    answer is chosen on the thinking thread when the window opens, from the view of that
    moment, and sent at the drawn due time whatever the thinking took."""
    table = _window_table(True)
    schedule = _schedule(FAST)
    schedule.window_opened_at = 100.0
    seen: list[tuple[str, Phase, bool]] = []

    class Recorder:
        name = "recorder"

        def choose(self, view: View) -> Action:
            holds = any(CARD_KIND[card] == Kind.BLOCK for card in view.hand or ())
            seen.append((threading.current_thread().name, view.phase, holds))
            return Action(ActionType.PASS)

    schedule.bots[1] = Recorder()
    plan = schedule.window_plan(table, 1)
    assert plan.answer is not None
    assert plan.answer.result(timeout=10) == Action(ActionType.PASS)
    assert len(seen) == 1
    thread, phase, holds = seen[0]
    assert thread.startswith("bot-thinker")
    assert thread != threading.current_thread().name
    assert (phase, holds) == (Phase.BLOCK_WINDOW, True)
    # A person's seat has no plan of its own: the window's one end is everyone's.
    schedule.replan(table)
    assert not any(isinstance(plan, TimedOut) for plan in schedule.plans.values())
    ends = [plan for plan in schedule.plans.values() if isinstance(plan, WindowEnds)]
    assert [end.due for end in ends] == [100.0 + table.options.pace.window_seconds(FAST)]
    assert len(seen) == 1


def test_a_bot_chooses_its_turn_off_the_event_loop() -> None:
    """A search (ismcts: up to ~0.9 s) runs on the thinking thread, so the process's
    other tables are served meanwhile."""
    table = _window_table(True)
    assert table.state is not None
    table.state.phase = Phase.PLAYING  # seat 0's turn, no window
    table.seats[0].kind = SeatKind.BOT
    schedule = _schedule(FAST)
    threads: list[str] = []

    class Recorder:
        name = "recorder"

        def choose(self, view: View) -> Action:
            threads.append(threading.current_thread().name)
            return Action(ActionType.PASS)

    schedule.bots[0] = Recorder()

    async def body() -> Action:
        loop_thread = threading.current_thread().name
        action = await asyncio.wrap_future(schedule.think(table, 0))
        assert threads
        assert threads[0] != loop_thread
        return action

    assert asyncio.run(body()) == Action(ActionType.PASS)
    assert len(threads) == 1
    assert threads[0].startswith("bot-thinker")
