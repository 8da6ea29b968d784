"""Post-game reviews on the server (#27): computed in the background after every
finished game, kept in the database, served at once when asked.

:class:`Reviews` watches the tables (a ``TableWatcher``: the play room tells it of
every table's news). When a game is over it asks the play room for the game's record
and the seats people held (:class:`FinishedGames`), and hands the work to its worker
processes (one unless ``review_workers`` says more) at the idle priority (:mod:`.jobs`):
a review for each of those seats and one for spectators. The event loop only schedules
and awaits; the reviews are written to the
:class:`~sequence_stacks.server.store.reviews.ReviewBook` when done. A review asked for
before it exists (or after a restart lost the queue) is started then, ahead of the
games nobody asked for, and the answer says it is being computed. Games wait in a queue
of their own, never more than the workers in the process pool at once: when games end
faster than the workers review them, at most ``backlog`` wait unasked (the newest go
first; the oldest leave the queue and are reviewed if someone asks), so a busy server
keeps neither an unbounded queue nor a person waiting behind it.

Who sees what is the caller's business (the web room): it passes the seat the asker's
token holds now, and :meth:`Reviews.answer` gives that seat's review when there is one,
else the spectators' (which has no decisions: nothing of any seat's hand).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import enum
import logging
import multiprocessing
import multiprocessing.queues
import threading
import time
from collections.abc import Callable
from typing import Final, Protocol

from sequence_stacks.engine import GameRecord
from sequence_stacks.server.play import TableNews, TableStatus
from sequence_stacks.server.store.reviews import ReviewBook

from .jobs import SPECTATOR, review_game, start_worker
from .pacer import Pacer

__all__ = [
    "RETRY_AFTER",
    "REVIEW_BACKLOG",
    "FinishedGame",
    "FinishedGames",
    "ReviewAnswer",
    "ReviewState",
    "Reviews",
    "review_pool",
]

log = logging.getLogger(__name__)

# How long a client waits before asking again while a review is computed (seconds).
RETRY_AFTER: Final = 3
# Finished games whose reviews wait unasked, at most (the default of ``review_backlog``):
# at 15-30 s of a core a game, a quarter of an hour or more of one worker's work.
REVIEW_BACKLOG: Final = 64
_REMEMBERED: Final = 4096  # reviewed games known without asking the book


class ReviewState(enum.StrEnum):
    """Where a game's review is."""

    READY = "ready"
    COMPUTING = "computing"
    UNAVAILABLE = "unavailable"  # the game is not over, or its review failed


# A finished game as the reviews need it: its record and the seats people held.
FinishedGame = tuple[GameRecord, tuple[int, ...]]


class FinishedGames(Protocol):
    """The play room's finished games (``TableService.finished_game``)."""

    async def finished_game(self, table_id: str, game: int) -> FinishedGame | None:
        """Game ``game`` of the table and the seats people held, if it is over."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewAnswer:
    """What :meth:`Reviews.answer` found: the state, and when ready the viewer it is for
    (a seat, or None for the spectators') and the review's JSON text."""

    state: ReviewState
    viewer: int | None = None
    review: str | None = None


def review_pool(
    workers: int = 1, pids: multiprocessing.queues.SimpleQueue[int] | None = None
) -> concurrent.futures.Executor:
    """``workers`` processes below the tables' priority (spawned: no copy of the
    server's threads and sockets), each telling ``pids`` its pid once started."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(pids,),
    )


def _shut_down(executor: concurrent.futures.Executor, keep: object) -> None:
    """Stop ``executor`` (its queued work dropped), waiting for its workers to end,
    ``keep`` (what they unpickle as they start) held until then."""
    executor.shutdown(wait=True, cancel_futures=True)
    del keep


class Reviews:
    """The server's post-game reviews (see the module docstring)."""

    def __init__(
        self,
        book: ReviewBook,
        games: FinishedGames | None = None,
        *,
        executor: Callable[[int], concurrent.futures.Executor] | None = None,
        clock: Callable[[], float] = time.time,
        workers: int = 1,
        backlog: int = REVIEW_BACKLOG,
    ) -> None:
        self.book = book
        self.games = games
        # The server's own pool (executor None) is paced: held still while the tables
        # are busy (:mod:`.pacer`); a pool given by a test is not.
        self._make_executor = executor
        self._executor: concurrent.futures.Executor | None = None
        self.pacer = Pacer()
        self._clock = clock
        self._workers = workers
        self._backlog = backlog
        # Games waiting for a worker, oldest first: True once a viewer asked for it.
        self._waiting: dict[tuple[str, int], bool] = {}
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._failed: set[tuple[str, int]] = set()
        # Games reviewed lately (the news of a finished table keeps coming as its people
        # leave): not queued again, so they never push a waiting game out of the backlog.
        self._done: dict[tuple[str, int], None] = {}
        self._closed = False
        self.left = 0  # unasked games that left a full backlog (computed if asked for)

    # --- watching the tables ----------------------------------------------------------

    def watches(self, *, turn_based: bool, status: TableStatus) -> bool:
        """Tables whose game is over."""
        return status == TableStatus.OVER

    def changed(self, news: TableNews) -> None:
        """A table's news: a game that is over gets its reviews."""
        if news.status == TableStatus.OVER:
            self._queue((news.table_id, news.game), asked=False)

    def request(self, table_id: str, game: int) -> None:
        """A viewer asks for a game's reviews: start them unless under way (or failed),
        ahead of every game nobody asked for."""
        self._queue((table_id, game), asked=True)

    def _queue(self, key: tuple[str, int], *, asked: bool) -> None:
        """Queue a game (once). The games asked for go first, in the order asked; then
        the newest game nobody asked for. Past ``backlog`` unasked games, the oldest
        leaves the queue: its reviews are made if someone asks for them."""
        if key in self._running or key in self._failed or key in self._done:
            return
        self._waiting[key] = asked or self._waiting.get(key, False)
        if not asked:
            unasked = [waiting for waiting, wanted in self._waiting.items() if not wanted]
            if len(unasked) > self._backlog:
                del self._waiting[unasked[0]]
                self.left += 1
        self._start()

    def _start(self) -> None:
        """Give free workers the next games of the queue."""
        while self._waiting and len(self._running) < self._workers:
            first_asked = next((key for key, wanted in self._waiting.items() if wanted), None)
            key = first_asked if first_asked is not None else next(reversed(self._waiting))
            del self._waiting[key]
            self._running[key] = asyncio.get_running_loop().create_task(self._review(key))

    async def _review(self, key: tuple[str, int]) -> None:
        table_id, game = key
        try:
            if await asyncio.to_thread(self.book.viewers, table_id, game):
                self._remember(key)
                return  # reviewed already (by this process before, or another worker)
            assert self.games is not None, "Reviews.games is set before any game ends"
            finished = await self.games.finished_game(table_id, game)
            if finished is None:  # no such game, or not over: nothing to review
                self._failed.add(key)
                return
            loop = asyncio.get_running_loop()
            record, seats = finished
            reviews = await loop.run_in_executor(self._pool(), review_game, record.to_dict(), seats)
            await asyncio.to_thread(self.book.save, table_id, game, reviews, self._clock())
            self._remember(key)
        except Exception:
            log.exception("the review of game %s of table %s failed", game, table_id)
            self._failed.add(key)
        finally:
            del self._running[key]
            if not self._closed:
                self._start()

    def _remember(self, key: tuple[str, int]) -> None:
        self._done[key] = None
        if len(self._done) > _REMEMBERED:
            del self._done[next(iter(self._done))]

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self._make_executor is None:
                pids = multiprocessing.get_context("spawn").SimpleQueue()
                self.pacer.pids = pids
                self._executor = review_pool(self._workers, pids)
            else:
                self._executor = self._make_executor(self._workers)
        return self._executor

    def busy(self) -> None:
        """The tables are busy (a message arrived): the workers wait (:mod:`.pacer`)."""
        self.pacer.busy()

    # --- answering --------------------------------------------------------------------

    async def answer(self, table_id: str, game: int, seat: int | None) -> ReviewAnswer:
        """The review ``seat``'s holder may read (the spectators' for None or a seat
        with no review of its own); COMPUTING while it is made (started if need be)."""
        key = (table_id, game)
        if key in self._failed:
            return ReviewAnswer(ReviewState.UNAVAILABLE)
        viewers = await asyncio.to_thread(self.book.viewers, table_id, game)
        if not viewers:
            self.request(table_id, game)
            return ReviewAnswer(ReviewState.COMPUTING)
        viewer = seat if seat is not None and seat in viewers else SPECTATOR
        text = await asyncio.to_thread(self.book.load, table_id, game, viewer)
        if text is None:
            return ReviewAnswer(ReviewState.UNAVAILABLE)
        return ReviewAnswer(ReviewState.READY, None if viewer == SPECTATOR else viewer, text)

    async def close(self) -> None:
        """Stop: drop the queued work (a review under way is lost; asked for again, it
        is started again)."""
        self._closed = True
        self._waiting.clear()
        for task in list(self._running.values()):
            task.cancel()
        self.pacer.forget()
        if self._executor is not None:
            # A worker still starting unpickles the pids queue, whose semaphore goes
            # with the queue's last reference here: a thread keeps it until they are gone.
            threading.Thread(
                target=_shut_down,
                args=(self._executor, self.pacer.pids),
                name="review-pool-shutdown",
                daemon=True,
            ).start()
            self._executor = None
        await asyncio.to_thread(self.book.close)
