"""At the table, on a 360-px phone:

- A tap on an adding-game row below the first keeps that row where it was on the screen and
  says what it did next to it (with htmx; without JavaScript the page comes back at the row).
- The rounds and deal grids fit a phone: they scroll sideways inside their box with the round
  or deal number and the names pinned, and the page itself never scrolls sideways.
- The printable score pad's name boxes and column headings are not clipped at phone width.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.services import Who, add_deal, create_adding_session, create_session, record_event
from tests.browser.conftest import SCREENSHOTS, CheckA11y, OpenTable
from tests.factories import adding_session

PHONE_WIDTH = 360
FOUR = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def roster_names() -> list[str]:
    """Four players round the table."""
    return FOUR


def _thirty_three(alice: User, roster: list[Player]) -> GameSession:
    return adding_session(alice, roster, title="Thirty-Three")


def _top(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["y"])


# A tap keeps its row in place and is announced beside it


def test_a_tap_below_the_first_row_keeps_the_row_in_place(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player], check_a11y: CheckA11y
) -> None:
    game = _thirty_three(alice, roster)
    open_table(game, page)
    cat = page.locator("li.adding-seat").nth(2)
    # Scroll so that Cat's row sits in the middle of the screen, as a thumb would leave it.
    page.evaluate(
        "row => window.scrollBy(0, row.getBoundingClientRect().top - 250)", cat.element_handle()
    )
    before = _top(cat)
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 300, "the third row should be well down the page"

    cat.get_by_role("button", name="Cat: Hit 66", exact=True).click()

    said = cat.locator("[aria-live] [role=status]")
    expect(said).to_have_text(["Cat: Hit 66. Dan -1, Ann -1, Ben -1."])
    expect(cat.locator(".tokens-label")).to_have_text("9 tokens")
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        ["8 tokens", "8 tokens", "9 tokens", "8 tokens"]
    )
    # The row has not moved (within a few px), and what the tap did is on the screen.
    assert abs(_top(cat) - before) <= 4, f"the row moved from {before} to {_top(cat)}"
    expect(said).to_be_in_viewport()
    # Said once, by the row: not also at the top of the page.
    expect(page.locator("#messages [role=status]")).to_have_count(0)
    check_a11y(page, "tapped")


def test_a_tap_without_javascript_comes_back_at_its_row(
    open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    game = _thirty_three(alice, roster)
    page = open_table(game, java_script_enabled=False)
    cat = page.locator("li.adding-seat").nth(2)
    cat.get_by_role("button", name="Cat: Hit 66", exact=True).click()
    assert page.url.endswith(f"/sessions/{game.public_id}/#seat-3")
    said = cat.locator("[aria-live] [role=status]")
    expect(said).to_have_text(["Cat: Hit 66. Dan -1, Ann -1, Ben -1."])
    expect(cat).to_be_in_viewport()
    expect(said).to_be_in_viewport()
    assert 0 <= _top(cat) <= 16, "the page opens at the tapped row"


# The grids fit a phone, or scroll inside their box with the numbers and names pinned

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
FIVE = SIX[:5]


def _seat(alice: User, names: list[str]) -> list[Player]:
    return [Player.objects.get_or_create(owner=alice, name=name)[0] for name in names]


def _rounds_of_busts(alice: User, count: int) -> GameSession:
    game = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=_seat(alice, SIX), title="Six"
    )
    for number in range(count):
        state = adding.table_state(game.entries())
        event = adding.Event(SIX[number % len(SIX)], "bust")
        game = record_event(session=game, state=state, event=event, who=Who(alice)).session
    return game


def _deals(alice: User, count: int) -> GameSession:
    game = create_session(
        owner=alice, ruleset="five", options={}, players=_seat(alice, FIVE), title="Five"
    )
    tricks = dict(zip(FIVE, (2, 2, 2, 2, 1), strict=True))
    for number in range(1, count + 1):
        hands = {name: trick.HandEntry(won, bid=won) for name, won in tricks.items()}
        add_deal(session=game, number=number, entry=trick.DealEntry(hands=hands), who=Who(alice))
    return game


def _box(page: Page, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        "s => { const b = document.querySelector(s).getBoundingClientRect();"
        " return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; }",
        selector,
    )
    return box


def expect_a_grid_that_fits_or_pins(page: Page, last_name: str, *, fits: bool) -> None:
    """The page never scrolls sideways; the grid fits its box, or scrolls sideways inside it
    with its first column (the round or deal number) pinned; down the grid, its header row
    (the names) stays pinned at the top of the box."""
    wrap = ".deal-grid-wrap"
    page.locator(wrap).scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    frame = _box(page, wrap)
    assert frame["right"] <= PHONE_WIDTH
    number = f"{wrap} tbody tr:first-child th[scope=row]"
    name = f"{wrap} thead th:last-child"
    wide = page.evaluate(f"(w => w.scrollWidth > w.clientWidth)(document.querySelector('{wrap}'))")
    assert wide != fits
    if wide:
        start = _box(page, number)
        page.evaluate(f"document.querySelector('{wrap}').scrollLeft = 1e6")
        page.wait_for_timeout(100)
        # The number stays where it was; the last column's name has come into the box.
        assert abs(_box(page, number)["left"] - start["left"]) <= 1
        shown = _box(page, name)
        assert frame["left"] - 1 <= shown["left"] < shown["right"] <= frame["right"] + 1
    tall = page.evaluate(
        f"(w => w.scrollHeight > w.clientHeight)(document.querySelector('{wrap}'))"
    )
    assert tall, "these rows are taller than the box: the grid scrolls inside it"
    page.evaluate(f"document.querySelector('{wrap}').scrollTop = 200")
    page.wait_for_timeout(100)
    assert abs(_box(page, name)["top"] - frame["top"]) <= 1
    expect(page.locator(name)).to_have_text(last_name)
    expect(page.locator(name)).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator(wrap).screenshot(path=SCREENSHOTS / f"grid-{last_name.lower()}-scrolled.png")


def test_the_rounds_grid_fits_a_phone_or_scrolls_with_names_pinned(
    page: Page, open_table: OpenTable, alice: User, check_a11y: CheckA11y
) -> None:
    game = _rounds_of_busts(alice, 13)
    open_table(game, page)
    # The players' numbers come before the events, so four players' would fit without scrolling.
    header = page.locator(".deal-grid thead th")
    expect(header).to_have_text(["Round", *SIX, "Events"])
    expect_a_grid_that_fits_or_pins(page, "Events", fits=False)
    check_a11y(page, "rounds-grid")
    page.goto(f"/sessions/{game.public_id}/rounds/")
    expect_a_grid_that_fits_or_pins(page, "Events", fits=False)


def test_the_deals_grid_scrolls_with_names_pinned(
    page: Page, open_table: OpenTable, alice: User, check_a11y: CheckA11y
) -> None:
    game = _deals(alice, 10)  # the whole match of the five-player preset
    open_table(game, page)
    expect_a_grid_that_fits_or_pins(page, "Eve", fits=True)  # five players fit a phone
    check_a11y(page, "deals-grid")


# The printable score pad at phone width

PADS = [
    f"/rules/{family}/{preset_id}/pad/"
    for family, presets in (("trick", trick.PRESETS), ("adding", adding.PRESETS))
    for preset_id in presets
]
# Every cell of the pad whose content is cut off by its box, and every name box narrower than
# a name of eight letters or not wholly inside its cell.
CLIPPED = """() => {
  const cut = [...document.querySelectorAll('.pad-grid th, .pad-grid td')]
    .filter(cell => cell.scrollWidth > cell.clientWidth + 1
      || cell.scrollHeight > cell.clientHeight + 1)
    .map(cell => `cell "${cell.textContent.trim()}": ${cell.scrollWidth}x${cell.scrollHeight}`
      + ` in ${cell.clientWidth}x${cell.clientHeight}`);
  const names = [...document.querySelectorAll('.pad-grid .pad-name')].map(box => {
    const cell = box.closest('th').getBoundingClientRect(), b = box.getBoundingClientRect();
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = getComputedStyle(box).font;
    const eight = pen.measureText('Margaret').width;
    return (b.left < cell.left - 1 || b.right > cell.right + 1 || b.width < eight)
      ? `name box ${b.width}px wide (8 letters: ${eight}px) in a cell ${cell.width}px wide`
      : '';
  }).filter(Boolean);
  return [...cut, ...names];
}"""


def test_the_score_pads_are_not_clipped_on_a_phone(page: Page, check_a11y: CheckA11y) -> None:
    problems = []
    for url in PADS:
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH, url
        problems += [f"{url}: {problem}" for problem in page.evaluate(CLIPPED)]
    assert not problems, "\n".join(problems)
    page.goto("/rules/trick/parlett-classic/pad/")
    check_a11y(page, "pad")
