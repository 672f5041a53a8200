"""The outbox of a phone that enters scores (static/js/outbox.js): what is entered while the
scoresheet cannot be reached is kept on the phone (IndexedDB), the table goes on, and the
entries are sent by themselves, in order, once the server answers again; each is stored once.

The phone loses the scoresheet in three ways here: the network switched off
(`context.set_offline`), the table's POSTs aborted by a route (so that the page can be
reloaded meanwhile), and the server itself killed and started again (gunicorn on the test
database, as `scripts/run` serves it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from playwright.sync_api import Browser, Locator, Page, Route, expect

from scorekeeper.models import GameSession
from scorekeeper.rules import adding, trick
from tests.browser.conftest import PHONE, CheckA11y, LogIn, NewPage
from tests.browser.journeys import (
    bid_box,
    change_password,
    enter_hand,
    expect_every_hand_in_sight,
    hand_card,
    reachable,
    save_button,
    submit_log_in,
    tap,
    tricks_box,
    wait_for_keypad,
)
from tests.factories import trick_session, with_links
from tests.stored import deal_entries, round_entries

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Ben", "Cat"]  # seat order: Ann deals first, Ben leads
SEND = 20_000  # ms: the outbox's timer backs off to 15 s between tries
SCORER = "scorer-outbox-0123456789"


def hands(*pairs: tuple[int, int]) -> trick.DealEntry:
    """A deal as (tricks, bid) per hand, Ann, Ben, Cat (9 tricks in all)."""
    entries = {
        n: trick.HandEntry(tricks=t, bid=b) for n, (t, b) in zip(PLAYERS, pairs, strict=True)
    }
    return trick.DealEntry(hands=entries)


DEALS = [
    hands((4, 4), (3, 2), (2, 2)),
    hands((3, 3), (3, 1), (3, 3)),
    hands((2, 2), (5, 5), (2, 0)),
]


# What a phone without the scoresheet reports, and only that: requests that failed for want of
# a connection (the status checks, the live region's polls, the outbox's own sends).
UNREACHABLE = re.compile(
    r"net::ERR_(INTERNET_DISCONNECTED|FAILED|CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE)"
    r"|htmx:sendError"
)


@pytest.fixture
def phone(new_page: NewPage) -> Iterator[NewPage]:
    """`new_page`, whose pages may report requests that could not reach the server (and
    nothing else: any other problem still fails the test)."""
    pages: list[Page] = []

    def open_phone(**overrides: Any) -> Page:
        page = new_page(**overrides)
        pages.append(page)
        return page

    yield open_phone
    for page in pages:
        # Closed first: a page left offline would go on reporting failed polls until then.
        page.context.close()
        problems: list[str] = page.problems  # type: ignore[attr-defined]
        problems[:] = [p for p in problems if not UNREACHABLE.search(p)]


@pytest.fixture
def owner_phone(phone: NewPage, log_in: LogIn) -> Callable[[GameSession], Page]:
    """The session's table on its owner's phone, the keypad ready."""

    def open_it(session: GameSession) -> Page:
        page = phone()
        log_in(page, session.owner)
        page.goto(f"/sessions/{session.public_id}/")
        return page

    return open_it


# The deal form and the outbox


def outbox(page: Page) -> Locator:
    return page.locator("#outbox")


def enter_deal(page: Page, deal: trick.DealEntry) -> None:
    wait_for_keypad(page)
    for name in PLAYERS:
        enter_hand(page, name, deal.hands[name])


def expect_deal_shown(page: Page, deal: trick.DealEntry) -> None:
    """The form holds this deal's hands, as typed."""
    for name in PLAYERS:
        hand = deal.hands[name]
        expect(tricks_box(page, name)).to_have_value(str(hand.tricks))
        expect(bid_box(page, name)).to_have_value(str(hand.bid))


def expect_waiting(page: Page, labels: list[str], unit: str) -> None:
    """The outbox shows these entries waiting, each not yet scored, and "Send now"."""
    box = outbox(page)
    expect(box).to_be_visible()
    count = len(labels)
    said = f"1 {unit}" if count == 1 else f"{count} {unit}s"
    expect(box.locator(".outbox-said")).to_contain_text(
        f"{said} waiting to be sent: the scoresheet can't be reached."
    )
    expect(box.locator(".outbox-entries li")).to_have_text(
        [f"{label}: not yet scored" for label in labels]
    )
    expect(box.locator(".outbox-send")).to_be_visible()


def expect_kept(page: Page, numbers: list[int]) -> None:
    """These deals wait on the phone, and the form has gone on to the deal after them."""
    expect_waiting(page, [f"Deal {n}" for n in numbers], "deal")
    expect_next(page, numbers[-1] + 1)


def expect_next(page: Page, number: int) -> None:
    """The form is for deal `number`: its hidden number, Save, the banner, the badges."""
    numbers = page.locator("#deal-form input[name=number]")
    expect(numbers.first).to_have_value(str(number))
    for box in numbers.all():
        expect(box).to_have_value(str(number))
    expect(page.locator("#save-label")).to_have_text(f"Save deal {number}")
    expect(page.locator("#next-deal-heading")).to_have_text(f"Deal {number}")
    dealer, leader = PLAYERS[(number - 1) % 3], PLAYERS[number % 3]
    expect(hand_card(page, dealer).locator("legend .badge")).to_have_text(re.compile("deals"))
    expect(hand_card(page, leader).locator("legend .badge")).to_have_text(re.compile("leads"))


def stored_numbers(session: GameSession) -> list[int]:
    """The numbers of the deals stored, in the order they were stored (each once)."""
    return list(session.deals.order_by("pk").values_list("number", flat=True))


def waiting_in_indexeddb(page: Page) -> int | None:
    """How many entries this phone's IndexedDB outbox holds; None if it has no outbox."""
    count: int | None = page.evaluate(
        """async () => {
            const names = (await indexedDB.databases()).map(d => d.name);
            if (!names.includes('scorekeeper-outbox')) return null;
            return await new Promise((resolve, reject) => {
                const open = indexedDB.open('scorekeeper-outbox');
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                    const db = open.result;
                    if (!db.objectStoreNames.contains('entries')) {
                        db.close();
                        resolve(0);
                        return;
                    }
                    const count = db.transaction('entries').objectStore('entries').count();
                    count.onsuccess = () => { db.close(); resolve(count.result); };
                    count.onerror = () => { db.close(); reject(count.error); };
                };
            });
        }"""
    )
    return count


def block_posts(page: Page, path: str) -> Callable[[], None]:
    """Abort every POST to `path` (the server out of reach for the table's forms), and let
    everything else through; returns what lifts the block."""

    def serve(route: Route) -> None:
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    pattern = f"**{path}"
    page.route(pattern, serve)
    return lambda: page.unroute(pattern, serve)


def scorer_phone(phone: NewPage, session: GameSession, name: str = "Sam") -> Page:
    """Another phone at the table, through the session's scorer link."""
    with_links(session, scorer=SCORER)
    page = phone()
    page.goto(f"/s/{SCORER}/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Start scoring").click()
    wait_for_keypad(page)
    return page


# The trick game


def test_deals_entered_offline_are_stored_once_in_order(
    owner_phone: Callable[[GameSession], Page], game: GameSession, check_a11y: CheckA11y
) -> None:
    page = owner_phone(game)
    wait_for_keypad(page)
    expect(outbox(page)).to_be_hidden()
    page.context.set_offline(True)
    for number, deal in enumerate(DEALS, start=1):
        expect_next(page, number)
        enter_deal(page, deal)
        save_button(page).click()
        expect_kept(page, list(range(1, number + 1)))
    check_a11y(page, "outbox")
    assert deal_entries(game) == []

    page.context.set_offline(False)
    messages = page.locator("#messages")
    expect(messages).to_contain_text("Deal 3 saved.", timeout=SEND)
    for number in (1, 2):
        expect(messages).to_contain_text(f"Deal {number} saved.")
    expect(outbox(page)).to_be_hidden()
    expect_next(page, 4)
    assert stored_numbers(game) == [1, 2, 3]
    assert deal_entries(game) == DEALS


def test_deals_waiting_survive_a_reload(
    owner_phone: Callable[[GameSession], Page], game: GameSession
) -> None:
    page = owner_phone(game)
    unblock = block_posts(page, f"/sessions/{game.public_id}/")
    for number, deal in enumerate(DEALS[:2], start=1):
        enter_deal(page, deal)
        save_button(page).click()
        expect_kept(page, list(range(1, number + 1)))

    # Reloaded while the server is still out of reach: the deals are still on the phone, and
    # the form is for the deal after them.
    page.reload()
    wait_for_keypad(page)
    expect_kept(page, [1, 2])
    assert waiting_in_indexeddb(page) == 2
    assert deal_entries(game) == []

    # The server answers again; the page is loaded again: the deals go, once, in order.
    unblock()
    page.reload()
    messages = page.locator("#messages")
    expect(messages).to_contain_text("Deal 2 saved.", timeout=SEND)
    expect(messages).to_contain_text("Deal 1 saved.")
    expect(outbox(page)).to_be_hidden()
    expect_next(page, 3)
    assert waiting_in_indexeddb(page) == 0
    assert stored_numbers(game) == [1, 2]
    assert deal_entries(game) == DEALS[:2]


def test_a_deal_refused_on_arrival_comes_back_in_its_form(
    owner_phone: Callable[[GameSession], Page], phone: NewPage, game: GameSession
) -> None:
    """Phone A keeps deal 1 offline; phone B enters another deal 1 meanwhile. A's deal reaches
    the server after B's: it is refused, and comes back on A's phone, renumbered, with what was
    typed and why."""
    a = owner_phone(game)
    a.context.set_offline(True)
    enter_deal(a, DEALS[0])
    save_button(a).click()
    expect_waiting(a, ["Deal 1"], "deal")

    b = scorer_phone(phone, game)
    enter_deal(b, DEALS[1])
    save_button(b).click()
    expect(b.locator("#messages")).to_contain_text("Deal 1 saved.")
    assert deal_entries(game) == [DEALS[1]]

    a.context.set_offline(False)
    status = a.locator("#entry-status")
    expect(status).to_contain_text(
        "Deal 1 was just entered on another phone. What you typed is kept here as deal 2: "
        "check it, then save.",
        timeout=SEND,
    )
    expect_deal_shown(a, DEALS[0])
    expect(a.locator("#save-label")).to_have_text("Save deal 2")
    expect(outbox(a)).to_be_hidden()
    assert waiting_in_indexeddb(a) == 0
    assert deal_entries(game) == [DEALS[1]]


def test_a_deal_refused_after_one_stored_still_says_the_one_stored(
    owner_phone: Callable[[GameSession], Page], game: GameSession
) -> None:
    """Deal 1 and a deal 2 whose tricks do not add up wait on the phone. Back online, deal 1 is
    stored and deal 2 comes back in its form with the rules' words; the page still says that
    deal 1 was saved."""
    page = owner_phone(game)
    page.context.set_offline(True)
    enter_deal(page, DEALS[0])
    save_button(page).click()
    expect_kept(page, [1])
    for name in PLAYERS:  # typed, not keyed: 12 tricks of 9
        bid_box(page, name).fill("4")
        tricks_box(page, name).fill("4")
    save_button(page).click()
    expect_waiting(page, ["Deal 1", "Deal 2"], "deal")

    page.context.set_offline(False)
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.", timeout=SEND)
    expect(page.locator("#deal-form .alert-danger")).to_have_text(
        "Tricks add up to 12; a deal has 9."
    )
    for name in PLAYERS:
        expect(tricks_box(page, name)).to_have_value("4")
    expect(page.locator("#save-label")).to_have_text("Save deal 2")
    expect(outbox(page)).to_be_hidden()
    assert deal_entries(game) == [DEALS[0]]


def tap_deal(page: Page, deal: trick.DealEntry) -> None:
    """A deal's hands tapped in as a finger does, where the boxes and keys are on the screen:
    each hand's tricks, then its bid."""
    wait_for_keypad(page)
    keys = page.get_by_role("group", name="Keypad")
    for name in PLAYERS:
        hand = deal.hands[name]
        for box, number in ((tricks_box(page, name), hand.tricks), (bid_box(page, name), hand.bid)):
            tap(page, box)
            for digit in str(number):
                tap(page, keys.get_by_role("button", name=digit, exact=True))
            expect(box).to_have_value(str(number))


def trump_button(page: Page, name: str) -> Locator:
    """A trump button of the deal form by its name ("♣ Clubs")."""
    return page.locator("#deal-form .trump-btn").filter(has_text=name)


def test_a_deal_refused_on_arrival_goes_first_once_saved_again(
    owner_phone: Callable[[GameSession], Page], alice: User, roster: list[Any]
) -> None:
    """Classic Ninety-Nine, the trump turned up. Deal 1 online; offline, deal 2 saved without
    its trump, then deal 3 with ♠. Back online, deal 2 comes back asking for its trump, deal 3
    named as waiting behind it; ♣ is checked at once, and Save stores deal 2, then deal 3. The
    form shows the deal it says it shows, and every message is true."""
    game = trick_session(alice, roster, ruleset="parlett-classic", title="Classic")
    page = owner_phone(game)
    wait_for_keypad(page)
    status = page.locator("#entry-status")
    tap(page, trump_button(page, "♥ Hearts"))
    tap_deal(page, DEALS[0])
    tap(page, save_button(page))
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.")
    wait_for_keypad(page)

    page.context.set_offline(True)
    tap_deal(page, DEALS[1])  # the trump forgotten
    tap(page, save_button(page))
    expect_kept(page, [2])
    # The status box says, in sight, what waits and that this deal cannot be checked yet; the
    # next deal's trump row is in sight too, and its trump is the table's, as ever.
    expect(status).to_have_text(
        "Deal 2: waiting on this phone to be sent. This deal can't be checked until then."
    )
    assert reachable(status)
    expect_every_hand_in_sight(page, "Deal 3, offline")
    expect(page.locator(".next-deal-facts dd").nth(2)).to_have_text("Turned up at the table")
    tap_deal(page, DEALS[2])
    tap(page, trump_button(page, "♠ Spades"))
    tap(page, save_button(page))
    expect_kept(page, [2, 3])
    expect(status).to_contain_text("Deal 2, Deal 3: waiting on this phone to be sent.")

    page.context.set_offline(False)
    trump = page.locator("#deal-form .trump-pick")
    expect(trump).to_contain_text("Enter the trump turned up for this deal", timeout=SEND)
    wait_for_keypad(page)
    expect_deal_shown(page, DEALS[1])
    expect(page.locator("#save-label")).to_have_text("Save deal 2")
    behind = status.locator(".entry-queue")
    expect(behind).to_have_text("Deal 3: waiting on this phone, sent once this deal is saved.")
    assert reachable(behind)
    # The message about the trump leaves its buttons their size.
    for button in trump.locator(".trump-btn").all():
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    expect_every_hand_in_sight(page, "Deal 2, back")

    tap(page, trump_button(page, "♣ Clubs"))
    expect(status).to_contain_text("Ready to save:")  # checked, though deal 3 waits
    expect(behind).to_be_visible()
    tap(page, save_button(page))
    messages = page.locator("#messages")
    expect(messages).to_contain_text("Deal 3 saved.", timeout=SEND)
    expect(messages).to_contain_text("Deal 2 saved.")
    expect(page.locator("main")).not_to_contain_text("undone")
    expect(outbox(page)).to_be_hidden()
    expect_next(page, 4)
    assert deal_entries(game) == [
        dataclasses.replace(DEALS[0], trump="hearts"),
        dataclasses.replace(DEALS[1], trump="clubs"),
        dataclasses.replace(DEALS[2], trump="spades"),
    ]


def test_the_deals_behind_a_refused_one_follow_its_new_number(
    owner_phone: Callable[[GameSession], Page], phone: NewPage, game: GameSession
) -> None:
    """Phone A keeps deals 1 and 2 offline; phone B enters another deal 1 meanwhile. A's deal 1
    comes back as deal 2, and its deal 2 is named as deal 3, behind it; saved, both are
    stored in that order, and no message says that another phone entered A's own deal."""
    a = owner_phone(game)
    a.context.set_offline(True)
    for number, deal in enumerate(DEALS[:2], start=1):
        enter_deal(a, deal)
        save_button(a).click()
        expect_kept(a, list(range(1, number + 1)))

    b = scorer_phone(phone, game)
    enter_deal(b, DEALS[2])
    save_button(b).click()
    expect(b.locator("#messages")).to_contain_text("Deal 1 saved.")

    a.context.set_offline(False)
    status = a.locator("#entry-status")
    expect(status).to_contain_text(
        "Deal 1 was just entered on another phone. What you typed is kept here as deal 2",
        timeout=SEND,
    )
    expect(status.locator(".entry-queue")).to_have_text(
        "Deal 3: waiting on this phone, sent once this deal is saved."
    )
    expect_deal_shown(a, DEALS[0])
    save_button(a).click()
    messages = a.locator("#messages")
    expect(messages).to_contain_text("Deal 3 saved.", timeout=SEND)
    expect(messages).to_contain_text("Deal 2 saved.")
    expect(a.locator("main")).not_to_contain_text("another phone")
    expect_next(a, 4)
    assert deal_entries(game) == [DEALS[2], DEALS[0], DEALS[1]]


def lose_answers(page: Page, path: str) -> Callable[[], None]:
    """Every POST to `path` reaches the server, and its answer never reaches the phone (a
    phone at the edge of the Wi-Fi): the server gets it, with the phone's cookies, from
    another client, whose answer (and its cookies) the phone never sees. Returns what lets
    the answers through again."""

    def serve(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
        sent = urllib.request.Request(
            route.request.url,
            data=(route.request.post_data or "").encode(),
            headers={"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"},
        )
        opener = urllib.request.build_opener(Unredirected)
        try:
            opener.open(sent, timeout=10).close()
        except urllib.error.HTTPError as answer:  # the redirect of a deal stored
            answer.close()
        route.abort()

    pattern = f"**{path}"
    page.route(pattern, serve)
    return lambda: page.unroute(pattern, serve)


class Unredirected(urllib.request.HTTPRedirectHandler):
    """The server's redirect, as it came: not followed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def test_a_deal_whose_answer_was_lost_is_confirmed_when_sent_again(
    owner_phone: Callable[[GameSession], Page], game: GameSession
) -> None:
    """Deal 2 reaches the server, but not its answer: it waits on the phone, and deal 3 behind
    it. Sent again, deal 2 is stored once, and the page confirms it with its points, as a
    save does, beside deal 3's confirmation."""
    page = owner_phone(game)
    enter_deal(page, DEALS[0])
    save_button(page).click()
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.")
    wait_for_keypad(page)
    answers = lose_answers(page, f"/sessions/{game.public_id}/")
    enter_deal(page, DEALS[1])
    save_button(page).click()
    expect_kept(page, [2])
    enter_deal(page, DEALS[2])
    save_button(page).click()
    expect_kept(page, [2, 3])
    assert stored_numbers(game) == [1, 2]  # deal 2 stored, but the phone never heard so

    answers()
    messages = page.locator("#messages")
    expect(messages).to_contain_text(
        "Deal 3 saved. Ann and Ben made it: Ann +22, Ben +25, Cat +2.", timeout=SEND
    )
    again = "Deal 2 saved (sent again, stored once). Ann and Cat made it: Ann +23, Ben +3, Cat +23."
    expect(messages.get_by_text(again)).to_have_count(1)
    expect(messages).not_to_contain_text("already")
    expect(outbox(page)).to_be_hidden()
    expect_next(page, 4)
    assert stored_numbers(game) == [1, 2, 3]
    assert deal_entries(game) == DEALS


def test_a_page_with_deals_waiting_asks_before_it_is_left(
    owner_phone: Callable[[GameSession], Page], game: GameSession
) -> None:
    """Over plain HTTP no service worker keeps a copy of the table: reloaded while the server
    is away, the page would be the browser's error page. While deals wait, the browser asks
    first; staying keeps the page as it is, and leaving keeps the deals on the phone."""
    page = owner_phone(game)
    unblock = block_posts(page, f"/sessions/{game.public_id}/")
    enter_deal(page, DEALS[0])
    save_button(page).click()
    expect_kept(page, [1])
    page.evaluate("window.stayed = true")
    asked: list[str] = []

    def stay(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.once("dialog", stay)
    page.evaluate("location.reload()")
    deadline = time.monotonic() + 10
    while not asked and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert asked == ["beforeunload"]
    assert page.evaluate("window.stayed") is True  # the same page, as it was
    expect_kept(page, [1])

    page.once("dialog", lambda dialog: dialog.accept())
    page.reload()
    wait_for_keypad(page)
    expect_kept(page, [1])
    unblock()
    page.reload()
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.", timeout=SEND)
    assert deal_entries(game) == DEALS[:1]


def test_the_same_deal_from_two_phones_is_stored_once(
    owner_phone: Callable[[GameSession], Page], phone: NewPage, game: GameSession
) -> None:
    a = owner_phone(game)
    a.context.set_offline(True)
    enter_deal(a, DEALS[0])
    save_button(a).click()
    expect_waiting(a, ["Deal 1"], "deal")

    b = scorer_phone(phone, game)
    enter_deal(b, DEALS[0])
    save_button(b).click()
    expect(b.locator("#messages")).to_contain_text("Deal 1 saved.")

    a.context.set_offline(False)
    expect(a.locator("#messages")).to_contain_text(
        "Deal 1 was just saved on another phone, with the same hands as here: it is stored "
        "once, and these hands are not kept for deal 2.",
        timeout=SEND,
    )
    expect(outbox(a)).to_be_hidden()
    expect_next(a, 2)
    expect(tricks_box(a, "Ann")).to_have_value("")
    assert stored_numbers(game) == [1]
    assert deal_entries(game) == [DEALS[0]]


def test_logging_out_clears_the_outbox(
    owner_phone: Callable[[GameSession], Page], game: GameSession
) -> None:
    page = owner_phone(game)
    block_posts(page, f"/sessions/{game.public_id}/")
    enter_deal(page, DEALS[0])
    save_button(page).click()
    expect_waiting(page, ["Deal 1"], "deal")
    assert waiting_in_indexeddb(page) == 1

    page.get_by_role("button", name="Log out alice").click()
    expect(page.get_by_role("link", name="Log in", exact=True).first).to_be_visible()
    assert waiting_in_indexeddb(page) is None  # the database itself is gone
    assert deal_entries(game) == []


@pytest.mark.parametrize("how", ["cookie expired", "password changed elsewhere"])
def test_entries_of_a_session_ended_elsewhere_are_gone_when_another_logs_in(
    owner_phone: Callable[[GameSession], Page],
    phone: NewPage,
    log_in: LogIn,
    game: GameSession,
    alice: User,
    bob: User,
    how: str,
) -> None:
    """Alice's deal waits on the phone; her session ends without the log-out button; Bob logs
    in on the same phone. Her entry is never sent, under his account or anyone's, and is gone
    from the phone."""
    page = owner_phone(game)
    unblock = block_posts(page, f"/sessions/{game.public_id}/")
    enter_deal(page, DEALS[0])
    save_button(page).click()
    expect_waiting(page, ["Deal 1"], "deal")
    assert waiting_in_indexeddb(page) == 1

    if how == "cookie expired":
        page.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
    else:
        other = phone()
        log_in(other, alice)
        change_password(other, "a new table password")
    unblock()
    page.goto("/accounts/login/")
    submit_log_in(page, "bob", "another staple battery")
    expect(page.get_by_text("Log out bob")).to_be_visible()
    deadline = time.monotonic() + 10
    while waiting_in_indexeddb(page) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert not waiting_in_indexeddb(page)
    assert deal_entries(game) == []


# The adding game

# Five taps of RULES.md §2.3 (Thirty-Three, 9 tokens each): a round that Ann's hit of 99 ends,
# and the start of the next. Tokens afterwards: Ann 6, Ben 5, Cat 6.
TAPS = [
    ("Ben", "Hit 33", adding.Event("Ben", "hit", 33)),
    ("Cat", "Hit 66", adding.Event("Cat", "hit", 66)),
    ("Ann", "Hit 99", adding.Event("Ann", "hit", 99)),
    ("Ann", "Cross 33", adding.Event("Ann", "cross", 33)),
    ("Ben", "Cross 66", adding.Event("Ben", "cross", 66)),
]


def test_taps_made_offline_are_stored_once_in_order(
    owner_phone: Callable[[GameSession], Page], adding_game: GameSession
) -> None:
    page = owner_phone(adding_game)
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(["9 tokens"] * 3)
    page.context.set_offline(True)
    labels = [f"{player}: {event}" for player, event, _ in TAPS]
    for count, label in enumerate(labels, start=1):
        page.get_by_role("button", name=label, exact=True).first.click()
        expect_waiting(page, labels[:count], "tap")
    assert round_entries(adding_game) == []

    page.context.set_offline(False)
    expect(outbox(page)).to_be_hidden(timeout=SEND)
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        ["6 tokens", "5 tokens", "6 tokens"]
    )
    events = [event for _, _, event in TAPS]
    assert round_entries(adding_game) == [
        adding.RoundEntry(tuple(events[:3])),
        adding.RoundEntry(tuple(events[3:])),
    ]


def test_cards_counted_offline_are_counted_in_order_once_back(
    owner_phone: Callable[[GameSession], Page], adding_game: GameSession
) -> None:
    """The count assistant's taps wait too: each is made on the version the one before it
    leaves, so the phone's own taps never refuse each other."""
    page = owner_phone(adding_game)
    page.get_by_role("button", name="Count the cards: total, turn and events").click()
    total = page.locator("#counter .counter-total")
    expect(total).to_have_text("Running total: 0")
    page.context.set_offline(True)
    for card in ("K", "K", "5"):
        page.locator("#counter-cards").get_by_role("button", name=card, exact=True).click()
    expect_waiting(page, ["Card counter: K", "Card counter: K", "Card counter: 5"], "tap")

    page.context.set_offline(False)
    expect(outbox(page)).to_be_hidden(timeout=SEND)
    expect(total).to_have_text("Running total: 25")


# The server killed and started again


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Gunicorn:
    """The app as `scripts/run` serves it (gunicorn's ASGI workers), on the test database."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "SQLITE_PATH": str(connection.settings_dict["NAME"]),
            "DEBUG": "true",  # static files from the finders, as the live server serves them
            "SECRET_KEY": settings.SECRET_KEY,  # the session cookie the test makes
            "ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": self.url,
        }
        env.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "scorekeeper.asgi:application",
             "--chdir", str(ROOT), "--worker-class", "asgi", "--workers", "2",
             "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", "1",
             "--log-level", "warning"],
            cwd=ROOT,
            env=env,
            start_new_session=True,  # its own process group: killed whole, workers too
        )  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.url}/healthz/", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        pytest.fail("gunicorn did not answer within 15 s")

    def kill(self) -> None:
        """SIGKILL to the server's process group: no graceful shutdown, as a laptop's crash."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None


@pytest.fixture
def gunicorn(transactional_db: None) -> Iterator[Gunicorn]:
    if connection.vendor != "sqlite":
        pytest.skip("the server here shares the SQLite test database")
    server = Gunicorn(_free_port())
    server.start()
    try:
        yield server
    finally:
        server.kill()


def test_deals_kept_while_the_server_is_down_are_stored_once_it_is_back(
    browser: Browser, gunicorn: Gunicorn, alice: User, game: GameSession
) -> None:
    context = browser.new_context(base_url=gunicorn.url, **PHONE)
    context.set_default_timeout(5_000)
    errors: list[str] = []
    try:
        client = Client()
        client.force_login(alice)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": gunicorn.url}])
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"/sessions/{game.public_id}/")

        gunicorn.kill()
        for number, deal in enumerate(DEALS[:2], start=1):
            enter_deal(page, deal)
            save_button(page).click()
            expect_kept(page, list(range(1, number + 1)))
        assert deal_entries(game) == []

        gunicorn.start()
        messages = page.locator("#messages")
        expect(messages).to_contain_text("Deal 2 saved.", timeout=SEND)
        expect(messages).to_contain_text("Deal 1 saved.")
        expect(outbox(page)).to_be_hidden()
        expect_next(page, 3)
        assert stored_numbers(game) == [1, 2]
        assert deal_entries(game) == DEALS[:2]
    finally:
        context.close()
    assert errors == []
