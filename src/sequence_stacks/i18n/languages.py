"""Which languages the game speaks, and choosing one for a reader.

A language is chosen from what the reader asked for, most specific first: a browser's
remembered choice or a URL's ``?lang=``, then its ``Accept-Language``; a terminal's
``--lang``, then the locale environment. Anything unknown falls back to English,
quietly: a wrong code never costs anyone a page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "from_accept_language",
    "from_environment",
    "negotiate",
]

DEFAULT_LANGUAGE: Final = "en"
# Each language named in itself, as the language menu shows it.
LANGUAGES: Final[dict[str, str]] = {
    "en": "English",
    "ms": "Bahasa Melayu",
    "hy": "Հայերեն",
    "sl": "Slovenščina",
    "ko": "한국어",
    "hi": "हिन्दी",
}
_TAG_LIMIT: Final = 35  # longest language tag looked at (BCP 47 tags are short)


def _primary(tag: str) -> str | None:
    """The supported language a tag names (``ko-KR`` -> ``ko``, ``sl_SI.UTF-8`` -> ``sl``)."""
    text = tag.strip()[:_TAG_LIMIT].replace("_", "-").split(".")[0].split("@")[0]
    primary = text.split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def negotiate(*candidates: str | None) -> str:
    """The first supported language among ``candidates`` (tags), else English."""
    for candidate in candidates:
        if candidate:
            found = _primary(candidate)
            if found is not None:
                return found
    return DEFAULT_LANGUAGE


def from_accept_language(header: str | None) -> str | None:
    """The best supported language of an ``Accept-Language`` header, or None.

    Ranges are taken by quality (``q``), ties in the order given; ``*`` and ranges
    with q=0 choose nothing; a malformed part is skipped.
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header[:1000].split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0 and 0 <= quality <= 1:
            ranked.append((-quality, position, tag))
    for _, _, tag in sorted(ranked):
        found = _primary(tag)
        if found is not None:
            return found
    return None


def from_environment(env: Mapping[str, str]) -> str | None:
    """The supported language of the locale environment, or None.

    As gettext reads it: ``LANGUAGE`` (a colon-separated list, unless the locale is
    ``C``), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.
    """
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    tags: Iterable[str] = []
    if env.get("LANGUAGE") and locale not in ("C", "POSIX"):
        tags = env["LANGUAGE"].split(":")
    for tag in [*tags, locale]:
        found = _primary(tag) if tag else None
        if found is not None:
            return found
    return None
