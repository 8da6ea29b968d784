"""An engine event as a message key and data arguments: the words of the log, as data.

Nothing here fills a template in or needs a catalog: :func:`event_message` names the
message of an event and its arguments as data (seats, card ids, piles, colours), which
:mod:`.render` words for the terminal and the CLI, the server sends to browsers with
each event, and the game on one device (``sequence_stacks.device``, in the page's
engine) sends to its page the same way. Standard library and the engine only, so the
page's Python runs it without the catalogs.
"""

from __future__ import annotations

from typing import Any, Final, assert_never

import sequence_stacks.engine.events as ev
from sequence_stacks.engine import Event

__all__ = ["COLOUR_KEYS", "coloured", "event_message"]

COLOUR_KEYS: Final = ("blue", "red")
"""A colour's key by its index: the suffix of the messages worded per colour."""


def coloured(key: str, colour: int) -> str:
    """The key of message ``key`` worded for ``colour``: messages that put a colour before
    a noun exist once per colour (``pile.name.blue``), so that the colour word can agree
    with the noun in every language."""
    return f"{key}.{COLOUR_KEYS[colour]}"


def event_message(event: Event) -> tuple[str, dict[str, Any]] | None:  # noqa: PLR0911, PLR0912 - one case per event kind
    """The message key of an event (as its viewer may see it) and its arguments as data,
    named by what they are (see :func:`.render.words`); None for an event with no log line.

    The server sends the same to browsers as each event's ``message`` (docs/protocol.md).
    """
    match event:
        case ev.TurnStarted(seat=seat, turn_number=turn):
            return "log.TurnStarted", {"player": seat, "turn": turn}
        case ev.TurnSkipped(seat=seat):
            return "log.TurnSkipped", {"player": seat}
        case ev.Reshuffled(card_count=count):
            return "log.Reshuffled", {"count": count}
        case ev.CardsDrawn(seat=seat, count=count, cards=cards, reason=reason):
            seen = ".seen" if cards else ""
            return f"log.CardsDrawn.{reason.value}{seen}", {
                "player": seat,
                "count": count,
                "cards": cards,
            }
        case ev.CardPlayed(seat=seat, card=card, colour=colour, pile=pile, pile_count=count):
            args = {"player": seat, "card": card, "pile": (colour, pile), "count": count}
            return _from_top("log.CardPlayed", event.from_discard), args
        case ev.SkipPlayed(seat=seat, card=card, from_discard=top):
            return _from_top("log.SkipPlayed", top), {"player": seat, "card": card}
        case ev.ReversePlayed(seat=seat, card=card, from_discard=top):
            return _from_top("log.ReversePlayed", top), {"player": seat, "card": card}
        case ev.Discarded(seat=seat, card=card):
            return "log.Discarded", {"player": seat, "card": card}
        case ev.CardStolen(seat=seat, stolen=stolen, victim=victim):
            return "log.CardStolen", {"player": seat, "card": stolen, "victim": victim}
        case ev.ChipStolen(seat=seat, victim=victim, colour=colour):
            return coloured("log.ChipStolen", colour), {"player": seat, "victim": victim}
        case ev.BlockWindowOpened(completer=completer, colour=colour):
            return coloured("log.BlockWindowOpened", colour), {"player": completer}
        case ev.BlockAnswered(seat=seat, blocked=blocked):
            answer = "" if blocked is None else ".block" if blocked else ".pass"
            return f"log.BlockAnswered{answer}", {"player": seat}
        case ev.PileBlocked(blocker=blocker, colour=colour):
            return coloured("log.PileBlocked", colour), {"player": blocker}
        case ev.PileCompleted(colour=colour):
            return coloured("log.PileCompleted", colour), {}
        case ev.ChipTaken(seat=seat, colour=colour, taken=taken):
            key = "log.ChipTaken" if taken else "log.ChipTaken.none"
            return coloured(key, colour), {"player": seat}
        case ev.TurnEnded(seat=seat, discarded=discarded):
            return None if discarded else ("log.TurnEnded.empty", {"player": seat})
        case ev.GameEnded(winner=winner, reason=reason):
            if winner is not None:
                return "log.GameEnded.win", {"player": winner}
            return "log.GameEnded.none", {"reason": reason.value}
        case _:
            assert_never(event)


def _from_top(key: str, from_discard: bool) -> str:
    """A play's message key: its ``.top`` form for a card from the discard pile's top."""
    return f"{key}.top" if from_discard else key
