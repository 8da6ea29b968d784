"""Who sits at a table and what each seat did: seats, per-game tallies, the archive
of a game (its secret seed and actions), display names and a game's standings."""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Sequence
from typing import Any, Final

from sequence_stacks.engine import Action, Event, GameRecord, Settings, State
from sequence_stacks.engine.events import CardStolen, ChipStolen, PileBlocked, PileCompleted

from .entries import SeatKind
from .refusals import Refusal, RefusalCode

__all__ = [
    "NAME_LIMIT",
    "GameArchive",
    "Seat",
    "Tally",
    "bot_seat",
    "clean_name",
    "count_event",
    "same_name",
    "standings",
]

NAME_LIMIT: Final = 24


@dataclasses.dataclass(slots=True)
class Seat:
    """Who sits in one seat; ``token_hash`` is the SHA-256 of a human's secret token.

    A bot standing in for a player who was away too long (``replace``) keeps that
    player's token hash and name as ``away_hash`` / ``away_name``: the same token
    takes the seat back (``reclaim``) until the next game starts.
    """

    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    away_hash: str | None = None
    away_name: str = ""
    # A name the server made (a bot's), as a message for clients to word in their
    # reader's language: {"key": "seat.bot", "args": {...}}; None for a person's name.
    label: dict[str, Any] | None = None
    # The player's standing answer at a turn-based table: never asked to block (public,
    # set before any deal: docs/rules-notes.md N25). Kept while a bot stands in.
    never_block: bool = False

    def public(self) -> dict[str, Any]:
        """Return what anyone may know about the seat (never the token hash)."""
        found: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "label": self.label,
        }
        if self.never_block:
            found["never_block"] = True
        return found


@dataclasses.dataclass(slots=True)
class Tally:
    """What one seat did in the current game, counted from its events (public facts):
    sequences it completed that went to the pool, Blocks it played that worked, cards
    and chips it stole."""

    completed: int = 0
    blocks: int = 0
    cards_stolen: int = 0
    chips_stolen: int = 0

    def count(self, event: Event, seat: int) -> None:
        """Add ``event`` when ``seat`` did it."""
        found = _counted(event)
        if found is not None and found[0] == seat:
            setattr(self, found[1], getattr(self, found[1]) + 1)


def count_event(tallies: Sequence[Tally], event: Event) -> None:
    """Add ``event`` to the tally of the seat that did it, if it is counted (one look
    at the event, not one per seat)."""
    found = _counted(event)
    if found is not None:
        tally = tallies[found[0]]
        setattr(tally, found[1], getattr(tally, found[1]) + 1)


def _counted(event: Event) -> tuple[int, str] | None:
    """The seat that did ``event`` and the tally it counts in, or None."""
    if isinstance(event, PileCompleted):
        return event.seat, "completed"
    if isinstance(event, PileBlocked):
        return event.blocker, "blocks"
    if isinstance(event, CardStolen):
        return event.seat, "cards_stolen"
    if isinstance(event, ChipStolen):
        return event.seat, "chips_stolen"
    return None


@dataclasses.dataclass(slots=True)
class GameArchive:
    """One game of a table: the secret seed and the actions, for replays (R41)."""

    game: int
    seed: int
    start_version: int
    actions: list[tuple[int, Action]] = dataclasses.field(default_factory=list)

    def record(self, settings: Settings, *, steps: int | None = None) -> GameRecord:
        """Return the game record (first ``steps`` actions); server-side only: has the seed."""
        chosen = self.actions if steps is None else self.actions[:steps]
        return GameRecord(settings=settings, seed=self.seed, actions=tuple(chosen))


def clean_name(name: str) -> str:
    """A display name as a table keeps it: spaces collapsed, at most 24 characters;
    refused when nothing printable is left."""
    clean = " ".join(name.split())[:NAME_LIMIT]
    if not clean or not clean.isprintable():
        raise Refusal(
            RefusalCode.BAD_REQUEST, "a display name of 1-24 printable characters is needed"
        )
    return clean


def standings(state: State, tallies: Sequence[Tally]) -> list[dict[str, Any]] | None:
    """A finished game's final ranking, best first: the winner, then more chips, then
    more sequences completed (ties keep seat order); each seat's chips by colour,
    sequences completed, Blocks and steals. None while the game runs."""
    if not state.is_over:
        return None
    winner = state.result.winner if state.result is not None else None
    order = sorted(
        range(len(tallies)),
        key=lambda seat: (seat != winner, -sum(state.chips[seat]), -tallies[seat].completed),
    )
    return [
        {
            "seat": seat,
            "chips": list(state.chips[seat]),
            "completed": tallies[seat].completed,
            "blocks": tallies[seat].blocks,
            "steals": tallies[seat].cards_stolen + tallies[seat].chips_stolen,
            "winner": seat == winner,
        }
        for seat in order
    ]


def same_name(one: str, other: str) -> bool:
    """Two display names read as one: the same letters in any case and Unicode form."""
    return unicodedata.normalize("NFKC", one).casefold() == (
        unicodedata.normalize("NFKC", other).casefold()
    )


def bot_seat(bot: str, seat: int) -> Seat:
    """A bot the table made, named "Greedy bot 2" and labelled for clients to word."""
    label = {"key": "seat.bot", "args": {"bot": bot, "number": seat + 1}}
    return Seat(SeatKind.BOT, f"{bot.capitalize()} bot {seat + 1}", bot, None, label=label)
