"""A club night played as a club plays it: nine players, three tables of Jokerless Ninety-Nine,
four rounds of two deals, ranked by placement points.

The organiser's phone plans the night and seats each round. Each table has a scorer phone that
opens its table card's link (`/t/<token>/`): it types a name once, in round 1, and lands on the
new round's session by the same link every round after. A big screen (1920×1080) shows the
room's leaderboard and follows every save within a few seconds. At the end the organiser ends
the night, and the final standings are checked against the placement points worked out here by
hand from the deals entered; every pair of the nine players met exactly once.

The deals are chosen so that the outcome is easy to follow. The players are listed strongest
first (`PLAYERS`). At every table, deal 1 goes to the weakest player (the places are the strength
order reversed) and deal 2 swings it back: after both, the strongest is first, the next second,
the weakest third. So a table's placement points (3, 1, 0 at a table of three) depend only on
how many of its deals are saved: none (a three-way tie: 4/3 each), one (reversed) or both.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import Change, GameSession
from scorekeeper.night_models import Night
from scorekeeper.rules import trick
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.browser.journeys import enter_hand, preset_link, save_button, wait_for_keypad
from tests.browser.test_cheatsheets import PAPER, pdf_pages
from tests.stored import deal_entries

PLAYERS = ["Ada", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]  # strongest first
NIGHT = "Thursday club"
ROUNDS, DEALS, TABLES = 4, 2, 3
PRESET = "Jokerless Ninety-Nine"
DISPLAY: dict[str, Any] = {
    "viewport": {"width": 1920, "height": 1080},
    "device_scale_factor": 1,
    "is_mobile": False,
    "has_touch": False,
}
FOLLOW = 5_000  # ms: the leaderboard polls every second
SHOTS = Path("/tmp")

# (tricks, bid) of the strongest, the middle and the weakest player at a table, per deal: 9
# tricks a deal. Deal 1: the weakest makes 5, the middle makes 3, the strongest fails a bid of
# 0 (25, 23, 1). Deal 2: the strongest alone makes 6, the middle fails a bid of 2 with 3 tricks,
# the weakest fails a bid of 1 with none (totals 37, 26, 25).
SHAPES = [
    ((1, 0), (3, 3), (5, 5)),
    ((6, 6), (3, 2), (0, 1)),
]


def strongest_first(names: list[str] | tuple[str, ...]) -> list[str]:
    return sorted(names, key=PLAYERS.index)


def deal_for(table: list[str], number: int) -> trick.DealEntry:
    """Deal `number` (1-based) of a table, by its players' strength."""
    hands = {
        name: trick.HandEntry(tricks=tricks, bid=bid)
        for name, (tricks, bid) in zip(strongest_first(table), SHAPES[number - 1], strict=True)
    }
    return trick.DealEntry(hands=hands)


def test_the_deals_rank_each_table_as_planned() -> None:
    """The test's own premise, checked once against the rules: deal 1 ranks a table weakest
    first, deals 1 and 2 strongest first, with no tie."""
    table = ["Cal", "Ada", "Hal"]
    rules = trick.resolve_rules(
        "parlett-jokerless", {"match": {"type": "deals", "deals": DEALS}}, table
    )
    after_one = trick.score_session(rules, [deal_for(table, 1)])
    after_two = trick.score_session(rules, [deal_for(table, 1), deal_for(table, 2)])
    assert [s.player for s in after_one.standings] == ["Hal", "Cal", "Ada"]
    assert [s.rank for s in after_one.standings] == [1, 2, 3]
    assert [s.player for s in after_two.standings] == ["Ada", "Cal", "Hal"]
    assert [s.rank for s in after_two.standings] == [1, 2, 3]
    assert after_two.finished


# The leaderboard worked out by hand


def table_points(table: list[str], saved: int) -> dict[str, Fraction]:
    """Placement points at a table of three with `saved` deals: 3, 1, 0 by place; before any
    deal nothing (a table with nothing played gives no places)."""
    if saved == 0:
        return dict.fromkeys(table, Fraction(0))
    order = strongest_first(table)
    if saved == 1:
        order.reverse()
    return dict(zip(order, map(Fraction, (3, 1, 0)), strict=True))


def standings(seatings: list[list[list[str]]], saved: dict[tuple[int, int], int]) -> dict[str, str]:
    """Each player's score as the page shows it, from every table seated so far."""
    scores = dict.fromkeys(PLAYERS, Fraction(0))
    for round_number, tables in enumerate(seatings, start=1):
        for table_number, table in enumerate(tables, start=1):
            for name, points in table_points(table, saved[round_number, table_number]).items():
                scores[name] += points
    return {name: shown(score) for name, score in scores.items()}


def shown(value: Fraction) -> str:
    """A score as the leaderboard writes it: "4", "4.33", "0.67"."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")


def final_rows(seatings: list[list[list[str]]]) -> list[tuple[str, str, str, str]]:
    """The final leaderboard, (place, player, points, rounds), by hand: placement points, then
    first places (equal on both is equal on the raw points too: every table scores 37, 26, 25
    by place), equals sharing a place written "=2"."""
    points: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    for tables in seatings:
        for table in tables:
            order = strongest_first(table)
            points[order[0]] += 3
            points[order[1]] += 1
            firsts[order[0]] += 1
    key = {name: (points[name], firsts[name]) for name in PLAYERS}
    ordered = sorted(PLAYERS, key=lambda name: key[name], reverse=True)
    rows = []
    for name in ordered:
        place = 1 + sum(1 for other in PLAYERS if key[other] > key[name])
        tied = sum(1 for other in PLAYERS if key[other] == key[name]) > 1
        rows.append((f"={place}" if tied else str(place), name, str(points[name]), str(ROUNDS)))
    return rows


# Reading the leaderboard


def board_rows(page: Page) -> list[tuple[str, ...]]:
    """The leaderboard's rows: place, player, score, rounds, and the prize under the name."""
    rows: list[list[str]] = page.locator("#live table.night-standings tbody tr").evaluate_all(
        """rows => rows.map(row => [
            row.cells[0].textContent.trim(),
            row.cells[1].firstChild.textContent.trim(),
            row.cells[2].textContent.trim(),
            row.cells[3].textContent.trim(),
            row.cells[1].querySelector('.night-prize')?.textContent.trim() ?? '',
        ])"""
    )
    return [tuple(row) for row in rows]


def expect_all_in_sight(page: Page) -> None:
    """The big screen shows every player and the round's tables without scrolling."""
    hidden = page.evaluate(
        """() => [...document.querySelectorAll('#live tbody tr, #live .night-table')]
            .filter(el => el.getBoundingClientRect().bottom > innerHeight
                || el.getBoundingClientRect().right > innerWidth)
            .map(el => el.textContent.trim().replace(/\\s+/g, ' '))"""
    )
    assert not hidden, f"Below or beside the big screen at {page.viewport_size}: {hidden}"


def expect_board(page: Page, scores: dict[str, str], table: int, progress: str) -> None:
    """The live region shows these scores (best first) and this table's progress, within
    FOLLOW ms of the save: the page follows by polling, with no reload."""
    try:
        page.wait_for_function(
            """([scores, table, progress]) => {
                const rows = [...document.querySelectorAll('#live table.night-standings tbody tr')];
                const shown = Object.fromEntries(rows.map(row => [
                    row.querySelector('th').firstChild.textContent.trim(),
                    row.querySelector('td.fw-semibold').textContent.trim()]));
                const values = rows.map(
                    row => Number(row.querySelector('td.fw-semibold').textContent));
                const ordered = values.every((value, i) => i === 0 || values[i - 1] >= value);
                const item = document.querySelectorAll('#live .night-table')[table - 1];
                return ordered && rows.length === Object.keys(scores).length
                    && Object.entries(scores).every(([name, score]) => shown[name] === score)
                    && item !== undefined
                    && item.querySelector('.night-progress').textContent.trim() === progress;
            }""",
            arg=[scores, table, progress],
            timeout=FOLLOW,
        )
    except Exception as error:
        progresses = page.locator("#live .night-table").all_inner_texts()
        raise AssertionError(
            f"{page.url} did not follow within {FOLLOW} ms.\nExpected {scores}, table {table}: "
            f"{progress}.\nShown: {board_rows(page)}\n{progresses}"
        ) from error


# The phones


def scorer_opens_card(page: Page, url: str, session: GameSession, first: bool, name: str) -> None:
    """A table's phone opens its card's link: the round's session, its name asked once."""
    page.goto(url)
    expect(page).to_have_url(re.compile(rf"/s/{session.scorer_token}/"))
    name_box = page.get_by_label("Your name")
    if first:
        name_box.fill(name)
        page.get_by_role("button", name="Start scoring").click()
    else:
        expect(name_box).to_have_count(0)
    wait_for_keypad(page)
    expect(save_button(page)).to_have_text("Save deal 1")


def enter_and_save(page: Page, deal: trick.DealEntry, number: int) -> None:
    for name, hand in deal.hands.items():
        enter_hand(page, name, hand)
    expect(page.locator("#entry-status")).to_contain_text("Ready to save")
    save_button(page).click()
    expect(page.locator("#messages")).to_contain_text(f"Deal {number} saved.")


def tables_of_round(night: Night, number: int) -> list[GameSession]:
    return list(
        GameSession.objects.filter(night=night, night_round=number)
        .with_seats()
        .order_by("night_table")
    )


def link_of(page: Page, name: str) -> str:
    href = page.get_by_role("link", name=name).get_attribute("href")
    assert href, f"No link {name!r} on {page.url}"
    return href


def plan_the_night(page: Page, check_a11y: CheckA11y) -> None:
    page.goto("/nights/")
    page.get_by_role("link", name="Plan a new night").click()
    preset_link(page, PRESET).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Plan a new night")
    check_a11y(page, "plan-form")
    page.get_by_label("Name of the night").fill(NIGHT)
    page.get_by_label("Deals at each table in a round").fill(str(DEALS))
    page.get_by_label("Rounds").fill(str(ROUNDS))
    page.get_by_label(re.compile(r"^\s*Placement points:")).check()
    page.get_by_label("New players, one a line").fill("\n".join(PLAYERS))
    page.get_by_label("Prizes, one a line").fill("A bottle of wine\nA box of chocolates")
    page.get_by_role("button", name="Plan the night").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(NIGHT)
    expect(page.locator("#messages")).to_contain_text("The night is ready")


def print_cards(page: Page, check_a11y: CheckA11y) -> list[str]:
    """The cards page: a card with a QR code for each table, each card's link; three cards
    print on one page of A4 and of Letter."""
    page.get_by_role("link", name="Table cards to print (QR codes)").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table cards")
    cards = page.locator("section.table-card")
    expect(cards).to_have_count(TABLES)
    expect(page.locator(".table-card-qr svg")).to_have_count(TABLES)
    check_a11y(page, "cards")
    for paper in PAPER:
        pdf = page.pdf(format=paper, prefer_css_page_size=False)
        assert pdf_pages(pdf) == 1, f"{TABLES} cards print on {pdf_pages(pdf)} {paper} pages"
    urls = page.locator(".table-card-url").all_inner_texts()
    assert all(re.search(r"/t/[^/]+/$", url) for url in urls), urls
    page.go_back()
    return urls


# The night


def test_a_club_night_of_nine_players_at_three_tables(
    new_page: NewPage, log_in: LogIn, check_a11y: CheckA11y, alice: User
) -> None:
    organiser = new_page()
    log_in(organiser, alice)
    plan_the_night(organiser, check_a11y)
    night = Night.objects.get(owner=alice)
    assert (night.rounds, night.deals, night.method) == (ROUNDS, DEALS, "placement")
    check_a11y(organiser, "organiser-before-round-1")
    # No cards before round 1 says how many tables there are, and nothing to print.
    organiser.get_by_role("link", name="Table cards to print (QR codes)").click()
    expect(organiser.get_by_role("status")).to_contain_text("The cards are ready once round 1")
    expect(organiser.get_by_role("button", name="Print the cards")).to_have_count(0)
    organiser.go_back()

    display_url = link_of(organiser, "Big-screen leaderboard")
    watch_url = link_of(organiser, "The night's link for every phone")
    assert display_url == f"/n/{night.watch_token}/display/"
    assert watch_url == f"/n/{night.watch_token}/"
    display = new_page(**DISPLAY)
    display.goto(display_url)
    expect(display.get_by_role("heading", level=1)).to_have_text(NIGHT)

    scorers = [new_page() for _ in range(TABLES)]
    seatings: list[list[list[str]]] = []
    saved: dict[tuple[int, int], int] = {}
    cards: list[str] = []
    for round_number in range(1, ROUNDS + 1):
        organiser.get_by_role("button", name=f"Seat round {round_number}").click()
        expect(organiser.locator("#messages")).to_contain_text(f"Round {round_number} is seated.")
        sessions = tables_of_round(night, round_number)
        tables = [list(session.player_names()) for session in sessions]
        assert len(tables) == TABLES and all(len(table) == 3 for table in tables), tables
        seatings.append(tables)
        saved.update({(round_number, number): 0 for number in range(1, TABLES + 1)})
        expect_board(display, standings(seatings, saved), TABLES, f"Deal 1 of {DEALS}")
        if round_number == 1:
            check_a11y(organiser, "organiser-round-1")
            organiser.screenshot(path=SHOTS / "nights-organiser.png")
            cards = print_cards(organiser, check_a11y)
        first = round_number == 1
        for number, (phone, session) in enumerate(zip(scorers, sessions, strict=True), start=1):
            scorer_opens_card(phone, cards[number - 1], session, first, f"Table {number}")

        for deal_number in range(1, DEALS + 1):
            for number, (phone, table) in enumerate(zip(scorers, tables, strict=True), start=1):
                enter_and_save(phone, deal_for(table, deal_number), deal_number)
                saved[round_number, number] = deal_number
                last = deal_number == DEALS
                progress = "Finished" if last else f"Deal {deal_number + 1} of {DEALS}"
                expect_board(display, standings(seatings, saved), number, progress)

        if round_number == 2:
            expect_all_in_sight(display)
            display.screenshot(path=SHOTS / "nights-display.png")
            check_a11y(display, "display")
            watcher = new_page()
            watcher.goto(watch_url)
            expect(watcher.get_by_role("heading", level=1)).to_have_text(NIGHT)
            watcher.screenshot(path=SHOTS / "nights-watch.png")
            check_a11y(watcher, "watch")
            watcher.context.close()
        organiser.reload()

    organiser.get_by_role("button", name="End the night: final standings").click()
    expect(organiser.locator("#messages")).to_contain_text("The night is over")
    # The night is over: its tables' scorer links open nothing, and each table's phone says so
    # (its live region's last ask answered 404, which the browser logs).
    for scorer in scorers:
        expect(scorer.get_by_text("This link no longer works.")).to_be_visible(timeout=FOLLOW)
        scorer.problems[:] = [  # type: ignore[attr-defined]
            problem
            for problem in scorer.problems  # type: ignore[attr-defined]
            if "404" not in problem
        ]
    expected = final_rows(seatings)
    rows = board_rows(organiser)
    # Equals share a place and may come in any order among themselves.
    assert sorted(row[:4] for row in rows) == sorted(expected)
    assert [row[0] for row in rows] == [row[0] for row in expected]
    prizes = {row[1]: row[4] for row in rows if row[4]}
    assert prizes == {expected[0][1]: "A bottle of wine", expected[1][1]: "A box of chocolates"}
    check_a11y(organiser, "organiser-final")
    expect(display.locator("#live h2").first).to_have_text("Final standings", timeout=FOLLOW)
    assert board_rows(display) == rows
    expect_all_in_sight(display)
    organiser.screenshot(path=SHOTS / "nights-organiser-final.png", full_page=True)
    display.screenshot(path=SHOTS / "nights-display-final.png")
    organiser.get_by_role("link", name="Round sheet and results to print").click()
    expect(organiser.locator("table.night-round-table")).to_have_count(ROUNDS)
    check_a11y(organiser, "sheet")

    # Every pair of the nine met exactly once, at the tables the sessions stored.
    met = Counter(
        frozenset(pair)
        for session in GameSession.objects.filter(night=night).with_seats()
        for pair in combinations(session.player_names(), 2)
    )
    assert len(met) == len(PLAYERS) * (len(PLAYERS) - 1) // 2
    assert set(met.values()) == {1}
    assert GameSession.objects.filter(night=night, finished=True).count() == ROUNDS * TABLES
    # Each table's deals stored as keyed, under the name its phone typed once, in round 1.
    for session in GameSession.objects.filter(night=night).with_seats():
        table = list(session.player_names())
        assert deal_entries(session) == [deal_for(table, 1), deal_for(table, 2)]
        changes = Change.objects.filter(session=session, number__isnull=False)
        assert set(changes.values_list("by_name", flat=True)) == {
            f"Table {session.night_table} (scorer link)"
        }
