"""The accounts room (#26): players who are remembered.

Its face: :class:`Accounts` (passkeys, sessions and devices, the profile, e-mail and
notification preferences), :class:`SeatBook` (the seats accounts hold: taken from any
device, claimed from a guest, moved by a one-time code; "My games"),
:func:`record_game` (results and OpenSkill ratings), and the vocabularies
:class:`NoticeKind` and :class:`Channel`. The web room calls it; the play room never
does: the composition root (``server/app.py``) hands it the tables' news.
"""

from .names import AVATARS
from .passkeys import Site
from .profile import Channel, NoticeKind, default_prefs, prefs_of
from .ratings import BOT_RATINGS, GROUPS, GameRecorder, group_of, record_game
from .seats import SeatBook
from .service import Accounts, Devices, SignedIn
from .tokens import Sealer

__all__ = [
    "AVATARS",
    "BOT_RATINGS",
    "GROUPS",
    "Accounts",
    "Channel",
    "Devices",
    "GameRecorder",
    "NoticeKind",
    "Sealer",
    "SeatBook",
    "SignedIn",
    "Site",
    "default_prefs",
    "group_of",
    "prefs_of",
    "record_game",
]
