"""Every landmark of a table page has a name of its own (axe's `landmark-unique`, which
check_a11y fails on): the owner's table and the watch link's page of both game families, with
a deal or a round played, so that their grids are on the page."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.rules import adding
from scorekeeper.services import Who, record_event
from tests.browser.conftest import CheckA11y, NewPage, OpenTable
from tests.factories import adding_session, play, trick_session, with_links


def test_the_table_and_watch_pages_name_each_landmark_once(
    new_page: NewPage,
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
) -> None:
    trick = with_links(trick_session(alice, roster, title="Friday"), watch="w" * 32)
    play(trick, alice, (4, 5, 0))
    game = with_links(adding_session(alice, roster, title="Saturday"), watch="a" * 32)
    record_event(session=game, state="0.0", event=adding.Event("Ben", "bust"), who=Who(alice))

    page = open_table(trick)
    expect(page.get_by_role("region", name="Deals")).to_be_visible()
    check_a11y(page, "trick-table")
    page.goto(f"/w/{trick.watch_token}/")
    expect(page.get_by_role("region", name="Deals")).to_be_visible()
    check_a11y(page, "trick-watch")

    open_table(game, page)
    expect(page.get_by_role("region", name="Rounds")).to_be_visible()
    check_a11y(page, "adding-table")
    watch = new_page()
    watch.goto(f"/w/{game.watch_token}/")
    expect(watch.get_by_role("region", name="Rounds")).to_be_visible()
    check_a11y(watch, "adding-watch")
