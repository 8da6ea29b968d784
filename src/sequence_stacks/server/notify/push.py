"""Web Push with VAPID (``pywebpush``): a notice, encrypted for one browser's
subscription (aes128gcm), sent to its push service; the browser's service worker
(static/push-sw.js) shows it and opens the game when it is tapped."""

from __future__ import annotations

import asyncio
import enum
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid, b64urlencode
from pywebpush import WebPushException, webpush

__all__ = ["Delivery", "Pusher", "load_vapid", "new_vapid_pem", "vapid_of_pem"]

log = logging.getLogger("sequence_stacks.server")

_GONE = (404, 410)  # the subscription is no more: forget it


class Delivery(enum.StrEnum):
    """What became of one push message."""

    SENT = "sent"
    GONE = "gone"  # the browser unsubscribed: forget the subscription
    FAILED = "failed"


def load_vapid(path: str) -> Vapid:
    """The server's VAPID key from a PEM file; a new one is made and saved there
    (readable by its owner only) when the file does not exist yet."""
    file = Path(path)
    if not file.exists():
        made = Vapid()
        made.generate_keys()
        made.save_key(str(file))
        os.chmod(file, 0o600)
    return Vapid.from_file(str(file))


def new_vapid_pem() -> str:
    """A new VAPID private key, as PEM text (the server keeps it in its database when
    no ``--vapid-key`` file is given, so that every worker signs with the same one)."""
    made = Vapid()
    made.generate_keys()
    pem: bytes = made.private_pem()
    return pem.decode("ascii")


def vapid_of_pem(pem: str) -> Vapid:
    """The VAPID key of PEM text made by :func:`new_vapid_pem`."""
    return Vapid.from_pem(pem.encode("ascii"))


class Pusher:
    """Sends push messages signed with the server's VAPID key."""

    def __init__(self, vapid: Vapid, *, subject: str) -> None:
        self.vapid = vapid
        self.subject = subject
        self.sent = 0

    @property
    def public_key(self) -> str:
        """The key browsers subscribe with (``applicationServerKey``), base64url."""
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        text: str = b64urlencode(raw)
        return text

    async def send(
        self, endpoint: str, keys: Mapping[str, str], payload: Mapping[str, Any]
    ) -> Delivery:
        """Send one message (a refusal other than "gone" is logged)."""
        info = {"endpoint": endpoint, "keys": dict(keys)}
        data = json.dumps(dict(payload))
        try:
            await asyncio.to_thread(
                webpush,
                info,
                data,
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject},
                timeout=10,
                ttl=86400,
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in _GONE:
                return Delivery.GONE
            log.warning("a push message was refused: %s", error)
            return Delivery.FAILED
        except OSError as error:
            log.warning("a push service could not be reached: %s", error)
            return Delivery.FAILED
        self.sent += 1
        return Delivery.SENT
