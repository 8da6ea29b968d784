"""The notifications room (#26): telling players away from the table that it is their
turn, that a Block window asks them, that a game is over.

Its face: :class:`Notifier` (a table watcher the composition root hands the play
room's news to), :class:`Mailer` and :class:`MailSettings` (SMTP), :class:`Pusher`
and :func:`load_vapid` (Web Push with VAPID), and :func:`say` (a message in a given
language, for e-mails the web room sends: address checks, recovery links).
"""

from .mail import Mailer, MailSettings
from .notifier import Notice, Notifier
from .push import Delivery, Pusher, load_vapid, new_vapid_pem, vapid_of_pem
from .words import say, table_words

__all__ = [
    "Delivery",
    "MailSettings",
    "Mailer",
    "Notice",
    "Notifier",
    "Pusher",
    "load_vapid",
    "new_vapid_pem",
    "say",
    "table_words",
    "vapid_of_pem",
]
