"""Filling messages in, and an engine event as one log line.

:func:`~.events.event_message` (in :mod:`.events`, free of the catalogs) is the one
place an event becomes a message key and its data arguments: the terminal and the CLI
render it here, the server sends it to browsers with each event (``static/messages.js``
fills in the same templates and words the arguments as :func:`words` does;
tests/test_js_client.py keeps the two equal).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import Any, Final

from babel.numbers import format_decimal

from sequence_stacks.engine import ACTION_KEYS, CARD_KIND, Event, Kind, kind_colour, kind_rank

from .events import COLOUR_KEYS, coloured, event_message
from .languages import DEFAULT_LANGUAGE, negotiate
from .messages import MESSAGES
from .translations import translation

__all__ = [
    "COLOUR_KEYS",
    "card_name",
    "colour_name",
    "coloured",
    "current_language",
    "event_line",
    "event_message",
    "kind_name",
    "particle",
    "pile_name",
    "placeholders",
    "refusal_message",
    "render",
    "set_language",
    "words",
]

_FORMATTER: Final = string.Formatter()


def placeholders(text: str) -> frozenset[str]:
    """The named placeholders of a template (``{player}`` -> ``player``)."""
    return frozenset(name for _, name, _, _ in _FORMATTER.parse(text) if name)


_current = [DEFAULT_LANGUAGE]


def set_language(language: str) -> str:
    """Speak ``language`` from now on in this process (a terminal has one reader);
    an unknown code is English. Returns the language in use."""
    _current[0] = negotiate(language)
    return _current[0]


def current_language() -> str:
    """The language :func:`render` speaks."""
    return _current[0]


def render(key: str, /, **args: Any) -> str:
    """The message ``key`` in the current language, its placeholders filled; numbers
    written as the language writes them, the form chosen by the count's plural rule."""
    language = _current[0]
    count_name = MESSAGES[key].count
    count = args.get(count_name) if count_name else None
    text = translation(language).text(key, count if isinstance(count, int) else None)
    shown = {
        name: format_decimal(value, locale=language) if _is_number(value) else value
        for name, value in args.items()
    }
    return with_particles(text, shown).format_map(shown)


# --- Korean particles after a filled-in word (#24) ---------------------------------------
# A Korean template writes a particle whose form depends on the word before it as both
# forms, "{player}은(는)" (the fallback Korean software prints). Where the word put in
# its place ends in a sound we know, the one form it takes is chosen: after a final
# consonant (batchim) 은, 이, 을, 과; after a vowel 는, 가, 를, 와. The rule is
# docs/translating/ko.md's; static/messages.js implements the same, and both are tested
# on one list of cases (tests/i18n/korean_particles.json).
_PAIRS: Final = {
    "은(는)": ("은", "는"),
    "는(은)": ("은", "는"),
    "이(가)": ("이", "가"),
    "가(이)": ("이", "가"),
    "을(를)": ("을", "를"),
    "를(을)": ("을", "를"),
    "과(와)": ("과", "와"),
    "와(과)": ("과", "와"),
}
_PARTICLE: Final = re.compile(
    r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(" + "|".join(map(re.escape, _PAIRS)) + ")"
)
_TRAILING_NOTE: Final = re.compile(r"\s*\([^()]*\)\s*$")
_HANGUL_FIRST: Final = 0xAC00
_HANGUL_LAST: Final = 0xD7A3
_DIGITS_WITH_BATCHIM: Final = frozenset("013678")  # 영 일 삼 육 칠 팔 (and 십 백 천 만)


def particle(word: str, pair: str) -> str:
    """The form of the particle ``pair`` ("은(는)") that follows ``word``: chosen by the
    word's last sound (a Hangul syllable's final consonant, a digit as Korean reads it),
    after a note in brackets at its end ("민수 (나)" ends in 수); ``pair`` as it is when
    the sound is unknown (a word in Latin letters)."""
    consonant, vowel = _PAIRS[pair]
    stem = _TRAILING_NOTE.sub("", word) or word
    last = stem.rstrip()[-1:]
    if not last:
        return pair
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        return consonant if (code - _HANGUL_FIRST) % 28 else vowel
    if last.isascii() and last.isdigit():
        return consonant if last in _DIGITS_WITH_BATCHIM else vowel
    return pair


def with_particles(text: str, args: dict[str, Any]) -> str:
    """``text`` with each two-form particle right after a placeholder chosen for the value
    that fills it (the placeholder kept, to be filled next)."""

    def choose(found: re.Match[str]) -> str:
        name, pair = found[1], found[2]
        value = args.get(name)
        chosen = pair if value is None else particle(str(value), pair)
        return f"{{{name}}}{chosen}"

    return _PARTICLE.sub(choose, text)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def colour_name(colour: int) -> str:
    """A colour on its own in words."""
    return render(f"colour.{COLOUR_KEYS[colour]}")


def pile_name(colour: int, index: int) -> str:
    """A sequence pile in words: its colour and its index within that colour (from 0)."""
    return render(coloured("pile.name", colour), number=index + 1)


def refusal_message(code: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The message key of an engine refusal (``illegal.<code>``, worded per colour where
    it names a chip's colour) and its arguments as data (see :func:`words`)."""
    key = f"illegal.{code}"
    if key not in MESSAGES and "colour" in params:
        args = dict(params)
        return coloured(key, args.pop("colour")), args
    return key, params


def kind_name(kind: int) -> str:
    """A card kind in words: ``blue 3``, ``red wild``, ``Steal-a-Chip``."""
    colour = kind_colour(kind)
    if colour < 0:
        return render(f"card.{ACTION_KEYS[Kind(kind)]}")
    rank = kind_rank(kind)
    if rank == 0:
        return render("card.wild", colour=colour_name(colour))
    return render("card.number", colour=colour_name(colour), rank=rank)


def card_name(card: int) -> str:
    """One card in words (its kind's name)."""
    return kind_name(CARD_KIND[card])


def event_line(event: Event, player: Callable[[int], str]) -> str | None:
    """One log line for an event (as its viewer may see it), or None for an event that
    needs none (an ordinary end of turn). ``player`` names a seat."""
    found = event_message(event)
    if found is None:
        return None
    key, args = found
    return render(key, **words(args, player))


def words(args: dict[str, Any], player: Callable[[int], str]) -> dict[str, Any]:
    """An event's data arguments in words, by name: ``player`` and ``victim`` are seats,
    ``card`` a card id, ``cards`` card ids, ``kind`` a card kind's index, ``pile``
    (colour, index within the colour), ``colour`` a colour, ``reason`` an end reason;
    numbers stay numbers."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if value is None:
            continue
        if name in ("player", "victim"):
            out[name] = player(value)
        elif name == "card":
            out[name] = card_name(value)
        elif name == "kind":
            out[name] = kind_name(value)
        elif name == "cards":
            out[name] = render("list.separator").join(map(card_name, value))
        elif name == "pile":
            out[name] = pile_name(*value)
        elif name == "colour":
            out[name] = colour_name(value)
        elif name == "reason":
            out[name] = render(f"end.{value}")
        else:
            out[name] = value
    return out
