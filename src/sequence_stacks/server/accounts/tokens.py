"""Secrets an account's devices pass around: one-time codes (typed or in a link or a
QR code), session cookies, and seat tokens sealed so that only the server reads them.

Only hashes of codes and cookies are stored. A seat token an account holds is stored
sealed (AES-GCM) under a key kept in the database, so every device of the account can
take the seat; a seat moved by a one-time code is sealed under a key made from the code
itself, so the database alone never gives the token away.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = [
    "CODE_ALPHABET",
    "Sealer",
    "code_hash",
    "device_code",
    "link_code",
    "new_key",
    "normal_code",
    "secret_hash",
]

# Typed codes: no 0/O, 1/I/L; eight of 31 letters and digits (~8.5e11 codes).
CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
_CODE_LENGTH: Final = 8


def device_code() -> str:
    """A short code to type on another device: ``K7P2-X9QD``."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(_CODE_LENGTH))
    return f"{letters[:4]}-{letters[4:]}"


def link_code() -> str:
    """A long code for a link only (e-mail, unsubscribe): 192 random bits."""
    return secrets.token_urlsafe(24)


def normal_code(text: str) -> str:
    """A typed code as it was issued: capitals, no spaces or dashes (a long link code
    is kept as it is)."""
    stripped = "".join(text.split()).replace("-", "")
    if len(stripped) == _CODE_LENGTH:
        return stripped.upper()
    return text.strip()


def code_hash(code: str) -> str:
    """The stored form of a one-time code."""
    return hashlib.sha256(("code:" + normal_code(code)).encode()).hexdigest()


def secret_hash(secret: str) -> str:
    """The stored form of a session cookie."""
    return hashlib.sha256(("session:" + secret).encode()).hexdigest()


def new_key() -> str:
    """A fresh 256-bit key, as text."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


class Sealer:
    """Seals short secrets under a key: AES-GCM, with what it belongs to as associated
    data (a token sealed for one account and table opens for no other)."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    @classmethod
    def of_text(cls, key: str) -> Sealer:
        """A sealer of a key made by :func:`new_key`."""
        return cls(base64.urlsafe_b64decode(key.encode()))

    @classmethod
    def of_code(cls, code: str) -> Sealer:
        """A sealer whose key is made from a one-time code."""
        return cls(hashlib.sha256(("seal:" + normal_code(code)).encode()).digest())

    def seal(self, secret: str, *, context: str) -> str:
        """``secret`` sealed, as text."""
        nonce = secrets.token_bytes(12)
        box = self._aead.encrypt(nonce, secret.encode(), context.encode())
        return base64.urlsafe_b64encode(nonce + box).decode()

    def open(self, sealed: str, *, context: str) -> str | None:
        """The secret, or None when it was sealed under another key or context."""
        try:
            raw = base64.urlsafe_b64decode(sealed.encode())
            return self._aead.decrypt(raw[:12], raw[12:], context.encode()).decode()
        except (InvalidTag, ValueError):
            return None
