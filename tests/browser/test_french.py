"""A trick-game deal and an adding-game round played in French at the phone viewport, with
axe passing.

The phone asks for French (its browser's language, `Accept-Language`), so no step names a
button by its English words: the steps find what they tap by ids, names and data attributes,
and check that what the table reads is French. Needs the compiled catalogue (scripts/_setup.sh
compiles it); skipped without it.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import Player
from scorekeeper.rules import adding, trick
from tests.browser.conftest import CheckA11y, OpenTable
from tests.browser.journeys import save_button
from tests.factories import adding_session, trick_session
from tests.french import needs_french
from tests.stored import deal_entries, round_entries

pytestmark = needs_french

FRENCH_PHONE = {"locale": "fr-FR"}


def in_french(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#language-choice")).to_have_value("fr")


def keypad_in(page: Page, box: str, keys: str) -> None:
    """The cursor on a box, then the keypad's keys (digits, or bid-card letters D S H C)."""
    page.locator(box).click()
    for key in keys:
        page.locator(f'#keypad button[data-key="{key}"]').click()


def test_a_trick_game_deal_in_french(
    open_table: OpenTable,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
) -> None:
    game = trick_session(alice, roster, title="Jeudi")
    page = open_table(game, **FRENCH_PHONE)
    in_french(page)
    expect(page.locator("#next-deal-heading")).to_contain_text("Donne 1")
    check_a11y(page, "fr-deal-1")
    expect(page.locator("html")).to_have_attribute("data-deal-entry", "ready")
    # Ann bids ♥♠♦ = 3 and makes it, Ben types a bid of 2 and takes 3, Cat bids ♣♦♦ = 3.
    for index, (tricks, bid) in enumerate([("3", "HSD"), ("3", "2"), ("3", "CDD")]):
        keypad_in(page, f"#id_h{index}-tricks", tricks)
        keypad_in(page, f"#id_h{index}-bid", bid)
    save_button(page).click()
    expect(page.locator("#next-deal-heading")).to_contain_text("Donne 2")
    in_french(page)
    check_a11y(page, "fr-deal-2")
    assert deal_entries(game) == [
        trick.DealEntry(
            hands={
                "Ann": trick.HandEntry(tricks=3, bid_cards=("hearts", "spades", "diamonds")),
                "Ben": trick.HandEntry(tricks=3, bid=2),
                "Cat": trick.HandEntry(tricks=3, bid_cards=("clubs", "diamonds", "diamonds")),
            }
        )
    ]


def test_an_adding_game_round_in_french(
    open_table: OpenTable,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
) -> None:
    game = adding_session(alice, roster, title="Vendredi")
    page = open_table(game, **FRENCH_PHONE)
    in_french(page)
    expect(page.locator("#round-heading")).to_contain_text("Manche 1")
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(["9 jetons"] * 3)
    check_a11y(page, "fr-round-1")
    # Ben hits 33, Cat hits 66, Ann hits 99: the round is over (7, 6, 6 tokens).
    for tap in ("#tap-1hit33", "#tap-2hit66", "#tap-0hit99"):
        with page.expect_response(lambda response: response.request.method == "POST"):
            page.locator(tap).click()
        page.wait_for_load_state()
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        ["7 jetons", "6 jetons", "6 jetons"]
    )
    expect(page.locator("#round-heading")).to_contain_text("Manche 2")
    in_french(page)
    check_a11y(page, "fr-round-2")
    assert round_entries(game) == [
        adding.RoundEntry(
            (
                adding.Event("Ben", "hit", 33),
                adding.Event("Cat", "hit", 66),
                adding.Event("Ann", "hit", 99),
            )
        )
    ]
