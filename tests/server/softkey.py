"""A software passkey (a WebAuthn authenticator in Python) for the accounts' API tests:
it answers the server's creation and request options as a browser with a platform
passkey would (attestation "none", ES256), so the server's checks run on real
signatures without a browser. The browser tests use Chromium's virtual authenticator.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import encode_cbor

__all__ = ["SoftKey", "b64"]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftKey:
    """One authenticator holding passkeys, each for one site and user."""

    def __init__(self, origin: str = "http://testserver") -> None:
        self.origin = origin
        self.keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, str, bytes, int]] = {}

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create`` with these options."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        credential_id = secrets.token_bytes(16)
        user = unb64(options["user"]["id"])
        self.keys[credential_id] = (key, rp_id, user, 0)
        numbers = key.public_key().public_numbers()
        cose = {
            1: 2,
            3: -7,
            -1: 1,
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
        attested = (
            bytes(16) + len(credential_id).to_bytes(2, "big") + credential_id + encode_cbor(cose)
        )
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([0x45])
            + (0).to_bytes(4, "big")
            + attested
        )
        client = self._client("webauthn.create", options["challenge"], origin)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self, options: dict[str, Any], *, origin: str | None = None, which: bytes | None = None
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get``: the first (or ``which``) passkey
        for the options' site signs the challenge; its counter goes up by one."""
        rp_id = options["rpId"]
        credential_id = which or next(c for c, k in self.keys.items() if k[1] == rp_id)
        key, _, user, count = self.keys[credential_id]
        count += 1
        self.keys[credential_id] = (key, rp_id, user, count)
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([0x05]) + count.to_bytes(4, "big")
        )
        client = self._client("webauthn.get", options["challenge"], origin)
        signature = key.sign(auth_data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(user),
            },
            "clientExtensionResults": {},
        }

    def _client(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {
            "type": kind,
            "challenge": challenge,
            "origin": origin or self.origin,
            "crossOrigin": False,
        }
        return json.dumps(data).encode()
