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
from playwright.sync_api import Browser, Page, expect

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


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[str]:
    """The ASGI app under uvicorn, on the test database (a SQLite file both processes share)."""
    if connection.vendor != "sqlite":
        pytest.skip("the ASGI server here shares the SQLite test database")
    port = _free_port()
    env = {
        **os.environ,
        "SQLITE_PATH": str(connection.settings_dict["NAME"]),
        "DEBUG": "true",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "scorekeeper.asgi:application",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--timeout-graceful-shutdown", "1"],
        cwd=ROOT,
        env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/healthz/", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("uvicorn did not answer within 10 s")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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
    # The pushing phone is told the new version (its timed polls are 30 s apart meanwhile) and
    # fetches the standings; the blocked one finds them at its next poll, every 3 s.
    expect(pushed.locator("html")).to_have_attribute("data-pushed", str(version), timeout=5000)
    expect(pushed.locator("#live")).to_have_attribute("data-etag", f'"v{version}"')
    expect(polled.locator("#live")).to_have_attribute("data-etag", f'"v{version}"', timeout=10000)
    assert polled.locator("html").get_attribute("data-push") in (None, "")
    total = live.result(game).totals["Ann"]
    for page in (pushed, polled):
        expect(page.locator("#live")).to_contain_text(str(total))
