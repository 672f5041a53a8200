"""Steps that several browser journeys take through the screens."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

PASSWORD = "correct horse battery"  # the `alice` fixture's (tests/conftest.py)


def log_in_with_form(page: Page, user: User) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Hello, {user.get_username()}")


def nav(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


def add_players(page: Page, names: list[str]) -> None:
    nav(page, "Players")
    roster = page.locator("ul.roster")
    for name in names:
        page.get_by_label("Name").fill(name)
        page.get_by_role("button", name="Add player").click()
        expect(roster.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(roster.get_by_role("listitem")).to_have_count(len(names))


# Entering a deal of the trick game: with the keypad (JavaScript on), or by typing into the
# boxes and tapping each hand's bid-card buttons (JavaScript off).

KEYPAD_MARKS = {"made": "Made, bid kept hidden", "failed": "Failed, bid kept hidden"}


def hand_card(page: Page, name: str) -> Locator:
    return page.locator("fieldset.hand-card").filter(
        has=page.locator("legend.hand-name", has_text=name)
    )


def keypad(page: Page) -> Locator:
    return page.get_by_role("group", name="Keypad")


def wait_for_keypad(page: Page) -> None:
    """A tap made before deal-entry.js runs would be a form post that reloads the page."""
    expect(page.locator("html")).to_have_attribute("data-deal-entry", "ready")


def key(page: Page, name: str) -> None:
    keypad(page).get_by_role("button", name=name, exact=True).click()


def bid_box(page: Page, name: str) -> Locator:
    return hand_card(page, name).get_by_role("spinbutton", name="Bid")


def tricks_box(page: Page, name: str) -> Locator:
    return hand_card(page, name).get_by_role("spinbutton", name="Tricks")


def key_in(page: Page, box: Locator, number: int) -> None:
    """Put the cursor on a box and tap its number on the keypad (one key per digit)."""
    box.click()
    for digit in str(number):
        key(page, digit)
    expect(box).to_have_value(str(number))


def key_cards(page: Page, name: str, suits: str) -> None:
    """Put the cursor on a hand's bid and tap its bid-cards: `suits` as the keypad names them,
    e.g. ["Heart, 2", "Diamond, 0"] joined by "|"."""
    bid_box(page, name).click()
    for suit in suits.split("|"):
        key(page, suit)


def open_more(page: Page, name: str) -> Locator:
    """Open a hand's ⋯ (made or failed, premium) and return the hand's card."""
    card = hand_card(page, name)
    details = card.locator("details.hand-more")
    if details.get_attribute("open") is None:
        card.locator("summary").click()
    expect(details).to_have_attribute("open", "")
    return card
