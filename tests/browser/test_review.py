"""Review past sessions on a phone: the list with its filters, a session's chart, a record."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.rules import trick
from scorekeeper.services import add_deal, create_session, delete_last_deal, edit_deal
from tests.browser.conftest import CheckA11y, NewPage


def test_list_filter_chart_and_record(
    new_page: NewPage, check_a11y: CheckA11y, log_in: Any, transactional_db: Any
) -> None:
    user = User.objects.create_user("rita")
    seated = [Player.objects.create(owner=user, name=n) for n in ["Ann", "Ben", "Cat"]]
    friday = create_session(
        owner=user, ruleset="parlett-jokerless", options={}, players=seated, title="Friday"
    )
    create_session(owner=user, ruleset="encyclopaedia", options={}, players=seated, title="Monday")
    deals = []
    for number, (ann, ben, cat) in enumerate([(4, 5, 0), (3, 3, 3), (9, 0, 0)], start=1):
        tricks = {"Ann": ann, "Ben": ben, "Cat": cat}
        hands = {name: trick.HandEntry(tricks=won, made=True) for name, won in tricks.items()}
        deals.append(trick.DealEntry(hands=hands))
        add_deal(session=friday, number=number, entry=deals[-1], by_user=user)
    rules = trick.resolve_rules("parlett-jokerless", {}, ["Ann", "Ben", "Cat"])
    totals = trick.score_session(rules, deals).totals

    page = new_page()
    log_in(page, user)
    page.goto("/sessions/")
    expect(page.locator(".session-title")).to_have_count(2)
    page.get_by_text("Search and filter").click()
    page.get_by_label("Search title or player").fill("fri")
    page.get_by_role("button", name="Show sessions").click()
    expect(page.locator(".session-title")).to_have_text(["Friday"])
    check_a11y(page, "sessions-filtered")

    page.get_by_role("link", name="Friday").click()
    chart = page.get_by_role("img", name="Running totals per player")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(3)
    legend = page.locator(".chart-legend li")
    expect(legend).to_have_count(3)
    for name, total in totals.items():
        expect(legend.filter(has_text=name)).to_contain_text(str(total))
    check_a11y(page, "session-chart")

    page.goto(f"/players/{seated[0].pk}/")
    expect(page.get_by_role("heading", name="Record")).to_be_visible()
    expect(page.locator(".record-facts")).to_contain_text("3 of 3")
    check_a11y(page, "player-record")


def test_the_history_marks_what_a_correction_changed(
    new_page: NewPage, check_a11y: CheckA11y, log_in: Any, transactional_db: Any
) -> None:
    user = User.objects.create_user("rita")
    seated = [Player.objects.create(owner=user, name=n) for n in ["Ann", "Ben", "Cat"]]
    friday = create_session(
        owner=user, ruleset="parlett-jokerless", options={}, players=seated, title="Friday"
    )
    hands = {name: trick.HandEntry(tricks=3, made=True) for name in ["Ann", "Ben", "Cat"]}
    add_deal(session=friday, number=1, entry=trick.DealEntry(hands=hands), by_user=user)
    hands["Ann"], hands["Cat"] = trick.HandEntry(tricks=4, bid=4), trick.HandEntry(tricks=2, bid=2)
    edit_deal(
        session=friday, number=1, revision=1, entry=trick.DealEntry(hands=hands), by_user=user
    )
    delete_last_deal(session=friday, number=1, by_user=user)

    page = new_page()
    log_in(page, user)
    page.goto(f"/sessions/{friday.public_id}/history/")
    items = page.locator(".history-item")
    expect(items.nth(0)).to_contain_text("Deal 1 undone")
    correction = items.nth(1)
    expect(correction).to_contain_text("Corrected deal 1")
    after = correction.locator(".history-values > div").nth(1)
    expect(after.locator(".history-changed")).to_have_text(
        ["Ann: 4 tricks, bid 4 (changed)", "Cat: 2 tricks, bid 2 (changed)"]
    )
    expect(after.locator(".history-same")).to_have_text(["Ben: 3 tricks, made (bid kept hidden)"])
    marked = after.locator(".history-changed mark").first
    same = after.locator(".history-same").first
    assert marked.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert marked.evaluate("e => getComputedStyle(e).fontWeight") == "600"
    assert same.evaluate("e => getComputedStyle(e).color") != correction.locator(
        ".fw-semibold"
    ).evaluate("e => getComputedStyle(e).color")
    check_a11y(page, "history-correction")
