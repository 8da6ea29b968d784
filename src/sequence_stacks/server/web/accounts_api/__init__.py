"""The accounts' JSON API (#26): signing up and in with a passkey, devices, the
profile, e-mail, notification preferences, "My games", seats claimed or moved to
another device, push subscriptions, unsubscribe links, public profiles and the
leaderboard. Handlers decode, call the accounts and notifications rooms, encode.

What a page of one account shows (its e-mail address above all) is answered only to
that account's own session; a player's public profile has a name, an avatar, ratings
and finished games, nothing else.

The handlers are grouped by job: :mod:`.signing`, :mod:`.own` (the account's own
pages), :mod:`.seats`, :mod:`.notices` and :mod:`.public`; the request bodies and
shared steps are in :mod:`.common`. This module is the route table.
"""

from __future__ import annotations

from typing import Final

from .common import Handler, own_account, public_player
from .notices import push_key, subscribe, unsubscribe, unsubscribe_push
from .own import (
    badge,
    device_code,
    end_session,
    me,
    my_games,
    remove_passkey,
    update_email,
    update_prefs,
    update_profile,
    verify_email,
)
from .public import leaderboard, player
from .seats import claim, move_code, redeem_move, seat_token
from .signing import (
    link,
    link_options,
    recover,
    sign_in,
    sign_in_options,
    sign_out,
    sign_up,
    sign_up_options,
)

__all__ = ["ACCOUNT_ROUTES", "own_account", "public_player"]

ACCOUNT_ROUTES: Final[tuple[tuple[str, Handler, tuple[str, ...]], ...]] = (
    ("/api/accounts/signup/options", sign_up_options, ("POST",)),
    ("/api/accounts/signup", sign_up, ("POST",)),
    ("/api/accounts/signin/options", sign_in_options, ("POST",)),
    ("/api/accounts/signin", sign_in, ("POST",)),
    ("/api/accounts/link/options", link_options, ("POST",)),
    ("/api/accounts/link", link, ("POST",)),
    ("/api/accounts/recover", recover, ("POST",)),
    ("/api/accounts/signout", sign_out, ("POST",)),
    ("/api/email/verify", verify_email, ("POST",)),
    ("/api/me", me, ("GET",)),
    ("/api/me/profile", update_profile, ("PUT",)),
    ("/api/me/notifications", update_prefs, ("PUT",)),
    ("/api/me/email", update_email, ("PUT",)),
    ("/api/me/devices/code", device_code, ("POST",)),
    ("/api/me/sessions/{session}", end_session, ("DELETE",)),
    ("/api/me/passkeys/{credential}", remove_passkey, ("DELETE",)),
    ("/api/me/games", my_games, ("GET",)),
    ("/api/me/badge", badge, ("GET",)),
    ("/api/me/seat/{table_id}", seat_token, ("GET",)),
    ("/api/me/push", subscribe, ("POST",)),
    ("/api/me/push", unsubscribe_push, ("DELETE",)),
    ("/api/push/key", push_key, ("GET",)),
    ("/api/tables/{table_id}/claim", claim, ("POST",)),
    ("/api/tables/{table_id}/move", move_code, ("POST",)),
    ("/api/move", redeem_move, ("POST",)),
    ("/api/unsubscribe/{token}", unsubscribe, ("POST",)),
    # A mail program's one-click unsubscribe (RFC 8058) posts to the link itself.
    ("/unsubscribe/{token}", unsubscribe, ("POST",)),
    ("/api/players/{account_id}", player, ("GET",)),
    ("/api/leaderboard", leaderboard, ("GET",)),
)
