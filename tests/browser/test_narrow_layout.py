"""The narrowest common phone (360 px, and 375×667): nothing scrolls sideways, the header keeps
to one line, the standings strip to one row, and titles and names wrap instead of being cut."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper import live
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_adding_session, create_session
from tests.browser.conftest import MIN_TAP, CheckA11y, LogIn, NewPage, OpenTable
from tests.factories import club_night

PHONES = {"360x740": {"width": 360, "height": 740}, "375x667": {"width": 375, "height": 667}}
LONG_NAME = "MAXIMILIANWOLFGANGBARTHOLOMEWMONTGOMERYX"  # 40 capitals, nowhere to break


def _width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def _sticking_out(page: Page, limit: int) -> list[str]:
    """The innermost elements past the screen's right edge."""
    found: list[str] = page.evaluate(
        """limit => [...document.body.querySelectorAll("*")]
            .filter(el => el.getBoundingClientRect().right > limit + 0.5)
            .filter(el => ![...el.children].some(
                c => c.getBoundingClientRect().right > limit + 0.5))
            .map(el => el.tagName.toLowerCase() + "." + el.className).slice(0, 4)""",
        limit,
    )
    return found


def _tops(page: Page, selector: str) -> list[float]:
    boxes = [item.bounding_box() for item in page.locator(selector).all()]
    return [round(box["y"]) for box in boxes if box]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_long_name_in_the_added_message_wraps(
    new_page: NewPage, log_in: LogIn, alice: User, check_a11y: CheckA11y, javascript: bool
) -> None:
    page = new_page(java_script_enabled=javascript)
    log_in(page, alice)
    page.goto("/players/")
    page.get_by_label("Name").fill(LONG_NAME)
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_role("status")).to_have_text(f"Added {LONG_NAME}.")
    assert _width(page) <= 360
    check_a11y(page, "added-long-name")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("logged_in", [True, False], ids=["logged-in", "visitor"])
def test_the_header_keeps_to_one_line(
    new_page: NewPage,
    live_server: Any,
    log_in: LogIn,
    alice: User,
    check_a11y: CheckA11y,
    language: str,
    javascript: bool,
    logged_in: bool,
) -> None:
    page = new_page(java_script_enabled=javascript)
    cookie = {"name": "django_language", "value": language, "url": live_server.url}
    page.context.add_cookies([cookie])  # type: ignore[list-item]
    if logged_in:
        log_in(page, alice)
    # The rules (the last link) and, for an account, the seasons (one in the middle) as the
    # page's own link, which is marked.
    for path in ("/rules/", "/seasons/") if logged_in else ("/rules/",):
        page.goto(path)
        _header_in_one_line(page, 6 if logged_in else 4)  # the brand and the links
        print(f"{language} {'logged in' if logged_in else 'visitor'} {path}")
    if language == "en" and javascript:
        check_a11y(page, f"header-{'logged-in' if logged_in else 'visitor'}")


def _header_in_one_line(page: Page, count: int) -> None:
    header = page.locator(".app-header").bounding_box()
    assert header
    links = page.locator(".app-nav a")
    expect(links).to_have_count(count)
    tops = {round(box["y"]) for box in (link.bounding_box() for link in links.all()) if box}
    assert len(tops) == 1, f"the header wraps: links at y={sorted(tops)}"
    assert header["height"] <= 60
    boxes = []
    for link in links.all():
        box = link.bounding_box()
        assert box and box["height"] >= MIN_TAP and box["width"] >= MIN_TAP, link.inner_text()
        boxes.append(box)
    # Side by side, none over another, every one wholly on the screen, and each link's words
    # inside its own box.
    for before, after in zip(boxes, boxes[1:], strict=False):
        assert before["x"] + before["width"] <= after["x"] + 0.5, f"links overlap: {boxes}"
    assert boxes[0]["x"] >= 0 and boxes[-1]["x"] + boxes[-1]["width"] <= 360
    squeezed = page.locator(".app-nav-links a").evaluate_all(
        "links => links.filter(a => a.scrollWidth > a.clientWidth).map(a => a.textContent)"
    )
    assert squeezed == [], f"words wider than their link: {squeezed}"
    assert _width(page) <= 360


def _five_with_three_digit_totals(alice: User, names: list[str], title: str) -> GameSession:
    players = [Player.objects.create(owner=alice, name=name) for name in names]
    game = create_session(owner=alice, ruleset="five", options={}, players=players, title=title)
    tricks = [1, 2, 2, 2, 2]
    number = 1
    while min(live.result(game).totals.values()) < 100:
        hands = {name: trick.HandEntry(t, bid=t) for name, t in zip(names, tricks, strict=True)}
        add_deal(session=game, number=number, entry=trick.DealEntry(hands=hands), who=Who(alice))
        game.refresh_from_db()
        number += 1
        tricks = tricks[-1:] + tricks[:-1]
    return game


@pytest.mark.parametrize("phone", PHONES)
def test_the_strip_keeps_five_three_digit_totals_in_one_row(
    open_table: OpenTable, alice: User, check_a11y: CheckA11y, phone: str
) -> None:
    names = ["Alexandra", "Bartholomew", "Cat", "Dominique", "Evangeline"]
    game = _five_with_three_digit_totals(alice, names, "Friday")
    page = open_table(game, viewport=PHONES[phone])
    values = page.locator("#standings-strip .strip-value")
    expect(values).to_have_count(5)
    assert all(len(value) >= 3 for value in values.all_inner_texts()), values.all_inner_texts()
    tops = _tops(page, "#standings-strip .strip-cell")
    assert len(set(tops)) == 1, f"the strip breaks into rows at y={tops}"
    # Each name can still be told apart: at least its first three letters show.
    for name in page.locator("#standings-strip .strip-name").all():
        assert name.evaluate("el => el.getBoundingClientRect().width") >= 24, name.inner_text()
    assert _width(page) <= PHONES[phone]["width"]
    if phone == "360x740":
        check_a11y(page, "strip-five-three-digits")


LONG_TITLE = "Friday night at Alexandra and Bartholomew's cottage by the lake"


@pytest.mark.parametrize("title", ["", LONG_TITLE], ids=["untitled", "long-title"])
@pytest.mark.parametrize("phone", PHONES)
def test_a_session_title_is_never_cut(
    open_table: OpenTable,
    alice: User,
    check_a11y: CheckA11y,
    phone: str,
    title: str,
) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(
        owner=alice, ruleset="parlett-classic", options={}, players=players, title=title
    )
    page = open_table(game, viewport=PHONES[phone])
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(title or re.compile(r"^Classic Ninety-Nine, \d+ \w+ \d{4}$"))
    # Every letter shows: nothing hidden behind an ellipsis, nothing past the screen's edge.
    assert heading.evaluate("el => el.scrollWidth <= el.clientWidth"), "the title is cut"
    box = heading.bounding_box()
    assert box and box["x"] + box["width"] <= PHONES[phone]["width"]
    assert _width(page) <= PHONES[phone]["width"]
    if phone == "360x740":
        check_a11y(page, f"table-title-{'long' if title else 'untitled'}")


WORDY_NAME = "Ann Maximilianwolfgangbartholomewmont"  # a 33-letter word, 37 characters


@pytest.mark.parametrize("family", ["trick", "adding"])
def test_a_long_name_in_the_standings_wraps_within_the_screen(
    open_table: OpenTable, alice: User, check_a11y: CheckA11y, family: str
) -> None:
    names = [WORDY_NAME, "Ben", "Cat"]
    players = [Player.objects.create(owner=alice, name=name) for name in names]
    if family == "trick":
        game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
        hands = {name: trick.HandEntry(3, bid=3) for name in names}
        add_deal(session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice))
    else:
        game = create_adding_session(
            owner=alice, ruleset="thirty-three", options={}, players=players
        )
    page = open_table(game)
    expect(page.locator("table.standings")).to_contain_text("Maximilian")
    for phone in PHONES.values():
        page.set_viewport_size(phone)
        assert _width(page) <= phone["width"], (
            f"{_width(page)} px wide at {phone['width']} px: {_sticking_out(page, phone['width'])}"
        )
    page.set_viewport_size(PHONES["360x740"])
    check_a11y(page, f"standings-long-name-{family}")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_home_page_leads_to_the_night_in_progress_nights_and_seasons(
    new_page: NewPage, log_in: LogIn, alice: User, check_a11y: CheckA11y, javascript: bool
) -> None:
    players = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    night = club_night(alice, players, name="Thursday club")
    page = new_page(java_script_enabled=javascript)
    log_in(page, alice)
    page.goto("/")
    main = page.locator("main")
    expect(main.get_by_role("link", name=re.compile("^Thursday club"))).to_have_attribute(
        "href", f"/nights/{night.public_id}/"
    )
    expect(main.get_by_role("link", name="Club nights")).to_have_attribute("href", "/nights/")
    expect(main.get_by_role("link", name="Seasons and the club ladder")).to_have_attribute(
        "href", "/seasons/"
    )
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Nights").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Club nights")
    page.go_back()
    check_a11y(page, f"home-night-{'js' if javascript else 'no-js'}")
