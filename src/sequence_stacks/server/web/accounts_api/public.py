"""What anyone may see: a player's public profile and the leaderboard."""

from __future__ import annotations

import asyncio
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.accounts import BOT_RATINGS, GROUPS
from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.web.api import _answering
from sequence_stacks.server.web.responses import json_response
from sequence_stacks.server.web.rooms import rooms

from .common import public_player

__all__ = ["leaderboard", "player"]

_HISTORY: Final = 50
_LEADERS: Final = 100


@_answering
async def player(request: Request) -> Response:
    """A player's public profile: name, avatar, ratings, win rate, finished games."""
    store = rooms(request).accounts.store
    account_id = request.path_params["account_id"]
    account = await asyncio.to_thread(store.account, account_id)
    if account is None:
        raise Refusal(RefusalCode.NOT_FOUND, "there is no such player")
    ratings = await asyncio.to_thread(store.ratings_of, account_id)
    results = await asyncio.to_thread(store.results_of, account_id, _HISTORY)
    games, wins = await asyncio.to_thread(store.totals_of, account_id)
    return json_response(
        {
            "player": public_player(account),
            "games": games,
            "wins": wins,
            "win_rate": wins / games if games else None,
            "ratings": [
                _rating(r.group, r.mu, r.sigma) | {"games": r.games, "wins": r.wins}
                for r in ratings
            ],
            "history": [
                {
                    "table_id": r.table_id,
                    "game": r.game,
                    "replay": f"/replay/{r.table_id}/{r.game}",
                    "place": r.place,
                    "won": r.won,
                    "players": r.players,
                    "group": r.group,
                    "rated": r.rated,
                    "with_bots": r.with_bots,
                    "finished_at": r.finished_at,
                }
                for r in results
            ],
        }
    )


def _rating(group: str, mu: float, sigma: float) -> dict[str, Any]:
    return {"group": group, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}


@_answering
async def leaderboard(request: Request) -> Response:
    """A group's players best first (``mu - 3 sigma``), overall or of one language,
    with the bots at their fixed ratings, marked as bots."""
    group = request.query_params.get("group", GROUPS[1])
    if group not in GROUPS:
        raise Refusal(RefusalCode.BAD_REQUEST, f"group is one of {', '.join(GROUPS)}")
    language = request.query_params.get("lang") or None
    store = rooms(request).accounts.store
    rows = await asyncio.to_thread(store.leaderboard, group, language=language, limit=_LEADERS)
    return json_response(
        {
            "group": group,
            "groups": list(GROUPS),
            "language": language,
            "players": [
                public_player(account)
                | _rating(group, rating.mu, rating.sigma)
                | {"games": rating.games, "wins": rating.wins}
                for rating, account in rows
            ],
            "bots": [
                {"bot": name} | _rating(group, mu, sigma)
                for name, (mu, sigma) in sorted(BOT_RATINGS.items(), key=lambda b: -b[1][0])
            ],
        }
    )
