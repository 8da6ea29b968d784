"""The lobby's side of the tables: making a table (its options checked, a friendly name
no listed table has) and the public list, a page at a time."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping
from typing import Any, Final

from sequence_stacks.engine import Settings, SettingsError
from sequence_stacks.engine.settings import OptionsConflictError
from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.store import ListingCursor, Storage, TableRow

from .entries import SeatKind, TableStatus
from .options import ANIMALS, DEFAULT_PACE, Pace, TableName, TableOptions, free_name
from .refusals import Refusal, RefusalCode

__all__ = ["LISTING_PAGE", "VISIBILITIES", "Listing"]

VISIBILITIES: Final = ("public", "unlisted")
LISTING_PAGE: Final = 50
_NAMES_SCANNED: Final = 500  # listed tables whose names a new public table avoids


class Listing:
    """Makes tables and lists the public ones (blocking reads: :meth:`page` is run in
    a thread by its HTTP handler)."""

    def __init__(self, storage: Storage, settings: ServerSettings) -> None:
        self._storage = storage
        self._settings = settings
        self._naming = asyncio.Lock()

    async def create(
        self,
        options: Mapping[str, Any],
        *,
        visibility: str,
        pace: str | None = None,
        turn_hours: int | None = None,
    ) -> str:
        """Create a table with validated engine settings and its own options (its
        ``pace``, its turn time in hours if it is turn-based; a friendly name no listed
        table has); return its id."""
        if visibility not in VISIBILITIES:
            raise Refusal(RefusalCode.BAD_REQUEST, "visibility is 'public' or 'unlisted'")
        try:
            settings = Settings.from_dict(options)
        except OptionsConflictError as error:
            raise Refusal(RefusalCode.BAD_REQUEST, str(error), detail=_conflict(error)) from None
        except (SettingsError, TypeError) as error:
            raise Refusal(RefusalCode.BAD_REQUEST, str(error)) from None
        try:
            chosen = Pace(pace) if pace is not None else DEFAULT_PACE
        except ValueError:
            paces = ", ".join(repr(p.value) for p in Pace)
            raise Refusal(RefusalCode.BAD_REQUEST, f"pace is one of {paces}") from None
        table_id = secrets.token_urlsafe(9)
        async with self._naming:  # two tables made at once never take one name
            name = await self._free_name(visibility)
            try:
                table_options = TableOptions(pace=chosen, name=name, turn_hours=turn_hours)
            except ValueError as error:
                raise Refusal(RefusalCode.BAD_REQUEST, str(error)) from None
            empty = {"kind": SeatKind.EMPTY.value}
            row = TableRow(
                table_id=table_id,
                created_at=time.time(),
                visibility=visibility,
                settings=settings.to_dict(),
                summary={"seats": [empty] * settings.player_count, "game": 0},
                options=table_options.to_dict(),
            )
            await asyncio.to_thread(self._storage.create_table, row)
        return table_id

    async def _free_name(self, visibility: str) -> TableName:
        """A name for a new table: for a public one, one that no listed table has."""
        pick = secrets.randbelow(len(ANIMALS))
        if visibility != "public":
            return TableName(ANIMALS[pick])
        since = time.time() - self._settings.listing_idle
        rows = await asyncio.to_thread(
            self._storage.listed_tables, since=since, limit=_NAMES_SCANNED
        )
        taken = {name for row in rows if (name := _name_of(row)) is not None}
        return free_name(taken, pick)

    def page(
        self, *, limit: int = LISTING_PAGE, before: ListingCursor | None = None
    ) -> dict[str, Any]:
        """One page of the public list, most recently active first: tables in the lobby
        or playing, changed within ``listing_idle``, where a person sits, or nobody sits
        yet and it is not ``empty_listing_idle`` old (a game of bots alone is not
        listed); ``next`` is the following page's cursor (None on the last page)."""
        now = time.time()
        since = now - self._settings.listing_idle
        kept: list[TableRow] = []
        cursor, more = before, True
        while more and len(kept) <= limit:
            rows = self._storage.listed_tables(since=since, limit=limit + 1, before=cursor)
            more = len(rows) > limit
            if rows:
                cursor = ListingCursor(rows[-1].updated_at, rows[-1].table_id)
            kept += [row for row in rows if self._listable(row, now)]
        page = kept[:limit]
        last = page[-1] if page else None
        after = ListingCursor(last.updated_at, last.table_id) if last else None
        return {
            "tables": [_listed(row) for row in page],
            "next": after.text() if after and (len(kept) > limit or more) else None,
        }

    def _listable(self, row: TableRow, now: float) -> bool:
        """Whether a public row found by the listing query is shown (#24)."""
        kinds = [seat.get("kind") for seat in row.summary.get("seats", [])]
        if SeatKind.HUMAN in kinds:
            return True
        if row.status == TableStatus.PLAYING:
            return False  # bots playing on their own: nobody to join or watch
        return row.updated_at >= now - self._settings.empty_listing_idle


def _conflict(error: OptionsConflictError) -> dict[str, Any]:
    """A refused combination of options as a message (#24): ``settings.<code>`` naming
    the options involved, which the lobby words with its own labels."""
    first, *rest = error.options
    return {
        "key": f"settings.{error.code}",
        "args": {"option": first, "other_option": rest[0] if rest else first},
    }


def _name_of(row: TableRow) -> TableName | None:
    """A stored table's name (None for one stored before tables had names)."""
    try:
        return TableOptions.from_dict(row.options).name
    except ValueError:
        return None


def _listed(row: TableRow) -> dict[str, Any]:
    """A public table as the lobby lists it."""
    return {
        "id": row.table_id,
        "status": row.status,
        "players": row.settings.get("player_count"),
        "seats": row.summary.get("seats", []),
        "game": row.summary.get("game", 0),
        "options": dict(row.options),
    }
