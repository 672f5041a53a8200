from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, settings
from playwright.sync_api import Browser, sync_playwright

from scorekeeper.models import Player
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

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


# One Chromium for the whole test process (the browser tests and the game-night tests in
# tests/serving/ alike): Playwright's sync API runs one event loop per thread, so a second
# browser started beside the first would fail.
@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need the system Chromium at {CHROMIUM}")
    with pytest.MonkeyPatch.context() as mp:
        # Playwright's sync API runs an asyncio event loop on this thread (in a
        # greenlet) from start() to stop(). Django then sees a running loop and its
        # async-safety check raises SynchronousOnlyOperation for any ORM call made
        # here: the test's own queries and pytest-django's flush after each test.
        # Those calls are plain synchronous code that never runs inside a coroutine,
        # so the check is a false alarm. It is switched off only while the browser
        # runs and switched back on when the session's browser stops.
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
