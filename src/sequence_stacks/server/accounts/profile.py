"""What an account says of itself and how it may be reached: the profile, the
notification preferences (by :class:`NoticeKind` and :class:`Channel`) and the e-mail
address, verified by a code and used to add a device when every other is lost.
Part of :class:`~.service.Accounts`."""

from __future__ import annotations

import asyncio
import enum
import re
from collections.abc import Mapping
from typing import Any, Final

from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.store import Account, AccountStore

from .names import account_name, valid_avatar, valid_language
from .tokens import code_hash, link_code

__all__ = ["Channel", "NoticeKind", "Profiles", "code_invalid", "default_prefs", "prefs_of"]

RECOVERY_SECONDS: Final = 1800.0  # a code sent by e-mail to add a device
EMAIL_CODE_SECONDS: Final = 86400.0
_EMAIL: Final = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}\.[^@\s]{2,63}$")


class NoticeKind(enum.StrEnum):
    """What a player can be told away from the table, each of which can be turned off."""

    TURN = "turn"  # it is your turn
    WINDOW = "window"  # a Block window asks you
    OVER = "over"  # a game of yours is over


class Channel(enum.StrEnum):
    """How a notice reaches a player who is not at the table."""

    PUSH = "push"
    EMAIL = "email"


def default_prefs() -> dict[str, dict[str, bool]]:
    """Every notice on every channel (a channel is used only once set up)."""
    return {kind.value: {channel.value: True for channel in Channel} for kind in NoticeKind}


def prefs_of(account: Account) -> dict[str, dict[str, bool]]:
    """An account's preferences, the defaults filled in."""
    prefs = default_prefs()
    for kind, channels in account.prefs.items():
        if kind in prefs and isinstance(channels, Mapping):
            for channel, on in channels.items():
                if channel in prefs[kind] and isinstance(on, bool):
                    prefs[kind][channel] = on
    return prefs


class Profiles:
    """Profiles, preferences and e-mail addresses of accounts (part of
    :class:`~.service.Accounts`, which owns the store)."""

    store: AccountStore

    # --- the profile --------------------------------------------------------------------

    async def update_profile(
        self, account: Account, *, name: str, avatar: str, language: str, never_block: bool
    ) -> Account:
        """Change the name, avatar, language and standing Block answer."""
        clean, key = account_name(name)
        changed = await asyncio.to_thread(
            self.store.update_profile,
            account.account_id,
            name=clean,
            name_key=key,
            avatar=valid_avatar(avatar),
            language=valid_language(language),
            never_block=never_block,
        )
        if not changed:
            raise name_taken()
        return await self._reread(account)

    async def set_prefs(self, account: Account, prefs: Mapping[str, Any]) -> Account:
        """Turn notices on or off, by kind and channel."""
        clean = default_prefs()
        for kind, channels in prefs.items():
            if kind not in clean or not isinstance(channels, Mapping):
                raise Refusal(RefusalCode.BAD_REQUEST, f"no notice {kind!r}")
            for channel, on in channels.items():
                if channel not in clean[kind] or not isinstance(on, bool):
                    raise Refusal(RefusalCode.BAD_REQUEST, f"no channel {channel!r}")
                clean[kind][channel] = on
        await asyncio.to_thread(self.store.set_prefs, account.account_id, clean)
        return await self._reread(account)

    async def unsubscribe(self, token: str, kind: str | None) -> Account:
        """Stop e-mails of one kind (or all) for the account an unsubscribe link names;
        no sign-in needed, the link's long token is the proof."""
        if not token or len(token) > 100:
            raise code_invalid()
        account = await asyncio.to_thread(self.store.account_by_unsubscribe, token)
        if account is None:
            raise code_invalid()
        prefs = prefs_of(account)
        kinds = [NoticeKind(kind)] if kind in set(NoticeKind) else list(NoticeKind)
        for each in kinds:
            prefs[each.value][Channel.EMAIL.value] = False
        await asyncio.to_thread(self.store.set_prefs, account.account_id, prefs)
        return await self._reread(account)

    # --- e-mail -------------------------------------------------------------------------

    async def set_email(self, account: Account, email: str | None) -> str | None:
        """Set (unverified) or remove the address; the code that verifies it."""
        if email is None or not email.strip():
            await asyncio.to_thread(self.store.set_email, account.account_id, None, verified=False)
            return None
        address = email.strip()
        if not _EMAIL.match(address):
            raise Refusal(
                RefusalCode.BAD_REQUEST,
                "that is not an e-mail address",
                detail={"key": "account.email_invalid", "args": {}},
            )
        await asyncio.to_thread(self.store.set_email, account.account_id, address, verified=False)
        return await self._keep_code(
            link_code(), "email", account, {"email": address}, EMAIL_CODE_SECONDS
        )

    async def verify_email(self, code: str) -> Account:
        """Mark the address a code was sent to as verified (if it is still the one set)."""
        found = await asyncio.to_thread(self.store.take_code, code_hash(code), "email")
        account = None
        if found is not None and found[0] is not None:
            account = await asyncio.to_thread(self.store.account, found[0])
        if account is None or found is None or account.email != found[1].get("email"):
            raise code_invalid()
        await asyncio.to_thread(
            self.store.set_email, account.account_id, account.email, verified=True
        )
        return await self._reread(account)

    async def recovery_code(self, email: str) -> tuple[Account, str] | None:
        """For a verified address, an account and a code (by e-mail only) that adds a
        device to it; None otherwise (the caller answers the same either way)."""
        account = await asyncio.to_thread(self.store.account_by_email, email.strip())
        if account is None:
            return None
        return account, await self._keep_code(link_code(), "device", account, {}, RECOVERY_SECONDS)

    async def _keep_code(
        self, code: str, kind: str, account: Account, data: Mapping[str, Any], ttl: float
    ) -> str:
        """Keep a one-time code of ``kind`` for ``account`` (its hash only); return it."""
        await asyncio.to_thread(
            self.store.put_code, code_hash(code), kind, account.account_id, data, ttl
        )
        return code

    async def _reread(self, account: Account) -> Account:
        return await self.account(account.account_id)

    async def account(self, account_id: str) -> Account:
        """An account as stored now; refused (404) when there is none."""
        found = await asyncio.to_thread(self.store.account, account_id)
        if found is None:
            raise Refusal(RefusalCode.NOT_FOUND, "there is no such player")
        return found


def code_invalid() -> Refusal:
    return Refusal(
        RefusalCode.CODE_INVALID,
        "that code or link is unknown, used or expired",
        detail={"key": "refused.code_invalid", "args": {}},
    )


def name_taken() -> Refusal:
    return Refusal(
        RefusalCode.NAME_TAKEN,
        "another player already has that name",
        detail={"key": "account.name_taken", "args": {}},
    )
