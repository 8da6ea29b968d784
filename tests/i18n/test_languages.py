"""Choosing a language: explicit choice, Accept-Language, the locale environment."""

from __future__ import annotations

import pytest

from sequence_stacks.i18n.languages import (
    LANGUAGES,
    from_accept_language,
    from_environment,
    negotiate,
)


def test_six_languages_each_named_in_itself() -> None:
    assert LANGUAGES == {
        "en": "English",
        "ms": "Bahasa Melayu",
        "hy": "Հայերեն",
        "sl": "Slovenščina",
        "ko": "한국어",
        "hi": "हिन्दी",
    }


@pytest.mark.parametrize(
    ("candidates", "expected"),
    [
        (("ko",), "ko"),
        (("ko-KR",), "ko"),
        (("sl_SI.UTF-8",), "sl"),
        ((None, "", "hi"), "hi"),
        (("xx", "hy"), "hy"),
        (("xx",), "en"),
        (("<script>",), "en"),
        (("k" * 10_000,), "en"),
        ((), "en"),
    ],
)
def test_negotiate_takes_the_first_supported_tag_else_english(
    candidates: tuple[str | None, ...], expected: str
) -> None:
    assert negotiate(*candidates) == expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ko", "ko"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"),
        ("fr-FR,fr;q=0.9,sl;q=0.8", "sl"),
        ("en;q=0.1, hi;q=0.9", "hi"),
        ("de, *;q=0.5", None),
        ("hy;q=0", None),
        ("ms;q=abc, hi", "hi"),
        ("", None),
        (None, None),
        (";;;,,,q=", None),
    ],
)
def test_accept_language_by_quality(header: str | None, expected: str | None) -> None:
    assert from_accept_language(header) == expected


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LC_MESSAGES": "sl_SI.UTF-8", "LANG": "en_US.UTF-8"}, "sl"),
        ({"LC_ALL": "hi_IN.UTF-8", "LC_MESSAGES": "sl_SI"}, "hi"),
        ({"LANGUAGE": "fr:hy", "LANG": "en_US.UTF-8"}, "hy"),
        ({"LANGUAGE": "ms", "LC_ALL": "C"}, None),
        ({"LANG": "de_DE.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_locale_environment_as_gettext_reads_it(
    env: dict[str, str], expected: str | None
) -> None:
    assert from_environment(env) == expected
