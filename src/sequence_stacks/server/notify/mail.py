"""E-mail through SMTP with ``aiosmtplib``: notices, address checks and recovery
links, each in the reader's language, each notice with a link that stops that kind of
e-mail without signing in (and the ``List-Unsubscribe`` headers mail programs show)."""

from __future__ import annotations

import dataclasses
import logging
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib

from .words import say

__all__ = ["MailSettings", "Mailer"]

log = logging.getLogger("sequence_stacks.server")


@dataclasses.dataclass(frozen=True, slots=True)
class MailSettings:
    """Where mail goes: ``smtp://user:password@host:port`` (STARTTLS when the server
    offers it) or ``smtps://...`` (TLS from the start), and who it is from."""

    url: str
    sender: str

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("the SMTP URL is smtp://[user:password@]host[:port] (or smtps://)")
        if "@" not in self.sender:
            raise ValueError(f"the sender {self.sender!r} is not an e-mail address")


class Mailer:
    """Sends e-mails (each one connection: notices are rare)."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings
        parts = urlsplit(settings.url)
        self._tls = parts.scheme == "smtps"
        self._host = parts.hostname or "localhost"
        self._port = parts.port or (465 if self._tls else 25)
        self._user = unquote(parts.username) if parts.username else None
        self._password = unquote(parts.password) if parts.password else None
        self.sent = 0  # e-mails handed to the SMTP server (for tests and logs)

    async def send(
        self,
        to: str,
        *,
        language: str,
        subject: str,
        lines: list[str],
        unsubscribe: str | None = None,
    ) -> bool:
        """Send one plain-text e-mail; False (logged) when the SMTP server refused it or
        could not be reached."""
        message = EmailMessage()
        message["From"] = formataddr((say(language, "page.brand"), self.settings.sender))
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=self.settings.sender.rpartition("@")[2])
        if unsubscribe is not None:
            message["List-Unsubscribe"] = f"<{unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content("\n\n".join(lines) + "\n")
        message["Content-Language"] = language  # after the content: set_content clears it
        try:
            await aiosmtplib.send(
                message,
                hostname=self._host,
                port=self._port,
                username=self._user,
                password=self._password,
                use_tls=self._tls,
                timeout=30,
            )
        except (aiosmtplib.SMTPException, OSError) as error:
            log.warning("e-mail to an account not sent: %s", error)
            return False
        self.sent += 1
        return True
