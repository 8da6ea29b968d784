"""The review room (#27): post-game reviews computed in a worker process after every
finished game, kept in the database and served (docs/server.md).

Its face: :class:`Reviews` (a table watcher, and the answers to the review API),
:class:`ReviewAnswer` / :class:`ReviewState`, :class:`FinishedGame` and the
:class:`FinishedGames` port the play room fills.
"""

from .jobs import SPECTATOR
from .service import (
    RETRY_AFTER,
    REVIEW_BACKLOG,
    FinishedGame,
    FinishedGames,
    ReviewAnswer,
    Reviews,
    ReviewState,
    review_pool,
)

__all__ = [
    "RETRY_AFTER",
    "REVIEW_BACKLOG",
    "SPECTATOR",
    "FinishedGame",
    "FinishedGames",
    "ReviewAnswer",
    "ReviewState",
    "Reviews",
    "review_pool",
]
