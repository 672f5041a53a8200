import gc
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, settings

from scorekeeper.models import GameSession, Player
from tests.factories import ANN_BEN_CAT, adding_session, new_players, trick_session

# Machines here are shared and noisy: no property test fails because a draw or a run took long
# (a loaded CI machine once failed Hypothesis's "input generation is slow" check). A test's own
# @settings keeps these unless it names them.
settings.register_profile(
    "shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("shared-machine")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """The test database, as pytest-django makes it; before it is dropped, the connections that
    other threads of this worker left open to it are closed. The ASGI tests' threads (a
    stream's reader, asgiref's executor) keep theirs between requests, as a server's threads do
    (DB_CONN_MAX_AGE), and PostgreSQL refuses to drop a database a connection still uses."""
    yield
    here = connections["default"]
    if here.vendor != "postgresql":
        return
    # type(), not isinstance(): the latter would make a lazy object (a request's user) load.
    wrappers = (found for found in gc.get_objects() if issubclass(type(found), BaseDatabaseWrapper))
    for wrapper in wrappers:
        if wrapper is not here and wrapper.connection:
            wrapper.connection.close()  # the driver's own: Django's close() is the thread's


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
def roster_names() -> Sequence[str]:
    """The names of `roster`'s players; a module whose table is another overrides this."""
    return ANN_BEN_CAT


@pytest.fixture
def roster(alice: User, roster_names: Sequence[str]) -> list[Player]:
    """alice's players (Ann, Ben and Cat unless the module names others), in seat order."""
    return new_players(alice, roster_names)


@pytest.fixture
def game(alice: User, roster: list[Player]) -> GameSession:
    """alice's trick-game session "Friday" (Jokerless Ninety-Nine) of the roster, no deal yet."""
    return trick_session(alice, roster, title="Friday")


@pytest.fixture
def adding_game(alice: User, roster: list[Player]) -> GameSession:
    """alice's adding-game session "Adding" (Thirty-Three) of the roster, no round yet."""
    return adding_session(alice, roster, title="Adding")
