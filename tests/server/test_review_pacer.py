"""The review workers wait while the tables are busy (server/review/pacer.py): stopped
from a burst's first message until the tables are quiet, never longer than LONGEST at
a time, and each worker dies with its server."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from sequence_stacks.server.review import review_pool
from sequence_stacks.server.review.pacer import Pacer

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "SIGSTOP"), reason="no SIGSTOP on this platform: nothing is paced"
)


def _held(pacer: Pacer) -> bool:
    """Whether the workers are held now (read through a call: it changes under us)."""
    return pacer.held


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _paced(clock: _Clock) -> tuple[Pacer, list[tuple[int, int]]]:
    sent: list[tuple[int, int]] = []
    pids = multiprocessing.get_context("spawn").SimpleQueue()
    pids.put(4242)
    pacer = Pacer(
        pids,
        quiet=0.01,
        longest=1.0,
        least=0.25,
        clock=clock,
        signal_pid=lambda pid, number: sent.append((pid, number)),
    )
    return pacer, sent


async def _a_burst_stops_the_workers_once_and_quiet_lets_them_go() -> None:
    clock = _Clock()
    pacer, sent = _paced(clock)
    for _ in range(50):  # a burst of messages: one stop
        pacer.busy()
    assert sent == [(4242, signal.SIGSTOP)]
    assert _held(pacer)
    clock.now += 0.005  # another message half-way through the quiet time
    pacer.busy()
    await asyncio.sleep(0.02)  # the first check finds the last message too recent
    assert _held(pacer)
    assert sent == [(4242, signal.SIGSTOP)]
    clock.now += 0.02  # quiet since
    await asyncio.sleep(0.03)
    assert not _held(pacer)
    assert sent == [(4242, signal.SIGSTOP), (4242, signal.SIGCONT)]
    pacer.busy()  # the next burst stops them again
    assert sent[-1] == (4242, signal.SIGSTOP)
    assert pacer.holds == 2
    pacer.forget()
    assert sent[-1] == (4242, signal.SIGCONT)
    assert not _held(pacer)


async def _a_server_that_never_falls_quiet_still_lets_its_workers_run() -> None:
    clock = _Clock()
    pacer, sent = _paced(clock)
    pacer.busy()
    for _ in range(30):  # messages keep coming for more than LONGEST
        clock.now += 0.05
        pacer.busy()
        await asyncio.sleep(0.012)
        if not _held(pacer):
            break
    assert not _held(pacer), "held past LONGEST"
    assert clock.now - 100.0 >= 1.0  # ... and not before it
    assert sent == [(4242, signal.SIGSTOP), (4242, signal.SIGCONT)]
    clock.now += 0.1
    pacer.busy()  # within LEAST: the workers keep running
    assert not _held(pacer)
    assert len(sent) == 2
    clock.now += 0.2
    pacer.busy()  # LEAST is over: held again
    assert _held(pacer)
    assert sent[-1] == (4242, signal.SIGSTOP)
    pacer.forget()


async def _a_gone_worker_is_forgotten() -> None:
    def gone(pid: int, number: int) -> None:
        raise ProcessLookupError(pid)

    pids = multiprocessing.get_context("spawn").SimpleQueue()
    pids.put(4243)
    pacer = Pacer(pids, signal_pid=gone)
    pacer.busy()
    pacer.busy()
    assert pacer.holds == 1  # the stop found nobody: nobody is held later
    pacer.forget()


def _state(pid: int) -> str:
    """A process's state letter from /proc ("T": stopped)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2]


async def _until_state(pid: int, letter: str) -> bool:
    deadline = time.monotonic() + 2
    while _state(pid) != letter and time.monotonic() < deadline:
        await asyncio.sleep(0.001)
    return _state(pid) == letter


def _worker_facts() -> tuple[int, int]:
    """Run in a review worker: its pid and the signal it gets when its parent dies."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    death = ctypes.c_int(0)
    libc.prctl(2, ctypes.byref(death))  # PR_GET_PDEATHSIG
    return os.getpid(), death.value


async def _the_real_review_worker_is_stopped_and_continued() -> None:
    """The server's pool: its worker reports its pid, dies with the server (SIGKILL),
    is stopped by a message and runs again once the tables are quiet."""
    pids = multiprocessing.get_context("spawn").SimpleQueue()
    pool = review_pool(1, pids)
    pacer = Pacer(pids, quiet=0.05)
    try:
        loop = asyncio.get_running_loop()
        pid, death = await loop.run_in_executor(pool, _worker_facts)
        assert death == signal.SIGKILL
        pacer.busy()
        assert _held(pacer)
        assert await _until_state(pid, "T"), _state(pid)  # a signal lands in microseconds
        deadline = time.monotonic() + 5
        while _held(pacer) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert not _held(pacer)
        assert _state(pid) != "T"
        assert await loop.run_in_executor(pool, _worker_facts) == (pid, death)  # it works on
    finally:
        pacer.forget()
        pool.shutdown()


def test_a_burst_stops_the_workers_once_and_quiet_lets_them_go() -> None:
    asyncio.run(_a_burst_stops_the_workers_once_and_quiet_lets_them_go())


def test_a_server_that_never_falls_quiet_still_lets_its_workers_run() -> None:
    asyncio.run(_a_server_that_never_falls_quiet_still_lets_its_workers_run())


def test_a_gone_worker_is_forgotten() -> None:
    asyncio.run(_a_gone_worker_is_forgotten())


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; PR_SET_PDEATHSIG is Linux's")
def test_the_real_review_worker_is_stopped_and_continued() -> None:
    asyncio.run(_the_real_review_worker_is_stopped_and_continued())
