"""Run simulation tasks on a Ray cluster (``--backend ray``; the ``ray`` extra).

The same :func:`~sequence_stacks.sim.runner.play_row` runs in Ray tasks, so the rows
are identical to a local run. ``address=None`` starts a local Ray instance; give a
cluster's address (``ray://head:10001`` or ``auto`` on a cluster node) to use it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from .results import Row
from .runner import PlayFn, RowSink, RunStats, Task, play_row

__all__ = ["run_ray"]


def _play_batch(batch: list[Task], play: PlayFn) -> list[Row]:
    return [play(config, index, None) for config, index in batch]


def run_ray(
    tasks: Sequence[Task],
    writer: RowSink,
    *,
    address: str | None = None,
    on_row: Callable[[Row], None] | None = None,
    batch_size: int = 8,
    max_in_flight: int = 64,
    play: PlayFn = play_row,
) -> RunStats:
    """Play ``tasks`` as Ray tasks, writing each row as its batch returns (``play``
    turns a task into its row, :func:`~.runner.play_row` by default).

    Ctrl-C cancels what is still running and keeps the finished rows. Shuts Ray down
    afterwards only if this call started it.
    """
    import ray  # noqa: PLC0415 (optional dependency)

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote: Any = ray.remote(_play_batch)
    stats = RunStats()
    start = time.perf_counter()
    batches = [list(tasks[i : i + batch_size]) for i in range(0, len(tasks), batch_size)]
    pending: list[Any] = []
    try:
        while batches or pending:
            while batches and len(pending) < max_in_flight:
                pending.append(remote.remote(batches.pop(0), play))
            done, pending = ray.wait(pending, num_returns=1)
            for row in ray.get(done[0]):
                writer.write(row)
                stats.played += 1
                if on_row is not None:
                    on_row(row)
    except KeyboardInterrupt:
        stats.interrupted = True
        for ref in pending:
            ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()
    stats.seconds = time.perf_counter() - start
    return stats
