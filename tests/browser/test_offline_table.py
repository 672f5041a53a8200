"""A table page offline: the service worker's last copy, which says that it is one.

A table page opened once (the owner's, or a watch link's) is kept by the service worker. With no
connection it opens again as it was then, under a banner naming the time it was stored (on the
phone's clock) and saying that it is not live; a table page never opened shows the offline page.
When the connection comes back, an untouched copy reloads by itself into the live page; a copy
that something was typed into says so and offers the reload.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession
from scorekeeper.services import save_ruleset
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.browser.journeys import change_password, submit_log_in, tap_table
from tests.factories import adding_session, new_players, play, trick_session, with_links

ZONE = "Europe/Paris"  # the phone's clock, which the banner's time follows
OFFLINE_TEXT = (
    "You are offline. The rule sheets you opened before still work; score entry needs the "
    "connection to the server."
)


def _games(owner: User, *titles: str) -> list[GameSession]:
    """Sessions of Ann, Ben and Cat, deal 1 saved in each."""
    players = new_players(owner)
    games = [trick_session(owner, players, title=title) for title in titles]
    for game in games:
        play(game, owner, (4, 5, 0))
    return games


def _phone(new_page: NewPage) -> Page:
    return new_page(service_workers="allow", timezone_id=ZONE)


def _stored_at(page: Page, path: str) -> str:
    """Wait for the service worker to keep its copy of the table page at `path`; the time of
    the copy, on the phone's clock ("21:40")."""
    url = page.url.split(path, 1)[0] + path
    # The predicate is polled and must answer at once: it starts a look into the cache and
    # answers with what the last look found.
    found = page.wait_for_function(
        """url => {
            caches.open("scorekeeper-tables")
                .then(tables => tables.match(url))
                .then(copy => { window.storedAt = copy && copy.headers.get("X-Stored-At"); });
            return window.storedAt;
        }""",
        arg=url,
        polling=100,
    )
    stored = str(found.json_value())
    when = datetime.fromisoformat(stored.replace("Z", "+00:00"))
    return when.astimezone(ZoneInfo(ZONE)).strftime("%H:%M")


def _forgive_the_offline_requests(page: Page) -> None:
    """The copy's live region asks the server for news while there is no connection: those
    requests fail, as they should."""
    page.problems[:] = [  # type: ignore[attr-defined]
        problem
        for problem in page.problems  # type: ignore[attr-defined]
        if "ERR_INTERNET_DISCONNECTED" not in problem and "htmx:sendError" not in problem
    ]


def test_an_owners_table_opened_once_shows_offline_as_it_was_and_says_so(
    new_page: NewPage, log_in: LogIn, alice: User, check_a11y: CheckA11y
) -> None:
    game, other = _games(alice, "Friday", "Saturday")
    path = f"/sessions/{game.public_id}/"
    page = _phone(new_page)
    log_in(page, alice)
    page.goto(path)
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    time = _stored_at(page, path)
    play(game, alice, (3, 3, 3))  # another phone saves deal 2: the live table moves on

    page.context.set_offline(True)
    page.reload()
    banner = page.locator("#offline-copy")
    expect(banner).to_have_attribute("role", "status")
    expect(banner.locator("p")).to_have_text(
        f"Offline: this is the table as it was at {time} (time of the phone). It is not live."
    )
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    # The banner stays in sight with the standings, and covers no hand of the form.
    expect(page.locator("#standings-strip #offline-copy")).to_be_in_viewport()
    assert page.evaluate(
        """() => document.getElementById("standings-strip").getBoundingClientRect().bottom
            <= document.querySelector("fieldset.hand-card").getBoundingClientRect().top"""
    )
    page.screenshot(path="/tmp/offline-copy.png")
    check_a11y(page, "offline-copy")

    page.goto(f"/sessions/{other.public_id}/")  # never opened on this phone
    expect(page.get_by_text(OFFLINE_TEXT)).to_be_visible()

    page.goto(path)
    expect(banner).to_contain_text(f"as it was at {time}")
    page.get_by_role("spinbutton").first.fill("4")  # something typed: no reload by itself
    page.context.set_offline(False)
    expect(banner.locator("p")).to_have_text("Back online: reload for the live table.")
    page.get_by_role("button", name="Reload").click()
    expect(page.get_by_role("button", name="Save deal 3")).to_be_visible()
    expect(banner).to_have_count(0)
    # The page opened online replaced the copy.
    assert "Save deal 3" in page.evaluate(
        """url => caches.open("scorekeeper-tables")
            .then(tables => tables.match(url))
            .then(copy => copy.text())""",
        page.url,
    )
    _forgive_the_offline_requests(page)


def test_a_watch_link_offline_is_its_copy_and_comes_back_live_by_itself(
    new_page: NewPage, alice: User
) -> None:
    game = with_links(_games(alice, "Friday")[0], watch="w" * 32)
    path = f"/w/{game.watch_token}/"
    page = _phone(new_page)
    page.goto(path)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Friday")
    time = _stored_at(page, path)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text(f"as it was at {time}")
    page.context.set_offline(False)  # nothing typed: the live page comes back by itself
    expect(page.locator("#offline-copy")).to_have_count(0)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Friday")
    _forgive_the_offline_requests(page)


# A phone passed from one account to another


SESSION_LEFT = 10  # seconds: a session that ends soon, after its pages are kept


def _origin(page: Page) -> str:
    return "/".join(page.url.split("/", 3)[:3])


def _kept(page: Page, url: str) -> bool:
    """Whether any of the phone's caches holds a copy of `url`."""
    return bool(page.evaluate("url => caches.match(url, { ignoreVary: true }).then(Boolean)", url))


def _wait_until_kept(page: Page, url: str) -> None:
    """Wait for the service worker to keep a copy of `url`."""
    # The predicate is polled and must answer at once: it starts a look into the caches and
    # answers with what the last look found.
    page.wait_for_function(
        """url => {
            window.kept = window.kept || {};
            caches.match(url, { ignoreVary: true })
                .then(copy => { window.kept[url] = Boolean(copy); });
            return window.kept[url];
        }""",
        arg=url,
        polling=100,
    )


def _session_key(page: Page) -> str:
    cookies = page.context.cookies()
    return next(c["value"] for c in cookies if c["name"] == settings.SESSION_COOKIE_NAME)


def _end_alices_session(
    page: Page, new_page: NewPage, log_in: LogIn, alice: User, how: str
) -> None:
    """Alice's session on this phone ends without its log-out button: the browser drops its
    cookie (it expired), or she changes her password on another phone."""
    if how == "cookie expired":
        page.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
        return
    other = new_page()
    log_in(other, alice)
    change_password(other, "a new table password")


@pytest.mark.parametrize("how", ["cookie expired", "password changed elsewhere"])
def test_a_table_kept_for_an_account_is_gone_once_another_logs_in(
    new_page: NewPage, log_in: LogIn, alice: User, bob: User, how: str
) -> None:
    """Alice's table is kept; her session ends without the log-out button; Bob logs in on the
    same phone. Offline, her table's address shows the offline page, and no copy of it is left
    on the phone."""
    game = _games(alice, "Alice's Friday")[0]
    path = f"/sessions/{game.public_id}/"
    page = _phone(new_page)
    log_in(page, alice)
    page.goto(path)
    _stored_at(page, path)

    _end_alices_session(page, new_page, log_in, alice, how)
    page.goto("/accounts/login/")
    submit_log_in(page, "bob", "another staple battery")
    assert not _kept(page, _origin(page) + path)

    page.context.set_offline(True)
    page.goto(path)
    expect(page.get_by_text(OFFLINE_TEXT)).to_be_visible()
    expect(page.get_by_text("Alice's Friday")).to_have_count(0)


def test_nothing_of_a_session_that_ended_while_offline_shows_offline(
    new_page: NewPage, log_in: LogIn, alice: User
) -> None:
    """The phone cannot ask the server whether a session still holds while it is offline: the
    copies made under it are shown only until the session's end, as the server gave it."""
    game = _games(alice, "Alice's Friday")[0]
    saved = save_ruleset(
        owner=alice, name="Alice's house rules", family="trick", ruleset="five", options={}
    )
    page = _phone(new_page)
    log_in(page, alice)
    # Her session ends in a few seconds: time enough to open three pages on a busy machine.
    ends = timezone.now() + timedelta(seconds=SESSION_LEFT)
    Session.objects.filter(session_key=_session_key(page)).update(expire_date=ends)
    paths = [
        f"/sessions/{game.public_id}/",
        f"/rules/saved/{saved.pk}/",
        f"/rules/saved/{saved.pk}/pad/",
    ]
    for path in paths:
        page.goto(path)
        expect(page.get_by_text("Log out alice")).to_be_visible()
        _wait_until_kept(page, _origin(page) + path)

    # The phone's clock passes the session's end; the browser drops the expired cookie.
    page.wait_for_function(
        "ends => Date.now() > ends",
        arg=ends.timestamp() * 1000,
        polling=100,
        timeout=(SESSION_LEFT + 5) * 1000,
    )
    page.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
    page.context.set_offline(True)
    for path in paths:
        page.goto(path)
        # The offline page, or the worker's own line where the offline page kept was hers.
        expect(page.get_by_text(re.compile(r"^You are offline\."))).to_be_visible()
        expect(page.get_by_text("alice")).to_have_count(0)
    _forgive_the_offline_requests(page)
    page.problems[:] = [p for p in page.problems if "503" not in p]  # type: ignore[attr-defined]


def _copy_shows(page: Page, path: str, state: str) -> None:
    """Wait for the service worker's copy of the table page at `path` to be the table at
    `state` (its taps so far, as the page's tap form carries them)."""
    url = page.url.split(path, 1)[0] + path
    page.wait_for_function(
        """([url, state]) => {
            caches.open("scorekeeper-tables")
                .then(tables => tables.match(url))
                .then(copy => copy && copy.text())
                .then(text => { window.keptState = text && text.includes(`value="${state}"`); });
            return window.keptState;
        }""",
        arg=[url, state],
        polling=100,
    )


def test_an_adding_tables_offline_copy_is_the_table_as_last_tapped(
    new_page: NewPage, log_in: LogIn, alice: User
) -> None:
    game = adding_session(alice, new_players(alice), title="Thirty-Three")
    path = f"/sessions/{game.public_id}/"
    page = _phone(new_page)
    log_in(page, alice)
    page.goto(path)
    _stored_at(page, path)  # the page as it was loaded: round 1, 9 tokens each
    tap_table(page, "Ben: Hit 33")  # Ann and Cat pay one each
    tap_table(page, "Cat: Bust")  # two more for Cat, and round 2
    tap_table(page, "Ann: Hit 33")  # Ben and Cat pay one each
    tokens = ["8 tokens", "8 tokens", "5 tokens"]
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(tokens)
    state = page.locator("form.tap-form input[name=state]").get_attribute("value")
    assert state
    _copy_shows(page, path, state)
    time = _stored_at(page, path)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text(f"as it was at {time}")
    expect(page.locator("#round-heading")).to_contain_text("Round 2")
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(tokens)
    expect(page.locator("#standings-strip .strip-value")).to_have_text(["8", "8", "5"])
    page.context.set_offline(False)  # nothing typed: the live table comes back by itself
    expect(page.locator("#offline-copy")).to_have_count(0)
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(tokens)
    _forgive_the_offline_requests(page)
