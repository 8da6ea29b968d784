"""Reading the HTML pages the reports write: tags nest and close, and what tests check."""

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
