"""The table display on a phone and on a tablet: big names and totals, live without a reload,
full screen where the browser can, axe in light and dark; for both game families."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.services import Who, add_deal, record_event
from tests.browser.conftest import (
    FAILING_IMPACTS,
    SCREENSHOTS,
    CheckA11y,
    NewPage,
    OpenTable,
    _axe_violations,
)
from tests.factories import adding_session, new_players, trick_session, with_links

LIVE = 8_000  # ms: a poll every 3 s
TABLET: dict[str, Any] = {"viewport": {"width": 1024, "height": 768}, "is_mobile": False}
MARKER = "window.notReloaded = true"


@pytest.fixture
def game(game: GameSession) -> GameSession:
    """The trick-game session, with a watch link."""
    return with_links(game, watch="watch-token-of-friday")


def _font_px(page: Page, selector: str) -> float:
    return float(
        page.evaluate(
            f"parseFloat(getComputedStyle(document.querySelector('{selector}')).fontSize)"
        )
    )


def _deal(game: GameSession, alice: User) -> None:
    hands = {
        "Ann": trick.HandEntry(4, bid=4),
        "Ben": trick.HandEntry(5, made=False),
        "Cat": trick.HandEntry(0, bid=0),
    }
    add_deal(session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice))


def _names_and_figures(page: Page) -> list[list[str]]:
    rows = page.locator(".display-board tbody tr")
    return [row.locator("th, td.display-figure").all_inner_texts() for row in rows.all()]


def test_a_watch_link_shows_the_table_display_live(
    page: Page, alice: User, game: GameSession, check_a11y: CheckA11y
) -> None:
    page.goto(f"/w/{game.watch_token}/")
    page.get_by_role("link", name="Table display: big numbers for a tablet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")
    expect(page.locator(".display-facts")).to_contain_text("Deal1 of 9")
    assert _names_and_figures(page) == [["Ann", "0"], ["Ben", "0"], ["Cat", "0"]]
    # Big enough to read from across a table, even on a phone.
    assert _font_px(page, ".display-name") >= 28
    assert _font_px(page, ".display-board tbody .display-figure") >= 28
    check_a11y(page, "display")

    page.evaluate(MARKER)
    _deal(game, alice)
    expect(page.locator(".display-facts")).to_contain_text("Deal2 of 9", timeout=LIVE)
    assert _names_and_figures(page) == [["Ann", "24"], ["Cat", "20"], ["Ben", "5"]]
    assert page.evaluate("window.notReloaded") is True


def test_the_display_on_a_tablet_is_big_and_passes_axe(
    new_page: NewPage, game: GameSession, alice: User
) -> None:
    page = new_page(**TABLET)
    _deal(game, alice)
    page.goto(f"/w/{game.watch_token}/display/")
    assert _font_px(page, ".display-name") >= 60
    assert _font_px(page, ".display-board tbody .display-figure") >= 60
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    for mode in ("light", "dark"):
        page.evaluate(f"document.documentElement.setAttribute('data-bs-theme', '{mode}')")
        page.emulate_media(color_scheme=mode)
        problems = [v["id"] for v in _axe_violations(page, None) if v["impact"] in FAILING_IMPACTS]
        assert not problems, f"{mode}: {problems}"
        page.screenshot(path=SCREENSHOTS / f"display-tablet-{mode}.png")


def test_full_screen_where_the_browser_can(new_page: NewPage, game: GameSession) -> None:
    page = new_page(**TABLET)
    page.goto(f"/w/{game.watch_token}/display/")
    button = page.get_by_role("button", name="Full screen")
    if not page.evaluate("document.fullscreenEnabled"):
        expect(button).to_be_hidden()
        pytest.skip("this Chromium has no Fullscreen API")
    button.click()
    page.wait_for_function("document.fullscreenElement !== null")
    assert page.evaluate("document.fullscreenElement.id") == "display"
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".display-board")).to_be_visible()
    button.click()
    page.wait_for_function("document.fullscreenElement === null")
    expect(button).to_have_attribute("aria-pressed", "false")


def test_without_the_fullscreen_api_there_is_no_dead_button(
    new_page: NewPage, game: GameSession
) -> None:
    page = new_page()
    page.add_init_script(
        "Object.defineProperty(Document.prototype, 'fullscreenEnabled', {get: () => false})"
    )
    page.goto(f"/w/{game.watch_token}/display/")
    expect(page.locator(".display-board")).to_be_visible()
    expect(page.get_by_role("button", name="Full screen")).to_be_hidden()


def test_the_owners_display_of_an_adding_game_follows_the_taps(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player], check_a11y: CheckA11y
) -> None:
    pennies = adding_session(alice, roster, title="Pennies")
    open_table(pennies, page)
    page.get_by_role("link", name="Table display: big numbers for a tablet").click()
    expect(page.locator(".display-board thead th").last).to_have_text("Tokens left")
    assert _names_and_figures(page) == [["Ann", "9"], ["Ben", "9"], ["Cat", "9"]]
    page.evaluate(MARKER)
    record_event(session=pennies, state="0.0", event=adding.Event("Ann", "bust"), who=Who(alice))
    expect(page.locator(".display-facts")).to_contain_text("Round2", timeout=LIVE)
    assert _names_and_figures(page) == [["Ben", "9"], ["Cat", "9"], ["Ann", "7"]]
    assert page.evaluate("window.notReloaded") is True
    check_a11y(page, "display-adding")
    page.get_by_role("link", name="← Back to the table").click()
    expect(page.locator("li.adding-seat")).to_have_count(3)


# Every player in sight: 3 to 6 players fit the screen, on a landscape or upright tablet and on a
# phone; ten may need a scroll, and the screen says so.

SCREENS = {
    "1920x1080": {"viewport": {"width": 1920, "height": 1080}, "is_mobile": False},
    "1280x720": {"viewport": {"width": 1280, "height": 720}, "is_mobile": False},
    "1024x768": {"viewport": {"width": 1024, "height": 768}, "is_mobile": False},
    "768x1024": {"viewport": {"width": 768, "height": 1024}, "is_mobile": False},
    "360x740": {},  # conftest.py's phone
}
LONG_NAMES = ["Alexandra", "Bartholomew", "Cat", "Dominique", "Evangeline", "Fay", "Gus", "Hal",
              "Ivy", "Jo"]  # fmt: skip


def _table_of(alice: User, players: int) -> GameSession:
    seats = new_players(alice, LONG_NAMES[:players])
    if players == 3:
        game = trick_session(alice, seats, ruleset="parlett-classic", title="Friday")
    elif players == 5:
        game = trick_session(alice, seats, ruleset="five", title="Five")
    else:
        game = adding_session(alice, seats, title="Big table")
        out = adding.Event(LONG_NAMES[0], "bust")
        record_event(session=game, state="0.0", event=out, who=Who(alice))
    return with_links(game, watch=f"watch-token-of-{players}")


def _rows_below(page: Page, height: int) -> list[str]:
    """The players whose row does not show whole on the screen as it is scrolled now."""
    rows = page.locator(".display-board tbody tr")
    below = []
    for row in rows.all():
        box = row.bounding_box()
        assert box
        if box["y"] < 0 or box["y"] + box["height"] > height:
            below.append(row.locator("th").inner_text())
    return below


@pytest.mark.parametrize("players", [3, 5, 6, 10])
@pytest.mark.parametrize("screen", SCREENS)
def test_every_player_is_in_sight_or_the_screen_says_to_scroll(
    new_page: NewPage, alice: User, check_a11y: CheckA11y, screen: str, players: int
) -> None:
    game = _table_of(alice, players)
    page = new_page(**SCREENS[screen])
    height = page.viewport_size["height"] if page.viewport_size else 0
    page.goto(f"/w/{game.watch_token}/display/")
    expect(page.locator(".display-board tbody tr")).to_have_count(players)
    # The table's screen, not the site: no header, menu or footer.
    expect(page.locator(".app-header, .app-footer, .skip-link")).to_have_count(0)
    more = page.locator("#display-more")
    below = _rows_below(page, height)
    name_px = _font_px(page, ".display-name")
    print(f"{screen}, {players} players: names {name_px:.0f} px, not in sight: {below}")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    if players <= 6:
        assert below == [], f"{below} cut off at {screen}"
        expect(more).to_be_hidden()
        assert name_px >= (60 if screen == "1024x768" and players == 3 else 28)
    elif below:
        # The screen says there is more, where it is seen, and a scroll shows the rest.
        expect(more).to_be_visible()
        line = more.bounding_box()
        assert line
        left = len(_rows_below(page, round(line["y"])))
        expect(more).to_have_text(f"{left} more below: scroll down to see every player.")
        page.locator(".display-board tbody tr").last.scroll_into_view_if_needed()
        expect(more).to_be_hidden()
    else:
        expect(more).to_be_hidden()
    if screen == "360x740" and players in (5, 10):
        check_a11y(page, f"display-{players}")
    else:
        page.screenshot(path=SCREENSHOTS / f"display-{screen}-{players}.png")


def test_ten_players_on_a_phone_held_sideways_scroll_and_the_screen_says_so(
    new_page: NewPage, alice: User
) -> None:
    game = _table_of(alice, 10)
    page = new_page(viewport={"width": 740, "height": 360})
    page.goto(f"/w/{game.watch_token}/display/")
    more = page.locator("#display-more")
    below = _rows_below(page, 360)
    assert below, "all ten fit: this screen tests nothing"
    expect(more).to_be_visible()
    # It counts every row not whole above it.
    line = more.bounding_box()
    assert line and line["y"] + line["height"] <= 360
    expect(more).to_have_text(
        f"{len(_rows_below(page, round(line['y'])))} more below: scroll down to see every player."
    )
    page.screenshot(path=SCREENSHOTS / "display-740x360-10-more-below.png")
    page.locator(".display-board tbody tr").last.scroll_into_view_if_needed()
    expect(more).to_be_hidden()
    # Nobody is left hidden under the line: every row shows once scrolled to.
    page.mouse.wheel(0, -10_000)
    expect(more).to_be_visible()
