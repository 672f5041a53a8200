"""Tap feedback: a short vibration on a table-side tap (static/js/haptics.js), where the phone
can vibrate, and none when its user prefers reduced motion."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_adding_session, create_session
from tests.browser.journeys import bid_box, key, wait_for_keypad

NewPage = Callable[..., Page]
LogIn = Callable[[Page, Any], None]

# navigator.vibrate, stubbed: every call is recorded in window.buzzes.
STUB_VIBRATE = """
window.buzzes = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.buzzes.push(pattern); return true; },
});
"""
NO_VIBRATE = "delete Navigator.prototype.vibrate;"


@pytest.fixture
def game(alice: User) -> GameSession:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    return create_adding_session(owner=alice, ruleset="thirty-three", options={}, players=players)


def _tap(page: Page, game: GameSession, log_in: LogIn, alice: User) -> None:
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/")
    page.get_by_role("button", name="Ben: Hit 33", exact=True).click()
    expect(page.locator("#seat-2 .tap-said")).to_have_text("Ben: Hit 33. Cat -1, Ann -1.")


def test_a_tap_buzzes_briefly(
    new_page: NewPage, log_in: LogIn, alice: User, game: GameSession
) -> None:
    page = new_page(reduced_motion="no-preference")
    page.add_init_script(STUB_VIBRATE)
    _tap(page, game, log_in, alice)
    buzzes = page.evaluate("window.buzzes")
    assert len(buzzes) == 1
    assert 10 <= buzzes[0] <= 15
    # Only what is marked for it buzzes: a link or the colour switch does not.
    page.locator("summary", has_text="A correction agreed at the table").click()
    assert page.evaluate("window.buzzes.length") == 1
    page.get_by_role("button", name="Undo the last tap").click()
    expect(page.locator("#undo .tap-said")).to_contain_text("Last tap undone.")
    assert page.evaluate("window.buzzes.length") == 2


def test_no_buzz_when_the_user_prefers_reduced_motion(
    new_page: NewPage, log_in: LogIn, alice: User, game: GameSession
) -> None:
    page = new_page(reduced_motion="reduce")
    page.add_init_script(STUB_VIBRATE)
    _tap(page, game, log_in, alice)
    assert page.evaluate("window.buzzes") == []


def test_a_phone_that_cannot_vibrate_taps_as_before(
    new_page: NewPage, log_in: LogIn, alice: User, game: GameSession
) -> None:
    page = new_page(reduced_motion="no-preference")
    page.add_init_script(NO_VIBRATE)
    _tap(page, game, log_in, alice)  # and the page reports no JavaScript error


@pytest.mark.parametrize(("motion", "buzzes"), [("no-preference", 2), ("reduce", 0)])
def test_the_deal_keypad_buzzes_unless_motion_is_reduced(
    new_page: NewPage, log_in: LogIn, alice: User, motion: str, buzzes: int
) -> None:
    """The trick game's keypad and trump buttons are table-side taps too."""
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=players)
    page = new_page(reduced_motion=motion)
    page.add_init_script(STUB_VIBRATE)
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/")
    wait_for_keypad(page)
    page.get_by_text("♥ Hearts", exact=True).locator("..").click()
    key(page, "Spade, 1")
    expect(bid_box(page, "Ann")).to_have_value("1")
    assert page.evaluate("window.buzzes.length") == buzzes
