"""Quick chat (#15 item 10): a seated player sends a phrase's id, everyone at the table
hears it, each client words it in its reader's language; spectators, unknown phrases
and a flood are refused; nothing of it enters the table's log."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from sequence_stacks.i18n import LANGUAGES, MESSAGES, translation
from sequence_stacks.server import Storage
from sequence_stacks.server.play.commands import CHAT_PHRASES

from .harness import connect, create_table, sit

pytestmark = pytest.mark.timeout(60)


def test_every_phrase_is_a_message_translated_in_every_language() -> None:
    assert len(CHAT_PHRASES) >= 8
    for phrase in CHAT_PHRASES:
        key = f"chat.{phrase}"
        assert key in MESSAGES, key
        english = MESSAGES[key].text
        for language in LANGUAGES:
            worded = translation(language).text(key, None)
            assert worded, (language, key)
            if language != "en":
                assert worded != english or english.startswith("("), (language, key)


def test_a_phrase_reaches_everyone_at_the_table_and_stays_out_of_the_log(
    client: TestClient, storage: Storage
) -> None:
    table_id = create_table(client)
    _, ann_token = sit(client, table_id, "Ann")
    _, bob_token = sit(client, table_id, "Bob")
    with (
        connect(client, table_id, "ann") as ann,
        connect(client, table_id, "bob") as bob,
        connect(client, table_id, "eve") as eve,
    ):
        assert ann.hello(ann_token)["chat"] == list(CHAT_PHRASES)
        bob.hello(bob_token)
        eve.hello()
        before = len(storage.entries(table_id))
        ann.send({"type": "chat", "phrase": "good_luck"})
        for listener in (ann, bob, eve):
            heard = listener.wait_for(lambda f: f["type"] == "chat")
            assert heard == {"type": "chat", "seat": 0, "phrase": "good_luck"}
        # Too soon after the last one: refused, heard by nobody.
        ann.send({"type": "chat", "phrase": "oops"})
        refused = ann.wait_for(lambda f: f["type"] in ("refused", "error"))
        assert refused["code"] == "rate_limited"
        # A spectator has no voice; a phrase not in the set is not a phrase.
        eve.send({"type": "chat", "phrase": "hello"})
        assert eve.wait_for(lambda f: f["type"] in ("refused", "error"))["code"] == "not_seated"
        for bad in ("<script>", "good luck", 7, None, ["hello"]):
            bob.send({"type": "chat", "phrase": bad})
            assert bob.wait_for(lambda f: f["type"] in ("refused", "error"))["code"] == (
                "bad_request"
            )
        bob.send({"type": "chat", "phrase": "thanks"})
        assert ann.wait_for(lambda f: f["type"] == "chat")["phrase"] == "thanks"
        assert not [f for f in eve.drain() if f["type"] == "chat" and f["phrase"] != "thanks"]
        assert len(storage.entries(table_id)) == before
