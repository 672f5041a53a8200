"""Choosing who deals first on a phone: beside each seat, only the seats; the seats stay in the
order the table sits everywhere after, and the dealer is the one chosen."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.browser.journeys import seat_players, start_button, start_session
from tests.factories import new_players

SEATS = ["Cat", "Ann", "Ben"]  # round the table, as entered
MIN_TAP = 44


def start_with_ann_dealing(page: Page) -> GameSession:
    page.goto("/sessions/new/trick/parlett-jokerless/")
    seat_players(page, SEATS)
    # Only the seats are offered: one choice beside each, seat 1 chosen to begin with.
    dealers = page.locator("input[name=first_dealer]")
    expect(dealers).to_have_count(3)
    expect(page.get_by_role("radio", name="Seat 1 deals first")).to_be_checked()
    page.get_by_role("radio", name="Seat 2 deals first").check()
    start_session(page, "Friday")
    return GameSession.objects.get(title="Friday")


@pytest.mark.parametrize(("width", "height"), [(360, 740), (375, 667)])
def test_the_seats_stay_as_entered_and_the_chosen_player_deals(
    new_page: NewPage, check_a11y: CheckA11y, log_in: LogIn, width: int, height: int
) -> None:
    user = User.objects.create_user("rita")
    new_players(user, ["Ann", "Ben", "Cat", "Dan"])
    page = new_page(viewport={"width": width, "height": height})
    log_in(page, user)
    page.goto("/sessions/new/trick/parlett-jokerless/")
    # Each choice is big enough to tap, beside its seat, and nothing scrolls sideways.
    for seat in (1, 2, 3):
        label = page.locator(".seat-dealer").nth(seat - 1)
        box = label.bounding_box()
        assert box is not None and box["height"] >= MIN_TAP
        select = page.locator(f"#id_seat_{seat - 1}").bounding_box()
        assert (
            select is not None
            and abs(select["y"] + select["height"] - box["y"] - box["height"]) < 12
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width == 360:
        check_a11y(page, "start-dealer")

    game = start_with_ann_dealing(page)
    assert game.player_names() == SEATS and game.first_dealer == 1
    # The table keeps the seats as the table sits, and Ann deals.
    expect(page.locator("#standings-strip .strip-name")).to_have_text(SEATS)
    facts = page.locator("section.next-deal dd")
    expect(facts.nth(0)).to_have_text("Ann")
    expect(facts.nth(1)).to_have_text("Ben")
    # The session's rule sheet says so too.
    page.get_by_role("link", name="The rules at this table (printable)").click()
    expect(page.locator(".sheet-head")).to_contain_text("Seat order: Cat, Ann, Ben.")
    expect(page.locator("#s-deal").locator("xpath=..")).to_contain_text(
        "Ann deals first and the deal passes to the left"
    )
    rows = page.locator(".rotation-table tbody tr")
    expect(rows.nth(0)).to_contain_text("Ann")
    # Before the first deal, the seat order page marks the dealer's seat.
    page.goto(f"/sessions/{game.public_id}/manage/")
    seats = page.get_by_label("Seat 2 (deals first)")
    expect(seats).to_have_value(str(Player.objects.get(owner=user, name="Ann").pk))


def test_choosing_the_first_dealer_without_javascript(
    new_page: NewPage, check_a11y: CheckA11y, log_in: LogIn
) -> None:
    user = User.objects.create_user("rita")
    new_players(user)
    page = new_page(java_script_enabled=False)
    log_in(page, user)
    page.goto("/sessions/new/trick/custom/")
    seat_players(page, ["Ann", "Ben"])
    # Seat 4 is empty: it cannot deal, and what was entered stays.
    page.get_by_role("radio", name="Seat 4 deals first").check()
    start_button(page).click()
    expect(
        page.get_by_text("Seat 4 is empty: choose a seat with a player to deal first.")
    ).to_be_visible()
    expect(page.locator("#id_seat_1")).to_have_value(
        str(Player.objects.get(owner=user, name="Ben").pk)
    )
    expect(page.get_by_role("radio", name="Seat 4 deals first")).to_be_checked()
    check_a11y(page, "start-dealer-error")
    page.get_by_role("radio", name="Seat 2 deals first").check()
    start_button(page).click()
    game = GameSession.objects.get(owner=user)
    assert game.player_names() == ["Ann", "Ben"] and game.first_dealer == 1
    expect(page.locator("section.next-deal dd").first).to_have_text("Ben")
