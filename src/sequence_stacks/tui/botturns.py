"""The bots' turns in the Textual app: each bot thinks in a worker thread, at the table's pace.

A bot is asked at once and thinks in a thread, so the screen never freezes; its move shows
a set delay after it was asked, however long the thinking took.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App
from textual.worker import Worker, WorkerState

from sequence_stacks.engine import Action, IllegalActionError

from .layout import BOT_SPEEDS
from .session import GameSession

__all__ = ["BotTurns", "stepped_speed"]

_BOT_WORKER = "bot"


class BotTurns:
    """Plays the bots' turns: asks the bot in a worker thread, plays its move when due.

    ``on_played(seat, failed=...)`` follows each move; ``failed`` when the bot's choice
    was missing or refused, so the first legal action was played for it instead.
    """

    def __init__(
        self, app: App[int], session: GameSession, *, on_played: Callable[..., None]
    ) -> None:
        self._app = app
        self._session = session
        self._on_played = on_played
        self._step: int | None = None  # the step the bot was asked at, until it plays
        self._due = 0.0

    def ask(self, seat: int, *, delay: float) -> None:
        """Let the bot at ``seat`` choose; its move shows ``delay`` seconds from now."""
        self._step = self._session.step_count
        # The bot thinks at once and its move shows ``delay`` after it was asked, however
        # long the thinking took: a longer think (ismcts searches a Block answer only
        # when it holds a Block) must not show in the timing (R36).
        self._due = time.monotonic() + delay
        self._app.call_later(self._start, seat)

    def _start(self, seat: int) -> None:
        view = self._session.view(seat)
        bot = self._session.bot_for(seat)
        self._app.run_worker(
            lambda: bot.choose(view), name=_BOT_WORKER, thread=True, exit_on_error=False
        )

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """Take a finished bot worker's choice and play it when its time is due."""
        worker = event.worker
        if worker.name != _BOT_WORKER or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
        ):
            return
        chosen = worker.result if event.state == WorkerState.SUCCESS else None
        step = self._step
        wait = self._due - time.monotonic()
        if wait > 0:
            self._app.set_timer(wait, lambda: self._apply(step, chosen))
        else:
            self._apply(step, chosen)

    def _apply(self, step: int | None, chosen: object) -> None:
        """Play the bot's choice (or a fallback if it failed) unless the game moved on."""
        seat = self._session.to_act()
        if step != self._step or self._session.step_count != step or seat is None:
            return
        self._step = None
        failed = not isinstance(chosen, Action) or not self._submitted(seat, chosen)
        if failed:
            fallback = self._session.view(seat).legal_action_ids[0]
            self._session.submit(seat, self._session.action_of(fallback, seat))
        self._on_played(seat, failed=failed)

    def _submitted(self, seat: int, action: Action) -> bool:
        try:
            self._session.submit(seat, action)
        except IllegalActionError:
            return False
        return True


def stepped_speed(delay: float, delta: int) -> float:
    """The bots' waiting time ``delta`` steps along :data:`BOT_SPEEDS` from ``delay``."""
    nearest = min(range(len(BOT_SPEEDS)), key=lambda i: abs(BOT_SPEEDS[i] - delay))
    return BOT_SPEEDS[max(0, min(len(BOT_SPEEDS) - 1, nearest + delta))]
