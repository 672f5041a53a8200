"""A phone on the table's Wi-Fi over plain HTTP (scripts/run without --https): its browser
turns off the wake lock, service workers and install, and the pages say so, legibly, in
light and dark, at phone width. (The live server is on 127.0.0.1, a secure context, so the
test makes the app see the page as a phone at a LAN address would.)"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper import context_processors
from scorekeeper.models import Player, new_link_token
from scorekeeper.services import create_session
from tests.browser.conftest import CheckA11y


def test_the_pages_say_what_plain_http_turns_off(
    page: Page, alice: User, check_a11y: CheckA11y, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context_processors, "secure_context", lambda request: False)
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    game.watch_token = new_link_token()
    game.save(update_fields=["watch_token"])

    page.goto(f"/w/{game.watch_token}/")
    expect(page.locator("#plain-http")).to_contain_text(
        "keeping the screen on, rule sheets offline and installing the app"
    )
    expect(page.get_by_text("Keeping the screen on needs HTTPS")).to_be_visible()
    check_a11y(page, "watch-plain-http")

    page.goto("/rules/")
    expect(page.get_by_text("but not over this plain HTTP connection")).to_be_visible()
    check_a11y(page, "rules-plain-http")
