"""Steps that several browser journeys take through the screens."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

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
