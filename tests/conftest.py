from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, settings

from scorekeeper.models import Player

# Machines here are shared and noisy: no property test fails because a draw or a run took long
# (a loaded CI machine once failed Hypothesis's "input generation is slow" check). A test's own
# @settings keeps these unless it names them.
settings.register_profile(
    "shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("shared-machine")


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="correct horse battery")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="another staple battery")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob: User) -> Client:
    other = Client()
    other.force_login(bob)
    return other


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Iterator[None]:
    # LocaleMiddleware activates the language of each request in the thread serving it, and
    # nothing deactivates it after: a page asked for in French would leave French active for
    # whatever the same thread runs next, another test's direct calls included.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2 at production strength costs ~0.3 s a login; tests only need a hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ann_ben_cat(alice: User) -> list[Player]:
    """Three players of alice's, in seat order."""
    return [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
