"""Block windows at a table (#24, R29, docs/rules-notes.md "Block windows at a table"):
a window lasts its whole time for everyone, whatever anyone holds or answered, so
neither being asked nor the timing of what the others see says who holds a Block.

The statistical test plays many windows on a fake clock: the asked person answers
"pass" at a time that depends on whether they hold a Block (a holder thinks longer),
and everything the *other* person at the table is sent during the window, and when,
must have the same distribution for holders and non-holders (a two-sample
Kolmogorov-Smirnov test on the times, equality on the frames' shapes). The same test
with the pass applied when it was given (as before #24) does find the difference:
the check could fail.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import random
from collections.abc import Mapping
from typing import Any

import pytest

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    Phase,
    legal_actions,
)
from sequence_stacks.server import MemoryStorage, ServerSettings, TableService
from sequence_stacks.server.play import commands
from sequence_stacks.server.play.options import Pace
from sequence_stacks.server.play.runtime import Runtime
from sequence_stacks.server.play.schedule import WindowEnds

from .harness import FAST

WINDOW = 1000.0  # seconds of fake time: the real runner never reaches a deadline


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A connection: every frame it is sent, with the fake time it was sent at."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.notation = False
        self.frames: list[tuple[float, dict[str, Any]]] = []

    def send(self, frame: Mapping[str, Any]) -> None:
        self.frames.append((self.clock.now, json.loads(json.dumps(frame))))

    def send_text(self, text: str) -> None:
        self.frames.append((self.clock.now, json.loads(text)))

    def flush(self) -> None:
        pass  # frames are taken as they are queued

    def kick(self, code: int, reason: str) -> None:
        raise AssertionError(f"kicked: {code} {reason}")


@dataclasses.dataclass
class Window:
    """What one window looked like from the completer's side of the table."""

    holder: bool
    delay: float  # fake seconds from the window opening to Ann's first news of it, in
    # windows of the window's length (she hears nothing of it before: 1.0)
    shape: tuple[tuple[str, ...], ...]  # the frames Ann got meanwhile, without versions
    asked_timer: dict[str, Any]  # the countdown Bob was given when it opened


async def _windows(count: int, *, held: bool, seed: int) -> list[Window]:
    """Play two-person games (Ann, Bob, and a bot) on a fake clock until ``count``
    windows asked Bob; Bob passes after a pause that is longer when he holds a Block.
    With ``held`` False, Bob's pass is committed when given (the design before #24)."""
    rng = random.Random(seed)
    clock = Clock()
    settings = dataclasses.replace(FAST, block_timeout=WINDOW, bot_block_delay=(5.0, 50.0))
    found: list[Window] = []
    while len(found) < count:
        storage = MemoryStorage()
        service = TableService(storage, settings, clock=clock, rng=random.Random(rng.random()))
        table_id = await service.create_table(
            {"player_count": 3}, visibility="unlisted", pace="normal"
        )
        ann, bob = Recorder(clock), Recorder(clock)
        for name, who in (("Ann", ann), ("Bob", bob)):
            _, token = await service.sit(table_id, name, None)
            await service.hello(table_id, who, token, None)
        runtime = await service.tables.get(table_id)
        await _command(service, table_id, ann, commands.Start(id="go", version=2))
        found += await _play(service, runtime, ann, bob, rng, held=held, wanted=count - len(found))
        await service.close()
    return found


async def _command(
    service: TableService, table_id: str, who: Recorder, command: commands.Command
) -> None:
    await service.command(table_id, who, command)


async def _play(
    service: TableService,
    runtime: Runtime,
    ann: Recorder,
    bob: Recorder,
    rng: random.Random,
    *,
    held: bool,
    wanted: int,
) -> list[Window]:
    table = runtime.table
    found: list[Window] = []
    people = {0: ann, 1: bob}
    for _ in range(2000):
        state = table.state
        assert state is not None
        if state.is_over or len(found) >= wanted:
            break
        if state.phase == Phase.BLOCK_WINDOW and 1 in state.window_pending:
            window = await _bob_asked(service, runtime, ann, bob, rng, held=held)
            if window is not None:
                found.append(window)
            continue
        deciders = state.deciders()
        seat = deciders[0]
        if seat in people:
            # Nobody plays a Block; Bob keeps his (never discards one), so many of the
            # windows that ask him find him holding one.
            actions = [a for a in legal_actions(state, seat) if a.type != ActionType.BLOCK]
            if seat == 1:
                actions = [a for a in actions if a.kind != Kind.BLOCK] or actions
            choice = rng.choice(actions)
            act = commands.Act(id=f"c{table.version}", version=table.version, action=choice)
            await _command(service, table.table_id, people[seat], act)
        else:
            await _fire_next(service, runtime)
    return found


async def _fire_next(service: TableService, runtime: Runtime) -> None:
    """Run the plan due first (a bot's move, a window's end) at its fake time."""
    plan = min(runtime.schedule.plans.values(), key=lambda p: p.due)
    runtime.schedule.plans = {k: p for k, p in runtime.schedule.plans.items() if p is not plan}
    service.clock.now = max(service.clock.now, plan.due)  # type: ignore[attr-defined]
    async with runtime.lock:
        await service.pipeline.fire(runtime, plan)


async def _bob_asked(
    service: TableService,
    runtime: Runtime,
    ann: Recorder,
    bob: Recorder,
    rng: random.Random,
    *,
    held: bool,
) -> Window | None:
    table = runtime.table
    state = table.state
    assert state is not None
    clock: Clock = service.clock  # type: ignore[assignment]
    opened_at = clock.now
    holder = any(CARD_KIND[card] == Kind.BLOCK for card in state.hands[1])
    opening = [f for t, f in bob.frames if f["type"] == "update"][-1]
    asked_timer = opening["timer"]
    before = len(ann.frames)
    # Bob answers "pass" after thinking: longer when he has a Block to weigh.
    think = rng.uniform(0.5, 0.9) if holder else rng.uniform(0.0, 0.3)
    clock.now = opened_at + think * WINDOW
    answer = commands.Act(id=f"w{table.version}", version=table.version, action=_PASS)
    if held:
        await _command(service, table.table_id, bob, answer)
    else:  # as before #24: the pass is stored as soon as it is given
        async with runtime.lock:
            payload = table.prepare_act(1, _PASS)
            await service.pipeline.commit(runtime, dataclasses.replace(payload, client=answer.id))
    window_version = table.window_version
    while (
        table.state is not None
        and table.state.phase == Phase.BLOCK_WINDOW
        and table.window_version == window_version
    ):
        await _fire_next(service, runtime)
    seen = ann.frames[before:]
    if any(_blocked(frame) for _, frame in seen):
        return None  # a bot blocked: public, and not what is compared
    heard_at = seen[0][0] if seen else opened_at
    shape = tuple(_shape(frame) for _, frame in seen)
    return Window(holder, (heard_at - opened_at) / WINDOW, shape, asked_timer)


_PASS = Action(ActionType.PASS)


def _blocked(frame: Mapping[str, Any]) -> bool:
    return any(event["type"] == "PileBlocked" for event in frame.get("events", []))


def _shape(frame: Mapping[str, Any]) -> tuple[str, ...]:
    """A frame's kind, who acted and its events up to the window's outcome (what comes
    after, the next turn, depends on the game, not on the window)."""
    events: list[str] = []
    for event in frame.get("events", []):
        events.append(event["type"])
        if event["type"] in ("ChipTaken", "PileBlocked"):
            break
    return (frame["type"], str(frame.get("op")), str(frame.get("seat")), *events)


def _unseated(shape: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """A window's frames without the seat each came from."""
    return tuple((frame[0], frame[1], *frame[3:]) for frame in shape)


def _ks_p_value(one: list[float], other: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov test's p-value (asymptotic)."""
    values = sorted(set(one) | set(other))
    d = max(
        abs(sum(x <= v for x in one) / len(one) - sum(x <= v for x in other) / len(other))
        for v in values
    )
    n = len(one) * len(other) / (len(one) + len(other))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    if lam < 1e-9:
        return 1.0
    p = 2.0 * sum((-1.0) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, p))


def _split(windows: list[Window]) -> tuple[list[Window], list[Window]]:
    holders = [w for w in windows if w.holder]
    others = [w for w in windows if not w.holder]
    assert len(holders) >= 10, len(holders)
    assert len(others) >= 10, len(others)
    return holders, others


@pytest.mark.timeout(240)
def test_what_the_table_sees_of_a_window_does_not_depend_on_holding_a_block() -> None:
    windows = asyncio.run(_windows(200, held=True, seed=24))
    holders, others = _split(windows)
    # When the other person at the table first hears of the window: always its end.
    p = _ks_p_value([w.delay for w in holders], [w.delay for w in others])
    assert p > 0.05, p
    assert {round(w.delay, 6) for w in windows} == {1.0}
    # What they are sent meanwhile: the same kinds of frames, holder or not. The seats
    # the answers are stored for come in turn order from the completer (a Reverse turns
    # it round), which is the game's, not the window's: compared without them.
    assert {_unseated(w.shape) for w in holders} == {_unseated(w.shape) for w in others}
    # The prompt the asked seat gets: the same countdown whatever it holds.
    timers = {(w.asked_timer["kind"], w.asked_timer["remaining_ms"]) for w in windows}
    assert timers == {("block", int(WINDOW * 1000))}, timers


@pytest.mark.timeout(240)
def test_the_check_finds_the_leak_of_passes_stored_when_given() -> None:
    """The same measurement on the design before #24 (a pass stored as soon as it is
    given) tells holders from non-holders: the test above could fail."""
    windows = asyncio.run(_windows(200, held=False, seed=24))
    holders, others = _split(windows)
    p = _ks_p_value([w.delay for w in holders], [w.delay for w in others])
    assert p < 0.001, p


def test_a_practice_window_ends_when_its_one_person_has_passed() -> None:
    """With one person at a table of bots and nobody watching, there is nobody to
    learn anything from a window's timing: it ends as soon as everyone has passed."""

    async def scenario() -> None:
        clock = Clock()
        settings = dataclasses.replace(FAST, block_timeout=WINDOW, bot_block_delay=(0.0, 0.0))
        service = TableService(MemoryStorage(), settings, clock=clock)
        table_id, _, token = await service.play_now("Ann", 2, pace="normal")
        ann = Recorder(clock)
        await service.hello(table_id, ann, token, None)
        runtime = await service.tables.get(table_id)
        table = runtime.table
        rng = random.Random(3)
        for _ in range(3000):
            state = table.state
            assert state is not None
            assert not state.is_over, "no window asked Ann"
            if state.phase == Phase.BLOCK_WINDOW and 0 in state.window_pending:
                break
            if 0 in state.deciders():
                choice = rng.choice(
                    [a for a in legal_actions(state, 0) if a.type != ActionType.BLOCK]
                )
                act = commands.Act(id=f"c{table.version}", version=table.version, action=choice)
                await _command(service, table_id, ann, act)
            else:
                await _fire_next(service, runtime)
        opened = table.window_version
        # The bot's answer comes first (a pass, held), then Ann's pass ends the window.
        while 1 in table.state.window_pending and 1 not in runtime.schedule.held:  # type: ignore[union-attr]
            await _fire_next(service, runtime)
        if table.window_version == opened and table.state.phase == Phase.BLOCK_WINDOW:  # type: ignore[union-attr]
            now = clock.now
            answer = commands.Act(id="p", version=table.version, action=_PASS)
            await _command(service, table_id, ann, answer)
            assert table.window_version != opened or table.state.phase != Phase.BLOCK_WINDOW  # type: ignore[union-attr]
            assert clock.now == now  # at once, not at the window's end
            acks = [f for _, f in ann.frames if f["type"] == "ack" and f["id"] == "p"]
            assert len(acks) == 1
            ends = [p for p in runtime.schedule.plans.values() if isinstance(p, WindowEnds)]
            assert not ends or ends[0].window_version != opened
        await service.close()

    asyncio.run(scenario())


def test_a_pass_at_a_table_of_two_people_waits_for_the_window_to_end() -> None:
    """A held pass is acknowledged only once stored, at the window's end (nothing is
    acknowledged before it is durable)."""
    windows = asyncio.run(_windows(3, held=True, seed=5))
    assert all(round(w.delay, 6) == 1.0 for w in windows)


def test_settings_pace_times() -> None:
    settings = ServerSettings()
    assert [p.window_seconds(settings) for p in Pace] == [8.0, 5.0, 3.0]
    assert [p.turn_seconds(settings) for p in Pace] == [180.0, 90.0, 45.0]
