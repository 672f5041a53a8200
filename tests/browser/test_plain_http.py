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
from tests.browser.conftest import CheckA11y, NewPage


def test_the_pages_say_what_plain_http_turns_off(
    page: Page, alice: User, check_a11y: CheckA11y, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context_processors, "secure_context", lambda request: False)
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    game.watch_token = new_link_token()
    game.save(update_fields=["watch_token"])

    # A link's page is the same for every phone: the phone's browser says it is not a secure
    # context (static/js/plain-http.js), as a phone at a LAN address over plain HTTP says.
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.goto(f"/w/{game.watch_token}/")
    expect(page.locator("#plain-http")).to_contain_text(
        "keeping the screen on, rule sheets offline and installing the app"
    )
    expect(page.get_by_text("Keeping the screen on needs HTTPS")).to_be_visible()
    check_a11y(page, "watch-plain-http")

    page.goto("/rules/")
    expect(page.get_by_text("but not over this plain HTTP connection")).to_be_visible()
    check_a11y(page, "rules-plain-http")


@pytest.mark.parametrize("worker", ["block", "allow"])
def test_the_rules_page_promises_offline_sheets_only_where_the_worker_runs(
    new_page: NewPage, worker: str
) -> None:
    """Over HTTPS the browser may still refuse the service worker (scripts/run --https: a
    certificate the phone does not trust): the rules page says the sheets work offline only
    once the worker runs on this phone."""
    page = new_page(service_workers=worker)
    page.goto("/rules/")
    promise = page.get_by_text("the sheets you open also work offline")
    instead = page.get_by_text("print the sheets, or keep the page open, to have them offline")
    if worker == "allow":
        expect(promise).to_be_visible()
        expect(instead).to_be_hidden()
    else:
        expect(instead).to_be_visible()
        page.wait_for_load_state("load")  # the worker would be registered by now
        expect(promise).to_be_hidden()
