"""Review workers held still while the tables are busy.

A review worker runs in the idle scheduling class (:func:`.jobs.lower_priority`): the
kernel gives it only CPU time the server does not ask for. That is not all the server
loses to it: on a machine of two cores the worker takes the core the players' own
processes (the proxy, the database, a benchmark's clients) would use, and where cores
share caches or a physical core (most virtual machines) a search running beside the
event loop makes every move of a burst dearer. Measured on the 2-core test machine:
200 tables in lock step cost 0.30 ms of server CPU an action with no review worker and
0.33-0.36 ms beside an idle-class one, p99 62 ms against 78-94 ms (docs/server.md).

So the server holds its review workers still (``SIGSTOP``) from the first message of a
burst until the tables have been quiet for :data:`QUIET` seconds (no message has come
in or finished being handled: a burst's messages are all read long before the last
is committed and broadcast), then lets them go on (``SIGCONT``): a burst of moves runs
alone, and a review only takes the gaps between
bursts. A server that never falls quiet (saturated) still lets its workers run
:data:`LEAST` of every :data:`LONGEST` + :data:`LEAST` seconds, so an asked-for review
is made in the end. Signals go through a pidfd where the platform has them (a worker's
pid reused by another process is never signalled) and nowhere where there is no
``SIGSTOP`` (Windows): there the workers simply run.

A held worker cannot notice that its server died, so each worker asks the kernel to be
killed with its parent (``PR_SET_PDEATHSIG``, Linux): :func:`worker_started` does that
and reports the worker's pid to the :class:`Pacer` through a queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import logging
import multiprocessing.queues
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Final

__all__ = ["LEAST", "LONGEST", "QUIET", "Pacer", "worker_started"]

log = logging.getLogger(__name__)

QUIET: Final = 0.01  # seconds without a message before the workers go on
LONGEST: Final = 1.0  # seconds the workers are held at most in one go ...
LEAST: Final = 0.25  # ... before they run at least this long, busy or not
_PR_SET_PDEATHSIG: Final = 1
_STOP: Final = getattr(signal, "SIGSTOP", None)
_CONTINUE: Final = getattr(signal, "SIGCONT", None)

Signaller = Callable[[int, int], None]  # sends a signal to a pid (tests)


def worker_started(pids: multiprocessing.queues.SimpleQueue[int] | None) -> None:
    """In a new review worker: die with the server (Linux), and report this pid."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if pids is not None:
        pids.put(os.getpid())


class Pacer:
    """Holds the review workers still while the tables are busy (see the module).

    ``busy()`` is called for every message a table socket reads: the first one of a
    burst stops the workers; a timer lets them go once ``quiet`` seconds passed with no
    message (or ``longest`` seconds after they were stopped, for at least ``least``).
    ``pids`` is the queue :func:`worker_started` reports to; ``signal_pid`` and
    ``clock`` are for tests.
    """

    def __init__(
        self,
        pids: multiprocessing.queues.SimpleQueue[int] | None = None,
        *,
        quiet: float = QUIET,
        longest: float = LONGEST,
        least: float = LEAST,
        clock: Callable[[], float] = time.monotonic,
        signal_pid: Signaller | None = None,
    ) -> None:
        self.pids = pids
        self.quiet = quiet
        self.longest = longest
        self.least = least
        self.clock = clock
        self._signal = signal_pid
        self._workers: dict[int, int | None] = {}  # pid -> its pidfd (None: by pid)
        self.held = False
        self.holds = 0  # times the workers were stopped (for tests and figures)
        self._last = 0.0  # the last message
        self._since = 0.0  # when the workers were stopped
        self._free_until = 0.0  # a saturated server's workers run until then
        self._timer: asyncio.TimerHandle | None = None
        self.enabled = _STOP is not None and _CONTINUE is not None

    def busy(self) -> None:
        """A message arrived or was handled: hold the workers (if not held already)
        until quiet."""
        if not self.enabled:
            return
        now = self.clock()
        self._last = now
        if self.held or now < self._free_until:
            return
        self._adopt()
        if not self._workers:
            return
        self._send(_STOP)
        self.held = True
        self.holds += 1
        self._since = now
        self._timer = asyncio.get_running_loop().call_later(self.quiet, self._check)

    def release(self) -> None:
        """Let the workers go on now (the server is closing, or the pool is)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.held:
            self._send(_CONTINUE)
            self.held = False

    def forget(self) -> None:
        """The pool is gone: release its workers and close their pidfds."""
        self.release()
        for pid in list(self._workers):
            self._drop(pid)

    def _check(self) -> None:
        self._timer = None
        now = self.clock()
        if now - self._since >= self.longest:
            self._free_until = now + self.least
        elif now - self._last < self.quiet:
            wait = self.quiet - (now - self._last)
            self._timer = asyncio.get_running_loop().call_later(wait, self._check)
            return
        self.release()

    def _adopt(self) -> None:
        """Take the pids the workers reported since the last look."""
        pids = self.pids
        if pids is None:
            return
        while not pids.empty():
            pid = pids.get()
            pidfd: int | None = None
            if self._signal is None and hasattr(os, "pidfd_open"):
                with contextlib.suppress(OSError):
                    pidfd = os.pidfd_open(pid)
            self._workers[pid] = pidfd

    def _send(self, number: int | None) -> None:
        assert number is not None
        for pid, pidfd in list(self._workers.items()):
            try:
                if self._signal is not None:
                    self._signal(pid, number)
                elif pidfd is not None:
                    signal.pidfd_send_signal(pidfd, number)
                else:
                    os.kill(pid, number)
            except ProcessLookupError:  # the worker is gone
                self._drop(pid)
            except OSError as error:  # not ours to signal: leave it unpaced
                log.warning("review worker %d cannot be paced: %s", pid, error)
                self._drop(pid)

    def _drop(self, pid: int) -> None:
        """Stop pacing a worker (and close its pidfd)."""
        pidfd = self._workers.pop(pid)
        if pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(pidfd)
