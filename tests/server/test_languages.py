"""Pages and messages in the reader's language (#14): ?lang=, the menu's cookie,
Accept-Language, else English; an unknown code is English with no error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from sequence_stacks.i18n import LANGUAGES, MESSAGES
from sequence_stacks.server import MemoryStorage, create_app

from .harness import FAST


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(FAST, storage=MemoryStorage())) as test_client:
        yield test_client


def _lang(html: str) -> str:
    start = html.index("<html lang=")
    return html[start + len('<html lang="') :].split('"', 1)[0]


@pytest.mark.parametrize("path", ["/", "/t/abc", "/replay/abc/1"])
@pytest.mark.parametrize(
    "case",
    [
        ("", None, None, "en"),
        ("", None, "ko-KR,ko;q=0.9,en;q=0.5", "ko"),
        ("", None, "fr, sl;q=0.5", "sl"),
        ("", "hi", "ko", "hi"),
        ("?lang=hy", "hi", "ko", "hy"),
        ("?lang=xx", None, None, "en"),
        ("?lang=<script>", "zz", "qq", "en"),
        ("", "ms", None, "ms"),
    ],
)
def test_pages_come_in_the_readers_language(
    client: TestClient, path: str, case: tuple[str, str | None, str | None, str]
) -> None:
    query, cookie, accept, expected = case
    table_id = client.post("/api/tables", json={"players": 2}).json()["id"]
    path = path.replace("abc", table_id)
    headers = {"accept-language": accept} if accept else {}
    if cookie:
        client.cookies.set("lang", cookie)
    response = client.get(path + query, headers=headers)
    client.cookies.clear()
    assert response.status_code == 200
    assert _lang(response.text) == expected
    assert response.headers["content-language"] == expected
    assert "Accept-Language" in response.headers["vary"]
    assert response.text.count("<html") == 1


def test_messages_come_in_the_asked_language_with_forms_by_category(client: TestClient) -> None:
    english = client.get("/api/messages?lang=en").json()
    assert english["language"] == "en"
    assert set(english["messages"]) == set(MESSAGES)
    drew = english["messages"]["log.CardsDrawn.refill"]
    assert drew == {
        "forms": {"one": "{player} drew {count} card.", "other": "{player} drew {count} cards."},
        "count": "count",
    }
    assert english["messages"]["seat.you"] == {"forms": {"other": "You"}, "count": None}
    unknown = client.get("/api/messages?lang=xx")
    assert unknown.status_code == 200
    assert unknown.json()["language"] == "en"
    for code in LANGUAGES:
        assert client.get(f"/api/messages?lang={code}").json()["language"] == code
    assert "Accept-Language" in unknown.headers["vary"]


def test_the_language_menu_lists_six_languages_named_in_themselves(client: TestClient) -> None:
    data = client.get("/api/languages", headers={"accept-language": "hi"}).json()
    assert data["current"] == "hi"
    names = {item["code"]: item["name"] for item in data["languages"]}
    assert names == LANGUAGES


@pytest.mark.parametrize("path", ["/t/nosuchtable", "/replay/nosuchtable/1", "/t/%3Cscript%3E"])
@pytest.mark.parametrize("language", ["en", "ko", "hi"])
def test_a_link_to_no_table_gets_a_page_saying_so_with_a_way_back(
    client: TestClient, path: str, language: str
) -> None:
    """#15: not the table page waiting forever, but a 404 in the reader's language."""
    response = client.get(path, headers={"accept-language": language})
    assert response.status_code == 404
    assert _lang(response.text) == language
    assert 'data-t="page.missing.title"' in response.text
    assert 'href="/"' in response.text
    assert "script" not in path or "<script>" not in response.text
    assert response.headers["content-security-policy"].startswith("default-src 'self'")
    # A table that exists is served its own page.
    table_id = client.post("/api/tables", json={"players": 2}).json()["id"]
    found = client.get(path.replace("nosuchtable", table_id))
    assert found.status_code == (404 if "script" in path else 200)
