"""The turn timer counts the whole turn (#15 item 4): playing a card does not restart
it, a Block window inside the turn pauses it, and a seat handed to a bot mid-turn is
played by the bot at once rather than waiting out the person's deadline."""

from __future__ import annotations

import dataclasses
import random

from sequence_stacks.engine import ActionType, Phase, Settings, State, legal_actions
from sequence_stacks.server import ServerSettings
from sequence_stacks.server.play.entries import Act, SeatKind
from sequence_stacks.server.play.schedule import (
    TURN_AFTER_WINDOW,
    BotMove,
    Schedule,
    Thinker,
    TimedOut,
    TurnKey,
)
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import TableRow

from .harness import FAST

TIMEOUT = 60.0


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _settings() -> ServerSettings:
    return dataclasses.replace(FAST, turn_timeout=TIMEOUT)


def _table_at_a_play(seed: int) -> Table:
    """Two people at a table whose current seat can put a card on a pile (its turn
    goes on after it)."""
    for attempt in range(seed, seed + 200):
        table = Table(TableRow("t", 0.0, "public", Settings(player_count=2).to_dict()))
        for seat in range(2):
            table.apply_payload(table.version + 1, table.prepare_sit(f"P{seat}", seat, f"h{seat}"))
        table.apply_payload(table.version + 1, table.prepare_start(attempt, "greedy"))
        state = table.state
        assert state is not None
        seat = state.current
        if any(a.type == ActionType.PLAY for a in legal_actions(state, seat)):
            return table
    raise AssertionError("no deal with a play in 200 seeds")


def _play(table: Table) -> None:
    state = table.state
    assert state is not None
    action = next(a for a in legal_actions(state, state.current) if a.type == ActionType.PLAY)
    table.apply_payload(table.version + 1, Act(state.current, str(action), "c"))


@dataclasses.dataclass
class Turn:
    """A person's turn on a planned table: its clock, table, state, schedule and key."""

    clock: Clock
    table: Table
    state: State
    schedule: Schedule
    key: TurnKey

    def window(self, *, opens: bool) -> None:
        """Open (as the engine does inside a turn) or close a Block window, and replan."""
        self.state.phase = Phase.BLOCK_WINDOW if opens else Phase.PLAYING
        self.state.window_pending = [1 - self.state.current] if opens else []
        self.schedule.replan(self.table)


def _turn(seed: int) -> Turn:
    clock = Clock()
    table = _table_at_a_play(seed)
    schedule = Schedule(_settings(), clock=clock, rng=random.Random(seed), thinker=Thinker())
    schedule.replan(table)
    state = table.state
    assert state is not None
    return Turn(clock, table, state, schedule, TurnKey(state.turn_count, state.current))


def test_a_card_played_does_not_restart_the_turn_timer() -> None:
    turn = _turn(1)
    first = turn.schedule.plans[turn.key]
    assert isinstance(first, TimedOut)
    assert first.due == 100.0 + TIMEOUT
    turn.clock.now = 130.0
    count = turn.state.turn_count
    _play(turn.table)
    assert turn.state.turn_count == count  # the same turn goes on
    turn.schedule.replan(turn.table)
    assert turn.schedule.plans[turn.key] is first  # not restarted
    timer = turn.schedule.timer(turn.table)
    assert timer is not None
    assert timer.remaining_ms == 30_000


def test_a_block_window_pauses_the_turn_and_it_resumes_where_it_was() -> None:
    turn = _turn(2)
    turn.clock.now = 140.0  # 20 s of the 60 left
    turn.window(opens=True)
    assert turn.key not in turn.schedule.plans
    turn.clock.now = 150.0
    turn.window(opens=False)
    resumed = turn.schedule.plans[turn.key]
    assert isinstance(resumed, TimedOut)
    assert resumed.due == 150.0 + 20.0


def test_a_turn_resumed_after_a_window_has_time_to_look_again() -> None:
    turn = _turn(3)
    turn.clock.now = 100.0 + TIMEOUT - 1.0  # 1 s left when the window opens
    turn.window(opens=True)
    turn.clock.now = 200.0
    turn.window(opens=False)
    assert turn.schedule.plans[turn.key].due == 200.0 + TURN_AFTER_WINDOW


def test_a_seat_handed_to_a_bot_mid_turn_is_played_by_the_bot() -> None:
    turn = _turn(4)
    assert isinstance(turn.schedule.plans[turn.key], TimedOut)
    turn.table.seats[turn.state.current].kind = SeatKind.BOT
    turn.schedule.replan(turn.table)
    plan = turn.schedule.plans[turn.key]
    assert isinstance(plan, BotMove)
    assert plan.due <= turn.clock.now + max(FAST.bot_delay)
