"""Turn-based tables (#26, docs/rules-notes.md N25-N26) on a fake clock of days.

A player may close the page: the seat waits (no grace period hands it to a bot); a turn
lasts its whole turn time, then a bot finishes it. A Block window that asks a person
whose standing answer is "ask me" lasts an eighth of the turn time for everyone asked,
whatever they hold; a player whose standing answer is "never block" passes at once and
is never asked; a window that asks no person ends once the bots have answered.

The statistical test: Bob (not at the table) is asked in many windows; he opens the
game after a pause that is longer when he holds a Block (he thinks it over), answers
"pass" and closes it again. What Ann (at the table) is sent and when, the notice Bob is
sent and when, and the deadline Bob is shown, must not depend on his holding a Block
(a two-sample Kolmogorov-Smirnov test on the times, equality on the rest). The same
measurement with Bob's pass stored when given finds the difference: it could fail.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest

from sequence_stacks.engine import CARD_KIND, Action, ActionType, Kind, Phase, legal_actions
from sequence_stacks.server.notify import say, table_words
from sequence_stacks.server.play import Refusal, commands
from sequence_stacks.server.play.entries import SeatKind
from sequence_stacks.server.play.options import WINDOW_SHARE

from .test_block_windows import _blocked, _ks_p_value, _shape
from .turnbased import HOUR, Recorder, TurnTable, fire_next

TURN_HOURS = 24
WINDOW = TURN_HOURS * HOUR * WINDOW_SHARE
_PASS = Action(ActionType.PASS)


@dataclasses.dataclass
class Asked:
    """One window that asked Bob, as the others and Bob saw it."""

    holder: bool
    order: tuple[int, ...]  # the asked seats in turn order (public: who completed)
    ann_delay: float  # from the window opening to Ann's first news of it, in windows
    ann_shape: tuple[tuple[str, ...], ...]
    notices: tuple[tuple[float, str, bool], ...]  # Bob's: (delay, kind, in his words)
    deadline: float  # when Bob's countdown said the window ends, from its opening


async def _ann_turn(table: TurnTable, rng: random.Random, *, plays: bool = False) -> None:
    state = table.runtime.table.state
    assert state is not None
    actions = [a for a in legal_actions(state, 0) if a.type != ActionType.BLOCK]
    if plays:  # to a sequence pile when she can: windows come sooner
        actions = [a for a in actions if a.type == ActionType.PLAY] or actions
    version = table.runtime.table.version
    act = commands.Act(id=f"c{version}", version=version, action=rng.choice(actions))
    await table.service.command(table.table_id, table.ann, act)
    await table.notifier.drain()


async def _bob_asked(table: TurnTable, rng: random.Random, *, held: bool) -> Asked | None:
    service, runtime = table.service, table.runtime
    state = runtime.table.state
    assert state is not None
    opened = table.clock.now
    holder = any(CARD_KIND[card] == Kind.BLOCK for card in state.hands[1])
    order = tuple(state.window_pending)
    before_ann = len(table.ann.frames)
    # Bob opens the game after thinking it over: longer when he holds a Block.
    think = rng.uniform(0.4, 0.9) if holder else rng.uniform(0.0, 0.3)
    table.clock.now = opened + think * WINDOW
    bob = Recorder(table.clock)
    await service.hello(table.table_id, bob, table.tokens["Bob"], None)
    timer = bob.frames[-1][1]["timer"]
    deadline = table.clock.now + timer["remaining_ms"] / 1000 - opened
    version = runtime.table.version
    answer = commands.Act(id=f"w{version}", version=version, action=_PASS)
    if held:
        await service.command(table.table_id, bob, answer)
    else:  # the design a turn-based table must not have: the pass stored when given
        async with runtime.lock:
            payload = runtime.table.prepare_act(1, _PASS)
            await service.pipeline.commit(runtime, dataclasses.replace(payload, client=answer.id))
    await service.leave(table.table_id, bob)
    window = runtime.table.window_version
    while runtime.table.state is not None and runtime.table.state.phase == Phase.BLOCK_WINDOW:
        if runtime.table.window_version != window:
            break
        await fire_next(table)
    seen = table.ann.frames[before_ann:]
    if any(_blocked(frame) for _, frame in seen):
        return None  # a bot blocked: public, and not what is compared
    first = seen[0][0] if seen else opened
    named = table_words("sl", runtime.table.options.to_dict())
    expected = say("sl", "notice.window", table=named)  # Bob's language, the table's name
    notices = tuple(
        (round((at - opened) / WINDOW, 6), payload["kind"], payload["body"] == expected)
        for at, endpoint, payload in table.pusher.sent
        if endpoint.endswith("/Bob") and payload["kind"] == "window" and at >= opened
    )
    return Asked(
        holder,
        order,
        (first - opened) / WINDOW,
        tuple(_shape(frame) for _, frame in seen),
        notices,
        round(deadline / WINDOW, 6),
    )


async def _play(table: TurnTable, rng: random.Random, *, held: bool, wanted: int) -> list[Asked]:
    found: list[Asked] = []
    runtime = table.runtime
    for _ in range(3000):
        state = runtime.table.state
        assert state is not None
        if state.is_over or len(found) >= wanted:
            break
        if state.phase == Phase.BLOCK_WINDOW and 1 in state.window_pending:
            asked = await _bob_asked(table, rng, held=held)
            if asked is not None:
                found.append(asked)
        elif state.deciders() == (0,):
            await _ann_turn(table, rng)
        else:
            await fire_next(table)  # a bot, Bob's turn timing out, a window's end
    return found


async def _asked(count: int, *, held: bool, seed: int) -> list[Asked]:
    rng = random.Random(seed)
    found: list[Asked] = []
    while len(found) < count:
        table = await TurnTable.start(seed=rng.random(), turn_hours=TURN_HOURS)
        try:
            found += await _play(table, rng, held=held, wanted=count - len(found))
        finally:
            await table.close()
    return found


def _expected(order: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    answers: list[tuple[str, ...]] = [
        ("update", "act", str(seat), "BlockAnswered") for seat in order
    ]
    answers[-1] = (*answers[-1], "PileCompleted", "ChipTaken")
    return tuple(answers)


def _split(found: list[Asked]) -> tuple[list[Asked], list[Asked]]:
    holders = [a for a in found if a.holder]
    others = [a for a in found if not a.holder]
    assert len(holders) >= 10, len(holders)
    assert len(others) >= 10, len(others)
    return holders, others


@pytest.mark.timeout(300)
def test_a_turn_based_window_says_nothing_of_who_holds_a_block() -> None:
    found = asyncio.run(_asked(120, held=True, seed=26))
    holders, others = _split(found)
    # Ann hears of the window at its end, an eighth of the turn time after it opened.
    assert _ks_p_value([a.ann_delay for a in holders], [a.ann_delay for a in others]) > 0.05
    assert {round(a.ann_delay, 6) for a in found} == {1.0}
    # What she is sent then: each asked seat's (hidden) answer in turn order, then the
    # completed pile and its chip; a function of who completed, never of a hand.
    assert all(a.ann_shape == _expected(a.order) for a in found)
    # Bob is told once, as the window opens, in the same words, whatever he holds ...
    assert {a.notices for a in found} == {((0.0, "window", True),)}
    # ... and shown the same deadline: the window's whole time.
    assert {a.deadline for a in found} == {1.0}


@pytest.mark.timeout(300)
def test_the_check_finds_a_pass_stored_when_given() -> None:
    found = asyncio.run(_asked(60, held=False, seed=26))
    holders, others = _split(found)
    p = _ks_p_value([a.ann_delay for a in holders], [a.ann_delay for a in others])
    assert p < 0.001, p


def test_a_player_who_never_blocks_is_never_asked_and_the_game_does_not_wait() -> None:
    async def scenario() -> int:
        windows = 0
        for seed in range(20):
            table = await TurnTable.start(seed=seed, never_block=True)
            rng, runtime = random.Random(seed), table.runtime
            try:
                for _ in range(400):
                    state = runtime.table.state
                    assert state is not None
                    if state.is_over:
                        break
                    if state.deciders() != (0,):
                        await fire_next(table)
                        continue
                    before = runtime.table.window_version
                    await _ann_turn(table, rng, plays=True)
                    state = runtime.table.state
                    assert state is not None
                    # The table's runner plays the bot's turn as soon as the loop is
                    # free (no think time here), and may already have: a window the bot
                    # opened asks Ann, and is not the case looked at.
                    if runtime.table.window_version == before or state.window_completer != 0:
                        continue
                    # Ann completed a pile: Bob (who never blocks) and the bot are asked.
                    # Bob's pass is stored at once, and his Block would be refused.
                    windows += 1
                    opened, version = table.clock.now, runtime.table.window_version
                    with pytest.raises(Refusal):
                        runtime.table.prepare_act(1, Action(ActionType.BLOCK))
                    while runtime.table.window_version == version and (
                        runtime.table.state.phase == Phase.BLOCK_WINDOW  # type: ignore[union-attr]
                    ):
                        await fire_next(table)
                    # Only a bot was asked: the window ended with its answer, seconds
                    # after it opened, not hours.
                    assert table.clock.now - opened < 60
                bob = [p for _, e, p in table.pusher.sent if e.endswith("/Bob")]
                assert not [p for p in bob if p["kind"] == "window"]
            finally:
                await table.close()
            if windows >= 3:
                break
        return windows

    assert asyncio.run(scenario()) >= 3


def test_a_seat_waits_for_days_and_each_turn_times_out_once() -> None:
    async def scenario() -> None:
        table = await TurnTable.start(seed=11)
        runtime, rng = table.runtime, random.Random(11)
        try:
            turns_of_bob: list[int] = []
            start = table.clock.now
            while table.clock.now - start < 5 * 24 * HOUR:
                state = runtime.table.state
                assert state is not None
                assert not state.is_over
                if state.deciders() == (0,):
                    await _ann_turn(table, rng)
                    continue
                if state.current == 1 and state.phase != Phase.BLOCK_WINDOW:
                    turns_of_bob.append(state.turn_count)
                await fire_next(table)
            # Bob never came: his seat is still his, and each of his turns was played
            # for him only when its 24 hours were up.
            assert runtime.table.seats[1].kind == SeatKind.HUMAN
            assert len(set(turns_of_bob)) >= 3
            bob = [(at, p) for at, e, p in table.pusher.sent if e.endswith("/Bob")]
            turns = [p for _, p in bob if p["kind"] == "turn"]
            assert len(turns) == len(set(turns_of_bob)) or len(turns) == len(set(turns_of_bob)) - 1
            named = table_words("sl", table.runtime.table.options.to_dict())
            words = say("sl", "notice.turn", table=named)
            assert {p["body"] for p in turns} == {words}
        finally:
            await table.close()

    asyncio.run(scenario())


def _frames_of(recorder: Recorder, kind: str) -> list[dict[str, Any]]:
    return [frame for _, frame in recorder.frames if frame["type"] == kind]


def test_a_turn_based_table_shows_nobody_coming_or_going() -> None:
    async def scenario() -> None:
        table = await TurnTable.start(seed=3)
        try:
            before = len(table.ann.frames)
            bob = Recorder(table.clock)
            await table.service.hello(table.table_id, bob, table.tokens["Bob"], None)
            await table.service.leave(table.table_id, bob)
            assert table.ann.frames[before:] == []
            sync = _frames_of(bob, "sync")[-1]
            assert [seat["connected"] for seat in sync["table"]["seats"]] == [False] * 3
        finally:
            await table.close()

    asyncio.run(scenario())
