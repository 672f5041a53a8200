"""At the table on a 360 × 740 phone: a deal in as few taps as a paper pad, everything a
scorer needs on one screen, and the bugs a new user hit that only a browser shows.

Taps are counted by the page itself: every trusted pointerdown, so a tap on a label and the
click it passes to its radio count once; swipes too (every finger move or wheel turn that
scrolls by hand). A test taps where a button is on the screen at that moment, as a finger does,
so a button under the keypad or off screen fails it. A typical Classic deal (the trump turned
up, tricks 3/2/4, bid-cards for everyone, no premium) takes 13 taps with Save and no swipe, and
a four-player deal 16; the page brings the hands between the standings strip and the keypad by
itself. Every hand's Bid and Tricks box is in sight (`elementFromPoint` at its centre finds it)
at the start of a deal, after a save and after a correction, with 3, 4 and 5 hands, on a
360 × 740 and a 375 × 667 phone.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import Player
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session
from tests.browser.conftest import SCREENSHOTS, CheckA11y, LogIn, NewPage, OpenTable
from tests.browser.journeys import (
    CARDS,
    COUNT_TAPS,
    bid_box,
    expect_every_hand_in_sight,
    hand_card,
    key,
    key_cards,
    key_in,
    keypad,
    reachable,
    save_button,
    swipes,
    tap,
    taps,
    tricks_box,
    wait_for_keypad,
)
from tests.french import needs_french
from tests.stored import deal_entries

NAMES = ["Ann", "Ben", "Cat", "Dan"]
HEIGHT = 740  # the phone's screen (conftest.PHONE)
WORKED_OUT = re.compile(r"\bslot-worked-out\b")  # the tricks left, not typed
PHONES = {"360x740": {"width": 360, "height": 740}, "375x667": {"width": 375, "height": 667}}


@pytest.fixture
def roster_names() -> list[str]:
    """Four players: a deal of three (the first three) or of four."""
    return NAMES


@pytest.fixture
def page(new_page: NewPage) -> Page:
    page = new_page(reduced_motion="reduce")
    page.add_init_script(COUNT_TAPS)
    return page


def on_screen(locator: Locator) -> bool:
    """Wholly inside the phone's screen as it is now (no scrolling)."""
    box = locator.bounding_box()
    height = locator.page.viewport_size["height"] if locator.page.viewport_size else HEIGHT
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def tap_key(page: Page, name: str) -> None:
    tap(page, keypad(page).get_by_role("button", name=name, exact=True))


def expect_in_sight(page: Page, players: list[str]) -> None:
    assert swipes(page) == 0
    expect_every_hand_in_sight(page, "In sight")
    cells = page.locator("#standings-strip .strip-cell")
    expect(cells).to_have_count(len(players))
    for cell, name in zip(cells.all(), players, strict=True):
        expect(cell.locator(".strip-name")).to_have_text(name)
        assert on_screen(cell), f"{name}'s standing is off screen"
    assert on_screen(save_button(page)), "Save is off screen"


def play(page: Page, hands: list[tuple[str, str, int]]) -> None:
    """Each hand in seat order: its bid-cards on the keypad, then its tricks, except the last
    hand's, which are the tricks left. Every hand stays in sight after every tap."""
    for position, (name, cards, tricks) in enumerate(hands):
        for letter in cards:
            tap_key(page, CARDS[letter].key)
            expect_every_hand_in_sight(page, f"{name}'s bid-cards")
        if position < len(hands) - 1:
            tap_key(page, str(tricks))
            expect_every_hand_in_sight(page, f"{name}'s tricks")


def entry(hands: list[tuple[str, str, int]]) -> trick.DealEntry:
    return trick.DealEntry(
        hands={
            name: trick.HandEntry(tricks, bid_cards=tuple(CARDS[c].suit for c in cards))
            for name, cards, tricks in hands
        }
    )


def test_a_classic_deal_takes_13_taps_on_one_screen(
    page: Page, open_table: OpenTable, check_a11y: CheckA11y, alice: User, roster: list[Player]
) -> None:
    game = create_session(
        owner=alice, ruleset="parlett-classic", options={}, players=roster[:3], title="Classic"
    )
    open_table(game, page)
    wait_for_keypad(page)
    expect_in_sight(page, NAMES[:3])
    page.screenshot(path=SCREENSHOTS / "at-the-table-classic-before.png")
    scrolled = page.evaluate("window.scrollY")
    check_a11y(page, "classic-entry")
    page.evaluate("y => { window.scrollTo(0, y); window.taps = 0; }", scrolled)

    hands = [("Ann", "SSS", 3), ("Ben", "HDD", 2), ("Cat", "CSD", 4)]
    tap(page, page.get_by_text("♥ Hearts", exact=True).locator(".."))  # the trump turned up
    play(page, hands)
    expect(tricks_box(page, "Cat")).to_have_value("4")  # the tricks left
    expect(page.locator("#entry-status")).to_have_text(
        "Ready to save: Ann +13 ✓ · Ben +12 ✓ · Cat +14 ✓"
    )
    expect_in_sight(page, NAMES[:3])  # no swipe on the way
    before_save, swiped = taps(page), swipes(page)
    tap(page, save_button(page))
    print(
        f"\nA three-player Classic deal: {before_save + 1} taps with Save, {swiped} swipes "
        "(goal: 13 at most, no swipe)"
    )
    assert before_save + 1 <= 13, f"{before_save + 1} taps"
    assert before_save + 1 == 13
    assert swiped == 0

    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.")
    expect(page.locator("#standings-strip .strip-value")).to_have_text(["13", "12", "14"])
    expect(page.locator("#standings-strip .strip-change")).to_have_text(["+13", "+12", "+14"])
    expect_in_sight(page, NAMES[:3])
    page.screenshot(path=SCREENSHOTS / "at-the-table-classic-after.png")
    check_a11y(page, "classic-saved")
    assert deal_entries(game) == [
        trick.DealEntry(hands=entry(hands).hands, trump="hearts"),
    ]


def test_a_four_player_deal_takes_16_taps(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="four", options={}, players=roster, title="Four")
    open_table(game, page)
    wait_for_keypad(page)
    expect_in_sight(page, NAMES)
    page.evaluate("window.taps = 0")
    # Ten tricks a deal: a "1" could start "10", so the next card moves on by itself.
    hands = [("Ann", "SDD", 1), ("Ben", "HDD", 2), ("Cat", "CSD", 4), ("Dan", "SHD", 3)]
    play(page, hands)
    expect(tricks_box(page, "Dan")).to_have_value("3")
    expect(page.locator("#entry-status")).to_contain_text("Ready to save:")
    expect_in_sight(page, NAMES)  # no swipe on the way
    before_save, swiped = taps(page), swipes(page)
    tap(page, save_button(page))
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.")
    print(
        f"\nA four-player deal: {before_save + 1} taps with Save, {swiped} swipes "
        "(goal: 16 at most, no swipe)"
    )
    assert before_save + 1 == 16, f"{before_save + 1} taps"
    assert swiped == 0
    expect_in_sight(page, NAMES)
    assert deal_entries(game) == [entry(hands)]


# A deal for each size of table: bid-cards and tricks per hand (the last hand's tricks are the
# tricks left), and whether its trump is turned up at the table.
TABLES = {
    "parlett-classic": [("Ann", "SSS", 3), ("Ben", "HDD", 2), ("Cat", "CSD", 4)],
    "four": [("Ann", "SDD", 1), ("Ben", "HDD", 2), ("Cat", "CSD", 4), ("Dan", "SHD", 3)],
    "five": [
        ("Ann", "SDD", 1),
        ("Ben", "HDD", 2),
        ("Cat", "CSD", 2),
        ("Dan", "SDD", 2),
        ("Eve", "SHD", 2),
    ],
}


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("preset", TABLES)
def test_every_hand_is_in_sight_at_the_start_after_a_save_and_after_a_correction(
    new_page: NewPage, log_in: LogIn, alice: User, phone: str, preset: str
) -> None:
    hands = TABLES[preset]
    players = [Player.objects.create(owner=alice, name=name) for name, _, _ in hands]
    game = create_session(
        owner=alice, ruleset=preset, options={}, players=players, title="Classic Ninety-Nine"
    )
    page = new_page(viewport=PHONES[phone], reduced_motion="reduce")
    page.add_init_script(COUNT_TAPS)
    log_in(page, alice)
    names = [name for name, _, _ in hands]
    shot = f"at-the-table-{preset}-{phone}"

    page.goto(f"/sessions/{game.public_id}/")
    wait_for_keypad(page)
    expect_in_sight(page, names)
    page.screenshot(path=SCREENSHOTS / f"{shot}-start.png")
    turned_up = page.locator(".trump-btn").count() > 0
    if turned_up:
        tap(page, page.get_by_text("♥ Hearts", exact=True).locator(".."))
    play(page, hands)
    expect(page.locator("#entry-status")).to_contain_text("Ready to save:")
    tap(page, save_button(page))

    expect_said_in_sight(page, "Deal 1 saved.")
    wait_for_keypad(page)
    expect_in_sight(page, names)
    page.screenshot(path=SCREENSHOTS / f"{shot}-saved.png")
    # The premium panel of the last hand opens in sight, every choice in it too.
    last = hand_card(page, names[-1])
    tap(page, last.locator("summary"))
    for choice in last.locator(".more-panel label").all():
        assert reachable(choice), f"{names[-1]}'s {choice.inner_text()} is out of sight"
    page.screenshot(path=SCREENSHOTS / f"{shot}-panel.png")

    page.goto(f"/sessions/{game.public_id}/deals/1/")
    wait_for_keypad(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct deal 1")
    expect(page.locator("#entry-status")).to_contain_text("Ready to save:")  # every box is in
    expect_every_hand_in_sight(page, "On the correction page")
    assert on_screen(save_button(page)), "Save is off screen"
    page.screenshot(path=SCREENSHOTS / f"{shot}-correct.png")
    # Ann's bid was one more card: ♦ on top of what she had.
    tap(page, bid_box(page, names[0]))
    tap_key(page, "Delete")
    tap_key(page, "Diamond, 0")
    expect(page.locator("#entry-status")).to_contain_text("Ready to save:")
    expect_every_hand_in_sight(page, "Correcting")
    assert swipes(page) == 0
    tap(page, save_button(page))

    expect(page.get_by_role("heading", level=1)).to_have_text("Classic Ninety-Nine")
    wait_for_keypad(page)
    expect_said_in_sight(page, "Deal 1 corrected.")
    expect_in_sight(page, names)
    page.screenshot(path=SCREENSHOTS / f"{shot}-corrected.png")


def expect_said_in_sight(page: Page, text: str) -> None:
    """The page's messages say `text`, and each is in sight, uncovered, where it is now."""
    messages = page.locator("#messages")
    expect(messages).to_contain_text(text)
    for said in messages.locator(".alert").all():
        assert reachable(said), f"{said.inner_text()!r} is out of sight"


def test_the_deal_just_saved_is_corrected_undone_and_redone_in_sight(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    """Right after a save, the bar above the keypad says what was saved and offers to correct
    it: a correction takes no swipe, and what it changed, like what an undo or a redo did, is
    said in sight with every hand."""
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=roster[:3])
    open_table(game, page)
    wait_for_keypad(page)
    hands = [("Ann", "SSS", 3), ("Ben", "HDD", 2), ("Cat", "CSD", 4)]
    tap(page, page.get_by_text("♥ Hearts", exact=True).locator(".."))
    play(page, hands)
    tap(page, save_button(page))
    expect_said_in_sight(page, "Deal 1 saved.")
    wait_for_keypad(page)

    page.evaluate("window.taps = 0; window.swipes = 0")
    swiped = swipes(page)
    tap(page, page.get_by_role("link", name="Correct deal 1", exact=True).first)
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct deal 1")
    wait_for_keypad(page)
    expect(page.locator("#entry-status")).to_contain_text("Ready to save: Ann +13 ✓")
    # Ann's bid was one more card: ♦ on top of what she had.
    tap(page, bid_box(page, "Ann"))
    tap_key(page, "Delete")
    tap_key(page, "Diamond, 0")
    expect(page.locator("#entry-status")).to_contain_text("Ready to save: Ann +3 ·")
    # Each page counts its own: the link's tap, the correction page's, and Save's.
    tapped, swiped = 1 + taps(page) + 1, swiped + swipes(page)
    tap(page, save_button(page))
    expect_said_in_sight(page, "Deal 1 corrected.")
    expect(page.locator("#messages")).to_contain_text(
        "Totals now: Ann 13 → 3, Ben 12 → 22, Cat 14 → 24."
    )
    print(f"\nCorrecting the deal just saved: {tapped} taps, {swiped} swipes")
    assert (tapped, swiped) == (5, 0)
    wait_for_keypad(page)
    expect_in_sight(page, NAMES[:3])

    page.get_by_role("button", name="Undo deal 1").click()
    expect_said_in_sight(page, "Deal 1 undone.")
    wait_for_keypad(page)
    expect(page.locator("#entry-status")).to_contain_text("Ready to save: Ann +3 ·")
    expect_every_hand_in_sight(page, "After the undo")
    page.get_by_role("button", name="Redo deal 1 as it was").click()
    expect_said_in_sight(page, "Redone as it was. Deal 1 saved.")
    wait_for_keypad(page)
    expect_in_sight(page, NAMES[:3])


ENTER_THE_BID = {
    "en-GB": "Enter the bid, or mark the hand made or failed.",
    "fr-FR": "Saisissez l’annonce, ou marquez la main réussie ou manquée.",
}


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("language", ["en-GB", pytest.param("fr-FR", marks=needs_french)])
def test_the_status_box_shows_its_whole_message(
    open_table: OpenTable,
    alice: User,
    roster: list[Player],
    phone: str,
    language: str,
) -> None:
    """The status box above the keypad shows every word of what is still to do, with every
    hand still in sight; it never cuts a sentence off to scroll."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    page = open_table(game, viewport=PHONES[phone], locale=language, reduced_motion="reduce")
    wait_for_keypad(page)
    status = page.locator("#entry-status")
    # The tricks first (Cat's are the tricks left): every bid is still to come.
    for box, digit in (("#id_h0-tricks", "3"), ("#id_h1-tricks", "2")):
        page.locator(box).click()
        page.locator(f'#keypad button[data-key="{digit}"]').click()
    expect(page.locator("#id_h2-tricks")).to_have_value("4")
    expect(status).to_contain_text(ENTER_THE_BID[language])
    expect_every_hand_in_sight(page, "Every bid still to come")
    cut = status.evaluate("el => el.scrollHeight - el.clientHeight")
    height = status.evaluate("el => el.clientHeight")
    print(f"\n{phone} {language}: the status box is {height} px high, {cut} px cut off")
    assert cut <= 0, f"{cut} px of the status are cut off: {status.inner_text()!r}"
    assert reachable(status)
    page.screenshot(path=SCREENSHOTS / f"at-the-table-status-{language}-{phone}.png")


def test_the_last_hand_gets_the_tricks_left_until_it_is_typed(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    open_table(game, page)
    wait_for_keypad(page)
    key_in(page, tricks_box(page, "Ann"), 5)
    expect(tricks_box(page, "Cat")).to_have_value("")  # two hands still open
    key_in(page, tricks_box(page, "Ben"), 1)
    cat = tricks_box(page, "Cat")
    expect(cat).to_have_value("3")
    slot = hand_card(page, "Cat").locator(".slot-tricks")
    expect(slot).to_have_class(WORKED_OUT)
    key_in(page, tricks_box(page, "Ben"), 4)  # Ben changed: Cat follows
    expect(cat).to_have_value("0")
    key_in(page, cat, 2)  # typed over: Cat's own now (the check will say 11 is too many)
    expect(slot).not_to_have_class(WORKED_OUT)
    expect(tricks_box(page, "Ann")).to_have_value("5")
    # ⌫ empties the box under the cursor; Cat is the one open hand again, worked out.
    key(page, "Delete")
    expect(cat).to_have_value("0")
    expect(slot).to_have_class(WORKED_OUT)


def test_a_hand_keeps_its_place_while_its_cards_are_tapped(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    """The hand stays where it is while its bid-cards are tapped: the cards shown never push
    the × button onto a line of its own."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    open_table(game, page)
    wait_for_keypad(page)
    cards = [hand_card(page, name) for name in NAMES[:3]]
    before = [card.bounding_box() for card in cards]
    key_cards(page, "Ann", "C")
    expect(hand_card(page, "Ann").locator("output")).to_have_text("♣=3")
    assert [card.bounding_box() for card in cards] == before
    key(page, "Club, 3")
    expect(hand_card(page, "Ann").locator("output")).to_have_text("♣♣=6")
    key(page, "Club, 3")
    expect(hand_card(page, "Ann").locator("output")).to_have_text("♣♣♣=9")
    expect(bid_box(page, "Ann")).to_have_value("9")
    assert [card.bounding_box() for card in cards] == before


def test_without_javascript_a_card_tap_comes_back_to_its_hand(
    open_table: OpenTable,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
) -> None:
    """Without JavaScript the numbers are typed, and a bid-card tap is a POST whose page comes
    back at the hand it was for, not at the top."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    page = open_table(game, java_script_enabled=False)
    expect(page.locator("#keypad")).to_be_hidden()
    for name, tricks in zip(NAMES[:3], (3, 2, 4), strict=True):
        tricks_box(page, name).fill(str(tricks))
    bid_box(page, "Ann").fill("3")
    bid_box(page, "Ben").fill("2")
    cat = hand_card(page, "Cat")
    for suit in ("Club, 3", "Diamond, 0", "Spade, 1"):
        page.get_by_role("button", name=f"{suit}, for Cat", exact=True).click()
        assert page.url.endswith("#hand-2")
    expect(cat.locator("output")).to_have_text("♣♦♠=4")
    expect(bid_box(page, "Cat")).to_have_value("4")
    # What was typed before the tap is still there.
    expect(tricks_box(page, "Ann")).to_have_value("3")
    expect(bid_box(page, "Ben")).to_have_value("2")
    check_a11y(page, "no-javascript")
    save_button(page).click()
    expect(page.locator("#messages")).to_contain_text("Deal 1 saved.")
    assert deal_entries(game)[0].hands["Cat"] == trick.HandEntry(
        4, bid_cards=("clubs", "diamonds", "spades")
    )


def test_the_strip_follows_a_deal_saved_on_another_phone(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    open_table(game, page)
    wait_for_keypad(page)
    expect(page.locator("#standings-strip .strip-value")).to_have_text(["0", "0", "0"])
    key_in(page, tricks_box(page, "Ann"), 4)  # this phone is half way through deal 1
    expect(page.locator("#entry-status")).to_contain_text("Still to do:")  # and checked it
    hands = {
        "Ann": trick.HandEntry(3, bid=3),
        "Ben": trick.HandEntry(3, bid=3),
        "Cat": trick.HandEntry(3, bid=3),
    }
    add_deal(session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice))
    # The next poll brings the new standings into the strip at the top, without a reload.
    strip = page.locator("#standings-strip .strip-value")
    expect(strip).to_have_text(["13", "13", "13"], timeout=10_000)
    expect(page.locator("#standings-strip .strip-change")).to_have_text(["+13", "+13", "+13"])
    # What this phone typed is still there; the box above the keypad says at once what
    # happened, in sight, and the hands become deal 2.
    expect(tricks_box(page, "Ann")).to_have_value("4")
    status = page.locator("#entry-status")
    expect(status).to_contain_text(
        "Deal 1 was just entered on another phone. What you typed is kept here as deal 2"
    )
    assert reachable(status)
    expect(save_button(page)).to_have_text("Save deal 2")
    key_in(page, tricks_box(page, "Ben"), 5)
    expect(tricks_box(page, "Cat")).to_have_value("0")
    key_in(page, bid_box(page, "Ann"), 4)
    key_in(page, bid_box(page, "Ben"), 5)
    key_cards(page, "Cat", "DDD")
    expect(status).to_contain_text("Ready to save:")
    save_button(page).click()
    expect(page.locator("#messages")).to_contain_text("Deal 2 saved.")
    assert len(deal_entries(game)) == 2
    assert deal_entries(game)[1].hands["Ann"] == trick.HandEntry(4, bid=4)


def test_a_deal_saved_on_another_phone_with_the_same_hands_is_not_offered_again(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    """Two phones enter the same deal; the other saves it first. This phone says so in sight,
    and its Save (tapped by reflex) stores nothing twice: it clears the form for deal 2."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    open_table(game, page)
    wait_for_keypad(page)
    for name, tricks, bid in (("Ann", 3, 3), ("Ben", 3, 2), ("Cat", None, 3)):
        if tricks is not None:
            key_in(page, tricks_box(page, name), tricks)
        key_in(page, bid_box(page, name), bid)
    status = page.locator("#entry-status")
    expect(status).to_contain_text("Ready to save:")
    hands = {
        "Ann": trick.HandEntry(3, bid=3),
        "Ben": trick.HandEntry(3, bid=2),
        "Cat": trick.HandEntry(3, bid=3),
    }
    add_deal(session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice))

    expect(status).to_contain_text(
        "Deal 1 was just saved on another phone, with the same hands as here: it is stored "
        "once, and these hands are not kept for deal 2.",
        timeout=10_000,
    )
    assert reachable(status), "the notice is out of sight"
    expect(save_button(page)).to_have_text("Start deal 2")
    page.screenshot(path=SCREENSHOTS / "at-the-table-saved-on-another-phone.png")
    save_button(page).click()
    expect(page.locator("#messages")).to_contain_text("Deal 1 was just saved on another phone")
    wait_for_keypad(page)
    expect(save_button(page)).to_have_text("Save deal 2")
    for name in NAMES[:3]:
        expect(tricks_box(page, name)).to_have_value("")
        expect(bid_box(page, name)).to_have_value("")
    assert deal_entries(game) == [trick.DealEntry(hands=hands)]


def test_the_correction_page_shows_one_cursor(
    page: Page, log_in: LogIn, alice: User, roster: list[Player]
) -> None:
    """The box tapped keeps the phone's focus (its ring and caret): when the keypad moves the
    cursor on, the focus goes with it, so that two boxes never look like the cursor."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    hands = {name: trick.HandEntry(3, bid=3) for name in NAMES[:3]}
    add_deal(session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice))
    log_in(page, alice)
    page.goto(f"/sessions/{game.public_id}/deals/1/")
    wait_for_keypad(page)
    bid_box(page, "Ben").click()
    key(page, "2")  # Ben's bid; the cursor moves on to his tricks
    expect(bid_box(page, "Ben")).to_have_value("2")
    expect(tricks_box(page, "Ben")).to_be_focused()
    expect(page.locator(".slot-active")).to_have_count(1)
    assert page.evaluate("document.activeElement.closest('.slot-active') !== null")
    key(page, "3")  # his tricks; on to Cat's bid
    expect(bid_box(page, "Cat")).to_be_focused()


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("language", ["en-GB", pytest.param("fr-FR", marks=needs_french)])
def test_the_more_panel_keeps_each_choice_on_one_row_and_closes_after_a_premium(
    open_table: OpenTable,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
    phone: str,
    language: str,
) -> None:
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=roster[:3])
    page = open_table(game, viewport=PHONES[phone], locale=language, reduced_motion="reduce")
    wait_for_keypad(page)
    cat = page.locator("#hand-2")
    details = cat.locator("details.hand-more")
    cat.locator("summary").click()
    expect(details).to_have_attribute("open", "")
    for group in cat.locator(".more-panel .toggle-group").all():
        tops = {
            round(box["y"])
            for box in (b.bounding_box() for b in group.locator("label").all())
            if box
        }
        assert len(tops) == 1, f"{group.inner_text()!r} wraps onto {len(tops)} rows"
    page.screenshot(path=SCREENSHOTS / f"at-the-table-panel-{language}-{phone}.png")
    if phone == "360x740":  # check_a11y's layout checks are for a 360-px screen
        check_a11y(page, "more-panel")
    # Declare: the panel closes, and Cat's row says what was chosen.
    cat.locator('label[for="id_h2-premium_1"]').click()
    expect(details).not_to_have_attribute("open", "")
    expect(cat.locator("#id_h2-premium_1")).to_be_checked()
    declare = "Declare" if language == "en-GB" else "Déclarer"
    expect(cat.locator(".hand-chosen")).to_have_text(declare)
    expect(cat.locator(".hand-chosen")).to_be_visible()
    expect_every_hand_in_sight(page, "After Declare")
    page.screenshot(path=SCREENSHOTS / f"at-the-table-declared-{language}-{phone}.png")
    # Failed ✗ from the keypad marks Ben's row in words too, without opening its panel.
    page.locator("#id_h1-bid").click()
    page.locator('#keypad button[data-key="failed"]').click()
    expect(page.locator("#id_h1-made_2")).to_be_checked()
    failed = "Failed ✗" if language == "en-GB" else "Chutée ✗"
    expect(page.locator("#hand-1 .hand-chosen")).to_have_text(failed)
    expect(page.locator("#hand-1 details.hand-more")).not_to_have_attribute("open", "")


# For each box marked wrong: the room its padding leaves for the number, and the number's width.
ROOM = """() => [...document.querySelectorAll("#deal-form .slot-input.is-invalid")].map((box) => {
  const style = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  return [box.id, Math.floor(room), Math.ceil(pen.measureText(box.value || "00").width)];
})"""


def test_without_javascript_a_box_marked_wrong_still_shows_its_number(
    open_table: OpenTable,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
) -> None:
    """A refused deal marks its boxes red; the mark leaves the number its room (Bootstrap's
    warning icon, with its padding, would take most of a box this narrow)."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    page = open_table(game, java_script_enabled=False)
    for name, tricks, bid in (("Ann", "10", "10"), ("Ben", "2", "2"), ("Cat", "0", "0")):
        tricks_box(page, name).fill(tricks)
        bid_box(page, name).fill(bid)
    save_button(page).click()
    expect(page.locator("#deal-form .slot-input.is-invalid")).to_have_count(2)
    expect(hand_card(page, "Ann")).to_contain_text("A deal has only 9 tricks.")
    rooms = page.evaluate(ROOM)
    print(f"\nBoxes marked wrong (id, room, number): {rooms}")
    for box, room, number in rooms:
        assert room >= number, f"{box} leaves {room} px for a number {number} px wide"
    page.screenshot(path=SCREENSHOTS / "at-the-table-no-javascript-refused.png")
    check_a11y(page, "refused-without-javascript")
    assert not deal_entries(game)
