"""The server's post-game reviews (#27), in this process: a finished game is reviewed in
the background (here on a thread instead of a worker process) for every seat people
held and for spectators, kept, and answered per viewer: a seat's own review to that
seat, the spectators' review (no decisions) to anyone else; "computing" until then."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import gc
import json
import multiprocessing
import os
import threading
from typing import Any

import pytest

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import GameRecord, Settings
from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.play import TableNews, TableStatus
from sequence_stacks.server.review import (
    SPECTATOR,
    FinishedGame,
    Reviews,
    ReviewState,
    review_pool,
)
from sequence_stacks.server.review.jobs import review_game
from sequence_stacks.server.store.reviews import MemoryReviews
from sequence_stacks.sim import play_game


def _short_game() -> GameRecord:
    bots = [make_bot("heuristic", seed=seat) for seat in range(2)]
    _, record = play_game(Settings(player_count=2, max_turns=8), 4, bots)
    return record


class _Games:
    """One finished game at table "t1" (game 1), seat 0 a person's."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.asked = 0

    async def finished_game(self, table_id: str, game: int) -> FinishedGame | None:
        self.asked += 1
        return (self.record, (0,)) if (table_id, game) == ("t1", 1) else None


def _news(status: TableStatus) -> TableNews:
    """Game 1 of table "t1" as the play room tells its watchers of it."""
    return TableNews(
        table_id="t1",
        game=1,
        status=status,
        turn_based=False,
        turn_hours=None,
        turn=8,
        window=None,
        awaited=(),
        deadline_in=None,
        connected=(True, False),
        owners=("hash", None),
        bots=(None, "heuristic"),
        standings=None,
    )


def _threads(workers: int) -> concurrent.futures.Executor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=workers)


async def _until_ready(reviews: Reviews, seat: int | None) -> str:
    for _ in range(600):
        answer = await reviews.answer("t1", 1, seat)
        if answer.state == ReviewState.READY:
            assert answer.review is not None
            return answer.review
        assert answer.state == ReviewState.COMPUTING
        await asyncio.sleep(0.05)
    raise AssertionError("the review was never ready")


def test_a_finished_game_is_reviewed_for_its_people_and_for_spectators() -> None:
    record = _short_game()
    book = MemoryReviews()
    games = _Games(record)

    async def scenario() -> None:
        reviews = Reviews(book, games, executor=_threads)
        reviews.changed(_news(TableStatus.PLAYING))
        assert games.asked == 0  # a game still running is not reviewed
        reviews.changed(_news(TableStatus.OVER))
        reviews.changed(_news(TableStatus.OVER))  # once
        own = json.loads(await _until_ready(reviews, 0))
        assert own["seat"] == 0
        assert own["decisions"]  # the seat's own decisions, compared with the expert's
        for other in (None, 1):  # a spectator, and a seat nobody held as a person
            answer = await reviews.answer("t1", 1, other)
            assert answer.viewer is None
            assert answer.review is not None
            spectators = json.loads(answer.review)
            assert spectators["seat"] is None
            assert spectators["decisions"] == []
        await reviews.close()

    asyncio.run(scenario())
    assert book.viewers("t1", 1) == [SPECTATOR, 0]
    assert games.asked == 1


def test_a_review_asked_for_before_it_exists_is_started_then() -> None:
    """After a restart the queue is gone: the first ask starts the work."""
    games = _Games(_short_game())

    async def scenario() -> None:
        reviews = Reviews(MemoryReviews(), games, executor=_threads)
        first = await reviews.answer("t1", 1, 0)
        assert first.state == ReviewState.COMPUTING
        assert json.loads(await _until_ready(reviews, 0))["seat"] == 0
        await reviews.close()

    asyncio.run(scenario())


def test_a_game_without_a_record_has_no_review() -> None:
    async def scenario() -> None:
        reviews = Reviews(MemoryReviews(), _Games(_short_game()), executor=_threads)
        assert (await reviews.answer("t2", 1, None)).state == ReviewState.COMPUTING
        states = [(await reviews.answer("t2", 1, None)).state]
        while states[-1] == ReviewState.COMPUTING and len(states) < 200:
            await asyncio.sleep(0.01)
            states.append((await reviews.answer("t2", 1, None)).state)
        assert states[-1] == ReviewState.UNAVAILABLE
        await reviews.close()

    asyncio.run(scenario())


def test_the_worker_s_reviews_read_back_as_the_bot_s() -> None:
    record = _short_game()
    reviews = review_game(record.to_dict(), [1])
    assert sorted(reviews) == [SPECTATOR, 1]
    assert json.loads(reviews[1])["seat"] == 1
    assert json.loads(reviews[SPECTATOR])["seat"] is None


def _scheduling() -> tuple[int, int]:
    """The calling process's scheduling class and niceness (run in the review pool)."""
    return os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)


def test_the_review_worker_runs_below_the_tables() -> None:
    """The server's review worker takes the idle scheduling class (Linux): it runs only
    on time the tables do not want. Checked in the pool the server makes."""
    pool = review_pool()
    try:
        policy, niceness = pool.submit(_scheduling).result(timeout=120)
    finally:
        pool.shutdown()
    assert policy == os.SCHED_IDLE, f"scheduling class {policy}, niceness {niceness}"
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the server itself is untouched


class _AnyGames:
    """Every game of table "t" is over (the same record), and the order they were read."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.read: list[int] = []

    async def finished_game(self, table_id: str, game: int) -> FinishedGame | None:
        assert table_id == "t"
        self.read.append(game)
        return (self.record, (0,))


class _Held(concurrent.futures.Executor):
    """A worker pool whose jobs finish when the test says so."""

    def __init__(self) -> None:
        self.jobs: list[concurrent.futures.Future[dict[int, str]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        del fn, args, kwargs
        job: concurrent.futures.Future[dict[int, str]] = concurrent.futures.Future()
        self.jobs.append(job)
        return job


def _over(game: int) -> TableNews:
    return dataclasses.replace(_news(TableStatus.OVER), table_id="t", game=game)


async def _settled() -> None:
    for _ in range(50):  # the reviews' tasks, and their threads reading the book
        await asyncio.sleep(0.01)


def test_games_wait_for_the_workers_asked_ones_first_then_the_newest_in_a_bounded_queue() -> None:
    """One worker, a backlog of 3 unasked games: six games end at once, then a viewer asks
    for game 2 (which had left the full queue). The worker takes game 1 (the queue was
    empty), then the asked game 2, then the newest unasked games 6, 5, 4; game 3 left the
    queue and is never made unless asked for. Never more jobs than workers at a time."""
    games = _AnyGames(_short_game())
    held = _Held()
    book = MemoryReviews()

    async def scenario() -> Reviews:
        reviews = Reviews(book, games, executor=lambda workers: held, workers=1, backlog=3)
        for game in range(1, 7):
            reviews.changed(_over(game))
        await _settled()
        assert games.read == [1]
        assert reviews.left == 2  # games 2 and 3: the oldest past the backlog
        answer = await reviews.answer("t", 2, 0)  # a viewer asks for game 2
        assert answer.state == ReviewState.COMPUTING
        while len(held.jobs) < 5:
            assert sum(not job.done() for job in held.jobs) == 1  # one worker
            held.jobs[-1].set_result({SPECTATOR: "{}", 0: "{}"})
            await _settled()
        assert games.read == [1, 2, 6, 5, 4]
        held.jobs[-1].set_result({SPECTATOR: "{}", 0: "{}"})
        await _settled()
        assert games.read == [1, 2, 6, 5, 4]  # game 3 waits to be asked for
        for game in (1, 2, 4, 5, 6):  # their tables' news goes on: not queued again
            reviews.changed(_over(game))
        await _settled()
        assert games.read == [1, 2, 6, 5, 4]
        assert len(held.jobs) == 5
        assert reviews.left == 2  # nothing pushed out of the backlog by them
        await reviews.close()
        return reviews

    asyncio.run(scenario())
    assert [game for game in range(1, 7) if book.viewers("t", game)] == [1, 2, 4, 5, 6]


def test_several_review_workers_share_the_queue() -> None:
    games = _AnyGames(_short_game())
    held = _Held()

    async def scenario() -> None:
        reviews = Reviews(MemoryReviews(), games, executor=lambda workers: held, workers=2)
        for game in range(1, 5):
            reviews.changed(_over(game))
        await _settled()
        assert len(held.jobs) == 2  # two at a time
        assert games.read == [1, 2]
        held.jobs[0].set_result({SPECTATOR: "{}"})
        await _settled()
        assert games.read == [1, 2, 4]  # the newest waiting game next
        await reviews.close()

    asyncio.run(scenario())


def test_the_server_settings_take_the_review_workers_and_backlog() -> None:
    settings = ServerSettings.from_env(
        {"SEQUENCE_STACKS_REVIEW_WORKERS": "3", "SEQUENCE_STACKS_REVIEW_BACKLOG": "10"}
    )
    assert (settings.review_workers, settings.review_backlog) == (3, 10)
    for bad in ({"review_workers": 0}, {"review_workers": 65}, {"review_backlog": -1}):
        with pytest.raises(ValueError, match="review_"):
            ServerSettings(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="REVIEW_WORKERS"):
        ServerSettings.from_env({"SEQUENCE_STACKS_REVIEW_WORKERS": "two"})


def test_a_pool_closed_while_its_worker_starts_lets_it_start_and_end(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """The server's own pool, closed the moment a review is asked for: the worker, still
    starting, finds what it unpickles (the pids queue) and ends without an error."""

    async def main() -> None:
        reviews = Reviews(MemoryReviews(), _Games(_short_game()))
        reviews.request("t1", 1)
        for _ in range(400):  # until the review is handed to the pool (its worker spawning)
            if multiprocessing.active_children():
                break
            await asyncio.sleep(0.005)
        assert multiprocessing.active_children(), "no worker was started"
        await reviews.close()

    asyncio.run(main())
    gc.collect()  # the closed Reviews and its pacer (holding the queue) are gone
    for thread in threading.enumerate():
        if thread.name == "review-pool-shutdown":
            thread.join(timeout=120)
            assert not thread.is_alive()
    for child in multiprocessing.active_children():
        child.join(timeout=120)
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
