"""Translations: the gettext catalogs of ``locale/`` read with Babel, plural forms by CLDR.

Each message of :mod:`.messages` is one catalog entry: its key is the entry's context
(``msgctxt``), its English text the ``msgid`` (with ``msgid_plural`` when it has a
plural). A catalog's plural forms are indexed by its ``Plural-Forms`` expression, as
gettext does; clients that choose by CLDR category (the browser's ``Intl.PluralRules``)
get the forms by category instead, mapped here by evaluating both on many numbers
(:func:`category_indexes`, which refuses a catalog whose two rules disagree).
"""

from __future__ import annotations

import dataclasses
import functools
import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from .languages import DEFAULT_LANGUAGE, LANGUAGES
from .messages import MESSAGES, Message

__all__ = [
    "LOCALE_DIR",
    "Translation",
    "catalog_path",
    "category_indexes",
    "messages_json",
    "translation",
]

LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "sequence_stacks"
_SAMPLES: Final = (*range(1001), 1001, 1002, 1003, 1011, 1021, 10**6 + 1)


@dataclasses.dataclass(frozen=True, slots=True)
class Translation:
    """One language's texts: per message key, its forms in the catalog's plural order.

    Attributes:
        language: the language code.
        texts: key -> forms (one form for a message without a plural), for every
            message this language has; the others come from ``fallback``.
        index_of: the catalog's plural rule: a count -> the index of its form.
        categories: CLDR plural category -> the index of its form.
        fallback: English, for a message this language lacks (None for English).
    """

    language: str
    texts: dict[str, tuple[str, ...]]
    index_of: Callable[[int], int]
    categories: dict[str, int]
    fallback: Translation | None = None

    def text(self, key: str, count: int | None = None) -> str:
        """The message's text, in the form ``count`` calls for."""
        forms = self.texts.get(key)
        if forms is None:
            assert self.fallback is not None, key
            return self.fallback.text(key, count)
        if len(forms) == 1 or count is None:
            return forms[0]
        return forms[min(self.index_of(abs(count)), len(forms) - 1)]

    def forms(self, key: str) -> dict[str, str]:
        """The message's forms by CLDR category (``other`` always present)."""
        forms = self.texts.get(key)
        if forms is None:
            assert self.fallback is not None, key
            return self.fallback.forms(key)
        if len(forms) == 1:
            return {"other": forms[0]}
        return {category: forms[index] for category, index in self.categories.items()}

    def has(self, key: str) -> bool:
        """True when this language itself has the message (no English stands in)."""
        return key in self.texts


def catalog_path(language: str) -> Path:
    """Where a language's catalog lives (``locale/<lang>/LC_MESSAGES/<domain>.po``)."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def category_indexes(language: str, index_of: Callable[[int], int]) -> dict[str, int]:
    """CLDR category -> catalog form index, checked on many counts; raise ValueError if
    the catalog's plural rule and CLDR's disagree for the language."""
    plural_form = Locale.parse(language).plural_form
    found: dict[str, int] = {}
    for count in _SAMPLES:
        category, index = plural_form(count), index_of(count)
        if found.setdefault(category, index) != index:
            raise ValueError(
                f"{language}: the catalog's plural rule puts {count} in form {index}, "
                f"but CLDR's category {category!r} is form {found[category]}"
            )
    return found


def _english() -> Translation:
    texts: dict[str, tuple[str, ...]] = {
        key: (message.text,) if message.plural is None else (message.text, message.plural)
        for key, message in MESSAGES.items()
    }

    def index_of(count: int) -> int:
        return 0 if count == 1 else 1

    return Translation(DEFAULT_LANGUAGE, texts, index_of, category_indexes("en", index_of))


def _read(language: str) -> Catalog:
    with catalog_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def _forms(message: Message, entry_string: object, plurals: int) -> tuple[str, ...] | None:
    """The translated forms of a catalog entry, or None when it is not (wholly)
    translated: every form filled, one per plural form of the language."""
    strings = entry_string if isinstance(entry_string, tuple) else (entry_string,)
    forms = tuple(str(s) for s in strings)
    wanted = 1 if message.plural is None else plurals
    if len(forms) != wanted or not all(forms):
        return None
    return forms


@functools.cache
def translation(language: str) -> Translation:
    """The texts of a supported language (English for anything else). A message the
    catalog lacks, or has not translated, is English (the catalog check forbids it)."""
    english = _english()
    if language not in LANGUAGES or language == DEFAULT_LANGUAGE:
        return english
    if not catalog_path(language).exists():
        return english
    catalog = _read(language)
    texts: dict[str, tuple[str, ...]] = {}
    for entry in catalog:
        message = MESSAGES.get(entry.context or "")
        if message is None or entry.fuzzy:
            continue
        forms = _forms(message, entry.string, catalog.num_plurals)
        if forms is not None:
            texts[message.key] = forms
    rule = gettext.c2py(catalog.plural_expr or get_plural(language).plural_expr)
    index_of: Callable[[int], int] = rule
    categories = category_indexes(language, index_of)
    return Translation(language, texts, index_of, categories, fallback=english)


def messages_json(language: str) -> dict[str, dict[str, Any]]:
    """Every message as a browser gets it, in ``language``: its forms by CLDR plural
    category (``other`` always) and the placeholder whose number picks one."""
    words = translation(language)
    return {
        key: {"forms": words.forms(key), "count": message.count}
        for key, message in MESSAGES.items()
    }
