"""The play room: tables, their games, their bots and clocks, and the one service
that changes them.

Its face: :class:`TableService` (what the web room calls), the :class:`Gate` it is
given (:class:`OpenGate` alone on a database; ``play.cluster.OwnershipGate`` among
workers on PostgreSQL, imported only there), the client commands it takes
(:mod:`.commands`), and the :class:`Refusal` it answers with.
"""

from . import commands
from .gate import Gate, OpenGate
from .refusals import Refusal, RefusalCode
from .runtime import Subscriber, hash_token
from .service import LISTING_PAGE, TableService

__all__ = [
    "LISTING_PAGE",
    "Gate",
    "OpenGate",
    "Refusal",
    "RefusalCode",
    "Subscriber",
    "TableService",
    "commands",
    "hash_token",
]
