"""Game night in Chromium against `scripts/run` from a fresh clone: the scripts/run fixtures
(tests/serving/scripts_run.py), without the test database and live server of the other
browser tests."""

import pytest

from tests.serving.scripts_run import clone, network, servers

__all__ = ["clone", "network", "servers"]


@pytest.fixture
def _committed_data() -> None:
    """scripts/run keeps its own database in the clone: these tests use no test database."""


@pytest.fixture
def _phones_open_the_live_server() -> None:
    """The phones open the address scripts/run prints, not the live server."""
