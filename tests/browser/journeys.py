"""The browser tests' steps through the screens: one helper for each thing a user does, each
finding what it taps by one selector.

The French tests (test_french.py) are the exception: a phone that reads French gets no English
names to find buttons by, so they go by ids and data attributes.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scorekeeper.rules import trick

PASSWORD = "correct horse battery"  # the `alice` fixture's (tests/conftest.py)
# The label of a required field ends with crispy's asterisk ("Password*"); a pattern is
# matched against the label's raw text, surrounding whitespace included.
PASSWORD_LABEL = re.compile(r"^\s*Password\W*$")


def scripts_on(page: Page) -> bool:
    """Whether the page runs JavaScript (`new_page(java_script_enabled=False)` turns it off)."""
    return bool(getattr(page, "javascript_enabled", True))


# What a finger does, counted by the page: every trusted pointerdown is a tap (a tap on a label
# and the click it passes to its radio count once), every finger move or wheel turn that
# scrolls by hand a swipe. `page.add_init_script(COUNT_TAPS)` before the page opens.
COUNT_TAPS = """
window.taps = 0;
window.swipes = 0;
document.addEventListener("pointerdown", (e) => { if (e.isTrusted) window.taps += 1; }, true);
for (const kind of ["touchmove", "wheel"]) {
  document.addEventListener(kind, (e) => { if (e.isTrusted) window.swipes += 1; },
    { capture: true, passive: true });
}
"""
# Whether a finger on the element's centre, where it is now, touches it.
REACHABLE = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(hit) && el.contains(hit);
}"""


# Each box of the deal form (and each trump button) that a finger cannot reach where it is
# now: off screen, or under something else (the keypad, the strip) at its centre.
OUT_OF_SIGHT = """() => [
    ...document.querySelectorAll("#deal-form .slot-input, #deal-form .trump-btn")
  ].filter((box) => {
    const r = box.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && box.contains(hit));
  })
  .map((box) => (box.labels && box.labels.length ? box.labels[0] : box).textContent.trim())"""


def expect_every_hand_in_sight(page: Page, when: str) -> None:
    """Every hand's Bid and Tricks box (and every trump button) is on screen and uncovered:
    `elementFromPoint` at its centre finds it."""
    try:
        page.wait_for_function(f"() => ({OUT_OF_SIGHT})().length === 0", timeout=2_000)
    except PlaywrightTimeoutError:
        pytest.fail(f"{when}, out of sight: {page.evaluate(OUT_OF_SIGHT)}", pytrace=False)


def taps(page: Page) -> int:
    counted: int = page.evaluate("window.taps")
    return counted


def swipes(page: Page) -> int:
    counted: int = page.evaluate("window.swipes")
    return counted


def reachable(target: Locator) -> bool:
    """Whether a finger on the target's centre, where it is on the screen now, touches it."""
    return bool(target.evaluate(REACHABLE))


def tap(page: Page, target: Locator) -> None:
    """Tap the target where it is on the screen now, as a finger does: nothing scrolls it
    into view first, so a target under the keypad or off screen fails the test."""
    box = target.bounding_box()
    assert box is not None, f"{target} is not shown"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert reachable(target), f"{target} is covered or off screen (centre at y={y:.0f})"
    page.touchscreen.tap(x, y)


# Accounts and players


def sign_up(page: Page, name: str, password: str) -> None:
    """On the sign-up page: create the account, and be welcomed."""
    page.get_by_label("Username").fill(name)
    page.get_by_label(PASSWORD_LABEL).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("status")).to_contain_text(f"Welcome, {name}!")


def submit_log_in(page: Page, name: str, password: str = PASSWORD) -> None:
    """On the log-in page: log in, and be greeted on the home page."""
    page.get_by_label("Username").fill(name)
    page.get_by_label(PASSWORD_LABEL).fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Hello, {name}")


def log_in_with_form(page: Page, user: User) -> None:
    """Log in through the form, as a user does (the `log_in` fixture sets the cookie instead)."""
    page.goto("/accounts/login/")
    submit_log_in(page, user.get_username())


def change_password(page: Page, new: str, old: str = PASSWORD) -> None:
    """On the account page: change the password, which ends the account's other sessions."""
    page.goto("/accounts/password/")
    page.get_by_label("Old password").fill(old)
    page.get_by_label(re.compile(r"^\s*New password\W*$")).fill(new)
    page.get_by_label("New password confirmation").fill(new)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password changed")


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


# Starting a session


def open_new_session_page(page: Page) -> None:
    """Sessions → Start a new session: the presets (and saved rulesets) to start from."""
    nav(page, "Sessions")
    page.get_by_role("link", name="Start a new session").click()


def preset_link(within: Page | Locator, preset: str) -> Locator:
    """On the new-session page (or a part of it): the link to a preset, by its name."""
    page = within if isinstance(within, Page) else within.page
    # A filter's inner locator is matched inside each link: it starts from the page.
    name = page.locator(".preset-name", has_text=re.compile(rf"^{re.escape(preset)}$"))
    return within.get_by_role("link").filter(has=name)


def open_start_page(page: Page, preset: str) -> None:
    """The preset's start page, from the Sessions screen."""
    open_new_session_page(page)
    preset_link(page, preset).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(preset)


def seat_player(page: Page, number: int, name: str) -> None:
    """On a start page: the player in seat `number` (1 is the first)."""
    page.get_by_label(re.compile(rf"^\s*Seat {number}\*?\s*$")).select_option(label=name)


def seat_players(page: Page, names: list[str]) -> None:
    """On a start page: each seat's player, seat 1 first."""
    for number, name in enumerate(names, start=1):
        seat_player(page, number, name)


def start_button(page: Page) -> Locator:
    return page.locator("button.btn-lg", has_text="Start the session")


def start_session(page: Page, title: str) -> None:
    """On a start page, the players seated: name the session and start it."""
    page.get_by_label("Name (optional)").fill(title)
    start_button(page).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)


# The adding game's table


def tap_table(page: Page, name: str) -> None:
    """Tap a button of the adding game's table by its name (the first of that name) and wait
    for the table that comes back: swapped in by htmx, or a new page without JavaScript."""
    if scripts_on(page):
        page.evaluate("document.getElementById('table').dataset.old = 'yes'")
    page.get_by_role("button", name=name, exact=True).first.click()
    if scripts_on(page):
        expect(page.locator("#table:not([data-old])")).to_have_count(1)


def tap_event(page: Page, player: str, event: str) -> Locator:
    """Tap a player's event button ("Ben", "Hit 33": each says whose it is, "Ben: Hit 33");
    returns where the table says what the tap did, beside that player's row."""
    name = f"{player}: {event}"
    row = page.locator("li.adding-seat").filter(
        has=page.get_by_role("button", name=name, exact=True)
    )
    # The row by its anchor: a player out of the game after the tap has no buttons left.
    said = page.locator(f"#{row.get_attribute('id')} .tap-said")
    tap_table(page, name)
    return said


# The trick game's deal form, with the keypad (JavaScript on) or by typing into the boxes and
# tapping each hand's bid-card buttons (JavaScript off).


class Card(NamedTuple):
    key: str  # the keypad's name for it
    sign: str
    value: int
    suit: str  # as a DealEntry's bid_cards name it


# RULES.md §1.1: the bid-card buttons, ♦0 ♠1 ♥2 ♣3, by the letter the form stores.
CARDS = {
    "D": Card("Diamond, 0", "♦", 0, "diamonds"),
    "S": Card("Spade, 1", "♠", 1, "spades"),
    "H": Card("Heart, 2", "♥", 2, "hearts"),
    "C": Card("Club, 3", "♣", 3, "clubs"),
}
LETTERS = {card.suit: letter for letter, card in CARDS.items()}
KEYPAD_MARKS = {"made": "Made, bid kept hidden", "failed": "Failed, bid kept hidden"}
MADE_LABELS = {True: "Made ✓", False: "Failed ✗"}
PREMIUM_LABELS = {"declare": "Declare", "reveal": "Reveal"}


def letters(suits: tuple[str, ...] | None) -> str:
    """Bid-cards as the letters the form stores: ("hearts", "diamonds") is "HD"."""
    return "".join(LETTERS[suit] for suit in suits or ())


def cards_shown(cards: str) -> str:
    """What a hand's bid-card box shows for these letters, e.g. "♥♠♦=3"; nothing for none."""
    if not cards:
        return ""
    return "".join(CARDS[c].sign for c in cards) + "=" + str(sum(CARDS[c].value for c in cards))


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


def key_cards(page: Page, name: str, cards: str) -> None:
    """Put the cursor on a hand's bid and tap its bid-cards on the keypad (letters, "HSD")."""
    bid_box(page, name).click()
    for letter in cards:
        key(page, CARDS[letter].key)


def tap_cards(page: Page, name: str, cards: str) -> None:
    """A hand's bid-cards (letters): on the keypad, or without JavaScript with the hand's own
    buttons, each a POST that comes back to the hand."""
    card = hand_card(page, name)
    if scripts_on(page):
        key_cards(page, name, cards)
    else:
        for count, letter in enumerate(cards, start=1):
            key_name = CARDS[letter].key
            page.get_by_role("button", name=f"{key_name}, for {name}", exact=True).click()
            # Each tap is a POST; wait for the page it brings back, at the hand's anchor.
            expect(card.locator("output.cards-shown")).to_have_text(cards_shown(cards[:count]))
            assert page.url.endswith(f"#{card.get_attribute('id')}")
    expect(card.locator("output.cards-shown")).to_have_text(cards_shown(cards))


def open_more(page: Page, name: str) -> Locator:
    """Open a hand's ⋯ (made or failed, premium) and return the hand's card."""
    card = hand_card(page, name)
    details = card.locator("details.hand-more")
    if details.get_attribute("open") is None:
        card.locator("summary").click()
    expect(details).to_have_attribute("open", "")
    return card


def choose(page: Page, name: str, label: str) -> None:
    """In a hand's ⋯: "Made ✓", "Failed ✗", "Declare" or "Reveal". With JavaScript the choice
    folds the panel and is said on the hand's row."""
    card = open_more(page, name)
    card.get_by_text(label, exact=True).click()
    radio = card.get_by_role("radio", name=label, exact=True, include_hidden=True)
    expect(radio).to_be_checked()
    if scripts_on(page):
        expect(card.locator(".hand-chosen")).to_contain_text(label)


def enter_hand(page: Page, name: str, hand: trick.HandEntry) -> None:
    """A hand as the scorer taps it in: its tricks and bid on the keypad (typed into the boxes
    without JavaScript), its bid-cards, then made or failed and a premium."""
    if scripts_on(page):
        wait_for_keypad(page)
        key_in(page, tricks_box(page, name), hand.tricks)
    else:
        tricks_box(page, name).fill(str(hand.tricks))
    expect(tricks_box(page, name)).to_have_value(str(hand.tricks))
    if hand.bid_cards:
        tap_cards(page, name, letters(hand.bid_cards))
    if hand.bid is not None:
        if scripts_on(page):
            key_in(page, bid_box(page, name), hand.bid)
        else:
            bid_box(page, name).fill(str(hand.bid))
    if hand.made is not None:
        choose(page, name, MADE_LABELS[hand.made])
    if hand.premium:
        choose(page, name, PREMIUM_LABELS[hand.premium])


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def ready_to_save(deal: trick.DealResult) -> str:
    """The status box once a deal is complete, as the rules score it."""
    hands = " · ".join(f"{h.player} {signed(h.points)}{' ✓' if h.made else ''}" for h in deal.hands)
    return f"Ready to save: {hands}"


def save_button(page: Page) -> Locator:
    # The form also starts with a visually hidden submit (the Enter key's default); a thumb
    # taps the big one at the bottom.
    return page.locator("#deal-form button.save-btn")


def save_deal(page: Page, number: int, result: trick.SessionResult) -> None:
    """Save deal `number` once the status box says what the rules make of it."""
    expect(page.locator("#entry-status")).to_have_text(ready_to_save(result.deals[number - 1]))
    button = save_button(page)
    expect(button).to_have_text(f"Save deal {number}")
    button.click()
    expect(page.locator("#messages")).to_contain_text(f"Deal {number} saved.")
