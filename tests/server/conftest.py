"""Fixtures shared by the server's protocol tiers: each test runs against the
in-memory store and a fresh PostgreSQL schema (#17), through Starlette's TestClient.

A module that needs another storage (test_http.py, test_storage.py) defines its own
``storage`` or ``client`` fixture, which takes precedence over these.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import Storage, create_app

from .harness import FAST
from .postgres import STORAGE_KINDS, storage_of


@pytest.fixture(params=STORAGE_KINDS)
def storage(request: pytest.FixtureRequest) -> Iterator[Storage]:
    """Each test against the in-memory store and a fresh PostgreSQL schema (#17)."""
    with storage_of(request.param) as store:
        yield store


@pytest.fixture
def client(storage: Storage) -> Iterator[TestClient]:
    """The app on ``storage``, its lifespan run (the service started and closed)."""
    with TestClient(create_app(FAST, storage=storage)) as test_client:
        yield test_client
