"""A club night's big screen as the room sees it: at 1920×1080 (and 1280×720) it shows no site
header or footer, nothing runs past the screen's edges, the tie-break note stays in view, and
every line of the standings and of the round's tables shows, all at once where they fit (ten
players with their prizes), else a page at a time, turned by the page itself (thirty players).
Without JavaScript it shows everything and scrolls; on a phone it scrolls as any page does."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession
from scorekeeper.night_models import Night
from scorekeeper.services.nights import finish_night, start_round
from scorekeeper.views import nights as night_views
from tests.browser.conftest import SCREENSHOTS, CheckA11y, NewPage
from tests.factories import club_night, new_players, play

BIG: dict[str, Any] = {
    "viewport": {"width": 1920, "height": 1080},
    "device_scale_factor": 1,
    "is_mobile": False,
    "has_touch": False,
}
SMALL_TV = {**BIG, "viewport": {"width": 1280, "height": 720}}
NAMES = [
    "Ada", "Bartholomew", "Cal", "Dominique", "Evangeline", "Fay", "Gus", "Hal", "Ivy", "Jo",
    "Kit", "Leopoldine", "Mo", "Ned", "Oona", "Pip", "Quentin", "Rosalind", "Sam", "Tia",
    "Ulrich", "Vi", "Wilhelmina", "Xav", "Yvonne", "Zed", "Alexandra", "Benedikt", "Cosima",
    "Dmitri",
]  # fmt: skip
PRIZES = "A bottle of wine\nA box of chocolates\nA pack of cards"
# Tricks of seats 1, 2 and 3 (every bid made), table after table: places and scores vary.
TRICKS = [(5, 3, 1), (1, 5, 3), (3, 1, 5), (4, 4, 1), (2, 2, 5), (0, 6, 3), (6, 0, 3)]
PAGE_TURNS = 20_000  # ms: pages turn every second here; each wait ends once the page has turned


@pytest.fixture(autouse=True)
def _quick_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn the pages every second (the live server runs in this process)."""
    monkeypatch.setattr(night_views, "PAGE_SECONDS", 1)


def night_of(owner: User, count: int, *, finished: bool) -> Night:
    """A night of `count` players at tables of three, two rounds of one deal: finished with its
    prizes, or in round 2 with half of its tables played."""
    players = new_players(owner, NAMES[:count])
    night = club_night(
        owner,
        players,
        name="Thursday club",
        played_on=datetime.date(2026, 11, 26),
        rounds=2,
        method="total",
        prizes=PRIZES,
    )
    for number in (1, 2):
        night = start_round(night=night)
        tables = GameSession.objects.filter(night=night, night_round=number).order_by("pk")
        for index, session in enumerate(tables):
            if number == 1 or finished or index % 2 == 0:
                play(session, owner, TRICKS[(index + number) % len(TRICKS)])
    night = finish_night(night=night) if finished else night
    night.refresh_from_db()
    assert night.watch_token
    return night


# Each list's "Page n of m" ("" where it shows whole).
PAGE_LINES = """['.night-board-standings', '.night-board-round'].map(column => {
    const line = document.querySelector(`#live ${column} .night-page`);
    return line ? line.textContent : '';
})"""
# What the screen shows at one moment, read in one go (the page cannot turn halfway): the
# players and table lines in sight, each list's "Page n of m", whether the tie-break note is
# wholly in view, and whatever shows past the screen's edges (and the page's own scroll).
SNAPSHOT = """() => {
    const inSight = el => el.getClientRects().length > 0;
    const words = el => el.textContent.trim().replace(/\\s+/g, ' ');
    const outside = [...document.querySelectorAll('.night-display *')].filter(inSight)
        .filter(el => {
            const box = el.getBoundingClientRect();
            return box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5;
        })
        .map(el => el.tagName + ': ' + words(el).slice(0, 50));
    const root = document.documentElement;
    if (root.scrollHeight > innerHeight) outside.push('page height ' + root.scrollHeight);
    if (root.scrollWidth > innerWidth) outside.push('page width ' + root.scrollWidth);
    const note = document.querySelector('#live .night-ties');
    const box = note && note.getBoundingClientRect();
    return {
        outside,
        note: Boolean(note && inSight(note) && box.top >= 0 && box.bottom <= innerHeight),
        names: [...document.querySelectorAll('#live .night-standings tbody tr')].filter(inSight)
            .map(row => row.cells[1].firstChild.textContent.trim()),
        tables: [...document.querySelectorAll('#live .night-tables li')].filter(inSight)
            .map(words),
        pages: PAGE_LINES,
    };
}""".replace("PAGE_LINES", PAGE_LINES)


def every_page(page: Page, label: str) -> tuple[set[str], set[str]]:
    """Watch the display until each list has shown each of its pages: the lines seen, with
    nothing past the screen's edges and the tie-break note in view every time."""
    names: set[str] = set()
    tables: set[str] = set()
    seen: list[set[str]] = [set(), set()]
    while True:
        now = page.evaluate(SNAPSHOT)
        assert now["outside"] == [], f"{label}, {now['pages']}: past the screen's edges"
        assert now["note"], f"{label}, {now['pages']}: the tie-break note is out of view"
        names.update(now["names"])
        tables.update(now["tables"])
        for shown, line in zip(seen, now["pages"], strict=True):
            if line not in shown:
                shown.add(line)
                page.screenshot(path=SCREENSHOTS / f"night-display-{label}-{len(shown)}.png")
        if all(not line or len(shown) == int(line.rsplit(" ", 1)[1]) for shown, line in
               zip(seen, now["pages"], strict=True)):  # fmt: skip
            return names, tables
        page.wait_for_function(
            f"lines => JSON.stringify({PAGE_LINES}) !== JSON.stringify(lines)",
            arg=now["pages"],
            timeout=PAGE_TURNS,
        )


def all_tables(night: Night) -> int:
    return GameSession.objects.filter(night=night, night_round=night.round).count()


@pytest.mark.parametrize(("count", "finished"), [(10, True), (10, False), (30, False), (30, True)])
def test_the_big_screen_shows_every_line_inside_the_screen(
    new_page: NewPage, alice: User, check_a11y: CheckA11y, count: int, finished: bool
) -> None:
    night = night_of(alice, count, finished=finished)
    page = new_page(**BIG)
    page.goto(f"/n/{night.watch_token}/display/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday club")
    # The room's screen, not the site: no header, menu or footer.
    expect(page.locator(".app-header, .app-footer, .skip-link")).to_have_count(0)
    expect(page.locator("#live .night-standings tbody tr")).to_have_count(count)
    label = f"{count}-{'final' if finished else 'round-2'}"
    names, tables = every_page(page, label)
    assert names == set(NAMES[:count]), f"never shown: {set(NAMES[:count]) - names}"
    if finished:
        expect(page.locator("#live .night-tables")).to_have_count(0)
        prizes = page.locator("#live .night-prize")
        expect(prizes.first).to_have_text("A bottle of wine")
        assert set(prizes.all_inner_texts()) <= set(PRIZES.splitlines())
    else:
        assert len(tables) == all_tables(night) + (count % 3 > 0)  # and who sits out
    if count == 10:
        # Ten fit at once: no page to turn.
        expect(page.locator("#live .night-page")).to_have_count(0)
        expect(page.locator("#live .night-standings tbody tr:visible")).to_have_count(10)
        check_a11y(page, label)
    else:
        expect(page.locator("#live .night-board-standings .night-page")).to_have_text(
            [re.compile(r"^Page \d of [23]$")]
        )


def test_a_new_leaderboard_keeps_the_page_turning_and_every_line_inside(
    new_page: NewPage, alice: User
) -> None:
    """A table saves a deal: the live region brings the new standings, measured again."""
    night = night_of(alice, 30, finished=False)
    page = new_page(**BIG)
    page.goto(f"/n/{night.watch_token}/display/")
    expect(page.locator("#live .night-board-standings .night-page")).to_have_count(1)
    waiting = GameSession.objects.filter(night=night, night_round=2).order_by("pk")[1]
    etag = page.locator("#live").get_attribute("data-etag")
    play(waiting, alice, (5, 3, 1))
    page.wait_for_function(
        "etag => document.querySelector('#live').dataset.etag !== etag", arg=etag, timeout=8_000
    )
    expect(page.locator("#live .night-board-standings .night-page")).to_have_count(1)
    names, _ = every_page(page, "30-after-a-save")
    assert names == set(NAMES)


def test_a_small_television_shows_it_inside_the_screen_too(new_page: NewPage, alice: User) -> None:
    night = night_of(alice, 30, finished=False)
    page = new_page(**SMALL_TV)
    page.goto(f"/n/{night.watch_token}/display/")
    names, _ = every_page(page, "30-at-1280x720")
    assert names == set(NAMES)


def test_without_javascript_the_big_screen_shows_everything_and_scrolls(
    new_page: NewPage, alice: User, check_a11y: CheckA11y
) -> None:
    night = night_of(alice, 30, finished=False)
    page = new_page(**BIG, java_script_enabled=False)
    page.goto(f"/n/{night.watch_token}/display/")
    expect(page.locator("#live .night-standings tbody tr:visible")).to_have_count(30)
    expect(page.locator("#live .night-tables li:visible")).to_have_count(all_tables(night))
    expect(page.locator("#live .night-page")).to_have_count(0)
    page.screenshot(path=SCREENSHOTS / "night-display-30-no-js.png", full_page=True)
    check_a11y(page, "night-display-no-js")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_on_a_phone_the_display_scrolls_with_nothing_cut(
    new_page: NewPage, alice: User, check_a11y: CheckA11y, javascript: bool
) -> None:
    night = night_of(alice, 10, finished=True)
    page = new_page(java_script_enabled=javascript)
    page.goto(f"/n/{night.watch_token}/display/")
    expect(page.locator("#live .night-standings tbody tr:visible")).to_have_count(10)
    expect(page.locator("#live .night-page")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    check_a11y(page, f"night-display-phone-{'js' if javascript else 'no-js'}")
