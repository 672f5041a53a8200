"""A club night's table is played as the night planned it: once its deals are played, the
phone holding its card cannot add more (only the organiser can), at 360×740 with touch."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import GameSession
from scorekeeper.services.nights import start_round
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.factories import club_night, new_players, play

NINE = ["Ada", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def test_a_finished_night_table_cannot_be_reopened_from_its_card(
    new_page: NewPage, log_in: LogIn, check_a11y: CheckA11y, alice: User
) -> None:
    night = start_round(night=club_night(alice, new_players(alice, NINE), deals=2, rounds=2))
    table = GameSession.objects.get(night=night, night_round=1, night_table=1)
    play(table, alice, (5, 3, 1), (6, 2, 1))
    card = night.tables.get(number=1).scorer_token

    phone = new_page()
    phone.goto(f"/t/{card}/")
    expect(phone).to_have_url(re.compile(rf"/s/{table.scorer_token}/name/"))
    phone.get_by_label("Your name").fill("Sam")
    phone.get_by_role("button", name="Start scoring").click()
    expect(phone.locator("main")).to_contain_text("The session is over after 2 deals.")
    expect(phone.get_by_role("link", name=re.compile("Open the next round"))).to_be_visible()
    expect(phone.get_by_role("button", name=re.compile(r"more deals"))).to_have_count(0)
    check_a11y(phone, "night-table-finished")

    # The organiser may play on at that table: the night's plan is theirs to change.
    organiser = new_page()
    log_in(organiser, alice)
    organiser.goto(f"/sessions/{table.public_id}/")
    expect(organiser.get_by_role("button", name=re.compile(r"more deals"))).to_be_visible()
    assert GameSession.objects.get(pk=table.pk).finished
