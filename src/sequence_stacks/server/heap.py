"""The serving process's garbage collector: short pauses, and never a long one.

Measured under load (docs/server.md, "Where an action's CPU goes"): a running game
makes almost no reference cycles, but every action leaves objects that stay alive
(its entry, events, the table's new state). CPython's collector walks them again at
every collection of an older generation: with the young generation collected after
50,000 new objects, a middle one every 20 of those walked a million objects and
stalled every table for 100-300 ms, the jittered p99.

So, when serving: everything alive at start-up is frozen (``gc.freeze()``), the young
generation is collected after :data:`YOUNG_THRESHOLD` new objects (a pause of a few
milliseconds), and **what survives a collection is frozen at once**: each object is
walked by the collector once, young, and the older generations stay empty. The
threshold trades pauses for CPU: a collection walks what is alive in the young
generation, so a larger one pauses longer, but less often, and walks fewer objects
caught in flight. 400 tables jittered, 20 s, the collector's CPU time: 2,000 ran 79
collections (210 ms in all, median 2.6 ms, longest 3.6), 10,000 ran 15 (119 ms, median
7.7, longest 10.6), 20,000 ran 8 (94 ms, median 12.5, longest 15.0); 10,000 is about
half the CPU of 2,000 with pauses under half the jittered p99 target of 25 ms
(docs/server.md, "Fifth round"). Reference
counting still frees every object that is not in a cycle, frozen or not. Cycles among
objects that lived through a collection (a closed connection's, say) are reclaimed by
a full collection (a longer pause: it walks the whole heap), then frozen again. It
runs as CPython's own rule for its oldest generation would, when the frozen heap has
grown to :data:`FULL_GROWTH` times what the last one left, but at most once per
:data:`FULL_EVERY` seconds: so what cycles leak meanwhile stays within the live heap's
size, and a server whose tables' histories have reached their length rarely pauses.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any, Final

__all__ = ["FULL_EVERY", "YOUNG_THRESHOLD", "HeapKeeper"]

YOUNG_THRESHOLD: Final = 10_000
FULL_EVERY: Final = 900.0  # seconds at least between full collections
FULL_GROWTH: Final = 2.0  # ... and only once the frozen heap has grown this much
_STOP: Final = "stop"  # the phase a gc callback is told once a collection is over


class HeapKeeper:
    """Keeps the collector's pauses short while started (see the module's docstring).

    ``collections`` counts the collections whose survivors were frozen, for tests;
    ``full_collections`` the periodic full ones.
    """

    def __init__(self, *, full_every: float = FULL_EVERY) -> None:
        self.full_every = full_every
        self.frozen_after_full = 0
        self.collections = 0
        self.full_collections = 0
        self._thresholds = gc.get_threshold()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what is alive now; from now on freeze every collection's survivors."""
        gc.collect()
        gc.freeze()
        self.frozen_after_full = gc.get_freeze_count()
        gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
        gc.callbacks.append(self._collected)
        self._task = asyncio.get_running_loop().create_task(self._full_collections())

    def stop(self) -> None:
        """Leave the collector as it was (the frozen objects stay frozen)."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        gc.set_threshold(*self._thresholds)
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def full_collection(self) -> None:
        """Walk everything once (cycles among old objects), then freeze it again."""
        gc.unfreeze()
        gc.collect()  # its survivors frozen again by _collected
        self.frozen_after_full = gc.get_freeze_count()
        self.full_collections += 1

    def due(self) -> bool:
        """True when the frozen heap has grown enough for a full collection."""
        return gc.get_freeze_count() >= FULL_GROWTH * max(self.frozen_after_full, 1)

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == _STOP:
            gc.freeze()  # the survivors: never walked again until a full collection
            self.collections += 1

    async def _full_collections(self) -> None:
        while True:
            await asyncio.sleep(self.full_every)
            while not self.due():
                await asyncio.sleep(self.full_every / 10)
            self.full_collection()
