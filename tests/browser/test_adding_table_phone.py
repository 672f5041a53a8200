"""The adding game's table on a small phone (360×740 and 375×667, with touch).

- The sticky standings strip says what the rows say after every tap, undo, adjustment,
  counter "Record it" and elimination, on the phone that tapped (the htmx answer carries the
  strip out of band), and without JavaScript (the page comes back whole).
- A row never moves under the finger because of a change elsewhere on the page: every row
  keeps room for the message a tap says by it, the dealer's badge and the coins never change
  a row's height, and the coins never wrap; nor does "Undo the last tap" when a tap ends the
  game.
- Every row and its buttons are in sight at 360×740 for three players of Thirty-Three and four
  of Dollar Bill, so that a typical round is one tap an event and no swipe.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from tests.browser.conftest import SCREENSHOTS, CheckA11y, NewPage, OpenTable
from tests.browser.journeys import COUNT_TAPS, reachable, tap, tap_table, taps
from tests.factories import adding_session, new_players

NAMES = ["Ann", "Ben", "Cat"]
PHONES = {"360x740": {"width": 360, "height": 740}, "375x667": {"width": 375, "height": 667}}


def _session(alice: User, roster: list[Player], ruleset: str, **options: Any) -> GameSession:
    return adding_session(alice, roster, ruleset=ruleset, options=options, title="Small phone")


def _rows(page: Page) -> list[str]:
    """Each row's tokens as the strip would say them: "7", or "out"."""
    labels = page.locator("li.adding-seat .tokens-label").all_inner_texts()
    return ["out" if label.startswith("out") else label.split()[0] for label in labels]


def _strip(page: Page) -> list[str]:
    return page.locator("#standings-strip .strip-value").all_inner_texts()


def expect_strip_as_rows(page: Page, rows: list[str]) -> None:
    """The strip says what the rows say, and the rows say `rows`."""
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        [re.compile(rf"^{value}\b") for value in rows]
    )
    assert _rows(page) == rows
    expect(page.locator("#standings-strip .strip-value")).to_have_text(rows)
    # The strip's names stay in seat order.
    expect(page.locator("#standings-strip .strip-name")).to_have_text(NAMES)


# The strip follows every change on the phone that made it


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_the_strip_follows_every_tap_on_the_phone_that_taps(
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
    phone: dict[str, int],
) -> None:
    game = _session(alice, roster, "thirty-three", tokens=3)
    page = open_table(game, viewport=phone)
    expect_strip_as_rows(page, ["3", "3", "3"])

    tap_table(page, "Ben: Hit 33")  # Cat and Ann pay one each
    expect_strip_as_rows(page, ["2", "3", "2"])
    tap_table(page, "Undo the last tap")
    expect_strip_as_rows(page, ["3", "3", "3"])
    tap_table(page, "Cat: Cross 33")
    expect_strip_as_rows(page, ["3", "3", "2"])
    tap_table(page, "Cat: Empty hand")  # three more than she has: Cat is out
    expect_strip_as_rows(page, ["3", "3", "out"])

    # A correction agreed at the table.
    page.get_by_text("A correction agreed at the table", exact=True).click()
    page.get_by_label("Who").select_option(label="Ben")
    page.get_by_label("By how many (+ gives, − takes)").fill("-1")
    tap_table(page, "Adjust")
    expect_strip_as_rows(page, ["3", "2", "out"])

    # The card counter's "Record it": whoever plays the 3 hits 33, and the others pay.
    tap_table(page, "Count the cards: total, turn and events")
    for card in ("K", "K", "K", "3"):
        tap_table(page, card)
    expect(page.locator(".counter-proposal strong")).to_have_count(1)
    tap_table(page, "Record it")
    expect(page.locator("#counter .tap-said")).to_contain_text("Recorded:")
    shown = _rows(page)
    assert shown != ["3", "2", "out"], "the counter's event changed someone's tokens"
    expect_strip_as_rows(page, shown)
    if phone["width"] == 360:  # check_a11y measures sideways scrolling at 360 px
        check_a11y(page, "strip")


def test_the_strip_without_javascript_is_the_page_as_it_is(
    open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    game = _session(alice, roster, "thirty-three", tokens=3)
    page = open_table(game, java_script_enabled=False)
    tap_table(page, "Ben: Hit 33")
    expect_strip_as_rows(page, ["2", "3", "2"])
    tap_table(page, "Cat: Empty hand")
    expect_strip_as_rows(page, ["2", "3", "out"])
    tap_table(page, "Undo the last tap")
    expect_strip_as_rows(page, ["2", "3", "2"])


# Nothing moves under the finger

FOUR = ["Ann", "Ben", "Cat", "Dan"]
STILL = 4  # px: how far a row or button may move when something else on the page changes

# Every layout shift the page makes, from its first paint: Playwright's taps are input, so the
# shifts right after them have hadRecentInput set and do not count towards CLS proper; both
# sums are kept.
SHIFTS = """
window.shifts = {cls: 0, all: 0, count: 0};
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    window.shifts.all += entry.value;
    window.shifts.count += 1;
    if (!entry.hadRecentInput) window.shifts.cls += entry.value;
  }
}).observe({type: "layout-shift", buffered: true});
"""

# Where each row, each button of the rows and the undo button's place are on the screen
# (viewport y, px).
PLACES = """() => {
  const places = {};
  for (const row of document.querySelectorAll('li.adding-seat')) {
    places[row.id] = row.getBoundingClientRect().top;
    for (const button of row.querySelectorAll('button')) {
      places[button.getAttribute('aria-label')] = button.getBoundingClientRect().top;
    }
  }
  places['the undo button'] = document.getElementById('undo').getBoundingClientRect().top;
  return places;
}"""


def _places(page: Page) -> dict[str, float]:
    places: dict[str, float] = page.evaluate(PLACES)
    return places


def _tap_in_place(page: Page, name: str, moves: list[str]) -> float:
    """Bring the button to the middle of the screen (as a thumb leaves it), tap it, and note
    every row and button that moved on the screen further than STILL: returns how far the
    furthest one moved."""
    button = page.get_by_role("button", name=name, exact=True)
    page.evaluate(
        "b => window.scrollBy({top: b.getBoundingClientRect().top - 330, behavior: 'instant'})",
        button.element_handle(),
    )
    before = _places(page)
    tap_table(page, name)
    expect(page.locator(".tap-said [role=status]")).to_have_count(1)
    after = _places(page)
    furthest = 0.0
    for key in before.keys() & after.keys():
        moved = abs(after[key] - before[key])
        furthest = max(furthest, moved)
        if moved > STILL:
            moves.append(f"after {name!r}: {key} moved {moved:.0f} px")
    return furthest


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_no_row_moves_under_the_finger(
    new_page: NewPage,
    open_table: OpenTable,
    alice: User,
    check_a11y: CheckA11y,
    phone: dict[str, int],
) -> None:
    game = adding_session(alice, new_players(alice, FOUR), title="Thirty-Three")
    page = new_page(viewport=phone)
    page.add_init_script(SHIFTS)
    open_table(game, page)
    rows = page.locator("li.adding-seat")
    heights = {row.get_attribute("id"): row.bounding_box()["height"] for row in rows.all()}  # type: ignore[index]
    assert len(set(heights.values())) == 1, f"every row alike before a tap: {heights}"

    moves: list[str] = []
    furthest: list[float] = []
    # Ben taps in row 2: Cat's buttons in row 3 stay where they were.
    cat_cross = page.get_by_role("button", name="Cat: Cross 33", exact=True)
    furthest.append(_tap_in_place(page, "Ben: Hit 33", moves))
    # Then Cat taps in row 3, where Ben's message goes away.
    furthest.append(_tap_in_place(page, "Cat: Cross 33", moves))
    expect(cat_cross).to_be_visible()
    # Ann busts: the round ends and the dealer's badge goes from Ann to Ben.
    furthest.append(_tap_in_place(page, "Ann: Bust", moves))
    # Ben's empty hands (3 tokens each) end four rounds; the fourth puts him out (he owes 3
    # and holds none), the badge moving on each time.
    for _ in range(4):
        furthest.append(_tap_in_place(page, "Ben: Empty hand", moves))
    expect(rows.nth(1)).to_have_class(re.compile(r"\bis-out\b"))
    furthest.append(_tap_in_place(page, "Dan: Hit 66", moves))
    furthest.append(_tap_in_place(page, "Undo the last tap", moves))
    # The Layout Instability API sees only elements that were on the page before and after:
    # htmx swaps the table for new elements, so the rows' own places above are the measure.
    shifts = page.evaluate("window.shifts")
    print(
        f"\n{phone['width']}x{phone['height']}: {len(furthest)} taps, the furthest any row or "
        f"button moved on the screen: {max(furthest):.1f} px; layout shifts: CLS (without "
        f"recent input) {shifts['cls']:.4f}, all {shifts['all']:.4f} in {shifts['count']} "
        f"shifts; moved more than {STILL} px: {moves or 'none'}"
    )
    assert not moves, "\n".join(moves)
    assert shifts["cls"] < 0.01
    heights = {row.get_attribute("id"): row.bounding_box()["height"] for row in rows.all()}  # type: ignore[index]
    assert len(set(heights.values())) == 1, f"every row alike, out or in: {heights}"
    # The coins are on one line: as high as one coin.
    coins = page.evaluate(
        "[...document.querySelectorAll('.coins')].map(c => [c.getBoundingClientRect().height,"
        " c.querySelector('.coin').getBoundingClientRect().height])"
    )
    assert coins and all(line <= coin + 0.5 for line, coin in coins), coins
    if phone["width"] == 360:
        check_a11y(page, "rows")


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_the_tap_that_ends_the_game_moves_nothing(
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
    phone: dict[str, int],
) -> None:
    """Sudden Death: Ann's bust puts her out and Ben's ends the game. The winner's banner
    takes the round's place and no row has a button left, yet every row and "Undo the last
    tap" stay where they were: a thumb that goes for Undo finds it there."""
    game = _session(alice, roster, "sudden-death")
    page = open_table(game, viewport=phone)
    moves: list[str] = []
    _tap_in_place(page, "Ann: Bust", moves)
    _tap_in_place(page, "Ben: Bust", moves)
    expect(page.locator(".finished-banner")).to_contain_text("Winner: Cat")
    expect(page.locator("li.adding-seat button")).to_have_count(0)
    print(f"\n{phone['width']}x{phone['height']}: moved more than {STILL} px: {moves or 'none'}")
    assert not moves, "\n".join(moves)
    if phone["width"] == 360:
        check_a11y(page, "game-over")
    # Undone where it was: the game goes on, and nothing moves either.
    _tap_in_place(page, "Undo the last tap", moves)
    expect(page.get_by_role("button", name="Ben: Bust", exact=True)).to_be_visible()
    assert not moves, "\n".join(moves)


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_the_counter_grid_stays_under_the_finger(
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    phone: dict[str, int],
) -> None:
    """Each card tapped: the grid stays where it was, while what the tap said, the cards of
    the round and the event it proposes come and go around it."""
    game = _session(alice, roster, "thirty-three")
    page = open_table(game, viewport=phone)
    tap_table(page, "Count the cards: total, turn and events")
    grid = page.locator("#counter-cards")
    moved = []
    for card in ("K", "K", "K", "4", "K", "2"):  # 10, 20, 30, 34 (reverse), 44, 88 → 66 crossed
        page.evaluate(
            "g => window.scrollBy({top: g.getBoundingClientRect().top - 200, behavior: 'instant'})",
            grid.element_handle(),
        )
        before = grid.bounding_box()
        assert before is not None
        tap_table(page, card)
        after = grid.bounding_box()
        assert after is not None
        moved.append(abs(after["y"] - before["y"]))
    expect(page.locator(".counter-proposal")).not_to_have_count(0)
    print(f"\n{phone['width']}x{phone['height']}: the card grid moved {moved} px")
    assert max(moved) <= STILL, moved


# Every row in sight: a round is one tap an event, and no swipe

# Rounds as a table plays them: Thirty-Three's pile passes 33, then 66, and someone goes over 99
# (or hits it); Dollar Bill's round is the one bust that ends it.
TYPICAL = {
    "thirty-three": (
        NAMES,
        [
            ["Ben: Hit 33", "Cat: Cross 66", "Ann: Bust"],
            ["Cat: Cross 33", "Ann: Hit 66", "Ben: Hit 99"],
        ],
    ),
    "dollar-bill": (FOUR, [["Cat: Bust"], ["Dan: Bust"], ["Ann: Bust"], ["Dan: Bust"]]),
}
# Each button on the rows that a finger cannot reach where it is now: off screen, or under
# something else (the standings strip) at its centre.
ROWS_OUT_OF_SIGHT = """() => [...document.querySelectorAll("li.adding-seat .event-btn")]
  .filter((button) => {
    const r = button.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && button.contains(hit));
  })
  .map((button) => button.getAttribute("aria-label") || "a place")"""


def _tap_where_it_is(page: Page, name: str) -> int:
    """Tap the button where it is on the screen, as a finger does; if it is out of sight, a
    swipe brings it to the middle of the screen first. Returns the swipes it took (0 or 1)."""
    button = page.get_by_role("button", name=name, exact=True)
    swiped = 0
    if not reachable(button):
        swiped = 1
        button.evaluate("b => b.scrollIntoView({block: 'center', behavior: 'instant'})")
    page.evaluate("document.getElementById('table').dataset.old = 'yes'")
    tap(page, button)
    expect(page.locator("#table:not([data-old])")).to_have_count(1)
    return swiped


@pytest.mark.parametrize("preset", TYPICAL.keys())
def test_a_round_is_a_tap_an_event_with_every_row_in_sight(
    new_page: NewPage, open_table: OpenTable, alice: User, check_a11y: CheckA11y, preset: str
) -> None:
    names, rounds = TYPICAL[preset]
    game = adding_session(alice, new_players(alice, names), ruleset=preset, title="Tonight")
    page = new_page()
    page.add_init_script(COUNT_TAPS)
    open_table(game, page)
    expect(page.locator("li.adding-seat")).to_have_count(len(names))
    page.wait_for_load_state()
    hidden = page.evaluate(ROWS_OUT_OF_SIGHT)
    events = sum(len(played) for played in rounds)
    swiped = sum(_tap_where_it_is(page, name) for played in rounds for name in played)
    tapped = taps(page)
    page.screenshot(path=SCREENSHOTS / f"adding-in-sight-{preset}.png")
    print(
        f"\n{preset}, {len(names)} players, 360x740: {len(rounds)} rounds, {events} events: "
        f"{tapped} taps, {swiped} swipes; out of sight at the start: {hidden or 'none'}"
    )
    assert not hidden, f"out of sight at the start: {hidden}"
    assert (tapped, swiped) == (events, 0)
    expect(page.locator("#round-heading")).to_have_text(f"Round {len(rounds) + 1}")
    assert page.evaluate(ROWS_OUT_OF_SIGHT) == []
    check_a11y(page, preset)


# Correcting a past round: an event given to another player, or made another kind


def _three_rounds(page: Page) -> None:
    """Round 1: Ben busts. Round 2: Cat hits 33, Ann busts. Round 3: Ben hits 33."""
    for name in ("Ben: Bust", "Cat: Hit 33", "Ann: Bust", "Ben: Hit 33"):
        tap_table(page, name)


@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_a_past_round_is_corrected_to_another_player(
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
    phone: dict[str, int],
) -> None:
    game = _session(alice, roster, "thirty-three")
    page = open_table(game, viewport=phone)
    _three_rounds(page)
    expect_strip_as_rows(page, ["5", "6", "8"])
    page.get_by_role("link", name="Correct round 1", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct round 1")

    # First a change the rules refuse: round 2's hit 33 made a hit 99 would end the round
    # before Ann's bust. The reason is beside the form, which keeps what was chosen.
    page.goto(f"/sessions/{game.public_id}/rounds/2/")
    change = page.locator("#change-0")
    expect(change.locator("summary")).to_have_attribute("aria-label", "Change event 1: Cat: Hit 33")
    change.locator("summary").click()
    change.get_by_label("What happened").select_option(label="Hit 99")
    change.get_by_role("button", name="Change event 1", exact=True).click()
    expect(change.locator(".alert-danger")).to_contain_text(
        "The round ended with Cat's hit 99; only an adjustment can follow."
    )
    expect(change.get_by_label("Who")).to_have_value("2")
    expect(change.get_by_label("What happened")).to_have_value("hit:99")
    expect(change.locator(".alert-danger")).to_be_in_viewport()
    if phone["width"] == 360:
        check_a11y(page, "refused")

    # Round 1: "Ben: Bust" was Cat's. One change, and everything after it is worked out again.
    page.goto(f"/sessions/{game.public_id}/rounds/1/")
    change = page.locator("#change-0")
    expect(change.locator("summary")).to_have_attribute("aria-label", "Change event 1: Ben: Bust")
    change.locator("summary").click()
    change.get_by_label("Who").select_option(label="Cat")
    change.get_by_role("button", name="Change event 1", exact=True).click()
    expect(page.locator("#messages [role=status]")).to_have_text(
        [
            "Round 1 corrected.",
            "Event 1: Ben: Bust → Cat: Bust.",
            "Now: Ben 6 tokens → 8 tokens; Cat 8 tokens → 6 tokens.",
        ]
    )
    expect(page.locator("#messages")).to_be_in_viewport()
    expect(page.locator("ol.round-edit-events > li > span")).to_have_text(["Cat: Bust"])
    if phone["width"] == 360:
        check_a11y(page, "corrected")

    # An event added before the one that ended round 1: Ann's hit 33, then Cat's bust.
    page.get_by_label("Who").last.select_option(label="Ann")
    page.get_by_label("What happened").last.select_option(label="Hit 33")
    page.get_by_label("Where in the round").select_option(label="Before event 1: Cat: Bust")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#messages [role=status]").nth(1)).to_have_text(
        "Added as event 1: Ann: Hit 33."
    )
    expect(page.locator("ol.round-edit-events > li > span")).to_have_text(
        ["Ann: Hit 33", "Cat: Bust"]
    )

    page.get_by_role("link", name="← Back to Small phone").click()
    expect_strip_as_rows(page, ["5", "7", "5"])
    page.goto(f"/sessions/{game.public_id}/history/")
    expect(page.locator("main")).to_contain_text("Corrected round 1")


# A correction agreed at the table: its error is said where the field is


BAD_ADJUSTMENTS = {
    "0": "An adjustment of 0 changes nothing; give + or − a number.",
    "": "Say by how many.",
    "100000000000000000000": "Ensure this value is less than or equal to 99.",
    "-500": "Ensure this value is greater than or equal to -99.",
}


@pytest.mark.parametrize("scripts", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("phone", PHONES.values(), ids=PHONES.keys())
def test_an_adjustment_refused_is_said_by_its_field(
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    check_a11y: CheckA11y,
    phone: dict[str, int],
    scripts: bool,
) -> None:
    game = _session(alice, roster, "thirty-three")
    page = open_table(game, viewport=phone, java_script_enabled=scripts)
    tap_table(page, "Ben: Hit 33")
    for typed, error in BAD_ADJUSTMENTS.items():
        adjust = page.locator("#adjust")
        if adjust.get_attribute("open") is None:
            page.get_by_text("A correction agreed at the table", exact=True).click()
        adjust.get_by_label("Who").select_option(label="Cat")
        field = adjust.get_by_label("By how many (+ gives, − takes)")
        field.fill(typed)
        adjust.get_by_role("button", name="Adjust", exact=True).click()
        said = adjust.locator(".invalid-feedback")
        expect(said).to_have_text(error)
        # Where the field is, on the screen, with what was typed and chosen.
        expect(said).to_be_in_viewport()
        expect(field).to_be_in_viewport()
        expect(field).to_have_value(typed)
        expect(adjust.get_by_label("Who")).to_have_value("2")
        if not scripts:
            assert page.url.endswith("#adjust")
    if phone["width"] == 360:
        check_a11y(page, f"adjust-refused-{'js' if scripts else 'plain'}")
    # A good one is said there too, and the rows and the strip follow.
    adjust = page.locator("#adjust")
    adjust.get_by_label("By how many (+ gives, − takes)").fill("-2")
    adjust.get_by_role("button", name="Adjust", exact=True).click()
    expect(adjust.locator(".tap-said [role=status]")).to_have_text("Cat: Adjust -2. Cat -2.")
    expect(adjust.locator(".tap-said [role=status]")).to_be_in_viewport()
    expect_strip_as_rows(page, ["8", "9", "6"])


# The card counter in French: valet, dame, roi


def test_the_counter_names_the_cards_in_french(
    open_table: OpenTable, alice: User, roster: list[Player], check_a11y: CheckA11y
) -> None:
    game = _session(alice, roster, "thirty-three")
    page = open_table(game, locale="fr-FR")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    tap_table(page, "Compter les cartes : total, tour et événements")
    cards = page.locator("#counter-cards button")
    expect(cards).to_have_text(["A…", "2", "3", "4", "5", "6", "7", "8", "9", "10…", "V", "D", "R"])
    tap_table(page, "R")
    expect(page.locator("#counter .counter-total")).to_have_text("Total de la pile : 10")
    expect(page.locator("#counter .tap-said")).to_contain_text("R : le total de la pile est 10.")
    expect(page.locator(".counter-play-card")).to_have_text(["R"])
    tap_table(page, "A (puis choisir)")
    expect(page.locator(".counter-ask legend")).to_have_text("A : la compter pour ?")
    check_a11y(page, "counter-fr")


# The score pad chooses its number of players


@pytest.mark.parametrize("scripts", [True, False], ids=["js", "no-js"])
def test_the_score_pad_chooses_its_players(
    new_page: NewPage, check_a11y: CheckA11y, scripts: bool
) -> None:
    page = new_page(java_script_enabled=scripts)
    page.goto("/rules/adding/thirty-three/pad/?tokens=5")
    names = page.locator(".pad-grid .pad-name")
    expect(names).to_have_count(4)
    page.get_by_label("Players on the pad").select_option("6")
    page.get_by_role("button", name="Show the pad", exact=True).click()
    expect(names).to_have_count(6)
    assert "players=6" in page.url
    assert "tokens=5" in page.url
    expect(page.get_by_label("Players on the pad")).to_have_value("6")
    # Printed: the form is not on the paper, the six players' columns are.
    page.emulate_media(media="print")
    expect(page.locator("form.pad-players")).to_be_hidden()
    expect(page.locator(".pad-grid thead .pad-name-cell")).to_have_count(6)
    expect(page.locator(".pad-grid thead .pad-name-cell").last).to_be_visible()
    page.emulate_media(media="screen")
    check_a11y(page, f"pad-six-{'js' if scripts else 'plain'}")
