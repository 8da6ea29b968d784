"""Passkeys (WebAuthn) with the ``webauthn`` package: the options a browser is given
to make or use a passkey, and the checks of what it answers.

Every ceremony's challenge is kept in the database (any worker may check the answer)
and taken as it is checked: an answer used twice finds no challenge (a replay). A
passkey is discoverable (resident), so signing in asks for no name: the browser offers
the passkeys it has for this site and the answer names its credential.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable
from typing import Any, Final, TypeVar

import webauthn
from webauthn.helpers import bytes_to_base64url, options_to_json_dict, parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from sequence_stacks.server.play import Refusal, RefusalCode

__all__ = ["CHALLENGE_SECONDS", "NewPasskey", "Site", "Used", "answer_id", "check_new", "check_use"]

CHALLENGE_SECONDS: Final = 300.0
_RP_NAME: Final = "Sequence Stacks"

_Verified = TypeVar("_Verified")


@dataclasses.dataclass(frozen=True, slots=True)
class Site:
    """Who the passkeys are for: the relying party's id (the host name) and the
    origins its pages are served from."""

    rp_id: str
    origins: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class NewPasskey:
    """A passkey just made: its id and public key (base64url) and counter."""

    credential_id: str
    public_key: str
    sign_count: int


@dataclasses.dataclass(frozen=True, slots=True)
class Used:
    """A passkey that signed a challenge: its id, the account it names, its counter."""

    credential_id: str
    user_handle: str | None
    sign_count: int


def refused(reason: str) -> Refusal:
    """The refusal of an answer that does not verify (forged, replayed, for another
    site, or of a passkey this server does not know)."""
    return Refusal(
        RefusalCode.PASSKEY_REFUSED,
        f"the passkey's answer was refused: {reason}",
        detail={"key": "refused.passkey_refused", "args": {}},
    )


def create_options(
    site: Site, *, user_id: str, name: str, exclude: list[str]
) -> tuple[dict[str, Any], str]:
    """The options of ``navigator.credentials.create`` and the challenge (base64url)."""
    options = webauthn.generate_registration_options(
        rp_id=site.rp_id,
        rp_name=_RP_NAME,
        user_id=user_id.encode(),
        user_name=name,
        user_display_name=name,
        challenge=secrets.token_bytes(32),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(found))
            for found in exclude
        ],
    )
    return options_to_json_dict(options), bytes_to_base64url(options.challenge)


def get_options(site: Site) -> tuple[dict[str, Any], str]:
    """The options of ``navigator.credentials.get`` (any passkey of this site) and the
    challenge (base64url)."""
    options = webauthn.generate_authentication_options(
        rp_id=site.rp_id,
        challenge=secrets.token_bytes(32),
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return options_to_json_dict(options), bytes_to_base64url(options.challenge)


def answer_id(answer: object) -> str:
    """The credential id an answer names (base64url), refused if it names none."""
    found = answer.get("id") if isinstance(answer, dict) else None
    if not isinstance(found, str) or not found or len(found) > 1400:
        raise refused("no credential id")
    return found


def check_new(site: Site, answer: object, challenge: str) -> NewPasskey:
    """Verify the answer to ``create``: the challenge, origin and site are ours."""
    verified = _verified(webauthn.verify_registration_response, site, answer, challenge)
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )


def challenge_of(answer: object) -> str:
    """The challenge the browser says it signed (base64url), to find what it answers."""
    try:
        response = answer["response"] if isinstance(answer, dict) else {}
        data = parse_client_data_json(webauthn.base64url_to_bytes(response["clientDataJSON"]))
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise refused("unreadable client data") from None
    return bytes_to_base64url(data.challenge)


def check_use(
    site: Site, answer: object, challenge: str, *, public_key: str, sign_count: int
) -> Used:
    """Verify the answer to ``get`` with the stored public key and counter."""
    verified = _verified(
        webauthn.verify_authentication_response,
        site,
        answer,
        challenge,
        public_key=public_key,
        credential_current_sign_count=sign_count,
    )
    handle = answer["response"].get("userHandle") if isinstance(answer, dict) else None
    user = webauthn.base64url_to_bytes(handle).decode(errors="replace") if handle else None
    return Used(bytes_to_base64url(verified.credential_id), user, verified.new_sign_count)


def _verified(
    verify: Callable[..., _Verified],
    site: Site,
    answer: object,
    challenge: str,
    *,
    public_key: str | None = None,
    **more: Any,
) -> _Verified:
    """What ``verify`` (a check of ``webauthn``'s) makes of an answer to ``challenge``
    for this site from one of its origins (``public_key``, the stored key in base64url,
    and ``more``: what else it checks against), or a refusal saying why the answer
    fails, a stored key that does not decode included."""
    try:
        if public_key is not None:
            more["credential_public_key"] = webauthn.base64url_to_bytes(public_key)
        return verify(
            credential=_as_json(answer),
            expected_challenge=webauthn.base64url_to_bytes(challenge),
            expected_rp_id=site.rp_id,
            expected_origin=list(site.origins),
            **more,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise refused(str(error) or type(error).__name__) from None


def _as_json(answer: object) -> str:
    if not isinstance(answer, dict):
        raise refused("not a credential")
    return json.dumps(answer)
