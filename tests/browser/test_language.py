"""The language switch in the footer, on a 360 px phone with JavaScript off (a plain form)
and on; axe in light and dark; back on the same page, remembered by that phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.conftest import PHONE_WIDTH, CheckA11y, NewPage
from tests.factories import trick_session, with_links


@pytest.mark.parametrize("javascript", [False, True])
def test_the_footer_switches_the_language(
    new_page: NewPage, check_a11y: CheckA11y, live_server: Any, javascript: bool
) -> None:
    page = new_page(java_script_enabled=javascript)
    page.goto("/rules/?from=footer")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the phone reads en-GB
    switch = page.locator("footer form.language-switch")
    choice = switch.locator("select[name=language]")
    expect(choice).to_have_value("en")
    expect(choice.locator("option")).to_have_text(["English", "Français"])
    for box in (choice.bounding_box(), switch.locator("button").bounding_box()):
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE_WIDTH
    check_a11y(page, "language-switch")
    choice.select_option("fr")
    with page.expect_navigation():
        switch.locator("button[type=submit]").click()
    assert page.url.endswith("/rules/?from=footer")  # the same page
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(choice).to_have_value("fr")
    cookies = {c["name"]: c for c in page.context.cookies()}
    cookie = cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie["value"] == "fr" and cookie["sameSite"] == "Lax" and cookie["httpOnly"]
    check_a11y(page, "language-switched")
    # The phone remembers it on the next page, whatever its browser asks for.
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")


def test_the_footer_switches_the_language_on_a_link_s_page(
    new_page: NewPage, alice: Any, roster: Any
) -> None:
    """A link's page posts its forms with the phone's Origin (its referrer policy sends one to
    the site itself), so the CSRF check takes them: the footer's language switch here."""
    game = with_links(trick_session(alice, roster), watch="w" * 32)
    page = new_page()
    page.goto(f"/w/{game.watch_token}/")
    switch = page.locator("footer form.language-switch")
    switch.locator("select[name=language]").select_option("fr")
    with page.expect_navigation():
        switch.locator("button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url.endswith(f"/w/{game.watch_token}/")
