"""The adding game's table on a small phone (360×740 and 375×667, with touch).

- The sticky standings strip says what the rows say after every tap, undo, adjustment,
  counter "Record it" and elimination, on the phone that tapped (the htmx answer carries the
  strip out of band), and without JavaScript (the page comes back whole).
- A row never moves under the finger because of a change elsewhere on the page: every row
  keeps room for the message a tap says by it, the dealer's badge and the coins never change
  a row's height, and the coins never wrap.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_adding_session
from tests.browser.conftest import CheckA11y, NewPage

NAMES = ["Ann", "Ben", "Cat"]
PHONES = {"360x740": {"width": 360, "height": 740}, "375x667": {"width": 375, "height": 667}}


@pytest.fixture
def roster(alice: User) -> list[Player]:
    return [Player.objects.create(owner=alice, name=name) for name in NAMES]


def _session(alice: User, roster: list[Player], ruleset: str, **options: Any) -> GameSession:
    return create_adding_session(
        owner=alice, ruleset=ruleset, options=options, players=roster, title="Small phone"
    )


def _open(new_page: NewPage, log_in: Any, alice: User, game: GameSession, **kw: Any) -> Page:
    page = new_page(**kw)
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/")
    return page


def _tap(page: Page, name: str) -> None:
    """Tap a button and wait for the table the server sends back (htmx swaps it whole)."""
    page.evaluate("document.getElementById('table').dataset.old = 'yes'")
    page.get_by_role("button", name=name, exact=True).first.click()
    expect(page.locator("#table:not([data-old])")).to_have_count(1)


def _rows(page: Page) -> list[str]:
    """Each row's tokens as the strip would say them: "7", or "out"."""
    labels = page.locator("li.adding-seat .tokens-label").all_inner_texts()
    return ["out" if label.startswith("out") else label.split()[0] for label in labels]


def _strip(page: Page) -> list[str]:
    return page.locator("#standings-strip .strip-value").all_inner_texts()


def expect_strip_as_rows(page: Page, rows: list[str]) -> None:
    """The strip says what the rows say, and the rows say `rows`."""
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        [re.compile(rf"^{value}\b") for value in rows]
    )
    assert _rows(page) == rows
    expect(page.locator("#standings-strip .strip-value")).to_have_text(rows)
    # The strip's names stay in seat order.
    expect(page.locator("#standings-strip .strip-name")).to_have_text(NAMES)


# The strip follows every change on the phone that made it


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_the_strip_follows_every_tap_on_the_phone_that_taps(
    new_page: NewPage,
    log_in: Any,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
    phone: dict[str, int],
) -> None:
    game = _session(alice, roster, "thirty-three", tokens=3)
    page = _open(new_page, log_in, alice, game, viewport=phone)
    expect_strip_as_rows(page, ["3", "3", "3"])

    _tap(page, "Ben: Hit 33")  # Cat and Ann pay one each
    expect_strip_as_rows(page, ["2", "3", "2"])
    _tap(page, "Undo the last tap")
    expect_strip_as_rows(page, ["3", "3", "3"])
    _tap(page, "Cat: Cross 33")
    expect_strip_as_rows(page, ["3", "3", "2"])
    _tap(page, "Cat: Empty hand")  # three more than she has: Cat is out
    expect_strip_as_rows(page, ["3", "3", "out"])

    # A correction agreed at the table.
    page.get_by_text("A correction agreed at the table", exact=True).click()
    page.get_by_label("Who").select_option(label="Ben")
    page.get_by_label("By how many (+ gives, − takes)").fill("-1")
    _tap(page, "Adjust")
    expect_strip_as_rows(page, ["3", "2", "out"])

    # The card counter's "Record it": whoever plays the 3 hits 33, and the others pay.
    _tap(page, "Count the cards: total, turn and events")
    for card in ("K", "K", "K", "3"):
        _tap(page, card)
    expect(page.locator(".counter-proposal strong")).to_have_count(1)
    _tap(page, "Record it")
    expect(page.locator("#counter .tap-said")).to_contain_text("Recorded:")
    shown = _rows(page)
    assert shown != ["3", "2", "out"], "the counter's event changed someone's tokens"
    expect_strip_as_rows(page, shown)
    if phone["width"] == 360:  # check_a11y measures sideways scrolling at 360 px
        check_a11y(page, "strip")


def test_the_strip_without_javascript_is_the_page_as_it_is(
    new_page: NewPage, log_in: Any, alice: User, roster: list[Player]
) -> None:
    game = _session(alice, roster, "thirty-three", tokens=3)
    page = _open(new_page, log_in, alice, game, java_script_enabled=False)
    page.get_by_role("button", name="Ben: Hit 33", exact=True).click()
    expect_strip_as_rows(page, ["2", "3", "2"])
    page.get_by_role("button", name="Cat: Empty hand", exact=True).click()
    expect_strip_as_rows(page, ["2", "3", "out"])
    page.get_by_role("button", name="Undo the last tap", exact=True).click()
    expect_strip_as_rows(page, ["2", "3", "2"])
