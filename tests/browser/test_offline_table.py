"""A table page offline: the service worker's last copy, which says that it is one.

A table page opened once (the owner's, or a watch link's) is kept by the service worker. With no
connection it opens again as it was then (the adding game's table as it was after its last tap,
though taps change it in place), under a banner naming the time it was stored (on the
phone's clock) and saying that it is not live; a table page never opened shows the offline page.
When the connection comes back, an untouched copy reloads by itself into the live page; a copy
that something was typed into says so and offers the reload.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.browser.journeys import tap_table
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
