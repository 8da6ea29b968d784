"""Every terminal test starts and ends in English (the language is the process's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sequence_stacks.i18n import set_language


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")
