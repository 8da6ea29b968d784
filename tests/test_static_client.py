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

from sequence_stacks.engine.catalog import catalog
from sequence_stacks.i18n.messages import MESSAGES
from sequence_stacks.server.app import STATIC_DIR
from sequence_stacks.server.play.vocabulary import server_vocabulary
from sequence_stacks.server.web.pages import document

SCRIPTS = sorted(STATIC_DIR.glob("*.js"))
# Each page's own file; the checks read the whole page the server sends (its file in
# the shared shell, its parts filled in: web/pages.py).
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


# The client renders data and owns no rules (STYLE 14, #13): card facts come from the
# catalog, legal actions from their fields, words from the messages. Each pattern is a
# way the client once re-derived an engine fact or parsed the server's text.
RE_DERIVED_JS = {
    "the card-id layout (52 per colour, actions from 104)": re.compile(r"\b(52|104)\b"),
    "card-id arithmetic (9 copies of each number)": re.compile(r"[*/%]\s*9\b|\b9\s*[*/%]"),
    "cardInfo (card facts computed from the id)": re.compile(r"\bcardInfo\b"),
    "prettyText (the server's sentences rewritten)": re.compile(r"\bprettyText\b"),
    "parseAction (a notation parser)": re.compile(r"\bparseAction\b"),
    "a split on '>' (notation targets)": re.compile(r"\.split\(\s*[\"'`]>"),
    "a regex over card notation ([BR][1-5W])": re.compile(r"\[BR\]|\[1-5W\]|B3#|#\\d"),
    "a 'discard ' or '^' notation prefix": re.compile(
        r"startsWith\(\s*[\"'`](discard|\^)|[\"'`]\^[\"'`]"
    ),
    "a legal action id as a constant (ids.includes(1))": re.compile(r"\.includes\(\s*\d"),
    "an event's English text read": re.compile(
        r"\b(event|ev|e|entry|frame|data)\s*\.\s*text\b|\[\s*[\"'`]text[\"'`]\s*\]"
    ),
    "the notation list (frame.actions) read": re.compile(
        r"\.\s*actions\b|\[\s*[\"'`]actions[\"'`]\s*\]"
    ),
    "an action sent in notation": re.compile(r"[\"'`]act[\"'`]\s*,\s*\{\s*action\s*:"),
    "the server's English reason shown": re.compile(r"\b(frame|data)\s*\.\s*reason\b"),
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


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_no_script_re_derives_engine_facts_or_parses_server_text(path: Path) -> None:
    found = [
        f"{path.name}:{number}: {what}: {line.strip()}"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for what, pattern in RE_DERIVED_JS.items()
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_client_renders_from_the_catalog_fields_and_messages() -> None:
    """The positive side: the scripts that show cards, actions and words use the data."""
    text = {path.name: path.read_text() for path in SCRIPTS}
    assert "/api/catalog" in text["messages.js"]
    assert "/api/messages" in text["messages.js"]
    assert "Intl.PluralRules" in text["messages.js"]
    assert "catalog().cards[" in text["words.js"]
    assert "action_table" in text["table.js"]
    assert "action_id" in text["table.js"]
    for name in ("table.js", "lobby.js", "replay.js", "tutorial.js"):
        assert "loadWords()" in text[name], name
    # One board (#23): the table, the tutorial and the replay draw it, none draws piles.
    for name in ("table.js", "tutorial.js", "replay.js"):
        assert "new Board(" in text[name], name
        assert "pileFace(" not in text[name], name
    assert "catalog.events" in text["vocabulary.js"]


# --- No vocabulary value spelled in a script (#23) ---------------------------------------

# Ways a script compares a value to a string of its own: ==, !=, a case label, a list or
# set it looks the value up in.
_QUOTE = "[\"'`]"
_COMPARE_SHAPES = (
    r"(?:===?|!==?)\s*{q}(?P<v>{v}){q}",
    r"{q}(?P<v>{v}){q}\s*(?:===?|!==?)",
    r"\bcase\s+{q}(?P<v>{v}){q}\s*:",
    r"\.(?:includes|has|indexOf|startsWith|endsWith)\(\s*{q}(?P<v>{v}){q}",
    r"new\s+Set\(\s*\[[^\]]*{q}(?P<v>{v}){q}",
    r"\[\s*{q}(?P<v>{v}){q}\s*(?:,[^\]]*)?\]\s*\.\s*(?:includes|indexOf)\(",
)


def vocabulary_values() -> set[str]:
    """Every value of every vocabulary /api/catalog serves (the engine's and the server's)."""
    served = catalog() | server_vocabulary()
    lists = ("phases", "action_types", "end_reasons", "draw_reasons")
    values = {value for name in lists for value in served[name]}
    values |= {value for name in server_vocabulary() for value in served[name]}
    values |= set(served["events"])
    values |= {colour["key"] for colour in served["colours"]}
    values |= {kind["action"] for kind in served["kinds"] if kind["action"]}
    return values


def vocabulary_compares(text: str, values: set[str]) -> list[str]:
    """The lines of ``text`` that compare a value to one of ``values`` spelled out."""
    alternatives = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    shapes = [re.compile(shape.format(q=_QUOTE, v=alternatives)) for shape in _COMPARE_SHAPES]
    return [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), 1)
        if any(shape.search(line) for shape in shapes)
    ]


def test_the_vocabulary_scan_catches_what_it_is_for() -> None:
    values = vocabulary_values()
    assert {"playing", "block_window", "bot", "lobby", "add_bot", "turn", "TurnStarted"} <= values
    bad = "\n".join(
        [
            'if (view.phase === "playing") go();',
            "if ('bot' !== seat.kind) go();",
            "case `add_bot`:",
            'const kinds = new Set(["sit", "leave"]);',
            'if (["TurnStarted", "GameEnded"].includes(event.type)) go();',
            'if (timer?.kind == "turn") go();',
            'if (names.includes("block_window")) go();',
        ]
    )
    assert len(vocabulary_compares(bad, values)) == 7
    good = "\n".join(
        [
            "if (view.phase === PHASE.PLAYING) go();",
            'if (event.key === "Escape") go();',
            'play("turn");',
            'h("span", { class: "chip blue" });',
            'if (block.type === "table") go();',
        ]
    )
    assert vocabulary_compares(good, values) == []


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_no_script_compares_a_vocabulary_value_to_its_own_string(path: Path) -> None:
    """Phases, table statuses, seat kinds, ops, timer kinds, action types, event kinds,
    end and draw reasons, colours and action cards are named by vocabulary.js's constants
    (generated from /api/catalog), never spelled in a script."""
    found = vocabulary_compares(path.read_text(), vocabulary_values())
    assert not found, "\n".join(f"{path.name}:{line}" for line in found)


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
    text = document(path.name)
    parser.feed(text)
    parser.close()
    # The parser's view, and a plain text check in case markup fooled it.
    assert not parser.found, "\n".join(f"{path.name} {found}" for found in parser.found)
    assert not re.search(r"\s(on[a-z]+|style)\s*=", text, re.IGNORECASE), path.name
    assert not re.search(r"<style[\s>]", text, re.IGNORECASE), path.name
    for script in re.finditer(r"<script\b([^>]*)>(.*?)</script>", text, re.DOTALL | re.IGNORECASE):
        assert "src=" in script.group(1), f"{path.name}: {script.group(0)}"
        assert not script.group(2).strip(), f"{path.name}: {script.group(0)}"


class _PageWords(HTMLParser):
    """A page's own words: each text (with a letter) and each title, aria-label and
    placeholder, with the message key that fills it in (``data-t``, ``data-t-attr``)."""

    WORDY = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []  # (tag, data-t) of open elements
        self.texts: list[tuple[str, str | None, str]] = []  # (text, key, tag)
        self.attributes: list[tuple[str, str, str | None]] = []  # (name, value, key)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        keys = dict(
            pair.split(":", 1) for pair in (found.get("data-t-attr") or "").split() if ":" in pair
        )
        for name in self.WORDY:
            value = found.get(name)
            if value and tag != "link" and any(char.isalpha() for char in value):
                self.attributes.append((name, value, keys.get(name)))
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append((tag, found.get("data-t")))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not self.stack or not any(char.isalpha() for char in text):
            return
        tag, key = self.stack[-1]
        if tag not in ("script", "style"):
            self.texts.append((text, key, tag))


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_every_word_of_a_page_comes_from_a_message(path: Path) -> None:
    """Each text and wordy attribute of the HTML names the message that replaces it
    once the words are loaded (#14), and its English fallback is that message's text.
    Keyboard keys (<kbd>) are keys, not words."""
    words = _PageWords()
    words.feed(document(path.name))
    words.close()
    problems = []
    for text, key, tag in words.texts:
        if tag == "kbd":
            continue
        if key is None:
            problems.append(f"<{tag}> {text!r} has no data-t")
        elif key not in MESSAGES:
            problems.append(f"<{tag}> {text!r}: no message {key}")
        elif MESSAGES[key].text != text:
            problems.append(f"<{tag}> {text!r} is not the English of {key}")
    for name, value, key in words.attributes:
        if key is None:
            problems.append(f"{name}={value!r} has no data-t-attr")
        elif key not in MESSAGES or MESSAGES[key].text != value:
            problems.append(f"{name}={value!r} is not the English of {key}")
    assert words.texts
    assert not problems, "\n".join(problems)


def test_the_pages_have_a_language_menu_and_fill_their_words() -> None:
    text = {path.name: path.read_text() for path in SCRIPTS}
    for page in ("index.html", "table.html", "replay.html", "missing.html"):
        assert 'id="language"' in document(page), page
        assert "data-t-attr" in document(page), page
    for script in ("table.js", "lobby.js", "replay.js"):
        assert "setUpPage()" in text[script], script
    assert "/api/languages" in text["pagewords.js"]
    assert "SameSite=Lax" in text["pagewords.js"]
    assert "/api/rules" in text["rules.js"]


def test_the_stylesheet_names_a_font_for_every_script() -> None:
    css = (STATIC_DIR / "app.css").read_text()
    for family in ("Noto Sans", "Noto Sans Armenian", "Noto Sans Devanagari", "Noto Sans KR"):
        assert f'"{family}"' in css, family
    assert "Noto Sans CJK KR" in css
    assert re.search(r":lang\(hi\)[^{]*\{[^}]*letter-spacing:\s*normal", css)
    assert re.search(r":lang\(ko\)[^{]*\{[^}]*word-break:\s*keep-all", css)


def _unclosed_css_blocks(text: str) -> list[int]:
    """The lines whose block is still open at the file's end or at a top-level rule
    that should not be nested (an ``@media`` inside a rule)."""
    depth = 0
    problems: list[int] = []
    for number, line in enumerate(re.sub(r"/\*.*?\*/", "", text, flags=re.S).split("\n"), 1):
        if line.startswith("@") and depth:
            problems.append(number)
        depth += line.count("{") - line.count("}")
        if depth < 0:
            problems.append(number)
            depth = 0
    return [*problems, *([0] if depth else [])]


@pytest.mark.parametrize("path", sorted(STATIC_DIR.glob("*.css")), ids=lambda p: p.name)
def test_every_stylesheet_closes_its_blocks(path: Path) -> None:
    """A brace lost in a merge puts every later rule inside a media query (the review's
    chart drew black on a desktop, right on a phone): each block closes, and no
    top-level at-rule starts inside another block."""
    assert _unclosed_css_blocks(path.read_text(encoding="utf-8")) == [], path.name


def test_the_stylesheet_check_finds_a_lost_brace() -> None:
    lost = "@media (max-width: 600px) {\n  a { color: red; }\n\n.b { color: blue; }\n"
    assert _unclosed_css_blocks(lost) == [0]
    assert _unclosed_css_blocks(lost + "@media print {\n  a { color: red; }\n}\n") == [5, 0]
    assert _unclosed_css_blocks(lost + "}\n") == []
