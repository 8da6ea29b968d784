"""Group commit: the writer thread SQLite's and PostgreSQL's storages share.

Writes are *jobs* (a function of a connection) queued from any thread. One writer
thread takes every job waiting in its queue (up to :data:`GROUP_LIMIT`), runs each in
a savepoint of one transaction (a refused job rolls back alone), commits, and only
then completes the jobs' futures: many tables' actions share one commit, and nothing
is acknowledged before it is in the database. On an event loop, the jobs queued while
its ready callbacks run go to the writer together once they have run: one wake-up of
the writer thread per burst of actions rather than per action.

What differs between databases (how a transaction begins on which connection, how it
rolls back, what the waiters hear when the connection is lost) is given as functions.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

import msgspec

if TYPE_CHECKING:
    from .records import LogEntry

__all__ = ["GROUP_LIMIT", "Connection", "GroupCommitted", "GroupWriter", "Job"]

GROUP_LIMIT: Final = 256  # most jobs one group commit takes
_ENCODER: Final = msgspec.json.Encoder()


class Connection(Protocol):
    """What the writer needs of a database connection: to run a statement."""

    def execute(self, statement: str, /) -> Any:
        """Run one SQL statement."""
        ...


_Db = TypeVar("_Db", bound=Connection)
Job = Callable[[_Db], None]
# A job and who waits for it: a concurrent future (any thread), or an asyncio future
# and its loop (completed there, one hand-over per loop and group).
_Waiter = concurrent.futures.Future[None] | tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]
_Queued = tuple[Callable[[_Db], None], _Waiter]


class GroupWriter(Generic[_Db]):
    """One writer thread committing queued jobs in groups (see the module's docstring).

    Args:
        name: the thread's name.
        begin: returns a connection on which a transaction has just begun.
        roll_back: ends a failed transaction on that connection (it may be broken).
        failure: what every waiter of a group that failed as a whole is told, given
            the error (a lost connection becomes ``StorageUnavailableError``).
        closed: the error a job submitted after :meth:`close` fails with.
        inline: commit the jobs an event loop submits on that loop, at the end of the
            loop's round of ready callbacks, instead of handing them to the thread
            (SQLite: a commit there is a write to the WAL file with no sync, cheaper
            than the two hand-overs between threads; docs/server.md, Load). Jobs from
            other threads still go to the writer thread; a lock keeps one transaction
            at a time on the connection.
    """

    def __init__(
        self,
        *,
        name: str,
        begin: Callable[[], _Db],
        roll_back: Callable[[_Db], None],
        failure: Callable[[Exception], Exception] = lambda error: error,
        closed: Callable[[], Exception],
        inline: bool = False,
    ) -> None:
        self._inline = inline
        self._connection_lock = threading.Lock()  # one transaction at a time
        self._begin = begin
        self._roll_back = roll_back
        self._failure = failure
        self._closed_error = closed
        self._jobs: queue.SimpleQueue[_Queued[_Db] | list[_Queued[_Db]] | None] = (
            queue.SimpleQueue()
        )
        self._pending: list[_Queued[_Db]] = []  # queued on the event loop, not handed over
        self._closed = False
        self._closing = threading.Lock()
        self.commits = 0  # transactions committed (for tests and tuning)
        self.grouped = 0  # jobs those transactions held
        self._thread = threading.Thread(target=self._write_loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Job[_Db]) -> concurrent.futures.Future[None]:
        """Queue a job; its future completes once the job's transaction committed (or
        with the job's error, or the group's)."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self._closing:
            if self._closed:
                future.set_exception(self._closed_error())
            elif loop is None:
                self._jobs.put((job, future))
            else:
                self._pending.append((job, future))
                if len(self._pending) == 1:
                    loop.call_soon(self._flush)
        return future

    def submit_async(self, job: Job[_Db]) -> asyncio.Future[None]:
        """Queue a job from the running event loop; the asyncio future completes on that
        loop once the job's transaction committed (the writer hands a whole group's
        outcomes over in one call, not one per job)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._closing:
            if self._closed:
                future.set_exception(self._closed_error())
                return future
            self._pending.append((job, (loop, future)))
            if len(self._pending) == 1:
                loop.call_soon(self._flush)
        return future

    def _flush(self) -> None:
        with self._closing:
            batch, self._pending = self._pending, []
            if not batch:
                return
            if not self._inline:
                self._jobs.put(batch)
                return
        with self._connection_lock:
            self._commit_group(batch, on_loop=asyncio.get_running_loop())

    def between_transactions(self) -> threading.Lock:
        """The lock held while a transaction of this writer runs: who holds it knows no
        transaction of this writer is under way, and none begins (SQLite's checkpointer
        restarting the log)."""
        return self._connection_lock

    def close(self) -> bool:
        """Commit the jobs already queued, then stop the thread. False if it was
        closed already."""
        with self._closing:
            if self._closed:
                return False
            self._closed = True
            if self._pending:
                self._jobs.put(self._pending)
                self._pending = []
            self._jobs.put(None)
        self._thread.join()
        return True

    # --- the writer thread ------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = first if isinstance(first, list) else [first]
            stop = False
            while len(batch) < GROUP_LIMIT:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                if isinstance(job, list):
                    batch.extend(job)
                else:
                    batch.append(job)
            with self._connection_lock:
                self._commit_group(batch)
            if stop:
                return

    def _commit_group(
        self, batch: list[_Queued[_Db]], on_loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        try:
            failures = self._attempt(batch, guarded=False)
            if failures is None:  # a job failed: again, each job behind a savepoint
                failures = self._attempt(batch, guarded=True)
            assert failures is not None
        except Exception as error:  # the whole group failed
            told = self._failure(error)
            _settle([(waiter, told) for _, waiter in batch], on_loop)
            return
        self.commits += 1
        self.grouped += len(batch)
        # Only now, after COMMIT returned, does anyone hear that a job is done.
        outcomes = [(waiter, failure) for (_, waiter), failure in zip(batch, failures, strict=True)]
        _settle(outcomes, on_loop)

    def _attempt(
        self, batch: list[_Queued[_Db]], *, guarded: bool
    ) -> list[Exception | None] | None:
        """Run the group in one transaction and commit it. Unguarded (the usual case: a
        job of a group fails only when its table changed hands), the jobs run one after
        another with no savepoint round trips, and the first failure rolls the whole
        transaction back (None: try again guarded). Guarded, each job has a savepoint,
        so a failing job fails alone. Returns each job's error (or None)."""
        db = self._begin()
        try:
            if guarded or len(batch) == 1:
                failures = _run_jobs(db, batch)
            else:
                try:
                    for job, _ in batch:
                        job(db)
                except Exception:  # told to its waiter by the guarded run
                    self._roll_back(db)
                    return None
                failures = [None] * len(batch)
            db.execute("COMMIT")
        except BaseException:
            self._roll_back(db)
            raise
        return failures


def _settle(
    outcomes: list[tuple[_Waiter, Exception | None]],
    on_loop: asyncio.AbstractEventLoop | None = None,
) -> None:
    """Tell each waiter its job's outcome: a concurrent future at once, the asyncio
    futures of each loop together, in one call made on that loop (at once when this
    runs on it: ``on_loop``)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]]
    by_loop = {}
    for waiter, failure in outcomes:
        if isinstance(waiter, concurrent.futures.Future):
            if failure is None:
                waiter.set_result(None)
            else:
                waiter.set_exception(failure)
        else:
            loop, future = waiter
            by_loop.setdefault(loop, []).append((future, failure))
    for loop, futures in by_loop.items():
        if loop is on_loop:
            _settle_on_loop(futures)
            continue
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(_settle_on_loop, futures)


def _settle_on_loop(futures: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for future, failure in futures:
        if future.done():
            continue
        if failure is None:
            future.set_result(None)
        else:
            future.set_exception(failure)


class GroupCommitted:
    """A storage writing through a :class:`GroupWriter` (its ``_writer``): appending
    entries (the storage gives the job, :meth:`_append_job`), and the writer's
    counters, for tests and tuning."""

    _writer: GroupWriter[Any]

    def append(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> None:
        """Insert the entry and update the row in one committed transaction."""
        self.submit(table_id, entry, status=status, summary=summary).result()

    def submit(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> concurrent.futures.Future[None]:
        """Queue the entry for the writer; the future completes after its commit."""
        return self._writer.submit(self._job(table_id, entry, status, summary))

    def commit_async(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> asyncio.Future[None]:
        """Queue the entry from the event loop; the future completes there after its
        commit."""
        return self._writer.submit_async(self._job(table_id, entry, status, summary))

    def _job(
        self, table_id: str, entry: LogEntry, status: str, summary: Mapping[str, Any] | None
    ) -> Job[Any]:
        payload = _ENCODER.encode(entry.payload).decode()
        text = None if summary is None else _ENCODER.encode(summary).decode()
        return self._append_job(table_id, entry.version, payload, status, text)

    def _append_job(
        self, table_id: str, version: int, payload: str, status: str, summary: str | None
    ) -> Job[Any]:
        """The job that moves the table's row from ``version - 1`` to ``version`` and
        inserts the entry (its JSON text), or raises StorageConflictError if the row
        was not at the version before (so no version is ever written twice)."""
        raise NotImplementedError

    @property
    def commits(self) -> int:
        """Transactions committed by the writer."""
        return self._writer.commits

    @property
    def grouped(self) -> int:
        """Jobs those transactions held."""
        return self._writer.grouped


def _run_jobs(db: _Db, batch: list[_Queued[_Db]]) -> list[Exception | None]:
    """Run each job in the open transaction; return each one's error (or None)."""
    if len(batch) == 1:
        # Alone, a job needs no savepoint: if it fails, the transaction does.
        batch[0][0](db)
        return [None]
    failures: list[Exception | None] = []
    for job, _ in batch:
        db.execute("SAVEPOINT job")
        try:
            job(db)
        except Exception as error:  # handed to its waiter
            db.execute("ROLLBACK TO SAVEPOINT job")
            failures.append(error)
        else:
            failures.append(None)
        db.execute("RELEASE SAVEPOINT job")
    return failures
