"""A finished session printed from its table page: one A4 (and US Letter) page holding its
title, rules, standings, chart and grid, without the buttons, the navigation or the strip."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper import live
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.services import Who, add_deal, create_adding_session, create_session, record_event
from tests.browser.conftest import SCREENSHOTS, OpenTable
from tests.browser.test_cheatsheets import PAPER, pdf_pages

NAMES = ["Ann", "Ben", "Cat", "Dan"]
TRUMPS = ["hearts", "spades", "clubs", "diamonds", "none"]
SCREENS = {
    "phone": {},  # conftest.py's 360×740
    "desktop": {"viewport": {"width": 1280, "height": 800}, "is_mobile": False, "has_touch": False},
}


def _classic(alice: User) -> GameSession:
    """Classic Ninety-Nine played to its end: nine deals."""
    seats = [Player.objects.create(owner=alice, name=name) for name in NAMES[:3]]
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=seats)
    shapes = [(4, 4), (5, None), (0, 0)]
    for number in range(1, 10):
        hands = {}
        for seat, name in enumerate(NAMES[:3]):
            tricks, bid = shapes[(seat + number) % 3]
            made = None if bid is not None else False
            hands[name] = trick.HandEntry(tricks, bid=bid, made=made)
        entry = trick.DealEntry(hands=hands, trump=TRUMPS[number % 5])
        add_deal(session=game, number=number, entry=entry, who=Who(alice))
    game.refresh_from_db()
    assert live.result(game).finished
    return game


def _thirty_three(alice: User) -> GameSession:
    """Thirty-Three at four, played until one player is left: some twenty rounds."""
    seats = [Player.objects.create(owner=alice, name=name) for name in NAMES]
    game = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=seats, title="Pennies"
    )
    turn = 0
    while not live.result(game).finished:
        standing = [s.player for s in live.result(game).standings if s.out_in_round is None]
        who = standing[turn % len(standing)]
        state = adding.table_state(game.entries())
        record_event(session=game, state=state, event=adding.Event(who, "bust"), who=Who(alice))
        game.refresh_from_db()
        turn += 1
    return game


GAMES = {"classic": _classic, "thirty-three": _thirty_three}


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("kind", GAMES)
def test_a_finished_session_prints_on_one_page(
    open_table: OpenTable, alice: User, kind: str, screen: str
) -> None:
    game = GAMES[kind](alice)
    page = open_table(game, **SCREENS[screen])
    expect(page.locator(".finished-banner")).to_be_visible()
    for paper in PAPER:
        pdf = page.pdf(format=paper)
        assert pdf_pages(pdf) == 1, f"{kind} prints on {pdf_pages(pdf)} {paper} pages"

    page.emulate_media(media="print")
    page.set_viewport_size({"width": 718, "height": 1000})  # A4 inside 10 mm margins
    page.screenshot(path=SCREENSHOTS / f"print-{kind}-{screen}.png", full_page=True)
    # What the page is for: its title and rules, the standings, the chart and the grid...
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator(".table-title p")).to_be_visible()
    expect(page.locator("table.standings")).to_be_visible()
    expect(page.locator("figure.chart svg.chart-svg")).to_be_visible()
    grid = page.locator(".deal-grid-wrap")
    expect(grid).to_be_visible()
    # ...the grid whole, not cut off by the scroll box it has on screen...
    assert grid.evaluate("box => box.scrollHeight <= box.clientHeight + 1")
    assert grid.evaluate("box => box.scrollWidth <= box.clientWidth + 1")
    # ...and nothing to tap: no button, link-button, form, navigation, footer or strip.
    for hidden in [".btn", "form", ".app-header", ".app-footer", "#standings-strip"]:
        shown = [item for item in page.locator(hidden).all() if item.is_visible()]
        assert not shown, f"{hidden} prints: {[item.inner_text()[:40] for item in shown]}"
