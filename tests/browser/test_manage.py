"""A rematch and the "Manage session" pages on a phone, 360 px wide, in light and dark.

Rematch from a finished session: **1 tap**. On the finished session's table page the owner taps
"Rematch: same seats, Ben deals first" (a real POST form button) and lands on the new session's
table, where Ben deals the first deal. From the sessions list it is 1 tap too (the list's own
rematch button); from the home page, 2 (Sessions, then the button).

Then, in the new session: the owner opens Manage session (1 tap from the table page), renames
the session, replaces Cat by a newcomer after reading what it means for the score, abandons
and resumes it, and deletes it and restores it from Deleted sessions. Every page is checked
with axe in light and dark mode at phone width.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper import live
from scorekeeper.models import GameSession
from tests.browser.conftest import CheckA11y, OpenTable
from tests.factories import new_players, play, trick_session


def _tap(page: Page, taps: list[str], role: str, name: str) -> None:
    """Tap a button or link by its accessible name, and count the tap."""
    page.get_by_role(role, name=name, exact=True).click()  # type: ignore[arg-type]
    taps.append(name)


def test_rematch_and_manage_the_session(
    check_a11y: CheckA11y, open_table: OpenTable, transactional_db: Any
) -> None:
    user = User.objects.create_user("rita")
    two_deals: dict[str, object] = {"match": {"type": "deals", "deals": 2}}
    done = trick_session(user, new_players(user), options=two_deals, title="Friday")
    play(done, user, (4, 5, 0), (4, 5, 0))

    page = open_table(done)
    rematch = page.get_by_role("button", name="Rematch: same seats, Ben deals first")
    expect(rematch).to_be_visible()
    check_a11y(page, "finished-table")

    # The rematch: one tap, landing on the new session's table.
    taps: list[str] = []
    _tap(page, taps, "button", "Rematch: same seats, Ben deals first")
    assert len(taps) == 1
    new = GameSession.objects.exclude(pk=done.pk).get()
    expect(page).to_have_url(f"{page.url.split('/sessions/')[0]}/sessions/{new.public_id}/")
    expect(
        page.get_by_text("Rematch: the same seats, the same rules. Ben deals first.")
    ).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")
    # The seats stay as the table sits; the first deal moves on to seat 2, Ben.
    rematched = GameSession.objects.with_seats().get(pk=new.pk)
    assert (rematched.player_names(), rematched.first_dealer) == (["Ann", "Ben", "Cat"], 1)
    expect(page.locator("section.next-deal dd").first).to_have_text("Ben")

    # A deal is played (on another phone, say), then someone has to go.
    play(new, user, (3, 3, 3))
    cats = live.result(GameSession.objects.with_seats().get(pk=new.pk)).totals["Cat"]
    page.reload()

    # Manage session: one tap from the table page.
    page.get_by_role("link", name="Manage session: name, players, seats, stop or delete").click()
    expect(page.get_by_role("heading", name="Manage session")).to_be_visible()
    check_a11y(page, "manage")

    page.get_by_label("Name of the session").fill("Friday, the return")
    page.get_by_role("button", name="Save the session’s name").click()
    expect(page.get_by_text("The session is now called “Friday, the return”.")).to_be_visible()

    # A bad name comes back as typed, with the problem next to it.
    page.get_by_text("Correct Ben’s name").click()
    name = page.get_by_label("Name in seat 2")
    name.fill("ann")
    page.get_by_role("button", name="Save the name in seat 2").click()
    expect(page.get_by_label("Name in seat 2")).to_have_value("ann")
    expect(page.locator("#div_id_seat2-name")).to_contain_text(
        "You already have a player called Ann."
    )
    check_a11y(page, "manage-error")

    # Cat leaves; Dan takes her seat after reading what it means.
    page.get_by_role("link", name="Cat leaves: someone takes seat 3").click()
    page.get_by_label("Or someone new").fill("Dan")
    page.get_by_role("button", name="Continue").click()
    statement = f"Dan takes Cat's seat (seat 3) and its score: {cats} points."
    expect(page.get_by_text(statement)).to_be_visible()
    expect(page.get_by_text("Deal 1 stays listed under seat 3")).to_be_visible()
    check_a11y(page, "replace-confirm")
    page.get_by_role("button", name="Confirm: Dan takes seat 3").click()
    expect(page.get_by_text(statement)).to_be_visible()
    assert GameSession.objects.with_seats().get(pk=new.pk).player_names() == ["Ann", "Ben", "Dan"]

    # Abandon, then resume.
    page.get_by_role("link", name="Manage session: name, players, seats, stop or delete").click()
    page.get_by_role("button", name="Abandon the session").click()
    expect(page.get_by_role("button", name="Resume the session")).to_be_visible()
    check_a11y(page, "manage-abandoned")
    page.get_by_role("button", name="Resume the session").click()
    expect(page.get_by_text("The session is resumed: play on.")).to_be_visible()

    # Delete (one confirmation), then restore from Deleted sessions.
    page.get_by_role("link", name="Manage session: name, players, seats, stop or delete").click()
    page.get_by_role("link", name="Delete the session…").click()
    check_a11y(page, "delete")
    page.get_by_role("button", name="Delete “Friday, the return”").click()
    expect(page.get_by_text("It is kept under Deleted sessions")).to_be_visible()
    page.get_by_role("link", name="Deleted sessions").click()
    check_a11y(page, "deleted-sessions")
    page.get_by_role("button", name="Restore “Friday, the return”").click()
    expect(page.get_by_text("Restored “Friday, the return”.")).to_be_visible()

    # Home offers to continue it.
    page.goto("/")
    continue_link = page.locator("a.continue-session")
    expect(continue_link).to_have_count(1)
    expect(continue_link).to_contain_text("Friday, the return")
    check_a11y(page, "home-continue")

    # From the sessions list, a rematch of the finished session is one tap as well.
    page.get_by_role("link", name="Sessions", exact=True).first.click()
    check_a11y(page, "sessions-rematch")
    taps = []
    _tap(page, taps, "button", "Rematch “Friday”: Ben deals first")
    assert len(taps) == 1
    expect(
        page.get_by_text("Rematch: the same seats, the same rules. Ben deals first.")
    ).to_be_visible()
    assert GameSession.objects.filter(rematch_of=done).count() == 2
