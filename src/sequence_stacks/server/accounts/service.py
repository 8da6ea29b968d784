"""Accounts: signing up and in with a passkey, a second device added from the first,
the sessions of each device, the profile, the e-mail address and the notification
preferences (#26). Every call that touches the database runs it in a thread.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
from collections.abc import Mapping
from typing import Any, Final

from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.store import Account, AccountStore, Credential, SessionRow

from . import passkeys
from .names import account_name, valid_avatar, valid_language
from .passkeys import Site
from .profile import Profiles, code_invalid, default_prefs, name_taken
from .tokens import Sealer, code_hash, device_code, link_code, new_key, secret_hash

__all__ = ["Accounts", "Devices", "SignedIn"]

SESSION_DAYS: Final = 180
DEVICE_CODE_SECONDS: Final = 600.0  # a code shown on the first device


@dataclasses.dataclass(frozen=True, slots=True)
class SignedIn:
    """A device just signed in: its account and its new session cookie's value."""

    account: Account
    cookie: str


@dataclasses.dataclass(frozen=True, slots=True)
class Devices:
    """An account's signed-in devices and passkeys."""

    sessions: list[SessionRow]
    passkeys: list[Credential]


def _signed_out() -> Refusal:
    return Refusal(RefusalCode.SIGNED_OUT, "sign in first")


class Accounts(Profiles):
    """Players who are remembered (see the module's docstring)."""

    def __init__(self, store: AccountStore) -> None:
        self.store = store
        self._sealer: Sealer | None = None

    async def start(self) -> None:
        """Read (or make, once for every worker) the server's sealing key."""
        key = await asyncio.to_thread(self.store.server_key, "seal", new_key)
        self._sealer = Sealer.of_text(key)

    @property
    def sealer(self) -> Sealer:
        """Seals the seat tokens accounts hold (:meth:`start` reads its key)."""
        assert self._sealer is not None, "start the accounts first"
        return self._sealer

    # --- signing up ---------------------------------------------------------------------

    async def begin_sign_up(
        self, site: Site, *, name: str, avatar: str, language: str
    ) -> dict[str, Any]:
        """The options to make the first passkey of a new account (nothing is stored
        but the challenge): the name is checked now and again when it is made."""
        clean, key = account_name(name)
        valid_avatar(avatar)
        valid_language(language)
        if await asyncio.to_thread(self.store.name_taken, key):
            raise name_taken()
        account_id = secrets.token_urlsafe(12)
        options, challenge = passkeys.create_options(
            site, user_id=account_id, name=clean, exclude=[]
        )
        data = {"account_id": account_id, "name": clean, "avatar": avatar, "language": language}
        await self._keep(challenge, "sign_up", data)
        return options

    async def finish_sign_up(
        self, site: Site, answer: object, *, label: str, old_cookie: str | None
    ) -> SignedIn:
        """Check the new passkey, make the account, sign the device in."""
        made, data = await self._new_passkey(site, answer, "sign_up")
        now = time.time()
        clean, key = account_name(data["name"])
        account = Account(
            account_id=data["account_id"],
            name=clean,
            name_key=key,
            avatar=data["avatar"],
            language=data["language"],
            unsubscribe=link_code(),
            created_at=now,
            prefs=default_prefs(),
        )
        credential = _credential(made, account.account_id, label, now)
        if not await asyncio.to_thread(self.store.create_account, account, credential):
            raise name_taken()
        return await self._session(account, made.credential_id, label, old_cookie)

    # --- signing in ---------------------------------------------------------------------

    async def begin_sign_in(self, site: Site) -> dict[str, Any]:
        """The options to sign in with any passkey of this site."""
        options, challenge = passkeys.get_options(site)
        await self._keep(challenge, "sign_in", {})
        return options

    async def finish_sign_in(
        self, site: Site, answer: object, *, label: str, old_cookie: str | None
    ) -> SignedIn:
        """Check a passkey's signature; sign the device in (a new session, the old
        one ended: sessions rotate at sign-in)."""
        challenge, _ = await self._challenge(answer, "sign_in")
        found = await asyncio.to_thread(self.store.credential, passkeys.answer_id(answer))
        if found is None:
            raise passkeys.refused("this passkey belongs to no account here")
        used = passkeys.check_use(
            site, answer, challenge, public_key=found.public_key, sign_count=found.sign_count
        )
        if used.user_handle is not None and used.user_handle != found.account_id:
            raise passkeys.refused("the passkey names another account")
        moved = await asyncio.to_thread(
            self.store.used_credential, found.credential_id, found.sign_count, used.sign_count
        )
        if not moved:
            raise passkeys.refused("the passkey was used again meanwhile")
        account = await asyncio.to_thread(self.store.account, found.account_id)
        if account is None:
            raise passkeys.refused("the account is gone")
        return await self._session(account, found.credential_id, label, old_cookie)

    # --- a second device ----------------------------------------------------------------

    async def device_code(self, account: Account) -> str:
        """A one-time code (ten minutes) that lets another device add a passkey."""
        return await self._keep_code(device_code(), "device", account, {}, DEVICE_CODE_SECONDS)

    async def begin_link(self, site: Site, code: str) -> dict[str, Any]:
        """The options to make a passkey for the account a device code names."""
        found = await asyncio.to_thread(self.store.peek_code, code_hash(code), "device")
        if found is None or found[0] is None:
            raise code_invalid()
        account = await asyncio.to_thread(self.store.account, found[0])
        if account is None:
            raise code_invalid()
        known = await asyncio.to_thread(self.store.credentials_of, account.account_id)
        options, challenge = passkeys.create_options(
            site,
            user_id=account.account_id,
            name=account.name,
            exclude=[credential.credential_id for credential in known],
        )
        await self._keep(challenge, "link", {"code": code_hash(code)})
        return options

    async def finish_link(
        self, site: Site, answer: object, *, label: str, old_cookie: str | None
    ) -> SignedIn:
        """Check the new passkey, use the code up, add the passkey and sign in."""
        made, data = await self._new_passkey(site, answer, "link")
        taken = await asyncio.to_thread(self.store.take_code, data["code"], "device")
        account = None
        if taken is not None and taken[0] is not None:
            account = await asyncio.to_thread(self.store.account, taken[0])
        if account is None:
            raise code_invalid()
        credential = _credential(made, account.account_id, label, time.time())
        await asyncio.to_thread(self.store.add_credential, credential)
        return await self._session(account, made.credential_id, label, old_cookie)

    # --- sessions and devices -----------------------------------------------------------

    async def signed_in(self, cookie: str | None) -> tuple[Account, SessionRow] | None:
        """The account and session a cookie names, or None."""
        if not cookie or len(cookie) > 200:
            return None
        row = await asyncio.to_thread(self.store.session, secret_hash(cookie))
        if row is None or row.created_at < time.time() - SESSION_DAYS * 86400:
            return None
        account = await asyncio.to_thread(self.store.account, row.account_id)
        if account is None:
            return None
        if row.seen_at < time.time() - 3600:
            await asyncio.to_thread(self.store.touch_session, row.session_hash)
        return account, row

    async def require(self, cookie: str | None) -> tuple[Account, SessionRow]:
        """:meth:`signed_in`, refused (401) when signed out."""
        found = await self.signed_in(cookie)
        if found is None:
            raise _signed_out()
        return found

    async def sign_out(self, account: Account, session: SessionRow) -> None:
        """End this device's session."""
        await asyncio.to_thread(self.store.end_session, account.account_id, session.session_hash)

    async def devices(self, account: Account) -> Devices:
        """The account's sessions and passkeys."""
        sessions = await asyncio.to_thread(self.store.sessions_of, account.account_id)
        keys = await asyncio.to_thread(self.store.credentials_of, account.account_id)
        return Devices(sessions, keys)

    async def end_session(self, account: Account, session_hash: str) -> None:
        """Sign one of the account's devices out; refused for another's session."""
        if not await asyncio.to_thread(self.store.end_session, account.account_id, session_hash):
            raise Refusal(RefusalCode.NOT_FOUND, "no such device of yours")

    async def remove_passkey(self, account: Account, credential_id: str) -> None:
        """Remove a passkey (and the sessions it opened); the last one stays."""
        keys = await asyncio.to_thread(self.store.credentials_of, account.account_id)
        if credential_id not in {key.credential_id for key in keys}:
            raise Refusal(RefusalCode.NOT_FOUND, "no such passkey of yours")
        if len(keys) == 1:
            raise Refusal(
                RefusalCode.BAD_REQUEST,
                "an account keeps at least one passkey",
                detail={"key": "account.last_passkey", "args": {}},
            )
        await asyncio.to_thread(self.store.remove_credential, account.account_id, credential_id)

    # --- helpers ------------------------------------------------------------------------

    async def _keep(self, challenge: str, purpose: str, data: Mapping[str, Any]) -> None:
        await asyncio.to_thread(
            self.store.put_challenge,
            challenge,
            purpose,
            challenge,
            data,
            passkeys.CHALLENGE_SECONDS,
        )

    async def _challenge(self, answer: object, purpose: str) -> tuple[str, dict[str, Any]]:
        """The challenge an answer signed, used up as it is found (a replay finds none)."""
        said = passkeys.challenge_of(answer)
        found = await asyncio.to_thread(self.store.take_challenge, said, purpose)
        if found is None:
            raise passkeys.refused("unknown, used or expired challenge")
        return found

    async def _new_passkey(
        self, site: Site, answer: object, purpose: str
    ) -> tuple[passkeys.NewPasskey, dict[str, Any]]:
        """The passkey an answer to ``create`` made, checked against its challenge (used
        up), and what was kept with the challenge."""
        challenge, data = await self._challenge(answer, purpose)
        return passkeys.check_new(site, answer, challenge), data

    async def _session(
        self, account: Account, credential_id: str, label: str, old_cookie: str | None
    ) -> SignedIn:
        cookie = secrets.token_urlsafe(32)
        now = time.time()
        row = SessionRow(secret_hash(cookie), account.account_id, credential_id, label, now, now)
        old = secret_hash(old_cookie) if old_cookie else None
        await asyncio.to_thread(self.store.add_session, row, replaces=old)
        return SignedIn(account, cookie)


def _credential(made: passkeys.NewPasskey, account_id: str, label: str, now: float) -> Credential:
    return Credential(
        made.credential_id, account_id, made.public_key, made.sign_count, label, now, now
    )
