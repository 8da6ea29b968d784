"""Reading the HTML pages the reports write: tags nest and close, and what tests check."""

import base64
import hashlib
from html.parser import HTMLParser
from typing import Final

_VOID: Final = {"meta", "img", "br", "hr", "link", "input", "col", "wbr", "source"}


class Page(HTMLParser):
    """Checks that tags nest and close, and collects what the tests look at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.style = ""
        self.text: list[str] = []
        self.rows: list[list[str]] = []
        self.h4: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.stack and self.stack[-1] == "style":
            self.style += data
        if self.stack and self.stack[-1] == "h4":
            self.h4.append(data)
            self.rows.append([f"h4:{data}"])
        if self.stack and self.stack[-1] in {"td", "th"} and self.rows:
            self.rows[-1].append(data)


def parse_page(text: str) -> Page:
    """Parse a page, checking that every tag closes in order."""
    page = Page()
    page.feed(text)
    page.close()
    assert page.errors == []
    assert page.stack == []
    return page


def check_self_contained(text: str, *, images: int) -> Page:
    """Check that a page runs no script, styles only through its one hashed style sheet
    (a strict Content-Security-Policy) and embeds its ``images`` PNGs; return it parsed."""
    page = parse_page(text)
    assert "script" not in [tag for tag, _ in page.tags]
    assert all("style" not in attrs for _, attrs in page.tags)  # CSP: no style attributes
    (csp,) = [
        a["content"] for _, a in page.tags if a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert csp is not None
    assert "default-src 'none'" in csp
    digest = base64.b64encode(hashlib.sha256(page.style.encode()).digest()).decode()
    assert f"style-src 'sha256-{digest}'" in csp  # the one style sheet, allowed by hash
    found = [attrs for tag, attrs in page.tags if tag == "img"]
    assert len(found) == images
    for attrs in found:
        assert (attrs["src"] or "").startswith("data:image/png;base64,")
        assert attrs["alt"]
    return page
