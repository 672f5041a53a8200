"""At the table on a phone: a whole Jokerless Ninety-Nine session entered by tapping.

The scorer logs in, adds the players, starts a session, enters nine deals on the keypad (the
tricks, the bid-cards, a bid as a number now and then), "Failed ✗" with the bid kept hidden, a
declare and two reveals; corrects deal 2 from the deal grid; and reads the standings. What
the screen shows is compared with RULES.md §1 worked out here (dealer, leader, trump chain,
a worked example) and with the rules package (every deal's points, totals, ranks, winner).
A second test enters a deal with JavaScript off: numbers typed into the boxes, and bid-cards
tapped with each hand's own buttons, each a form POST that comes back to that hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession
from scorekeeper.rules import trick
from tests.browser.conftest import CheckA11y, NewPage, OpenTable
from tests.browser.journeys import (
    CARDS,
    add_players,
    bid_box,
    enter_hand,
    hand_card,
    log_in_with_form,
    open_start_page,
    ready_to_save,
    save_button,
    seat_players,
    signed,
    start_session,
    tap_cards,
)
from tests.stored import deal_entries

PLAYERS = ["Ann", "Ben", "Cat"]  # in the order they deal: Ann deals first

# RULES.md §1.4 `by-successes`, 3 players: first deal ♦, then by successes 0 ♦, 1 ♠, 2 ♥, 3 ♣.
TRUMP_AFTER = ["♦ Diamonds", "♠ Spades", "♥ Hearts", "♣ Clubs"]
FIRST_TRUMP = "♦ Diamonds"
BONUS = {1: 30, 2: 20, 3: 10}  # RULES.md §1.3, 3 players
PREMIUM = {"declare": 30, "reveal": 60}


@dataclass(frozen=True)
class Hand:
    """One player's hand as the scorer taps it in."""

    tricks: int
    cards: str = ""  # bid-card buttons tapped, as letters: "HSD" is ♥♠♦ = 3
    typed: int | None = None  # bid typed into "or type"
    made: str = ""  # "", "made" or "failed" (the toggle)
    premium: str = ""  # "", "declare" or "reveal"

    def entry(self) -> trick.HandEntry:
        return trick.HandEntry(
            tricks=self.tricks,
            bid=self.typed,
            bid_cards=tuple(CARDS[c].suit for c in self.cards) or None,
            made={"made": True, "failed": False}.get(self.made),
            premium=self.premium or None,
        )

    @property
    def succeeded(self) -> bool:
        """RULES.md §1.1, worked out here: won exactly the bid, or marked so."""
        if self.made:
            return self.made == "made"
        bid = self.typed if self.typed is not None else sum(CARDS[c].value for c in self.cards)
        return bid == self.tricks


Deal = Mapping[str, Hand]

# Nine deals as the table reported them. Successes per deal: 2 2 0 1 3 1 2 1 2, so every
# trump comes up. Deal 1 is RULES.md §1.3's worked example (Ann 84, Ben 5, Cat 20).
DEALS: list[Deal] = [
    {"Ann": Hand(4, "HHD", premium="reveal"), "Ben": Hand(5, made="failed"), "Cat": Hand(0, "DDD")},
    {"Ann": Hand(3, "HSD"), "Ben": Hand(3, typed=2), "Cat": Hand(3, "CDD")},
    {"Ann": Hand(2, "SSS"), "Ben": Hand(4, made="failed"), "Cat": Hand(3, typed=5)},
    {
        "Ann": Hand(1, "SDD", premium="declare"),
        "Ben": Hand(6, made="failed"),
        "Cat": Hand(2, made="failed"),
    },
    {"Ann": Hand(3, made="made"), "Ben": Hand(3, "CDD"), "Cat": Hand(3, typed=3)},
    {
        "Ann": Hand(2, "HDD"),
        "Ben": Hand(5, "CCC", premium="reveal"),
        "Cat": Hand(2, made="failed"),
    },
    {"Ann": Hand(0, "DDD"), "Ben": Hand(9, typed=9), "Cat": Hand(0, made="failed")},
    {"Ann": Hand(4, typed=4), "Ben": Hand(4, made="failed"), "Cat": Hand(1, made="failed")},
    {"Ann": Hand(3, made="failed"), "Ben": Hand(3, "HSD"), "Cat": Hand(3, "CDD")},
]
# The correction: Ben's bid in deal 2 was ♣♦♦ = 3, not a typed 2. He made it, so three
# succeeded in deal 2 and deal 3's trump becomes ♣ instead of ♥.
CORRECTED_BEN = Hand(3, "CDD")


def rules() -> trick.TrickRules:
    return trick.resolve_rules("parlett-jokerless", {}, PLAYERS)


def scored(deals: list[Deal]) -> trick.SessionResult:
    entries = [trick.DealEntry(hands={n: h.entry() for n, h in d.items()}) for d in deals]
    return trick.score_session(rules(), entries)


def scored_by_hand(deals: list[Deal]) -> dict[str, int]:
    """RULES.md §1.3, worked out here without the rules package."""
    totals = dict.fromkeys(PLAYERS, 0)
    for deal in deals:
        made = [name for name, hand in deal.items() if hand.succeeded]
        for name, hand in deal.items():
            totals[name] += hand.tricks + (BONUS[len(made)] if name in made else 0)
            if hand.premium:
                winners = [name] if name in made else [n for n in PLAYERS if n != name]
                for winner in winners:
                    totals[winner] += PREMIUM[hand.premium]
    return totals


def banner(number: int, deals: list[Deal]) -> tuple[str, str, str]:
    """Dealer, leader and trump of deal `number` by RULES.md §1 (seat order Ann, Ben, Cat)."""
    dealer, leader = PLAYERS[(number - 1) % 3], PLAYERS[number % 3]
    if number == 1:
        return dealer, leader, FIRST_TRUMP
    successes = sum(hand.succeeded for hand in deals[number - 2].values())
    return dealer, leader, TRUMP_AFTER[successes]


def expect_banner(page: Page, number: int, deals: list[Deal]) -> None:
    dealer, leader, trump = banner(number, deals)
    section = page.locator("section.next-deal")
    expect(section.get_by_role("heading")).to_have_text(f"Deal {number}")
    expect(section.locator("dd")).to_have_text([dealer, leader, trump])
    expect(hand_card(page, dealer).locator("legend")).to_contain_text("deals")
    expect(hand_card(page, leader).locator("legend")).to_contain_text("leads")


# Fixtures


@pytest.fixture
def page(new_page: NewPage) -> Page:
    """A phone that prefers reduced motion.

    ``check_a11y`` switches the colour mode and runs axe at once; Bootstrap's 0.15 s colour
    transitions on buttons then make axe measure half-way colours (e.g. a checked toggle at
    #676767 on #a6adb4 in dark) and fail at random. Bootstrap turns its transitions off for
    reduced motion, so axe sees the colours the scorer sees once the switch has happened.
    """
    return new_page(reduced_motion="reduce")


# The tests


def test_full_session_by_tapping(page: Page, check_a11y: CheckA11y, alice: User) -> None:
    log_in_with_form(page, alice)
    add_players(page, PLAYERS)
    open_start_page(page, "Jokerless Ninety-Nine")
    check_a11y(page, "start")
    # Round the table: Ann, Ben, Cat; seat 1 deals first, so the deal goes Ann, Ben, Cat
    # (test_first_dealer.py chooses another seat).
    seat_players(page, PLAYERS)
    expect(page.get_by_role("radio", name="Seat 1 deals first")).to_be_checked()
    start_session(page, "Friday at Sam’s")
    status = page.locator("#entry-status")
    messages = page.locator("#messages")

    results = scored(DEALS)
    for number, deal in enumerate(DEALS, start=1):
        expect_banner(page, number, DEALS)
        expect(save_button(page)).to_have_text(f"Save deal {number}")
        for name in PLAYERS:
            enter_hand(page, name, deal[name].entry())
            if number == 1 and name == "Ann":
                # The entry screen, partly filled in: Ann revealed, the others to come.
                expect(status).to_contain_text("Still to do:")
                expect(status).not_to_contain_text("Ann:")  # her taps have all been checked
                expect(hand_card(page, "Ann").locator("output")).to_have_text("♥♥♦=4")
                check_a11y(page, "entry")
        result = results.deals[number - 1]
        expect(status).to_have_text(ready_to_save(result))
        save_button(page).click()
        points = ", ".join(f"{h.player} {signed(h.points)}" for h in result.hands)
        expect(messages).to_contain_text(f"Deal {number} saved.")
        expect(messages).to_contain_text(f"{points}.")
        if number == 1:
            # RULES.md §1.3's worked example, independent of the rules package.
            expect(messages).to_contain_text("Ann +84, Ben +5, Cat +20.")

    # Finished: no entry form, a winner.
    expect(page.locator("#deal-form")).to_have_count(0)
    expect(page.locator(".finished-banner")).to_contain_text("The session is over after 9 deals.")

    # Correct deal 2 from the deal grid.
    page.get_by_role("link", name="Correct deal 2", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct deal 2")
    expect(page.locator("main")).to_contain_text("Ben dealt, Cat led, trump ♥ Hearts.")
    bid = bid_box(page, "Ben")
    expect(bid).to_have_value("2")
    bid.fill("")
    tap_cards(page, "Ben", CORRECTED_BEN.cards)
    corrected = [*DEALS[:1], {**DEALS[1], "Ben": CORRECTED_BEN}, *DEALS[2:]]
    after = scored(corrected)
    expect(status).to_have_text(ready_to_save(after.deals[1]))
    check_a11y(page, "correction")
    save_button(page).click()

    assert after.winners == results.winners  # so no "now won by" line
    changes = ", ".join(
        f"{name} {results.totals[name]} → {after.totals[name]}"
        for name in PLAYERS
        if results.totals[name] != after.totals[name]
    )
    expect(messages.get_by_role("status")).to_have_text(
        [
            "Deal 2 corrected.",
            "Trump changed: deal 3 ♥ Hearts → ♣ Clubs.",
            f"Totals now: {changes}.",
        ]
    )
    grid = page.locator("table.deal-grid tbody tr")
    expect(grid.nth(2).locator("th")).to_contain_text("♣ Clubs")

    # The standings, against the rules package and RULES.md §1.3 worked out by hand.
    assert after.totals == scored_by_hand(corrected)
    assert after.finished
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(3)
    for row, standing in zip(rows.all(), after.standings, strict=True):
        trophy = " 🏆" if standing.player in after.winners else ""
        expect(row.locator("td, th")).to_have_text(
            [str(standing.rank), f"{standing.player}{trophy}", str(standing.total)]
        )
    assert len(after.winners) == 1
    expect(page.locator(".finished-banner")).to_contain_text(f"Winner: {after.winners[0]}")
    # The deal grid: every deal's points and running totals, Ann, Ben, Cat.
    expect(grid).to_have_count(9)
    for row, deal in zip(grid.all(), after.deals, strict=True):
        expect(row.locator(".deal-points")).to_have_text([signed(h.points) for h in deal.hands])
        expect(row.locator(".deal-total")).to_have_text([str(deal.totals[n]) for n in PLAYERS])
    check_a11y(page, "standings")

    # What is stored is what was tapped.
    game = GameSession.objects.get(owner=alice)
    assert deal_entries(game) == [
        trick.DealEntry(hands={n: h.entry() for n, h in d.items()}) for d in corrected
    ]


def test_a_deal_without_javascript(open_table: OpenTable, alice: User, game: GameSession) -> None:
    page = open_table(game, java_script_enabled=False)
    deal = DEALS[0]
    for name in PLAYERS:
        enter_hand(page, name, deal[name].entry())
    # The last tap was a POST too: the server has checked the deal already.
    expect(page.locator("#entry-status")).to_have_text(ready_to_save(scored([deal]).deals[0]))
    save_button(page).click()
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.")
    expect_banner(page, 2, DEALS)
    assert deal_entries(game) == [trick.DealEntry(hands={n: h.entry() for n, h in deal.items()})]
