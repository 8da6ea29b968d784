"""The server's post-game reviews (#27), in this process: a finished game is reviewed in
the background (here on a thread instead of a worker process) for every seat people
held and for spectators, kept, and answered per viewer: a seat's own review to that
seat, the spectators' review (no decisions) to anyone else; "computing" until then."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import GameRecord, Settings
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


def _threads() -> concurrent.futures.Executor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=1)


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
