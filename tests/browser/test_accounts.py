"""First journeys: sign up, keep a roster of players, log out and in again, colours."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import Player
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.browser.journeys import nav, sign_up, submit_log_in

PASSWORD = "a long table password"


def _submit_name(page: Page, value: str, button: str) -> Locator:
    name = page.get_by_label("Name")
    name.fill(value)
    page.get_by_role("button", name=button).click()
    return name


def _expect_error_at_field(page: Page, field: Locator, message: str) -> None:
    """The message is shown, and it is the field's description for a screen reader."""
    expect(page.get_by_text(message)).to_be_visible()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile(re.escape(message)))


def test_first_visit_sign_up_keep_players_log_out_and_in(page: Page, check_a11y: CheckA11y) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Keep score of Ninety-Nine at the table"
    )
    check_a11y(page, "welcome")

    page.get_by_role("link", name="Create an account").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    check_a11y(page, "signup")
    sign_up(page, "sam", PASSWORD)

    expect(page).to_have_url(re.compile(r"/players/$"))
    expect(page.get_by_role("status")).to_contain_text("Welcome, sam!")
    expect(page.get_by_text("No players yet.")).to_be_visible()
    check_a11y(page, "players-empty")

    # htmx adds each player in place: a marker set on window survives every add.
    page.evaluate("window.sameDocument = true")
    roster = page.locator(".roster").first
    for player in ["Ann", "Ben", "Cat"]:
        _submit_name(page, player, "Add player")
        expect(page.get_by_role("status")).to_have_text(f"Added {player}.")
        expect(roster.get_by_role("link", name=player)).to_be_visible()
        expect(page.get_by_label("Name")).to_have_value("")
    expect(roster.get_by_role("listitem")).to_have_text(["Ann", "Ben", "Cat"])
    check_a11y(page, "players")

    # Bad names are refused next to the field, still without a page load.
    name = _submit_name(page, "   ", "Add player")
    _expect_error_at_field(page, name, "Type the player's name.")
    name = _submit_name(page, "bEN", "Add player")
    _expect_error_at_field(page, name, "You already have a player called Ben.")
    check_a11y(page, "players-error")
    # The field's maxlength stops the 41st character in the browser...
    name.fill("x" * 41)
    expect(name).to_have_value("x" * 40)
    # ...and the server refuses it where maxlength is not enforced (some Android
    # keyboards compose past it).
    name.evaluate("field => field.removeAttribute('maxlength')")
    name = _submit_name(page, "x" * 41, "Add player")
    _expect_error_at_field(page, name, "A name can be at most 40 characters.")
    expect(roster.get_by_role("listitem")).to_have_text(["Ann", "Ben", "Cat"])
    assert page.evaluate("window.sameDocument") is True

    # Tap a name to rename that player.
    roster.get_by_role("link", name="Ben").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")
    check_a11y(page, "player")
    name = _submit_name(page, "cat", "Save name")
    _expect_error_at_field(page, name, "You already have a player called Cat.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")
    check_a11y(page, "player-error")
    _submit_name(page, "Benedict", "Save name")
    expect(page).to_have_url(re.compile(r"/players/$"))
    expect(page.get_by_role("status")).to_have_text("Renamed Ben to Benedict.")
    expect(roster.get_by_role("listitem")).to_have_text(["Ann", "Benedict", "Cat"])

    # Log out, log in again: the same three players.
    page.get_by_role("button", name="Log out sam").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))
    expect(page.get_by_role("button", name=re.compile("^Log out"))).to_have_count(0)
    check_a11y(page, "login")
    submit_log_in(page, "sam", PASSWORD)

    expect(page.get_by_role("heading", level=1)).to_have_text("Hello, sam")
    expect(page.get_by_text("You have 3 players on your roster.")).to_be_visible()
    check_a11y(page, "home")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Players").click()
    expect(roster.get_by_role("listitem")).to_have_text(["Ann", "Benedict", "Cat"])


def test_add_a_player_without_javascript(
    new_page: NewPage,
    check_a11y: CheckA11y,
    django_user_model: Any,
    log_in: LogIn,
) -> None:
    user = django_user_model.objects.create_user(username="dee")
    page = new_page(java_script_enabled=False)
    log_in(page, user)
    page.goto("/players/")
    check_a11y(page, "players-empty")

    # A plain POST, then a redirect back to the list.
    with page.expect_navigation():
        _submit_name(page, "Eve", "Add player")
    expect(page).to_have_url(re.compile(r"/players/$"))
    expect(page.get_by_role("status")).to_have_text("Added Eve.")
    expect(page.locator(".roster").get_by_role("link", name="Eve")).to_be_visible()
    assert list(Player.objects.filter(owner=user).values_list("name", flat=True)) == ["Eve"]

    with page.expect_navigation():
        name = _submit_name(page, "eve", "Add player")
    _expect_error_at_field(page, name, "You already have a player called Eve.")
    check_a11y(page, "players-error")
    assert Player.objects.filter(owner=user).count() == 1


def test_the_colour_button_cycles_auto_light_dark_and_persists(
    page: Page, check_a11y: CheckA11y
) -> None:
    html = page.locator("html")
    button = page.get_by_role("contentinfo").get_by_role("button", name=re.compile("^Colours:"))
    page.goto("/")
    expect(button).to_have_accessible_name("Colours: Auto (switch to light)")

    # Auto follows the phone's setting, also when it changes.
    expect(html).to_have_attribute("data-bs-theme", "light")
    page.emulate_media(color_scheme="dark")
    expect(html).to_have_attribute("data-bs-theme", "dark")
    page.emulate_media(color_scheme="light")
    expect(html).to_have_attribute("data-bs-theme", "light")
    check_a11y(page, "welcome")

    button.click()
    expect(button).to_have_accessible_name("Colours: Light (switch to dark)")
    expect(page).to_have_url(re.compile(r"/$"))
    page.emulate_media(color_scheme="dark")
    expect(html).to_have_attribute("data-bs-theme", "light")  # a choice beats the phone

    button.click()
    expect(button).to_have_accessible_name("Colours: Dark (switch to auto)")
    page.emulate_media(color_scheme="light")
    expect(html).to_have_attribute("data-bs-theme", "dark")

    # The choice is kept on the next page.
    nav(page, "Log in")
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))
    expect(button).to_have_accessible_name("Colours: Dark (switch to auto)")
    expect(html).to_have_attribute("data-bs-theme", "dark")
    check_a11y(page, "login")

    button.click()
    expect(button).to_have_accessible_name("Colours: Auto (switch to light)")
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))
    expect(html).to_have_attribute("data-bs-theme", "light")
    page.emulate_media(color_scheme="dark")
    expect(html).to_have_attribute("data-bs-theme", "dark")
    assert {c["name"]: c["value"] for c in page.context.cookies()}["theme"] == "auto"


@pytest.mark.parametrize("first_start", [True, False], ids=["first-start", "later"])
@pytest.mark.parametrize("size", [(360, 740), (375, 667)], ids=["360x740", "375x667"])
def test_create_an_account_is_on_the_first_screen(
    new_page: NewPage, check_a11y: CheckA11y, db: None, first_start: bool, size: tuple[int, int]
) -> None:
    """The welcome page's two buttons show without scrolling, on a server's first start too
    (where it also says what hosting means)."""
    if not first_start:
        User.objects.create_user("host", password="x")
    page = new_page(viewport={"width": size[0], "height": size[1]})
    page.goto("/")
    expect(page.get_by_role("heading", name=re.compile("First start"))).to_have_count(
        1 if first_start else 0
    )
    for name in ["Create an account", "I already have one: log in"]:
        box = page.get_by_role("link", name=name).bounding_box()
        assert box, name
        print(f"{size} {first_start=}: {name!r} ends at y={box['y'] + box['height']:.0f}")
        assert box["y"] + box["height"] <= size[1], f"{name!r} is below the first screen"
    if size[0] == 360:
        check_a11y(page, f"welcome-{'first-start' if first_start else 'later'}")
