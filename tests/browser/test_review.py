"""Review past sessions on a phone: the list with its filters, a session's chart, a record."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.rules import trick
from scorekeeper.services import Who, delete_last_deal, edit_deal
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.factories import made_deal, new_players, play, trick_session


def test_list_filter_chart_and_record(
    new_page: NewPage, check_a11y: CheckA11y, log_in: LogIn, transactional_db: Any
) -> None:
    user = User.objects.create_user("rita")
    seated = new_players(user)
    friday = trick_session(user, seated, title="Friday")
    trick_session(user, seated, ruleset="encyclopaedia", title="Monday")
    played = [(4, 5, 0), (3, 3, 3), (9, 0, 0)]
    play(friday, user, *played)
    deals = [made_deal(tricks) for tricks in played]
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
    new_page: NewPage, check_a11y: CheckA11y, log_in: LogIn, transactional_db: Any
) -> None:
    user = User.objects.create_user("rita")
    friday = trick_session(user, new_players(user), title="Friday")
    play(friday, user, (3, 3, 3))
    hands = dict(made_deal((3, 3, 3)).hands)
    hands["Ann"], hands["Cat"] = trick.HandEntry(tricks=4, bid=4), trick.HandEntry(tricks=2, bid=2)
    edit_deal(
        session=friday, number=1, revision=1, entry=trick.DealEntry(hands=hands), who=Who(user)
    )
    delete_last_deal(session=friday, number=1, who=Who(user))

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
