"""Sharing the watch and scorer links beside their QR codes: the phone's own share sheet (Web
Share API) where the browser has it, and "Copy link" (the clipboard, or the link selected where
that is refused), each saying what it did; without JavaScript, the link to select as before.
navigator.share and navigator.clipboard are stubbed in the page: nothing leaves the browser."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings as conf
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession
from scorekeeper.views.links import qr_svg
from tests.browser.conftest import PHONE_WIDTH, SCREENSHOTS, CheckA11y, LogIn, NewPage
from tests.factories import with_links

# What the page hands to navigator.share and navigator.clipboard.writeText, kept in window.
STUBS = """
window.shared = []; window.copied = [];
Object.defineProperty(Navigator.prototype, "share", { configurable: true,
  value: function (data) { window.shared.push(data); return Promise.resolve(); } });
Object.defineProperty(Navigator.prototype, "clipboard", { configurable: true,
  get: function () { return { writeText: function (text) {
    window.copied.push(text); return Promise.resolve(); } }; } });
"""
# A browser without the Web Share API whose clipboard refuses to be written.
NO_SHARE_NO_CLIPBOARD = """
delete Navigator.prototype.share;
Object.defineProperty(Navigator.prototype, "clipboard", { configurable: true,
  get: function () { return { writeText: function () {
    return Promise.reject(new DOMException("refused", "NotAllowedError")); } }; } });
"""


@pytest.fixture
def game(game: GameSession) -> GameSession:
    """The trick-game session, with both links."""
    return with_links(game, watch="watch-token-for-the-test", scorer="scorer-token-for-the-test")


def _share_page(page: Page, log_in: LogIn, alice: User, game: GameSession) -> None:
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/share/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Share this session")


def test_share_and_copy_each_link(
    new_page: NewPage, log_in: LogIn, alice: User, game: GameSession, check_a11y: CheckA11y
) -> None:
    page = new_page()
    page.add_init_script(STUBS)
    _share_page(page, log_in, alice, game)
    watch = page.locator("section", has=page.locator("#watch-heading"))
    scorer = page.locator("section", has=page.locator("#scorer-heading"))
    watch_url = page.locator("#watch-url").get_attribute("href")
    scorer_url = page.locator("#scorer-url").get_attribute("href")
    assert watch_url and watch_url.endswith("/w/watch-token-for-the-test/")
    assert scorer_url and scorer_url.endswith("/s/scorer-token-for-the-test/")

    watch.get_by_role("button", name="Share…").click()
    expect(watch.get_by_role("status")).to_have_text("Shared.")
    assert page.evaluate("window.shared") == [{"title": "Friday: live standings", "url": watch_url}]

    scorer.get_by_role("button", name="Copy link").click()
    expect(scorer.get_by_role("status")).to_have_text("Copied. Paste it in a message to the table.")
    expect(scorer.get_by_role("status")).to_be_visible()
    assert page.evaluate("window.copied") == [scorer_url]
    expect(watch.get_by_role("status")).to_have_text("Shared.")  # each link says its own
    check_a11y(page, "share")


def test_without_share_or_clipboard_the_link_is_selected(
    new_page: NewPage, log_in: LogIn, alice: User, game: GameSession
) -> None:
    page = new_page()
    page.add_init_script(NO_SHARE_NO_CLIPBOARD)
    _share_page(page, log_in, alice, game)
    watch = page.locator("section", has=page.locator("#watch-heading"))
    expect(watch.get_by_role("button", name="Share…")).to_be_hidden()  # no Web Share API
    watch.get_by_role("button", name="Copy link").click()
    expect(watch.get_by_role("status")).to_have_text(
        "The link is selected: copy it with your phone's menu."
    )
    url = page.locator("#watch-url").inner_text()
    assert page.evaluate("window.getSelection().toString()") == url


def test_without_javascript_the_link_is_there_to_select(
    new_page: NewPage, log_in: LogIn, alice: User, game: GameSession, check_a11y: CheckA11y
) -> None:
    page = new_page(java_script_enabled=False)
    _share_page(page, log_in, alice, game)
    expect(page.get_by_role("button", name="Share…")).to_have_count(0)
    expect(page.get_by_role("button", name="Copy link")).to_have_count(0)
    expect(page.locator("#watch-url")).to_be_visible()
    expect(page.locator("#scorer-url")).to_be_visible()
    check_a11y(page, "share-no-js")


# Opened on the laptop itself: the links carry the address the phones open.

LAN_URL = "http://192.168.1.20:8000"


def _at_loopback(page: Page, live_server: Any, alice: User, game: GameSession) -> None:
    """The share page as the host opens it on the laptop: at 127.0.0.1, not at a LAN address."""
    base = live_server.url.replace("localhost", "127.0.0.1")
    client = Client()
    client.force_login(alice)
    cookie = client.cookies[conf.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base}])
    page.goto(f"{base}/sessions/{game.public_id}/share/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Share this session")


def _check_at(page: Page, check_a11y: CheckA11y, name: str, size: tuple[int, int]) -> None:
    """axe and the phone layout at 360 px (check_a11y's width); at another size, no sideways
    scroll, and a screenshot to look at."""
    if size[0] == PHONE_WIDTH:
        check_a11y(page, name)
        return
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    page.screenshot(path=SCREENSHOTS / f"{name}-{size[0]}x{size[1]}.png", full_page=True)


@pytest.mark.parametrize("size", [(360, 740), (375, 667)])
def test_opened_at_127_0_0_1_the_links_carry_the_lan_address(
    new_page: NewPage,
    live_server: Any,
    settings: Any,
    alice: User,
    game: GameSession,
    check_a11y: CheckA11y,
    size: tuple[int, int],
) -> None:
    settings.SITE_URL = LAN_URL  # as scripts/run sets it
    page = new_page(viewport={"width": size[0], "height": size[1]})
    _at_loopback(page, live_server, alice, game)
    watch = page.locator("#watch-url")
    expect(watch).to_have_text(f"{LAN_URL}/w/watch-token-for-the-test/")
    expect(watch).to_have_attribute("href", f"{LAN_URL}/w/watch-token-for-the-test/")
    expect(page.locator("#scorer-url")).to_have_text(f"{LAN_URL}/s/scorer-token-for-the-test/")
    # The QR code beside it is the one drawn from that address.
    drawn = page.locator("section", has=page.locator("#watch-heading")).locator("figure.qr svg")
    expect(drawn).to_be_visible()
    shown = drawn.evaluate("svg => [...svg.querySelectorAll('path')].map(p => p.getAttribute('d'))")
    made = re.findall(r' d="([^"]+)"', qr_svg(f"{LAN_URL}/w/watch-token-for-the-test/"))
    assert shown == made
    expect(page.locator("#no-phone-address")).to_have_count(0)
    _check_at(page, check_a11y, "share-at-loopback", size)


@pytest.mark.parametrize("size", [(360, 740), (375, 667)])
def test_opened_at_127_0_0_1_with_no_lan_the_page_says_what_to_do(
    new_page: NewPage,
    live_server: Any,
    settings: Any,
    alice: User,
    game: GameSession,
    check_a11y: CheckA11y,
    size: tuple[int, int],
) -> None:
    settings.SITE_URL = ""  # scripts/run found no network
    page = new_page(viewport={"width": size[0], "height": size[1]})
    _at_loopback(page, live_server, alice, game)
    note = page.locator("#no-phone-address")
    expect(note).to_be_visible()
    expect(note).to_contain_text("A phone cannot open this computer's own address (127.0.0.1:")
    expect(note).to_contain_text("Join this computer to the table's Wi-Fi")
    box = note.bounding_box()
    assert box and box["y"] + box["height"] <= size[1], "the note is below the first screen"
    expect(page.locator("figure.qr")).to_have_count(0)
    expect(page.locator("a.share-url")).to_have_count(0)
    expect(page.get_by_role("button", name="Copy link")).to_have_count(0)
    expect(page.get_by_role("button", name="Turn the watch link off")).to_be_visible()
    _check_at(page, check_a11y, "share-no-address", size)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_opened_under_bind_on_loopback_the_page_says_bind_is_the_cause(
    new_page: NewPage,
    live_server: Any,
    settings: Any,
    alice: User,
    game: GameSession,
    check_a11y: CheckA11y,
    javascript: bool,
) -> None:
    """scripts/run with BIND=127.0.0.1 on a laptop on the Wi-Fi (tableserver tells the app)."""
    settings.SITE_URL = ""
    settings.BIND_ONLY = ["127.0.0.1:8000"]
    settings.BIND_LEAVES_OUT = ["192.168.1.20"]
    page = new_page(java_script_enabled=javascript)
    _at_loopback(page, live_server, alice, game)
    note = page.locator("#no-phone-address")
    expect(note).to_contain_text("scripts/run listens on 127.0.0.1:8000 only, as BIND asks")
    expect(note).to_contain_text("Start it again without BIND to let the phones in")
    expect(note).not_to_contain_text("Wi-Fi")
    box = note.bounding_box()
    assert box and box["y"] + box["height"] <= 740, "the note is below the first screen"
    check_a11y(page, f"share-bind-only-{'js' if javascript else 'no-js'}")
