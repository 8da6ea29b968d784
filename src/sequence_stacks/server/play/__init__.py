"""The play room: tables, their games, their bots and clocks, and the one service
that changes them.

Its face: :class:`TableService` (what the web room calls), the :class:`Gate` it is
given (:class:`OpenGate` alone on a database; ``play.cluster.OwnershipGate`` among
workers on PostgreSQL, imported only there), the client commands it takes
(:mod:`.commands`), the :class:`Refusal` it answers with, and the
:class:`TableWatcher` it tells of every table's :class:`TableNews` (accounts and
notifications watch tables through it, passed in by the composition root).
"""

from . import commands
from .entries import SeatKind, TableStatus
from .gate import Gate, OpenGate
from .hooks import TableNews, TableWatcher
from .refusals import Refusal, RefusalCode
from .runtime import Subscriber, hash_token
from .service import LISTING_PAGE, TableService

__all__ = [
    "LISTING_PAGE",
    "Gate",
    "OpenGate",
    "Refusal",
    "RefusalCode",
    "SeatKind",
    "Subscriber",
    "TableNews",
    "TableService",
    "TableStatus",
    "TableWatcher",
    "commands",
    "hash_token",
]
