"""Tap feedback: a short vibration on a table-side tap (static/js/haptics.js), where the phone
can vibrate, and none when its user prefers reduced motion."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from tests.browser.conftest import NewPage, OpenTable
from tests.browser.journeys import bid_box, key, tap_event, wait_for_keypad
from tests.factories import trick_session

# navigator.vibrate, stubbed: every call is recorded in window.buzzes.
STUB_VIBRATE = """
window.buzzes = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.buzzes.push(pattern); return true; },
});
"""
NO_VIBRATE = "delete Navigator.prototype.vibrate;"


def _tap(page: Page, adding_game: GameSession, open_table: OpenTable) -> None:
    open_table(adding_game, page)
    said = tap_event(page, "Ben", "Hit 33")
    expect(said).to_have_text("Ben: Hit 33. Cat -1, Ann -1.")


def test_a_tap_buzzes_briefly(
    new_page: NewPage, open_table: OpenTable, adding_game: GameSession
) -> None:
    page = new_page(reduced_motion="no-preference")
    page.add_init_script(STUB_VIBRATE)
    _tap(page, adding_game, open_table)
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
    new_page: NewPage, open_table: OpenTable, adding_game: GameSession
) -> None:
    page = new_page(reduced_motion="reduce")
    page.add_init_script(STUB_VIBRATE)
    _tap(page, adding_game, open_table)
    assert page.evaluate("window.buzzes") == []


def test_a_phone_that_cannot_vibrate_taps_as_before(
    new_page: NewPage, open_table: OpenTable, adding_game: GameSession
) -> None:
    page = new_page(reduced_motion="no-preference")
    page.add_init_script(NO_VIBRATE)
    _tap(page, adding_game, open_table)  # and the page reports no JavaScript error


@pytest.mark.parametrize(("motion", "buzzes"), [("no-preference", 2), ("reduce", 0)])
def test_the_deal_keypad_buzzes_unless_motion_is_reduced(
    new_page: NewPage,
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    motion: str,
    buzzes: int,
) -> None:
    """The trick game's keypad and trump buttons are table-side taps too."""
    game = trick_session(alice, roster, ruleset="parlett-classic")
    page = new_page(reduced_motion=motion)
    page.add_init_script(STUB_VIBRATE)
    open_table(game, page)
    wait_for_keypad(page)
    page.get_by_text("♥ Hearts", exact=True).locator("..").click()
    key(page, "Spade, 1")
    expect(bid_box(page, "Ann")).to_have_value("1")
    assert page.evaluate("window.buzzes.length") == buzzes
