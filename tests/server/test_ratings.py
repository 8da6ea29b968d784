"""Ratings (#26): after a scripted series of finished games, the leaderboard's order and
each rating's mean and uncertainty are what OpenSkill computes on its own from the same
games; bots play at their fixed ratings; a game with a guest is kept in the history but
not rated; a real game played to its end is recorded once, with its replay."""

from __future__ import annotations

import asyncio
import hashlib
import time
from typing import Any

import pytest
from openskill.models import PlackettLuce
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.accounts import BOT_RATINGS, default_prefs, record_game
from sequence_stacks.server.play import TableNews, TableStatus
from sequence_stacks.server.store import Account, AccountStore, Credential, SeatLink

from .accounts import another_browser, sign_up
from .harness import FAST, SHORT_GAME, connect, play_until_over
from .softkey import SoftKey

PLAYERS = ("ann", "bob", "cid", "dan")
GUEST = "guest-token-hash"


def _hash(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def _setup(store: AccountStore, table_id: str) -> None:
    for name in PLAYERS:
        if store.account(name) is None:
            account = Account(
                name,
                name.title(),
                name,
                "star",
                "en" if name != "dan" else "ko",
                f"u-{name}",
                time.time(),
                prefs=default_prefs(),
            )
            store.create_account(account, Credential(f"c-{name}", name, "k", 0, "?", 0.0, 0.0))
        store.link_seat(SeatLink(table_id, _hash(name), name, "sealed", time.time()))


def _standings(chips: list[int], winner: int | None) -> list[dict[str, Any]]:
    """Standings as the table makes them (best first), from each seat's chips."""
    order = sorted(range(len(chips)), key=lambda seat: (seat != winner, -chips[seat]))
    return [
        {"seat": s, "chips": [chips[s], 0], "completed": 0, "winner": s == winner} for s in order
    ]


def _news(table_id: str, seats: list[str], chips: list[int], winner: int | None) -> TableNews:
    owners = tuple(
        None if who.startswith("bot:") else (GUEST if who == "guest" else _hash(who))
        for who in seats
    )
    bots = tuple(who.removeprefix("bot:") if who.startswith("bot:") else None for who in seats)
    return TableNews(
        table_id=table_id,
        game=1,
        status=TableStatus.OVER,
        turn_based=False,
        turn_hours=None,
        turn=10,
        window=None,
        awaited=(),
        deadline_in=None,
        connected=(False,) * len(seats),
        owners=owners,
        bots=bots,
        standings=_standings(chips, winner),
    )


# Each game: who sat where, each seat's chips, the winner's seat (None: no winner).
GAMES: list[tuple[list[str], list[int], int | None]] = [
    (["ann", "bob"], [5, 2], 0),
    (["bob", "ann"], [5, 4], 0),
    (["cid", "ann"], [1, 5], 1),
    (["dan", "bot:greedy"], [5, 3], 0),
    (["ann", "bot:heuristic"], [2, 5], 1),
    (["bob", "cid"], [3, 3], None),  # no winner, equal chips: one place shared
    (["ann", "guest"], [5, 1], 0),  # a guest: not rated
    (["ann", "bob", "cid"], [5, 3, 3], 0),  # 3-4 players: another group
    (["dan", "ann"], [5, 0], 0),
]


def _independent() -> dict[str, dict[str, tuple[float, float]]]:
    """OpenSkill on its own: the rated games in order, ranks from the chips."""
    model = PlackettLuce()
    ratings: dict[str, dict[str, tuple[float, float]]] = {"2": {}, "3-4": {}}
    for seats, chips, winner in GAMES:
        if "guest" in seats:
            continue
        group = ratings["2" if len(seats) == 2 else "3-4"]
        keys = [(seat != winner, -chips[seat]) for seat in range(len(seats))]
        ranks = [1.0 + sum(other < key for other in keys) for key in keys]
        teams = []
        for who in seats:
            if who.startswith("bot:"):
                mu, sigma = BOT_RATINGS[who.removeprefix("bot:")]
            else:
                mu, sigma = group.get(who, (model.mu, model.sigma))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        for who, team in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            if not who.startswith("bot:"):
                group[who] = (team[0].mu, team[0].sigma)
    return ratings


def test_the_leaderboard_is_what_openskill_computes() -> None:
    app = create_app(FAST, storage=MemoryStorage())
    with TestClient(app) as client:
        store: AccountStore = app.state.rooms.accounts.store
        for index, (seats, chips, winner) in enumerate(GAMES):
            table_id = f"t{index}"
            _setup(store, table_id)
            assert asyncio.run(record_game(store, _news(table_id, seats, chips, winner)))
            # Told again (another worker, a restart): recorded once.
            assert not asyncio.run(record_game(store, _news(table_id, seats, chips, winner)))
        expected = _independent()
        for group, wanted in expected.items():
            board = client.get(f"/api/leaderboard?group={group}").json()
            got = [(p["id"], p["mu"], p["sigma"]) for p in board["players"]]
            order = sorted(wanted, key=lambda who: -(wanted[who][0] - 3 * wanted[who][1]))
            assert [who for who, _, _ in got] == order
            for who, mu, sigma in got:
                assert mu == pytest.approx(wanted[who][0], abs=1e-9)
                assert sigma == pytest.approx(wanted[who][1], abs=1e-9)
            # The bots are on it at their published ratings, marked as bots.
            assert {b["bot"]: (b["mu"], b["sigma"]) for b in board["bots"]} == dict(BOT_RATINGS)
        # Per language: Dan alone plays in Korean.
        korean = client.get("/api/leaderboard?group=2&lang=ko").json()["players"]
        assert [p["id"] for p in korean] == ["dan"]
        # Ann's profile: every finished game, the guest's unrated, the bots' marked.
        ann = client.get("/api/players/ann").json()
        assert ann["games"] == 7
        assert ann["wins"] == 4  # t0, t2, t6 (against the guest), t7
        assert ann["win_rate"] == pytest.approx(4 / 7)
        marks = {(h["table_id"], h["rated"], h["with_bots"]) for h in ann["history"]}
        assert ("t6", False, False) in marks
        assert ("t4", True, True) in marks
        assert {r["group"]: r["games"] for r in ann["ratings"]} == {"2": 5, "3-4": 1}


def test_a_game_played_to_its_end_between_accounts_is_rated_once() -> None:
    app = create_app(FAST, storage=MemoryStorage())
    with TestClient(app) as client:
        ann = sign_up(client, SoftKey(), "Ann")
        table_id = client.post(
            "/api/tables", json={"options": {**SHORT_GAME, "player_count": 2}}
        ).json()["id"]
        ann_token = client.post(f"/api/tables/{table_id}/seats", json={"name": "x"}).json()["token"]
        bob_browser = another_browser(client)
        bob = sign_up(bob_browser, SoftKey(), "Bob")
        bob_token = bob_browser.post(f"/api/tables/{table_id}/seats", json={"name": "x"}).json()[
            "token"
        ]
        with connect(client, table_id, "Ann") as one, connect(client, table_id, "Bob") as two:
            one.hello(ann_token)
            two.hello(bob_token)
            one.reply(one.command("start"))
            play_until_over([one, two])
        recorder = app.state.rooms.recorder
        client.portal.call(recorder.drain)  # type: ignore[union-attr]
        histories = [client.get(f"/api/players/{who['id']}").json() for who in (ann, bob)]
        assert [h["games"] for h in histories] == [1, 1]
        assert sorted(h["wins"] for h in histories) in ([0, 1], [0, 0])
        for history in histories:
            (game,) = history["history"]
            assert (game["rated"], game["with_bots"], game["players"]) == (True, False, 2)
            assert game["replay"] == f"/replay/{table_id}/1"
            assert client.get(f"/api/tables/{table_id}/games/1").status_code == 200
        board = client.get("/api/leaderboard?group=2").json()["players"]
        assert {p["id"] for p in board} == {ann["id"], bob["id"]}
