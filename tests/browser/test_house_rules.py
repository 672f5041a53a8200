"""House rules and saved rulesets on a phone, 360 × 740.

The table saves "Our Friday rules" (Classic Ninety-Nine with the trump named by the declarer
and 18 deals) through the screens, watching the "House rule" mark follow what is chosen; starts
a session from them (first in the list); plays three deals by tapping; prints the ruleset's
cheat sheet and the session's rule sheet; then renames the ruleset and sets the trump back to
turned up, and the session keeps the rules, deals and totals it began with. Without
JavaScript, the start page still marks a house rule (when the form comes back) and starts a
session with it. The start page with a house rule marked is kept as a screenshot, light and
dark, for review.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.rules import trick
from tests.browser.conftest import SCREENSHOTS, CheckA11y, LogIn, NewPage
from tests.browser.journeys import (
    CARDS,
    key_cards,
    key_in,
    nav,
    save_deal,
    seat_player,
    seat_players,
    start_button,
    tricks_box,
    wait_for_keypad,
)
from tests.browser.test_cheatsheets import PAPER, pdf_pages
from tests.stored import deal_entries

NAMES = ["Ann", "Ben", "Cat"]
RULESET = "Our Friday rules"
RENAMED = "Our Saturday rules"
HOUSE = "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals"
OPTIONS = {"trump": "declared", "match": {"type": "deals", "deals": 18}}
# Three deals as the table reported them: each hand's bid-cards and tricks. Nobody declares,
# so under "trump named by the declarer" the first deal is played at no trump and the others
# keep it (RULES.md §1.4): no trump to enter.
DEALS = [
    {"Ann": ("SSS", 3), "Ben": ("HDD", 2), "Cat": ("CSD", 4)},
    {"Ann": ("HSD", 3), "Ben": ("SDD", 5), "Cat": ("HDD", 1)},
    {"Ann": ("DDD", 0), "Ben": ("CCD", 6), "Cat": ("CDD", 3)},
]


@pytest.fixture
def page(new_page: NewPage) -> Page:
    """Reduced motion, so axe measures colours after a mode switch (see test_table.py)."""
    return new_page(reduced_motion="reduce")


def option_row(page: Page, field: str) -> Locator:
    return page.locator(f".option-row[data-field='{field}']")


def house_mark(page: Page, field: str) -> Locator:
    return option_row(page, field).locator(".house-rule-mark")


def marked(page: Page) -> Locator:
    """The option rows that say "House rule" as the page shows it now."""
    return page.locator(".option-row.is-house-rule")


def scored(deals: list[dict[str, tuple[str, int]]]) -> trick.SessionResult:
    rules = trick.resolve_rules("parlett-classic", OPTIONS, NAMES)
    return trick.score_session(rules, [entry(deal) for deal in deals])


def entry(deal: dict[str, tuple[str, int]]) -> trick.DealEntry:
    return trick.DealEntry(
        hands={
            name: trick.HandEntry(tricks, bid_cards=tuple(CARDS[c].suit for c in cards))
            for name, (cards, tricks) in deal.items()
        }
    )


def play_deal(page: Page, deal: dict[str, tuple[str, int]]) -> None:
    """Each hand's bid-cards and tricks on the keypad; the last hand on the form gets the
    tricks left by itself."""
    wait_for_keypad(page)
    order = page.locator("fieldset.hand-card legend.hand-name").all_inner_texts()
    rows = [next(name for name in NAMES if name in legend) for legend in order]
    for position, name in enumerate(rows):
        cards, tricks = deal[name]
        key_cards(page, name, cards)
        if position < len(rows) - 1:
            key_in(page, tricks_box(page, name), tricks)
    last = rows[-1]
    expect(tricks_box(page, last)).to_have_value(str(deal[last][1]))


# 1. Save the ruleset: Rules → Your own rules → Classic.


def save_friday_rules(page: Page, check_a11y: CheckA11y) -> None:
    nav(page, "Rules")
    page.get_by_role("link", name="Your own rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your rules")
    expect(page.get_by_text("You have not saved any rules yet.")).to_be_visible()
    check_a11y(page, "rulesets-none")
    page.get_by_role("link", name=re.compile(r"^Classic Ninety-Nine")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Save your own Classic Ninety-Nine rules"
    )
    # Every option shows the preset's own value; nothing is a house rule yet.
    trump = page.get_by_label("Trump for each deal")
    expect(trump).to_have_value("turn-up")
    expect(marked(page)).to_have_count(0)
    expect(house_mark(page, "trump")).to_be_hidden()

    page.get_by_label("Name of these rules").fill(RULESET)
    trump.select_option(label="Named by the declarer")
    # The mark comes at once, next to the option changed (house-rules.js), and only there.
    expect(house_mark(page, "trump")).to_be_visible()
    expect(house_mark(page, "trump")).to_have_text("House rule")
    expect(marked(page)).to_have_count(1)
    deals = page.get_by_label("Number of deals, target score or games to win")
    expect(deals).to_have_value("9")
    deals.fill("18")
    expect(house_mark(page, "match_number")).to_be_visible()
    expect(marked(page)).to_have_count(2)
    # Changed and changed back: no house rule.
    trick_points = option_row(page, "trick_points")
    trick_points.get_by_label("No", exact=True).check()
    expect(house_mark(page, "trick_points")).to_be_visible()
    trick_points.get_by_label("Yes", exact=True).check()
    expect(house_mark(page, "trick_points")).to_be_hidden()
    expect(marked(page)).to_have_count(2)
    check_a11y(page, "ruleset-form")

    page.get_by_role("button", name="Save these rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(RULESET)
    expect(page.locator("#messages")).to_contain_text(f"Saved “{RULESET}”.")
    expect(page.locator(".rules-house li")).to_have_text(
        ["Trump named by the declarer", "18 deals"]
    )
    check_a11y(page, "ruleset")


# 2. Start a session from it: Sessions → New, where it comes first.


def start_from_friday_rules(page: Page, check_a11y: CheckA11y) -> None:
    nav(page, "Sessions")
    page.get_by_role("link", name="Start a new session").click()
    first = page.locator("ul.preset-list a").first
    expect(first.locator(".preset-name")).to_have_text(RULESET)
    expect(first.locator(".preset-description")).to_have_text(HOUSE)
    check_a11y(page, "session-new")
    first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(RULESET)
    # The saved options are chosen and marked, by the server (before any script runs).
    expect(page.get_by_label("Trump for each deal")).to_have_value("declared")
    expect(page.get_by_label("Number of deals, target score or games to win")).to_have_value("18")
    expect(marked(page)).to_have_count(2)
    expect(house_mark(page, "trump")).to_be_visible()
    seat_players(page, NAMES)
    page.get_by_label("Name (optional)").fill("Friday at Sam’s")
    check_a11y(page, "start-saved")
    start_button(page).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday at Sam’s")
    expect(page.locator(".table-title")).to_contain_text(HOUSE)


def test_save_a_ruleset_start_play_print_and_change_it(
    page: Page, check_a11y: CheckA11y, log_in: LogIn, alice: User, roster: list[Player]
) -> None:
    log_in(page, alice)
    page.goto("/")
    save_friday_rules(page, check_a11y)
    saved = SavedRuleset.objects.get(owner=alice)
    assert (saved.name, saved.family, saved.ruleset, saved.options) == (
        RULESET,
        "trick",
        "parlett-classic",
        OPTIONS,
    )

    start_from_friday_rules(page, check_a11y)
    game = GameSession.objects.get(owner=alice)
    assert (game.ruleset, game.options, game.saved_ruleset_id) == (
        "parlett-classic",
        OPTIONS,
        saved.pk,
    )

    # 3. Three deals by tapping. Nobody declares: no trump, and nothing to enter for it.
    facts = page.locator("section.next-deal")
    expect(facts.get_by_role("heading")).to_have_text("Deal 1")
    expect(facts.locator("dd").last).to_have_text("No trump unless someone declares")
    check_a11y(page, "table")
    results = scored(DEALS)
    # RULES.md §1.3 by hand: tricks, plus 30 / 20 / 10 when one / two / three made their bid.
    # Deal 1: all made (13, 12, 14); deal 2: Ann alone (33, 5, 1); deal 3: all (10, 16, 13).
    assert results.totals == {"Ann": 56, "Ben": 33, "Cat": 28}
    for number, deal in enumerate(DEALS, start=1):
        play_deal(page, deal)
        save_deal(page, number, results)
    expect(facts.get_by_role("heading")).to_have_text("Deal 4")  # of 18: not over
    strip = page.locator("#standings-strip .strip-value")
    totals = [str(results.totals[name]) for name in NAMES]
    expect(strip).to_have_text(totals)
    assert deal_entries(game) == [entry(deal) for deal in DEALS]
    grid = page.locator("table.deal-grid tbody tr")
    expect(grid).to_have_count(3)
    grid_text = grid.all_inner_texts()

    # 4. Print: the ruleset's cheat sheet, from its page, and the session's rule sheet.
    nav(page, "Rules")
    page.get_by_role("link", name="Your own rules").click()
    expect(page.locator(".saved-rulesets .preset-description")).to_have_text([HOUSE])
    check_a11y(page, "rulesets")
    page.get_by_role("link", name=re.compile(RULESET)).click()
    page.get_by_role("link", name="Cheat sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(RULESET)
    print_sheet(page, check_a11y, "ruleset-sheet", f"{HOUSE}.")
    page.get_by_role("link", name=f"Blank score pad for {RULESET}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{RULESET} · score pad")
    expect(page.locator(".rules-house")).to_have_text(
        "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals."
    )
    check_a11y(page, "ruleset-pad")
    page.get_by_role("link", name=f"← {RULESET} rule sheet").click()
    page.get_by_role("link", name=f"← {RULESET}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(RULESET)

    page.goto(f"/sessions/{game.public_id}/")
    page.get_by_role("link", name="The rules at this table (printable)").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday at Sam’s")
    expect(page.locator(".sheet-head")).to_contain_text("Seat order: Ann, Ben, Cat.")
    # The session keeps the saved rules' name beside them.
    print_sheet(page, check_a11y, "session-sheet", f"{RULESET} · {HOUSE}.")
    # Its blank score pad says the house rules too, and prints on one page.
    page.get_by_role("link", name="Blank score pad for Classic Ninety-Nine").click()
    expect(page.locator(".rules-house")).to_have_text(
        "House rules: trump named by the declarer; 18 deals."
    )
    check_a11y(page, "session-pad")
    for paper in PAPER:
        assert pdf_pages(page.pdf(format=paper, prefer_css_page_size=False)) == 1, paper

    # 5. Change the saved ruleset: a new name, and the trump turned up again.
    page.goto(f"/rulesets/{saved.pk}/")
    expect(page.get_by_text("1 session started from these rules")).to_be_visible()
    page.get_by_role("link", name="Rename or change").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Change “{RULESET}”")
    expect(marked(page)).to_have_count(2)
    page.get_by_label("Name of these rules").fill(RENAMED)
    page.get_by_label("Trump for each deal").select_option("turn-up")
    expect(house_mark(page, "trump")).to_be_hidden()
    expect(marked(page)).to_have_count(1)
    check_a11y(page, "ruleset-change")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(RENAMED)
    expect(page.locator("#messages")).to_contain_text(
        "Sessions already started keep the rules they began with."
    )
    expect(page.locator(".rules-house li")).to_have_text(["18 deals"])
    saved.refresh_from_db()
    assert (saved.name, saved.options) == (RENAMED, {"match": {"type": "deals", "deals": 18}})

    # The session is as it was: its rules, its deals, its totals.
    page.goto(f"/sessions/{game.public_id}/")
    expect(page.locator(".table-title")).to_contain_text(f"{RULESET} · {HOUSE}")
    expect(strip).to_have_text(totals)
    expect(facts).to_contain_text("No trump unless someone declares")
    expect(grid).to_have_count(3)
    assert grid.all_inner_texts() == grid_text
    page.get_by_role("link", name="The rules at this table (printable)").click()
    expect(page.locator(".rules-house")).to_have_text(f"{RULESET} · {HOUSE}.")
    game.refresh_from_db()
    assert game.options == OPTIONS
    assert deal_entries(game) == [entry(deal) for deal in DEALS]

    # The past-sessions filter finds it under the saved rules' new name.
    nav(page, "Sessions")
    page.get_by_text("Search and filter").click()
    page.get_by_label("Rules").select_option(label=f"{RENAMED} (your rules)")
    page.get_by_role("button", name="Show sessions").click()
    expect(page.locator(".session-title")).to_have_text(["Friday at Sam’s"])


def print_sheet(page: Page, check_a11y: CheckA11y, name: str, rules: str) -> None:
    """The sheet says the rules as played, once (`rules`); its Print button prints; on paper
    it is one page of the sheet alone."""
    head = page.locator(".sheet-head")
    expect(head).to_contain_text("Classic Ninety-Nine")
    said = head.inner_text()
    assert said.count("18 deals") == 1 and "9 deals" not in said.replace("18 deals", "")
    expect(head.locator(".rules-house")).to_have_text(rules)
    check_a11y(page, name)
    # The browser's print dialog, counted instead of opened.
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    button = page.get_by_role("button", name="Print this sheet")
    expect(button).to_be_visible()
    button.click()
    assert page.evaluate("window.printed") == 1
    page.emulate_media(media="print")
    try:
        expect(page.locator(".sheet-head .rules-house")).to_be_visible()
        expect(button).to_be_hidden()  # only the sheet goes on paper
        expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    finally:
        page.emulate_media(media="null")  # not "screen": that would print as on screen too
    for paper in PAPER:
        pages = pdf_pages(page.pdf(format=paper, prefer_css_page_size=False))
        assert pages == 1, f"{page.url} prints on {pages} {paper} pages"


# The start page itself: a house rule marked, light and dark; and without JavaScript.


def test_the_start_page_marks_a_house_rule_light_and_dark(
    page: Page, check_a11y: CheckA11y, log_in: LogIn, alice: User, roster: list[Player]
) -> None:
    log_in(page, alice)
    page.goto("/sessions/new/trick/parlett-classic/")
    expect(marked(page)).to_have_count(0)
    page.get_by_label("Trump for each deal").select_option("declared")
    zero = option_row(page, "zero_all_tricks")
    zero.get_by_label("Yes", exact=True).check()
    expect(marked(page)).to_have_count(2)
    # Each Yes / No is a whole row to tap, and its mark sits beside the option's name.
    for choice in zero.locator(".form-check").all():
        box = choice.bounding_box()
        assert box is not None and box["height"] >= 44, box
    mark = house_mark(page, "zero_all_tricks").bounding_box()
    legend = zero.locator("legend").bounding_box()
    assert mark is not None and legend is not None
    assert mark["y"] < legend["y"] + legend["height"], "the mark is below the option's name"
    assert mark["x"] + mark["width"] <= 360
    check_a11y(page, "start")
    option_row(page, "trump").scroll_into_view_if_needed()
    for mode in ("light", "dark"):
        page.emulate_media(color_scheme=mode)
        expect(page.locator("html")).to_have_attribute("data-bs-theme", mode)
        page.screenshot(path=SCREENSHOTS / f"house-rules-start-{mode}.png", full_page=True)
    page.emulate_media(color_scheme="light")


def test_without_javascript_a_house_rule_starts_the_session(
    new_page: NewPage, check_a11y: CheckA11y, log_in: LogIn, alice: User, roster: list[Player]
) -> None:
    page = new_page(java_script_enabled=False)
    log_in(page, alice)
    page.goto("/sessions/new/trick/parlett-classic/")
    page.get_by_label("Trump for each deal").select_option("declared")
    expect(house_mark(page, "trump")).to_be_hidden()  # no script to mark it yet
    seat_players(page, NAMES[:2])  # one seat short: the form comes back
    start_button(page).click()
    expect(page.get_by_text("Choose who sits in seat 3.")).to_be_visible()
    # Nothing chosen is lost, and now the server marks the house rule.
    expect(page.get_by_label("Trump for each deal")).to_have_value("declared")
    expect(house_mark(page, "trump")).to_be_visible()
    expect(marked(page)).to_have_count(1)
    check_a11y(page, "start-again")
    seat_player(page, 3, "Cat")
    start_button(page).click()
    expect(page.locator(".table-title")).to_contain_text(
        "Classic Ninety-Nine, house rules: trump named by the declarer · 9 deals"
    )
    game = GameSession.objects.get(owner=alice)
    assert (game.ruleset, game.options) == ("parlett-classic", {"trump": "declared"})
    # The form's error answered 400 (expected here).
    problems: list[str] = page.problems  # type: ignore[attr-defined]
    assert all("400" in problem for problem in problems)
    problems.clear()
