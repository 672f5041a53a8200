"""The count assistant in the browser, at 360 px: a whole Thirty-Three round and a whole
Ninety-Nine round played by tapping cards only and confirming the proposals; the standings
then equal those of the same events tapped by hand on the event buttons. A second phone (a
watch link, then the scorer link) sees the total change live; axe in light and dark. Every
tap is counted."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding
from tests.browser.conftest import CheckA11y, LogIn, NewPage
from tests.browser.journeys import tap_table
from tests.factories import adding_session, with_links
from tests.stored import round_entries

LIVE = 10_000  # ms: a poll every 3 s, and some slack
NAMES = ["Ann", "Ben", "Cat"]


def _session(alice: User, roster: list[Player], ruleset: str, title: str) -> GameSession:
    game = adding_session(alice, roster, ruleset=ruleset, title=title)
    return with_links(game, watch=f"watch-{title}", scorer=f"scorer-{title}")


class Phone:
    """One phone at the table, counting its taps."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, name: str) -> None:
        tap_table(self.page, name)
        self.taps += 1

    def total(self, value: int) -> None:
        expect(self.page.locator("#counter .counter-total")).to_have_text(f"Running total: {value}")

    def card(self, card: str, total: int, choice: str = "") -> None:
        """Tap a card (and its choice), then see the new total."""
        if choice:
            self.tap(f"{card} (then choose)")
            self.tap(f"{card}: {choice}")
        else:
            self.tap(card)
        self.total(total)

    def proposed(self, *sentences: str) -> None:
        expect(self.page.locator(".counter-proposal strong")).to_have_text(list(sentences))

    def record(self, sentence: str) -> None:
        self.tap("Record it")
        expect(self.page.locator("#counter .tap-said")).to_contain_text(f"Recorded: {sentence}")


def _standings(page: Page) -> list[list[str]]:
    rows = page.locator("table.standings tbody tr")
    return [row.locator("td, th").all_inner_texts() for row in rows.all()]


def _by_hand(page: Page, game: GameSession, taps: list[str]) -> list[list[str]]:
    """The same events tapped on the event buttons of a twin session: its standings."""
    page.goto(f"/sessions/{game.public_id}/")
    phone = Phone(page)
    for label in taps:
        phone.tap(label)
    expect(page.locator("#round-heading")).to_contain_text("Round 2")
    return _standings(page)


def test_a_thirty_three_round_by_cards_alone(
    new_page: NewPage,
    log_in: LogIn,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
) -> None:
    game = _session(alice, roster, "thirty-three", "Counted")
    twin = _session(alice, roster, "thirty-three", "ByHand")
    page = new_page()
    log_in(page, alice)
    phone = Phone(page)
    watcher = new_page()
    watcher.goto(f"/w/{game.watch_token}/")

    page.goto(f"/sessions/{game.public_id}/")
    phone.tap("Count the cards: total, turn and events")
    phone.total(0)
    expect(page.locator(".counter-turn")).to_have_text("Ben")  # left of Ann, who deals
    check_a11y(page, "counter")
    phone.card("K", 10)
    phone.card("K", 20)
    phone.tap("10 (then choose)")
    expect(page.locator(".counter-ask legend")).to_have_text("10: count it as?")
    check_a11y(page, "choice")
    phone.tap("10: +10")
    phone.total(30)
    phone.card("3", 33)
    phone.proposed("Ben hit 33: everyone else pays 1 token.")
    check_a11y(page, "proposal")
    phone.record("Ben hit 33")
    # A second phone (a watch link) sees the total change live.
    expect(watcher.locator(".counter-watch .counter-total")).to_have_text(
        "Running total: 33", timeout=LIVE
    )
    phone.card("4", 37)  # a reverse: Ben plays next, counter-clockwise
    expect(page.locator("#counter .counter-facts")).to_contain_text("Counter-clockwise")
    expect(page.locator(".counter-turn")).to_have_text("Ben")
    phone.card("K", 47)
    phone.card("A", 48, choice="1")
    phone.card("5", 53)
    # Ben's 2 doubles 53: a cross at 66, then the bust (RULES.md §2.3); the 2 is not counted.
    phone.tap("2")
    phone.proposed(
        "Ben went past 66: Ben pays 1 token.",
        "Ben busts (the 2 would make 106): Ben pays 2 tokens; the round ends.",
    )
    expect(page.locator("#counter .counter-display .alert-warning")).to_have_text(
        "The 2 would make 106, over 99: it is not counted."
    )
    phone.record("Ben went past 66")
    phone.record("Ben busts")
    # The round ended: round 2 is counted from 0, Ben deals, Cat starts.
    phone.total(0)
    expect(page.locator(".counter-turn")).to_have_text("Cat")
    expect(page.locator("#counter .counter-facts")).to_contain_text("2, Ben dealt")
    expect(watcher.locator(".counter-watch .counter-total")).to_have_text(
        "Running total: 0", timeout=LIVE
    )
    check_a11y(watcher, "watch")
    # The table display: the total read-only, in large type, for a tablet mid-table.
    watcher.goto(f"/w/{game.watch_token}/display/")
    expect(watcher.locator(".display-counter .counter-total")).to_have_text("Running total: 0")
    size = watcher.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.display-counter .counter-total'))"
        ".fontSize)"
    )
    assert size >= 96
    check_a11y(watcher, "display")
    counted = _standings(page)
    # 1 to show the counter, 9 cards, 2 choices, 3 confirmations.
    assert phone.taps == 15

    events = [adding.Event("Ben", "hit", 33), adding.Event("Ben", "cross", 66)]
    assert round_entries(game) == [adding.RoundEntry((*events, adding.Event("Ben", "bust")))]
    hand = _by_hand(page, twin, ["Ben: Hit 33", "Ben: Cross 66", "Ben: Bust"])
    assert counted == hand
    assert round_entries(twin) == round_entries(game)


def test_a_ninety_nine_round_shared_by_the_scorer_link(
    new_page: NewPage,
    log_in: LogIn,
    check_a11y: CheckA11y,
    alice: User,
    roster: list[Player],
) -> None:
    game = _session(alice, roster, "ninety-nine", "Counted")
    twin = _session(alice, roster, "ninety-nine", "ByHand")
    page = new_page()
    log_in(page, alice)
    owner = Phone(page)
    page.goto(f"/sessions/{game.public_id}/")
    owner.tap("Count the cards: total, turn and events")
    # The scorer link's phone shows the counter too, and follows the owner's taps live.
    other = new_page(color_scheme="dark")
    other.goto(f"/s/{game.scorer_token}/")
    other.get_by_label("Your name").fill("Sam")
    other.get_by_role("button", name="Start scoring").click()
    expect(other.locator("#table")).to_have_count(1)  # the table, not the name form
    scorer = Phone(other)
    scorer.tap("Count the cards: total, turn and events")
    scorer.total(0)

    owner.card("10", 10, choice="+10")
    expect(other.locator("#counter .counter-total")).to_have_text("Running total: 10", timeout=LIVE)
    scorer.card("K", 99)  # Cat's K sets 99; the scorer's phone counts it
    owner.total(99)  # live, on the owner's phone
    owner.card("4", 99)  # Ann reverses: Cat plays next
    expect(page.locator(".counter-turn")).to_have_text("Cat")
    owner.card("9", 99)  # Cat passes: Ben
    expect(page.locator(".counter-turn")).to_have_text("Ben")
    owner.tap("5")  # 104: Ben busts
    owner.proposed("Ben busts (the 5 would make 104): Ben pays 1 token; the round ends.")
    check_a11y(page, "bust")
    owner.record("Ben busts")
    owner.total(0)
    expect(page.locator("#counter .counter-facts")).to_contain_text("2, Ben dealt")
    expect(other.locator("#counter .counter-total")).to_have_text("Running total: 0", timeout=LIVE)
    check_a11y(other, "scorer")
    # The owner: 1 to show, 4 cards, 1 choice, 1 confirmation; the scorer: 1 to show, 1 card.
    assert (owner.taps, scorer.taps) == (7, 2)

    counted = _standings(page)
    assert round_entries(game) == [adding.RoundEntry((adding.Event("Ben", "bust"),))]
    assert counted == _by_hand(page, twin, ["Ben: Bust"])


def test_the_counter_without_javascript(
    new_page: NewPage, log_in: LogIn, check_a11y: CheckA11y, alice: User, roster: list[Player]
) -> None:
    game = _session(alice, roster, "thirty-three", "Plain")
    page = new_page(java_script_enabled=False)
    log_in(page, alice)
    phone = Phone(page)
    page.goto(f"/sessions/{game.public_id}/")
    phone.tap("Count the cards: total, turn and events")
    assert page.url.endswith("#counter")
    phone.tap("A (then choose)")
    assert "?ask=A#counter" in page.url
    check_a11y(page, "choice-plain")
    phone.tap("A: 11")
    phone.total(11)
    phone.tap("Undo the last card")
    phone.total(0)
    expect(page.locator("#counter .tap-said")).to_have_text("Last card taken back.")
