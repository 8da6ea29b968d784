"""Run simulation tasks on a Ray cluster (``--backend ray``; the ``ray`` extra).

The same :func:`~sequence_stacks.sim.runner.play_row` runs in Ray tasks, so the rows
are identical to a local run. ``address=None`` starts a local Ray instance; give a
cluster's address (``ray://head:10001`` or ``auto`` on a cluster node) to use it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .results import Row
from .runner import PlayFn, RowSink, RunStats, Task, play_row, until

__all__ = ["ray_session", "run_ray"]


@contextlib.contextmanager
def ray_session(address: str | None = None) -> Iterator[None]:
    """Connect to Ray (``address``, or a new local instance) unless already connected;
    shut it down on the way out only if this call connected, so several runs in one
    session start Ray once."""
    import ray  # noqa: PLC0415 (optional dependency)

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def _play_batch(batch: list[Task], play: PlayFn) -> list[Row]:
    return [play(config, index, None) for config, index in batch]


def run_ray(
    tasks: Sequence[Task],
    writer: RowSink,
    *,
    address: str | None = None,
    on_row: Callable[[Row], None] | None = None,
    batch_size: int = 8,
    max_in_flight: int | None = None,
    play: PlayFn = play_row,
    deadline: float | None = None,
) -> RunStats:
    """Play ``tasks`` as Ray tasks, writing each row as its batch returns (``play``
    turns a task into its row, :func:`~.runner.play_row` by default). After the
    ``deadline`` (``time.monotonic()``) no batch is sent (``stats.cut``). At most
    ``max_in_flight`` batches wait or run at once (default: twice the cluster's CPUs).

    Ctrl-C cancels what is still running and keeps the finished rows. Shuts Ray down
    afterwards only if this call started it (:func:`ray_session`).
    """
    import ray  # noqa: PLC0415 (optional dependency)

    stats = RunStats()
    start = time.perf_counter()
    batches = until(
        (list(tasks[i : i + batch_size]) for i in range(0, len(tasks), batch_size)),
        deadline,
        stats,
    )
    pending: list[Any] = []
    with ray_session(address):
        remote: Any = ray.remote(_play_batch)
        cluster: Any = ray  # cluster_resources is untyped
        limit = max_in_flight or max(2, 2 * int(cluster.cluster_resources().get("CPU", 1)))
        try:
            more = True
            while more or pending:
                while more and len(pending) < limit:
                    batch = next(batches, None)
                    more = batch is not None
                    if batch is not None:
                        pending.append(remote.remote(batch, play))
                if not pending:
                    break
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
    stats.seconds = time.perf_counter() - start
    return stats
