"""At the table, on a 360-px phone: bugs a new user hit (issue: at the table), each with a test
that failed before its fix.

- Bug 1: a tap on an adding-game row below the first keeps that row where it was on the screen
  and says what it did next to it (with htmx; without JavaScript the page comes back at the row).
- Bug 12: the rounds and deal grids fit a phone: they scroll sideways inside their box with the
  round or deal number and the names pinned, and the page itself never scrolls sideways.
- Bug 14: the printable score pad's name boxes and column headings are not clipped at phone width.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.services import add_deal, create_adding_session, create_session, record_event

CheckA11y = Callable[[Page, str], None]
NewPage = Callable[..., Page]
LogIn = Callable[[Page, Any], None]

PHONE_WIDTH = 360
FOUR = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def roster(alice: User) -> list[Player]:
    return [Player.objects.create(owner=alice, name=name) for name in FOUR]


def _thirty_three(alice: User, roster: list[Player]) -> GameSession:
    return create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=roster, title="Thirty-Three"
    )


def _top(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["y"])


# Bug 1: a tap keeps its row in place and is announced beside it


def test_a_tap_below_the_first_row_keeps_the_row_in_place(
    page: Page, log_in: LogIn, alice: User, roster: list[Player], check_a11y: CheckA11y
) -> None:
    game = _thirty_three(alice, roster)
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/")
    cat = page.locator("li.adding-seat").nth(2)
    # Scroll so that Cat's row sits in the middle of the screen, as a thumb would leave it.
    page.evaluate(
        "row => window.scrollBy(0, row.getBoundingClientRect().top - 250)", cat.element_handle()
    )
    before = _top(cat)
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 300, "the third row should be well down the page"

    cat.get_by_role("button", name="Cat: Hit 66", exact=True).click()

    said = cat.locator("[aria-live] [role=status]")
    expect(said).to_have_text(["Cat: Hit 66. Dan -1, Ann -1, Ben -1."])
    expect(cat.locator(".tokens-label")).to_have_text("9 tokens")
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        ["8 tokens", "8 tokens", "9 tokens", "8 tokens"]
    )
    # The row has not moved (within a few px), and what the tap did is on the screen.
    assert abs(_top(cat) - before) <= 4, f"the row moved from {before} to {_top(cat)}"
    expect(said).to_be_in_viewport()
    # Said once, by the row: not also at the top of the page.
    expect(page.locator("#messages [role=status]")).to_have_count(0)
    check_a11y(page, "tapped")


def test_a_tap_without_javascript_comes_back_at_its_row(
    new_page: NewPage, log_in: LogIn, alice: User, roster: list[Player]
) -> None:
    game = _thirty_three(alice, roster)
    page = new_page(java_script_enabled=False)
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/")
    cat = page.locator("li.adding-seat").nth(2)
    cat.get_by_role("button", name="Cat: Hit 66", exact=True).click()
    assert page.url.endswith(f"/sessions/{game.public_id}/#seat-3")
    said = cat.locator("[aria-live] [role=status]")
    expect(said).to_have_text(["Cat: Hit 66. Dan -1, Ann -1, Ben -1."])
    expect(cat).to_be_in_viewport()
    expect(said).to_be_in_viewport()
    assert 0 <= _top(cat) <= 16, "the page opens at the tapped row"
