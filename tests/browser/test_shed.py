"""A watcher's phone whose poll a busy server shed (503 with Retry-After, scorekeeper/shedding.py)
says nothing is wrong, asks nothing until the time the server gave, then asks again at once and
follows the table as before (static/js/live.js)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import Player, new_link_token
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session
from scorekeeper.views.live import POLL_SECONDS
from tests.browser.conftest import NewPage
from tests.browser.test_live import (
    expect_not_reloaded,
    expect_standings,
    expected_problems,
    mark,
    scored,
)

RETRY_AFTER = 5  # seconds: longer than the polls' interval, so that waiting shows


@pytest.fixture
def phone(new_page: NewPage) -> Callable[[], Page]:
    return lambda: new_page(reduced_motion="reduce")


def test_a_shed_poll_backs_off_quietly_then_the_watcher_follows_again(
    phone: Callable[[], Page], alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    game.watch_token = new_link_token()
    game.save(update_fields=["watch_token"])
    watcher = phone()
    watcher.goto(f"/w/{game.watch_token}/")
    expect_standings(watcher, scored())
    mark(watcher)

    asked: list[tuple[float, str]] = []  # (when, how it was answered) for each poll

    def busy_once(route: Any) -> None:
        if not asked:
            asked.append((time.monotonic(), "shed"))
            route.fulfill(
                status=503,
                headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"},
                body="This server is busy",
            )
            return
        asked.append((time.monotonic(), "served"))
        route.continue_()

    watcher.route("**/live/**", busy_once)
    deadline = time.monotonic() + POLL_SECONDS + 5
    while not asked and time.monotonic() < deadline:
        watcher.wait_for_timeout(100)
    assert asked, "no poll came"
    shed_at = asked[0][0]
    # While it waits, polls come due (every POLL_SECONDS) and none goes out; nothing alarms.
    while time.monotonic() < shed_at + RETRY_AFTER - 0.3:
        watcher.wait_for_timeout(200)
        expect(watcher.locator("#live-trouble")).to_have_count(0)
    assert [how for _, how in asked] == ["shed"]

    # Then it asks at once, and follows the table as before.
    entry = trick.DealEntry(
        {p: trick.HandEntry(tricks=3, made=True) for p in ("Ann", "Ben", "Cat")}
    )
    add_deal(session=game, number=1, entry=entry, who=Who(alice))
    expect_standings(watcher, scored(entry.hands))
    resumed = asked[1][0] - shed_at
    assert RETRY_AFTER - 0.3 <= resumed <= RETRY_AFTER * 1.5 + 2, resumed
    expect(watcher.locator("#live-trouble")).to_have_count(0)
    expect_not_reloaded(watcher)
    assert expected_problems(watcher, "503")
