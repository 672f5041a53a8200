"""A link's page is the same bytes for every phone that watches a version
(scorekeeper/live/pages.py): what differs from phone to phone is worked out on the phone. Its
colours are the phone's own choice, or the system's; its switch shows and changes that choice;
with JavaScript off the page is readable in light colours and the switch still posts; a phone
logged in sees no account part on it."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import GameSession, Player, new_link_token
from scorekeeper.services import create_session
from tests.browser.conftest import CheckA11y, LogIn, NewPage

COLOURS = re.compile("^Colours:")


def _watched(alice: User) -> GameSession:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    game.watch_token = new_link_token()
    game.save(update_fields=["watch_token"])
    return game


def _switch(page: Page) -> Locator:
    return page.get_by_role("contentinfo").get_by_role("button", name=COLOURS)


def test_each_phone_sees_a_kept_link_page_in_its_own_colours(
    new_page: NewPage, alice: User, check_a11y: CheckA11y
) -> None:
    game = _watched(alice)
    watch = f"/w/{game.watch_token}/"
    # A phone that chose dark on another page.
    dark = new_page()
    dark.goto("/rules/")
    _switch(dark).click()
    expect(_switch(dark)).to_have_accessible_name("Colours: Light (switch to dark)")
    _switch(dark).click()
    expect(_switch(dark)).to_have_accessible_name("Colours: Dark (switch to auto)")
    dark.goto(watch)
    expect(dark.locator("html")).to_have_attribute("data-bs-theme", "dark")
    expect(_switch(dark)).to_have_accessible_name("Colours: Dark (switch to auto)")
    expect(_switch(dark)).to_have_count(1)
    check_a11y(dark, "watch-chosen-dark")
    # Its switch on the kept page changes its choice, and brings it back to the page.
    _switch(dark).click()
    expect(dark).to_have_url(re.compile(re.escape(watch) + "$"))
    expect(_switch(dark)).to_have_accessible_name("Colours: Auto (switch to light)")
    expect(dark.locator("html")).to_have_attribute("data-bs-theme", "light")

    # A phone that chose nothing follows its system, on the same page.
    system_dark = new_page(color_scheme="dark")
    system_dark.goto(watch)
    expect(system_dark.locator("html")).to_have_attribute("data-bs-theme", "dark")
    expect(_switch(system_dark)).to_have_accessible_name("Colours: Auto (switch to light)")
    assert system_dark.content().count("Colours: Auto") == 1


def test_a_kept_link_page_without_javascript(
    new_page: NewPage, alice: User, check_a11y: CheckA11y
) -> None:
    game = _watched(alice)
    watch = f"/w/{game.watch_token}/"
    page = new_page(java_script_enabled=False)
    page.goto(watch)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator("#live")).to_contain_text("Ann")
    expect(page.locator("html")).to_have_attribute("data-bs-theme", "light")
    expect(_switch(page)).to_have_accessible_name("Colours: Auto (switch to light)")
    expect(page.locator("#plain-http")).to_be_hidden()
    check_a11y(page, "watch-no-javascript")
    # The switch posts without a token, and leads back to the page.
    _switch(page).click()
    expect(page).to_have_url(re.compile(re.escape(watch) + "$"))
    page.goto("/rules/")
    expect(_switch(page)).to_have_accessible_name("Colours: Light (switch to dark)")


def test_a_phone_logged_in_sees_no_account_part_on_a_link_page(
    new_page: NewPage, alice: User, log_in: LogIn
) -> None:
    game = _watched(alice)
    page = new_page()
    log_in(page, alice)
    page.goto("/rules/")
    expect(page.get_by_role("button", name=re.compile("^Log out"))).to_be_visible()
    page.goto(f"/w/{game.watch_token}/")
    expect(page.locator("#live")).to_contain_text("Ann")
    expect(page.get_by_role("button", name=re.compile("^Log out"))).to_have_count(0)
    expect(page.get_by_role("link", name="Log in")).to_have_count(0)
    expect(page.get_by_role("link", name="Sessions")).to_have_count(0)
