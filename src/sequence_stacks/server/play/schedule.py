"""What a table does by itself, and when: bots' moves, time-outs, grace periods.

Each table has a :class:`Schedule`: its typed deadlines (:data:`Plan`), the clock they
are measured on, its bots and the one thinking thread they think on. The schedule
decides *when*; the service (``service.py``) turns a plan that falls due into a log
entry through the same pipeline as a person's command.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import enum
import logging
import math
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Final

from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.engine import (
    Action,
    EngineError,
    Phase,
    State,
    View,
    legal_actions,
    observe,
)
from sequence_stacks.server.config import ServerSettings

from .entries import SeatKind
from .table import Effects, Table

__all__ = [
    "BotMove",
    "GraceOver",
    "Plan",
    "PlanKey",
    "ReplaceKey",
    "Schedule",
    "StandingPass",
    "Thinker",
    "TimedOut",
    "Timer",
    "TimerKind",
    "TurnKey",
    "WindowEndKey",
    "WindowEnds",
    "WindowKey",
    "asks_people",
]

log = logging.getLogger("sequence_stacks.server")

# At least this long is left of a turn a Block window interrupted, so its player can
# see the board again before acting (seconds).
TURN_AFTER_WINDOW: Final = 10.0


@dataclasses.dataclass(frozen=True, slots=True)
class TurnKey:
    """The deadline of one whole turn, the game's ``turn``-th (#15: playing a card does
    not restart it; a Block window inside the turn pauses it)."""

    turn: int
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class WindowKey:
    """A seat's answer deadline in the Block window opened at ``window_version``."""

    window_version: int
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class WindowEndKey:
    """The end of the Block window opened at ``window_version``."""

    window_version: int


@dataclasses.dataclass(frozen=True, slots=True)
class ReplaceKey:
    """The grace-period deadline of an absent player's seat."""

    seat: int


PlanKey = TurnKey | WindowKey | WindowEndKey | ReplaceKey


@dataclasses.dataclass(slots=True)
class BotMove:
    """A bot acts at ``due``. In a Block window its ``answer`` is being chosen already,
    from its view as the window opened, on the thinking thread: how long it thinks may
    depend on its hand (a search runs only when it holds a Block), when the answer is
    sent may not (R36)."""

    due: float
    seat: int
    answer: concurrent.futures.Future[Action] | None = None


@dataclasses.dataclass(slots=True)
class TimedOut:
    """A person has not finished their turn by ``due``: a bot finishes it for them."""

    due: float
    seat: int


@dataclasses.dataclass(slots=True)
class WindowEnds:
    """The Block window's time is up at ``due``: every asked seat that has not blocked
    passes (R29). A window lasts its whole time for everyone, whatever anyone holds or
    answered (docs/rules-notes.md), unless a Block ends it first."""

    due: float
    window_version: int


@dataclasses.dataclass(slots=True)
class StandingPass:
    """At a turn-based table, a player whose standing answer is "never block" passes
    as the window opens (``due``): decided before the deal, it says nothing of the
    hand, so it is stored at once and they are never asked (docs/rules-notes.md N25)."""

    due: float
    seat: int


@dataclasses.dataclass(slots=True)
class GraceOver:
    """A person away since ``due - grace_period`` loses the seat to a bot (``replace``)."""

    due: float
    seat: int


Plan = BotMove | TimedOut | WindowEnds | GraceOver | StandingPass


class TimerKind(enum.StrEnum):
    """What a client's countdown is for."""

    TURN = "turn"
    BLOCK = "block"


@dataclasses.dataclass(frozen=True, slots=True)
class Timer:
    """A countdown the clients show: whose, and how long is left."""

    kind: TimerKind
    seats: tuple[int, ...]
    remaining_ms: int


class Thinker:
    """The one thread bots think on: a search (ismcts: up to ~0.9 s) must not stop the
    event loop and with it every table of the process. One thread, so bots choose one at
    a time and never two choices of one bot at once."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def submit(self, bot: Bot, state: State, seat: int) -> concurrent.futures.Future[Action]:
        """Start choosing ``bot``'s action for ``seat`` from the state as it is now."""
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="bot-thinker"
            )
        legal = legal_actions(state, seat)  # taken now: the state may move on meanwhile
        return self._pool.submit(_choose, bot, observe(state, seat), lambda: legal[-1])

    def close(self) -> None:
        """Drop queued choices; a choice under way finishes on its own."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _choose(bot: Bot, view: View, fallback: Callable[[], Action]) -> Action:
    """The bot's choice from ``view``; ``fallback()`` (the last legal action) if it fails."""
    try:
        return bot.choose(view)
    except (EngineError, ValueError):
        log.exception("bot %s failed; taking the last legal action", bot.name)
        return fallback()


class Schedule:
    """One table's deadlines, its bots and its runner's sleep.

    Attributes:
        plans: every automatic action due, by what it is for.
        absent_since: per human seat with no connection, since when (clock seconds).
        bots: the bot playing each bot seat (made on first use, seeded from ``rng``).
        window_opened_at: when the open Block window opened, or the table was loaded
            with one open (a fresh full window after a restart: docs/server.md).
        held: the answers given in the open window, by seat, each waiting for the
            window's end (R29: secret until it closes), with the id of the command that
            gave it (None for a bot's).
    """

    def __init__(
        self,
        settings: ServerSettings,
        *,
        clock: Callable[[], float],
        rng: random.Random,
        thinker: Thinker,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.rng = rng
        self.thinker = thinker
        self.plans: dict[PlanKey, Plan] = {}
        self.absent_since: dict[int, float] = {}
        self.bots: dict[int, Bot] = {}
        self.window_opened_at = 0.0
        self.held: dict[int, tuple[Action, str | None]] = {}
        # A person's turn paused by a Block window: its key and the seconds it had left.
        self.paused: tuple[TurnKey, float] | None = None
        self.wake = asyncio.Event()
        # When the runner sleeps until its next plan is due, that time; else -inf. A
        # replan wakes it only if something is now due sooner (most replans, one per
        # action, only push the next plan later).
        self.sleeping_until = -math.inf

    # --- deciding what is due ---------------------------------------------------------

    def replan(self, table: Table) -> None:
        """Recompute the automatic actions due; keep those whose situation is unchanged."""
        state = table.state
        wanted: dict[PlanKey, Plan] = {}
        if state is not None and not state.is_over:
            now = self.clock()
            if state.phase == Phase.BLOCK_WINDOW:
                self._window_plans(table, state.window_pending, wanted)
            else:
                key = TurnKey(state.turn_count, state.current)
                kept = self.plans.get(key)
                # A seat handed to a bot mid-turn (or back) gets the plan of who plays it.
                bot = table.seats[state.current].kind == SeatKind.BOT
                if kept is None or isinstance(kept, BotMove) != bot:
                    kept = self.turn_plan(table, state.current, now)
                wanted[key] = kept
            self._pause(wanted, now)
            # At a turn-based table players may close the page: their seat waits.
            away = {} if table.options.turn_based else self.absent_since
            for seat, since in away.items():
                if table.seats[seat].kind == SeatKind.HUMAN:
                    wanted[ReplaceKey(seat)] = GraceOver(since + self.settings.grace_period, seat)
        self.plans = wanted
        if any(plan.due < self.sleeping_until for plan in wanted.values()):
            self.wake.set()

    def _pause(self, wanted: dict[PlanKey, Plan], now: float) -> None:
        """Keep what is left of a person's turn while a Block window interrupts it."""
        for key, plan in self.plans.items():
            if isinstance(key, TurnKey) and key not in wanted and isinstance(plan, TimedOut):
                self.paused = (key, plan.due - now)

    def _window_plans(
        self, table: Table, pending: Iterable[int], wanted: dict[PlanKey, Plan]
    ) -> None:
        """The open window's end, each asked bot's answer not yet given, and the pass of
        each asked player whose standing answer is "never block"."""
        version = table.window_version
        end = WindowEndKey(version)
        wanted[end] = self.plans.get(end) or WindowEnds(self.window_deadline(table), version)
        for seat in pending:
            key = WindowKey(version, seat)
            if seat in self.held:
                continue
            if _never_asked(table, seat):
                wanted[key] = self.plans.get(key) or StandingPass(self.window_opened_at, seat)
            elif table.seats[seat].kind == SeatKind.BOT:
                wanted[key] = self.plans.get(key) or self.window_plan(table, seat)

    def window_deadline(self, table: Table) -> float:
        """When the open window ends: its whole time after it opened, at the table's pace
        (at a turn-based table that asks a person, a share of the turn time)."""
        seconds = table.options.window_seconds(self.settings, asks_people=asks_people(table))
        return self.window_opened_at + seconds

    def window_plan(self, table: Table, seat: int) -> BotMove:
        """When an asked bot gives its answer: after a delay drawn the same way whatever
        it holds (R36), chosen on the thinking thread as the window opens; the answer
        is then held for the window's end (:meth:`hold`), as a person's is."""
        low, high = self.settings.bot_block_delay
        window = table.options.window_seconds(self.settings, asks_people=asks_people(table))
        delay = min(self.rng.uniform(low, high), window)
        return BotMove(self.window_opened_at + delay, seat, self.think(table, seat))

    def hold(self, seat: int, answer: Action, client: str | None) -> None:
        """``seat`` answered the open window: the answer waits for the window's end,
        so what and when it answered shows to nobody (R29, docs/rules-notes.md N19)."""
        self.held[seat] = (answer, client)

    def all_held(self, pending: Iterable[int]) -> bool:
        """True when every asked seat has given its answer."""
        return all(seat in self.held for seat in pending)

    def turn_plan(self, table: Table, seat: int, now: float) -> Plan:
        """When ``seat``'s turn action comes: a bot's think time, a person's time-out."""
        if table.seats[seat].kind == SeatKind.BOT:
            low, high = self.settings.bot_delay
            return BotMove(now + self.rng.uniform(low, high), seat)
        state = table.state
        assert state is not None
        key = TurnKey(state.turn_count, seat)
        left = table.options.turn_seconds(self.settings)
        if self.paused is not None and self.paused[0] == key:
            # The turn goes on where it was, with time to look at the board again.
            left = max(self.paused[1], min(TURN_AFTER_WINDOW, left))
        self.paused = None
        return TimedOut(now + left, seat)

    def timer(self, table: Table) -> Timer | None:
        """The countdown the clients show now, or None."""
        state = table.state
        if state is None or state.is_over:
            return None
        now = self.clock()
        if state.phase == Phase.BLOCK_WINDOW:
            end = self.plans.get(WindowEndKey(table.window_version))
            deadline = end.due if isinstance(end, WindowEnds) else self.window_deadline(table)
            return Timer(TimerKind.BLOCK, tuple(state.window_pending), _ms(deadline - now))
        plan = self.plans.get(TurnKey(state.turn_count, state.current))
        if not isinstance(plan, TimedOut):
            return None
        return Timer(TimerKind.TURN, (plan.seat,), _ms(plan.due - now))

    # --- bots -------------------------------------------------------------------------

    def bot(self, table: Table, seat: int) -> Bot:
        """The bot playing ``seat`` (a new one, seeded from ``rng``, on first use)."""
        bot = self.bots.get(seat)
        if bot is None:
            name = table.seats[seat].bot or self.settings.default_bot
            bot = make_bot(name, seed=self.rng.getrandbits(32))
            self.bots[seat] = bot
        return bot

    def think(self, table: Table, seat: int) -> concurrent.futures.Future[Action]:
        """Start choosing the bot's action for ``seat`` on the thinking thread."""
        state = table.state
        assert state is not None
        return self.thinker.submit(self.bot(table, seat), state, seat)

    def seat_changed_hands(self, seat: int) -> None:
        """A seat's bot stopped (its player came back): its pending plans go with it."""
        self.bots.pop(seat, None)
        self.held.pop(seat, None)
        self.plans = {
            key: plan
            for key, plan in self.plans.items()
            if isinstance(plan, WindowEnds) or plan.seat != seat
        }

    # --- what the table and its connections tell the schedule -------------------------

    def seat_left(self, seat: int) -> None:
        """The last connection holding ``seat`` went: its grace period starts now."""
        self.absent_since[seat] = self.clock()

    def seat_back(self, seat: int) -> None:
        """A connection holds ``seat`` again: no grace period runs for it."""
        self.absent_since.pop(seat, None)

    def grace_over(self, seat: int) -> None:
        """``seat`` goes to a bot: it is no longer waited for, and a new bot plays it."""
        self.absent_since.pop(seat, None)
        self.bots.pop(seat, None)

    def restarted(self, human_seats: Iterable[int]) -> None:
        """A table loaded from storage: every person away since now, and a Block window
        still open given a fresh full time (its players must reconnect first)."""
        now = self.clock()
        for seat in human_seats:
            self.absent_since[seat] = now
        self.window_opened_at = now
        self.held.clear()

    def absorb(self, effects: Effects, *, connected: Sequence[bool]) -> None:
        """What an applied entry changes here: a new game's bots are made afresh, a
        player back from a bot stops it, a person seated with no connection is away,
        and a Block window that opened starts its deadline."""
        if effects.new_game:
            self.bots.clear()
        if effects.back is not None:
            # The stand-in bot stops: its pending Block answer goes, and the plans are
            # made again for a human seat (the window's deadline, the turn's time-out).
            self.seat_changed_hands(effects.back)
        if effects.seated is not None and not connected[effects.seated]:
            self.seat_left(effects.seated)
        if effects.window_opened:
            self.window_opened_at = self.clock()
            self.held.clear()

    # --- running ----------------------------------------------------------------------

    async def run(
        self,
        lock: asyncio.Lock,
        fire: Callable[[Plan], Awaitable[None]],
        closed: Callable[[], bool],
    ) -> None:
        """Sleep until the next plan is due, then ``fire`` it under the table's lock (if
        it is still the plan for its key); until ``closed()``."""
        while not closed():
            self.wake.clear()
            if not self.plans:
                self.sleeping_until = math.inf
                await self.wake.wait()
                self.sleeping_until = -math.inf
                continue
            key, plan = min(self.plans.items(), key=lambda item: item[1].due)
            delay = plan.due - self.clock()
            if delay > 0:
                self.sleeping_until = plan.due
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self.wake.wait()
                self.sleeping_until = -math.inf
                continue
            async with lock:
                if self.plans.get(key) is plan:
                    del self.plans[key]
                    await fire(plan)
            await asyncio.sleep(0)


def _never_asked(table: Table, seat: int) -> bool:
    """True for a person whose standing answer is "never block" (turn-based tables)."""
    found = table.seats[seat]
    return table.options.turn_based and found.kind == SeatKind.HUMAN and found.never_block


def asks_people(table: Table) -> bool:
    """True when the open Block window waits for a person's answer: an asked person
    who may block ("ask me"), holder or not. Whether it does depends on who sits and
    their standing answers, never on a hand."""
    state = table.state
    if state is None or state.phase != Phase.BLOCK_WINDOW:
        return False
    return any(
        table.seats[seat].kind == SeatKind.HUMAN and not _never_asked(table, seat)
        for seat in state.window_pending
    )


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
