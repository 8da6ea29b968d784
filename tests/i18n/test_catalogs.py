"""The catalog check (#14): every message translated in every language, nothing fuzzy,
placeholders as in English, as many plural forms as the language has, the template
up to date with messages.py, and every catalog compiles (scripts/i18n check)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from sequence_stacks.i18n import LANGUAGES, MESSAGES, placeholders
from sequence_stacks.i18n.translations import catalog_path, category_indexes, translation

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = sorted(code for code in LANGUAGES if code != "en")


def _catalog(language: str) -> Catalog:
    with catalog_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain="sequence_stacks")


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_nothing_is_fuzzy(language: str) -> None:
    catalog = _catalog(language)
    entries = {entry.context or "": entry for entry in catalog if entry.id}
    assert set(entries) == set(MESSAGES), "run ./scripts/i18n extract && ./scripts/i18n update"
    problems = []
    for key, entry in entries.items():
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy:
            problems.append(f"{key}: fuzzy")
        if not all(strings):
            problems.append(f"{key}: not translated")
        wanted = 1 if MESSAGES[key].plural is None else catalog.num_plurals
        if len(strings) != wanted:
            problems.append(f"{key}: {len(strings)} forms, the language has {wanted}")
    assert problems == []
    assert all(translation(language).has(key) for key in MESSAGES)


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_are_the_english_ones(language: str) -> None:
    problems = []
    for entry in _catalog(language):
        if not entry.id:
            continue
        message = MESSAGES[entry.context or ""]
        expected = placeholders(message.text) | placeholders(message.plural or "")
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for index, text in enumerate(strings):
            found = placeholders(str(text))
            # A form for exactly one thing may leave its count out ("one card").
            allowed = {expected, expected - {message.count or ""}}
            if found not in allowed:
                problems.append(f"{entry.context}[{index}]: {sorted(found)} != {sorted(expected)}")
    assert problems == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_are_the_languages_cldr_forms(language: str) -> None:
    catalog = _catalog(language)
    categories = Locale.parse(language).plural_form.tags | {"other"}
    assert catalog.num_plurals == len(categories)
    mapping = category_indexes(language, translation(language).index_of)
    assert set(mapping) == categories
    assert sorted(mapping.values()) == list(range(catalog.num_plurals))


def test_the_template_is_up_to_date_and_every_catalog_compiles() -> None:
    result = subprocess.run(
        ["bash", "scripts/i18n", "check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "error" not in result.stderr.lower(), result.stderr
