"""Whether this process may act on a table: the :class:`Gate` the table service is
given, and :class:`OpenGate`, the gate of a server that is the only one on its
database (every table is its own). Several workers on one PostgreSQL database pass
the service a gate that owns tables through advisory locks instead (``cluster.py``).

A gate is asked before a table is loaded (:meth:`Gate.acquire`), before each commit
(:meth:`Gate.owns`) and when the storage says another process wrote a table's next
version (:meth:`Gate.conflict`). It may ask its :class:`TableHost` (the service's
registry of loaded tables) to load a table it took over or drop one it lost.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from .refusals import Refusal

__all__ = ["Gate", "OpenGate", "TableHost"]


class TableHost(Protocol):
    """What a gate may ask of the tables this process has loaded."""

    def loaded(self) -> list[str]:
        """The ids of the tables loaded now."""
        ...

    def load(self, table_id: str) -> Awaitable[object]:
        """Load a table this process may act on now (its runner starts)."""
        ...

    def drop(self, table_id: str, *, release: bool) -> Awaitable[None]:
        """Stop and forget a table; with ``release`` give it up to another process;
        its connections are told to reconnect."""
        ...

    def load_playing(self, take: Callable[[str], Awaitable[bool]]) -> Awaitable[list[str]]:
        """Load every table with a game under way for which ``take(table_id)`` says
        this process may (given up again if it cannot be loaded); return the ids."""
        ...


class Gate(Protocol):
    """Which tables this process may act on (see the module's docstring)."""

    def bind(self, host: TableHost) -> None:
        """Give the gate the tables it may load and drop."""
        ...

    async def start(self) -> None:
        """Begin: take the tables this process should run (their runners start)."""
        ...

    async def close(self) -> None:
        """End: stop taking tables, drop those held (without handing them over)."""
        ...

    async def acquire(self, table_id: str) -> None:
        """Be allowed to load ``table_id`` here; raise Refusal (``elsewhere``) if
        another process has it."""
        ...

    async def release(self, table_id: str) -> None:
        """Give up a table that could not be loaded after :meth:`acquire`."""
        ...

    def owns(self, table_id: str) -> bool:
        """True while this process may change ``table_id`` (checked before commits)."""
        ...

    def conflict(self, table_id: str) -> Refusal | None:
        """Another process committed the table's next version: what to answer (the
        table is dropped here), or None when that cannot mean a lost table."""
        ...

    def health(self) -> dict[str, Any]:
        """The health endpoint's body (``ready`` says whether this process takes work)."""
        ...

    async def hand_over(self) -> None:
        """Graceful shutdown: give every table up so other processes take them."""
        ...


class OpenGate:
    """The gate of a server alone on its database: every table is its own."""

    def __init__(self) -> None:
        self._host: TableHost | None = None
        self._ready = False

    def bind(self, host: TableHost) -> None:
        """Keep the host to load every playing table at start."""
        self._host = host

    async def start(self) -> None:
        """Load every table with a game under way (its bots and timers run again)."""
        assert self._host is not None, "bind the gate to the service's tables first"
        await self._host.load_playing(self._take)
        self._ready = True

    async def _take(self, table_id: str) -> bool:
        return True

    async def close(self) -> None:
        """Nothing is held elsewhere: the tables stop with the service."""
        self._ready = False

    async def acquire(self, table_id: str) -> None:
        """Every table may be loaded here."""

    async def release(self, table_id: str) -> None:
        """Nothing was taken."""

    def owns(self, table_id: str) -> bool:
        """Every table is this process's."""
        return True

    def conflict(self, table_id: str) -> Refusal | None:
        """Alone on the database, a conflict is a fault, not a lost table."""
        return None

    def health(self) -> dict[str, Any]:
        """Ready once started."""
        return {"ok": True, "ready": self._ready}

    async def hand_over(self) -> None:
        """Nobody to hand tables to."""
