"""The browser client builds no markup from strings and its pages need no inline code (#12).

Display names are untrusted text. The client puts every piece of text into the page as
text (``textContent``, text nodes), so no script may hand a string to the HTML parser
or to the JavaScript compiler; and the server's Content-Security-Policy (``script-src
'self'; style-src 'self'``) blocks inline scripts, inline event handlers and inline
styles, so the HTML files must need none. A plain text check, so it runs everywhere.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sequence_stacks.server.app import STATIC_DIR

SCRIPTS = sorted(STATIC_DIR.glob("*.js"))
PAGES = sorted(STATIC_DIR.glob("*.html"))

# Ways to turn a string into markup or code. Comments count too: the words are not
# needed to explain the client.
FORBIDDEN_JS = {
    "innerHTML": re.compile(r"innerHTML"),
    "outerHTML": re.compile(r"outerHTML"),
    "insertAdjacentHTML": re.compile(r"insertAdjacentHTML"),
    "document.write": re.compile(r"document\s*\.\s*write"),
    "createContextualFragment": re.compile(r"createContextualFragment"),
    "DOMParser": re.compile(r"DOMParser"),
    "setHTML": re.compile(r"setHTML|parseHTML"),
    "srcdoc": re.compile(r"srcdoc"),
    "eval(": re.compile(r"\beval\s*\("),
    "new Function": re.compile(r"\bnew\s+Function\b"),
    "setTimeout/setInterval of a string": re.compile(r"\bset(Timeout|Interval)\s*\(\s*[\"'`]"),
    "a javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
    "an inline handler attribute set": re.compile(r"setAttribute\(\s*[\"'`]on", re.IGNORECASE),
    "a style attribute set": re.compile(r"setAttribute\(\s*[\"'`]style", re.IGNORECASE),
    # A string literal that opens a tag is markup waiting for a parser.
    "a markup string": re.compile(r"[\"'`]\s*<\s*/?[a-zA-Z]"),
}


def test_the_client_has_scripts_and_pages() -> None:
    names = {path.name for path in SCRIPTS + PAGES}
    assert {"table.js", "lobby.js", "replay.js", "table.html", "index.html"} <= names


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_no_script_turns_a_string_into_markup_or_code(path: Path) -> None:
    found = [
        f"{path.name}:{number}: {what}: {line.strip()}"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for what, pattern in FORBIDDEN_JS.items()
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


class _InlineCode(HTMLParser):
    """Everything in a page that a strict CSP would block or that is code in markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        names = {name for name, _ in attrs}
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"line {line}: <{tag} {name}=...> (an inline handler)")
            if name == "style":
                self.found.append(f"line {line}: <{tag} style=...> (an inline style)")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"line {line}: <{tag} {name}={value}> (a javascript: URL)")
            if name == "srcdoc":
                self.found.append(f"line {line}: <{tag} srcdoc=...>")
        if tag == "style":
            self.found.append(f"line {line}: a <style> element")
        if tag == "script":
            self.script = True
            if "src" not in names:
                self.found.append(f"line {line}: a <script> without src")
        if tag == "base":
            self.found.append(f"line {line}: a <base> element")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.script = False

    def handle_data(self, data: str) -> None:
        if self.script and data.strip():
            self.found.append(f"line {self.getpos()[0]}: an inline script body")


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_no_page_has_inline_script_style_or_handlers(path: Path) -> None:
    parser = _InlineCode()
    text = path.read_text()
    parser.feed(text)
    parser.close()
    # The parser's view, and a plain text check in case markup fooled it.
    assert not parser.found, "\n".join(f"{path.name} {found}" for found in parser.found)
    assert not re.search(r"\s(on[a-z]+|style)\s*=", text, re.IGNORECASE), path.name
    assert not re.search(r"<style[\s>]", text, re.IGNORECASE), path.name
    for script in re.finditer(r"<script\b([^>]*)>(.*?)</script>", text, re.DOTALL | re.IGNORECASE):
        assert "src=" in script.group(1), f"{path.name}: {script.group(0)}"
        assert not script.group(2).strip(), f"{path.name}: {script.group(0)}"
