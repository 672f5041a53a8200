"""A deal reaches a watching phone by push (Server-Sent Events, from the ASGI app under uvicorn),
and, with the event stream blocked as a proxy might, by polling."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from playwright.sync_api import Browser, Page, Route, expect

from scorekeeper import live
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session
from tests.browser.conftest import PHONE, CheckA11y

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Uvicorn:
    """The ASGI app under uvicorn, on the test database (a SQLite file both processes share)."""

    def __init__(self) -> None:
        port = _free_port()
        env = {
            **os.environ,
            "SQLITE_PATH": str(connection.settings_dict["NAME"]),
            "DEBUG": "true",
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        env.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "scorekeeper.asgi:application",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
             "--timeout-graceful-shutdown", "1"],
            cwd=ROOT,
            env=env,
        )  # fmt: skip
        self.url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{self.url}/healthz/", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail("uvicorn did not answer within 10 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def uvicorn(transactional_db: None) -> Iterator[Uvicorn]:
    if connection.vendor != "sqlite":
        pytest.skip("the ASGI server here shares the SQLite test database")
    server = Uvicorn()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def asgi_server(uvicorn: Uvicorn) -> str:
    return uvicorn.url


def _deal(game: GameSession, alice: User, number: int) -> int:
    hands = {p: trick.HandEntry(tricks=3, made=True) for p in ("Ann", "Ben", "Cat")}
    add_deal(session=game, number=number, entry=trick.DealEntry(hands), who=Who(alice))
    game.refresh_from_db()
    return game.version


def _watch(browser: Browser, url: str, token: str, *, block_stream: bool) -> Page:
    context = browser.new_context(base_url=url, **PHONE)
    if block_stream:
        context.route("**/events/", lambda route: route.abort())
    page = context.new_page()
    page.javascript_enabled = True  # type: ignore[attr-defined]  # as check_a11y reads it
    page.goto(f"/w/{token}/")
    return page


def test_a_deal_arrives_by_push_and_with_the_stream_blocked_by_polling(
    browser: Browser,
    asgi_server: str,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    game.watch_token = "w-push-0123456789"
    game.save(update_fields=["watch_token"])
    pushed = _watch(browser, asgi_server, game.watch_token, block_stream=False)
    polled = _watch(browser, asgi_server, game.watch_token, block_stream=True)
    expect(pushed.locator("html")).to_have_attribute("data-push", "open")
    check_a11y(pushed, "watch page with push")

    version = _deal(game, alice, 1)
    # The pushing phone is told the new version (it makes no timed polls meanwhile) and
    # fetches the standings; the blocked one finds them at its next poll, every 3 s.
    expect(pushed.locator("html")).to_have_attribute("data-pushed", str(version), timeout=5000)
    expect(pushed.locator("#live")).to_have_attribute("data-etag", f'"v{version}"')
    expect(polled.locator("#live")).to_have_attribute("data-etag", f'"v{version}"', timeout=10000)
    assert polled.locator("html").get_attribute("data-push") in (None, "")
    total = live.result(game).totals["Ann"]
    for page in (pushed, polled):
        expect(page.locator("#live")).to_contain_text(str(total))


def _live_requests(page: Page, token: str) -> list[str]:
    """The live region's requests the page makes from now on (timed polls and refreshes)."""
    made: list[str] = []
    page.on(
        "request",
        lambda request: made.append(request.url) if f"/w/{token}/live/" in request.url else None,
    )
    return made


WINDOW_POLLS = 12


def test_a_page_with_its_stream_open_makes_no_timed_polls(
    browser: Browser, asgi_server: str, alice: User, roster: list[Player]
) -> None:
    """The window is a blocked phone's twelve polls (every 3 s: over 33 s, longer than the
    30 s by which the page once spaced its polls while pushed to): the pushing phone asks for
    its region only when its stream names a new version, once per deal."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    game.watch_token = "w-quiet-0123456789"
    game.save(update_fields=["watch_token"])
    pushed = _watch(browser, asgi_server, game.watch_token, block_stream=False)
    expect(pushed.locator("html")).to_have_attribute("data-push", "open")
    asked = _live_requests(pushed, game.watch_token)
    polled = _watch(browser, asgi_server, game.watch_token, block_stream=True)
    polls = _live_requests(polled, game.watch_token)
    for number in (1, 2):
        version = _deal(game, alice, number)
        expect(pushed.locator("#live")).to_have_attribute("data-etag", f'"v{version}"')
        expect(polled.locator("#live")).to_have_attribute(
            "data-etag", f'"v{version}"', timeout=10000
        )
    polls.clear()
    while len(polls) < WINDOW_POLLS:
        with polled.expect_request(lambda r: "/live/" in r.url, timeout=10000):
            pass
    assert len(polls) >= WINDOW_POLLS
    assert len(asked) == 2, asked  # one refresh per deal, no timed poll
    assert pushed.locator("html").get_attribute("data-push") == "open"


def test_a_refused_stream_leaves_the_page_polling(
    browser: Browser, asgi_server: str, alice: User, roster: list[Player]
) -> None:
    """A stream refused (a 204 under a WSGI server, a 429 or 503 past the caps) is closed for
    good: the page polls every few seconds, as it always did."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    game.watch_token = "w-refused-0123456789"
    game.save(update_fields=["watch_token"])
    context = browser.new_context(base_url=asgi_server, **PHONE)
    refused: list[int] = []

    def refuse(route: Route) -> None:
        refused.append(204)
        route.fulfill(status=204)

    context.route("**/events/", refuse)
    page = context.new_page()
    page.goto(f"/w/{game.watch_token}/")
    polls = _live_requests(page, game.watch_token)
    for _ in range(2):
        with page.expect_request(lambda r: "/live/" in r.url, timeout=10000):
            pass
    assert refused == [204] and len(polls) >= 2  # closed for good: not asked again
    assert page.locator("html").get_attribute("data-push") in (None, "")
    version = _deal(game, alice, 1)
    expect(page.locator("#live")).to_have_attribute("data-etag", f'"v{version}"', timeout=10000)


def test_a_killed_stream_leaves_the_page_polling(
    browser: Browser, uvicorn: Uvicorn, alice: User, roster: list[Player]
) -> None:
    """The server gone (its process stopped), the stream drops: the browser tries to open it
    again, and the page polls meanwhile (and says the table cannot be reached)."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    game.watch_token = "w-killed-0123456789"
    game.save(update_fields=["watch_token"])
    page = _watch(browser, uvicorn.url, game.watch_token, block_stream=False)
    expect(page.locator("html")).to_have_attribute("data-push", "open")
    polls = _live_requests(page, game.watch_token)
    uvicorn.stop()
    expect(page.locator("html")).to_have_attribute("data-push", "")
    for _ in range(2):
        with page.expect_request(lambda r: "/live/" in r.url, timeout=10000):
            pass
    assert len(polls) >= 2
    expect(page.locator("#live-trouble")).to_be_visible(timeout=10000)
