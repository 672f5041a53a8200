"""At the table on a phone: a whole game of Thirty-Three (33, 66, 99) entered by tapping.

The scorer logs in, adds the players, starts a Thirty-Three session and taps what happens as it
happens: hits and crosses of 33 and 66, hits of 99, busts, an empty hand, a mis-tap taken back
with "Undo the last tap", a correction agreed at the table, a cross 66 and a bust by one card
(1 + 2 tokens), and the bust that completes a cross 66 which put its player out. After every tap
the screen is compared with RULES.md §2 worked out by hand in this file (tokens, who is out and
since when, who deals, which buttons remain) and with the rules package (`score_session` on the
same events, and the message it implies). Then two rounds are corrected from the rounds grid:
one correction the rules refuse, one they accept.

Shorter tests: a Dollar Bill game (tokens shown as the bill's folds) and a tap with JavaScript
off, where the tap is a plain form POST.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding
from scorekeeper.services import create_adding_session
from tests.browser.conftest import PHONE_WIDTH, SCREENSHOTS, CheckA11y, NewPage, OpenTable
from tests.browser.journeys import (
    add_players,
    log_in_with_form,
    open_new_session_page,
    preset_link,
    seat_players,
    start_session,
    tap_event,
)
from tests.stored import round_entries

PLAYERS = ["Ann", "Ben", "Cat"]  # seat order; seat 1 (Ann) deals the first round
TITLE = "Thirty-Three at Sam’s"
RULES = adding.resolve_rules("thirty-three", {}, PLAYERS)
TOKENS = 9  # RULES.md §2.3, thirty-three
# RULES.md §2.3: the thirty-three buttons, in the order a player's row shows them.
BUTTONS = ["Hit 33", "Hit 66", "Hit 99", "Cross 33", "Cross 66", "Bust", "Empty hand"]
ROUND_ENDERS = {("hit", 99), ("bust", None), ("empty", None)}
UNDONE = "Last tap undone. It is kept in the history."

Tokens = tuple[int | None, int | None, int | None]


@dataclass(frozen=True)
class Step:
    """One thing the scorer does: tap a player's event button, adjust through the form, or
    undo the last tap; and everyone's tokens afterwards (Ann, Ben, Cat; None: out of the game),
    worked out by hand from RULES.md §2.2–2.3."""

    player: str
    event: str  # hit, cross, bust, empty; adjust (the correction form); undo
    target: int | None = None
    tokens: int | None = None  # the adjustment
    after: Tokens = (TOKENS, TOKENS, TOKENS)
    says: str = ""  # the message, written out by hand, where the test spells it out
    look: str = ""  # run check_a11y on the table under this name after the step

    @property
    def entry(self) -> adding.Event:
        return adding.Event(self.player, self.event, self.target, self.tokens)

    @property
    def label(self) -> str:
        if self.event == "adjust":
            return f"Adjust {self.tokens:+d}"
        names = {"hit": "Hit", "cross": "Cross", "bust": "Bust", "empty": "Empty hand"}
        return names[self.event] + ("" if self.target is None else f" {self.target}")

    @property
    def ends_round(self) -> bool:
        return (self.event, self.target) in ROUND_ENDERS


def tap(
    player: str,
    event: str,
    target: int | None = None,
    *,
    after: Tokens,
    says: str = "",
    look: str = "",
) -> Step:
    return Step(player, event, target, after=after, says=says, look=look)


def adjust(player: str, tokens: int, *, after: Tokens, says: str = "", look: str = "") -> Step:
    return Step(player, "adjust", tokens=tokens, after=after, says=says, look=look)


def undo(*, after: Tokens) -> Step:
    return Step("", "undo", after=after)


# The game, round by round. Ann, Ben and Cat sit in that order; a cost to "every other player"
# is paid from the actor's left.
GAME: list[list[Step]] = [
    [  # Round 1, Ann deals.
        tap("Ben", "hit", 33, after=(8, 9, 8), says="Ben: Hit 33. Cat -1, Ann -1."),
        tap("Cat", "cross", 66, after=(8, 9, 7)),  # a mis-tap: Cat made 66 exactly ...
        undo(after=(8, 9, 8)),  # ... so it is taken back
        tap("Cat", "hit", 66, after=(7, 8, 8)),
        tap(
            "Ann",
            "hit",
            99,
            after=(7, 6, 6),
            says="Ann: Hit 99. Ben -2, Cat -2. The round is over.",
        ),
    ],
    [  # Round 2, Ben deals.
        tap("Ann", "cross", 33, after=(6, 6, 6)),
        # One card (a 2 doubling 53) takes Ben past 66 and past 99: 1 + 2 tokens.
        tap("Ben", "cross", 66, after=(6, 5, 6)),
        tap("Ben", "bust", after=(6, 3, 6), says="Ben: Bust. Ben -2. The round is over."),
    ],
    [  # Round 3, Cat deals.
        # She forgot to draw: 3 tokens, and the round ends.
        tap("Cat", "empty", after=(6, 3, 3), says="Cat: Empty hand. Cat -3. The round is over."),
    ],
    [  # Round 4, Ann deals.
        tap("Ben", "hit", 33, after=(5, 3, 2)),
        # Agreed at the table: Cat owes a token for a cross nobody tapped; she pays it now.
        adjust("Cat", -1, after=(5, 3, 1), says="Cat: Adjust -1. Cat -1.", look="table"),
        tap("Ann", "bust", after=(3, 3, 1)),
    ],
    [  # Round 5, Ben deals.
        tap("Cat", "cross", 33, after=(3, 3, 0)),  # `owing`: in at 0 tokens
        # She owes a token she does not have: out. The same card took the total past 99 ...
        tap(
            "Cat",
            "cross",
            66,
            after=(3, 3, None),
            says="Cat: Cross 66. Cat is out.",
            look="table-out",
        ),
        # ... which costs nothing more, and ends the round.
        tap("Cat", "bust", after=(3, 3, None), says="Cat: Bust. The round is over."),
    ],
    [  # Round 6: Ann deals, as Cat is out.
        tap("Ann", "hit", 33, after=(3, 2, None), says="Ann: Hit 33. Ben -1."),  # Cat is out
        tap("Ben", "cross", 66, after=(3, 1, None)),
        tap("Ann", "bust", after=(1, 1, None)),
    ],
    [  # Round 7, Ben deals.
        # Ben owes 2 and has 1: he pays it and is out; Ann is the last left.
        tap(
            "Ann",
            "hit",
            99,
            after=(1, None, None),
            says="Ann: Hit 99. Ben -1. Ben is out. Ann wins!",
        ),
    ],
]


class Table:
    """What the table should look like, step by step, by RULES.md §2.2 (not by the app)."""

    def __init__(self) -> None:
        self.rounds: list[list[Step]] = []
        self.tokens: dict[str, int] = dict.fromkeys(PLAYERS, TOKENS)
        self.out_in: dict[str, int] = {}  # player → the round they went out in
        self.dealers: list[str] = []  # the dealer of each round begun
        self.only_bust: str | None = None  # out on a cross 66: may still complete it with a bust

    def start_round(self) -> None:
        self.dealers.append(self.next_dealer())
        self.rounds.append([])

    def next_dealer(self) -> str:
        """Seat 1 deals first; then the next player still in."""
        if not self.dealers:
            return PLAYERS[0]
        seat = PLAYERS.index(self.dealers[-1])
        following = [PLAYERS[(seat + step) % len(PLAYERS)] for step in range(1, len(PLAYERS))]
        return next(name for name in following if name not in self.out_in)

    def play(self, step: Step) -> None:
        if step.event == "undo":
            self.rounds[-1].pop()
        else:
            self.rounds[-1].append(step)
        was_out = set(self.out_in)
        for name, left in zip(PLAYERS, step.after, strict=True):
            if left is None:
                self.out_in.setdefault(name, len(self.rounds))
            else:
                self.out_in.pop(name, None)
            self.tokens[name] = left or 0
        gone = set(self.out_in) - was_out
        crossed_out = (step.event, step.target) == ("cross", 66) and step.player in gone
        self.only_bust = step.player if crossed_out else None

    def entries(self) -> list[adding.RoundEntry]:
        return [adding.RoundEntry(tuple(step.entry for step in steps)) for steps in self.rounds]

    @property
    def still_in(self) -> list[str]:
        return [name for name in PLAYERS if name not in self.out_in]

    @property
    def finished(self) -> bool:
        return len(self.still_in) == 1

    @property
    def in_progress(self) -> bool:
        """The last round has begun and nothing has ended it."""
        return bool(self.rounds) and not self.finished and not self.rounds[-1][-1].ends_round

    @property
    def shown_round(self) -> int:
        return len(self.rounds) if self.in_progress else len(self.rounds) + 1

    @property
    def dealer(self) -> str | None:
        if self.finished:
            return None
        return self.dealers[-1] if self.in_progress else self.next_dealer()

    def label(self, name: str) -> str:
        if name in self.out_in:
            return f"out in round {self.out_in[name]}"
        count = self.tokens[name]
        return f"{count} token{'' if count == 1 else 's'}"

    def buttons(self, name: str) -> list[str]:
        if name == self.only_bust:
            return ["Bust"]
        if self.finished or name in self.out_in:
            return []
        return BUTTONS


# What the rules package says about the same events


def rules_agree(table: Table, result: adding.AddingResult) -> None:
    """The rules package and the hand-worked table agree (a failure here is a rules bug)."""
    last = result.rounds[-1]
    assert last.tokens == table.tokens
    assert set(last.eliminated) == set(table.out_in)
    assert {s.player: s.out_in_round for s in result.standings if s.out} == table.out_in
    assert [played.dealer for played in result.rounds] == table.dealers
    assert result.finished == table.finished
    assert result.current_round_open == table.in_progress
    if table.dealer is not None:
        assert result.next == adding.NextRound(table.shown_round, table.dealer)


def signed(count: int) -> str:
    return f"{count:+d}"


def told(step: Step, result: adding.AddingResult) -> str:
    """The message for a tap, from what the rules say it did: "Ben: Hit 33. Cat -1, Ann -1."."""
    if step.event == "undo":
        return UNDONE
    effect = result.rounds[-1].events[-1]
    assert effect.event == step.entry
    parts = [f"{step.player}: {step.label}."]
    paid = [f"{name} {signed(change)}" for name, change in effect.changes.items() if change]
    if paid:
        parts.append(", ".join(paid) + ".")
    if effect.eliminated:
        names = " and ".join(effect.eliminated)
        parts.append(f"{names} {'is' if len(effect.eliminated) == 1 else 'are'} out.")
    if effect.wins:
        parts.append(f"{' and '.join(effect.wins)} wins!")
    elif effect.ends_round:
        parts.append("The round is over.")
    return " ".join(parts)


def standing_label(standing: adding.Standing) -> str:
    if standing.out:
        return f"out in round {standing.out_in_round}"
    return f"{standing.tokens} token{'' if standing.tokens == 1 else 's'}"


# Reading the screen


def seat(page: Page, name: str) -> Locator:
    return page.locator("li.adding-seat").nth(PLAYERS.index(name))


def messages(page: Page) -> Locator:
    """What the page says: a tap's (or an undo's) answer beside its row or the undo button,
    anything else at the top."""
    return page.locator("#messages [role=status], .tap-said [role=status]")


def expect_no_sideways_scroll(page: Page) -> None:
    # After a click that navigates, the new document may not have its <html> yet.
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"{page.url} scrolls sideways: {width}px at {PHONE_WIDTH}px"


def expect_table(page: Page, table: Table) -> None:
    """Round, dealer, and every player's row: name, tokens (coins), greyed when out, buttons."""
    if table.finished:
        expect(page.locator("section.next-deal")).to_have_count(0)
        expect(page.locator(".finished-banner")).to_be_visible()
    else:
        progress = " in progress" if table.in_progress else ""
        expect(page.locator("#round-heading")).to_have_text(f"Round {table.shown_round}{progress}")
        expect(page.locator("section.next-deal dd")).to_have_text([str(table.dealer)])
    expect(page.locator("li.adding-seat")).to_have_count(len(PLAYERS))
    for name in PLAYERS:
        row = seat(page, name)
        deals = " deals" if name == table.dealer else ""
        expect(row.locator(".adding-name")).to_have_text(f"{name}{deals}")
        expect(row.locator(".tokens-label")).to_have_text(table.label(name))
        if name in table.out_in:
            expect(row).to_have_class(re.compile(r"\bis-out\b"))
            # Greyed: a tinted row (transparent for the players still in).
            expect(row).not_to_have_css("background-color", "rgba(0, 0, 0, 0)")
            expect(row.locator(".coin")).to_have_count(0)
        else:
            expect(row).not_to_have_class(re.compile(r"\bis-out\b"))
            expect(row).to_have_css("background-color", "rgba(0, 0, 0, 0)")
            expect(row.locator(".coin")).to_have_count(TOKENS)
            expect(row.locator(".coin.lost")).to_have_count(TOKENS - table.tokens[name])
        buttons = row.locator("button[name=tap]")
        if table.buttons(name):
            expect(buttons).to_have_text(table.buttons(name))
        else:
            expect(buttons).to_have_count(0)
    expect_no_sideways_scroll(page)


def expect_standings(page: Page, result: adding.AddingResult) -> None:
    """The standings table as the rules rank the players (RULES.md §2.2)."""
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    for row, standing in zip(rows.all(), result.standings, strict=True):
        trophy = " 🏆" if standing.player in result.winners else ""
        held = f"out (round {standing.out_in_round})" if standing.out else str(standing.tokens)
        expect(row.locator("td, th")).to_have_text(
            [str(standing.rank), f"{standing.player}{trophy}", held]
        )


def expect_rounds_grid(
    page: Page,
    rounds: list[list[Step]],
    dealers: list[str],
    result: adding.AddingResult,
    *,
    last_only: bool = False,
) -> None:
    """Each round (or the last): its number (the correction link), dealer, events (… while in
    progress) and everyone's tokens after it."""
    grid = page.locator("table.deal-grid tbody tr")
    expect(grid).to_have_count(len(rounds))
    shown = zip(range(len(rounds)), rounds, dealers, result.rounds, strict=True)
    for index, steps, dealer, played in list(shown)[-1:] if last_only else shown:
        row = grid.nth(index)
        expect(row.locator("th a")).to_have_text(str(index + 1))
        expect(row.locator("th .deal-sub")).to_have_text(f"{dealer} deals")
        events = "; ".join(f"{step.player}: {step.label}" for step in steps)
        going_on = "" if played.complete else " …"
        expect(row.locator(".round-events")).to_have_text(events + going_on)
        assert played.tokens is not None
        expect(row.locator("td.text-end")).to_have_text([str(played.tokens[n]) for n in PLAYERS])


# Accessibility, with one known app bug


# Tapping


def do(page: Page, step: Step) -> None:
    if step.event == "undo":
        page.get_by_role("button", name="Undo the last tap", exact=True).click()
    elif step.event == "adjust":
        page.get_by_text("A correction agreed at the table", exact=True).click()
        page.get_by_label("Who").select_option(label=step.player)
        page.get_by_label("By how many (+ gives, − takes)").fill(str(step.tokens))
        page.get_by_role("button", name="Adjust", exact=True).click()
    else:
        # Each button says whose it is to a screen reader: "Ben: Hit 33".
        tap_event(page, step.player, step.label)


# Setting up through the screens


def start_game(page: Page, check_a11y: CheckA11y) -> None:
    open_new_session_page(page)
    family = page.get_by_role("heading", name="99 and friends, the adding game")
    choice = preset_link(family.locator("xpath=following-sibling::ul[1]"), "Thirty-Three")
    expect(choice).to_be_visible()
    expect_no_sideways_scroll(page)
    choice.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thirty-Three")
    expect(page.get_by_text(f"Leave empty for the usual {TOKENS}.")).to_be_visible()
    check_a11y(page, "start")
    seat_players(page, PLAYERS)
    start_session(page, TITLE)
    expect(page.locator("main")).to_contain_text("Thirty-Three · to 99")


def correct_round(
    page: Page, table: Table, number: int, position: int
) -> tuple[list[str], list[adding.RoundEntry]]:
    """Remove event `position` (0-based) of round `number` on its correction page. Returns the
    messages expected (RULES.md §2.4: accepted only if the game stays valid) and the rounds as
    stored afterwards."""
    before = table.entries()
    events = before[number - 1].events
    after = [*before]
    after[number - 1] = adding.RoundEntry(events[:position] + events[position + 1 :])
    removed = table.rounds[number - 1][position]
    page.get_by_role("link", name=f"Correct round {number}", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Correct round {number}")
    expect(page.locator("main")).to_contain_text(f"{table.dealers[number - 1]} dealt.")
    # Each event by its label (the page does not say whose it is yet: see the report).
    expect(page.locator("ol.round-edit-events > li > span")).to_have_text(
        [re.compile(rf"(^|: ){re.escape(step.label)}$") for step in table.rounds[number - 1]]
    )
    expect_no_sideways_scroll(page)
    remove = re.compile(rf"^Remove event {position + 1}\b.*{re.escape(removed.label)}$")
    page.get_by_role("button", name=remove).click()
    problems = adding.check_rounds(RULES, after)
    if problems:
        return ["; ".join(str(problem) for problem in problems)], before
    old_result, new_result = adding.score_session(RULES, before), adding.score_session(RULES, after)
    old = {s.player: standing_label(s) for s in old_result.standings}
    new = {s.player: standing_label(s) for s in new_result.standings}
    changes = [f"{name} {old[name]} → {new[name]}" for name in PLAYERS if old[name] != new[name]]
    lines = [f"Round {number} corrected."]
    lines.append(f"Removed event {position + 1}: {removed.player}: {removed.label}.")
    lines.append(f"Now: {'; '.join(changes)}." if changes else "Standings unchanged.")
    if old_result.winners != new_result.winners:
        winners = " and ".join(new_result.winners)
        lines.append(
            f"The game is now won by {winners}." if winners else "The game is no longer over."
        )
    return lines, after


# Fixtures


@pytest.fixture
def page(new_page: NewPage) -> Page:
    """A phone that prefers reduced motion, so Bootstrap's colour transitions are off and
    axe measures the colours the scorer sees (the same workaround as in test_table.py)."""
    return new_page(reduced_motion="reduce")


# The tests


def test_a_thirty_three_game_by_tapping(page: Page, check_a11y: CheckA11y, alice: User) -> None:
    log_in_with_form(page, alice)
    add_players(page, PLAYERS)
    start_game(page, check_a11y)

    table = Table()
    expect_table(page, table)  # Round 1, Ann deals, 9 tokens each, every button
    expect(page.locator("main")).to_contain_text("No rounds yet")
    shown = ""
    for steps in GAME:
        table.start_round()
        for step in steps:
            do(page, step)
            table.play(step)
            result = adding.score_session(RULES, table.entries())
            rules_agree(table, result)
            message = told(step, result)
            assert message == (step.says or message)
            assert message != shown, "each message must differ from the last to wait on it"
            expect(messages(page)).to_have_text([message])  # the tap's answer has arrived
            shown = message
            expect_table(page, table)
            expect_standings(page, result)
            expect_rounds_grid(page, table.rounds, table.dealers, result, last_only=True)
            assert result.rounds[-1].complete != table.in_progress
            if step.look:
                coins = SCREENSHOTS / f"test_a_thirty_three_game_by_tapping-{step.look}-coins.png"
                page.locator("ul.adding-seats").screenshot(path=coins)
                check_a11y(page, step.look)
    # The end: a winner, the standings, no buttons, no adjustments.
    result = adding.score_session(RULES, table.entries())
    assert result.winners == ("Ann",)
    banner = page.locator(".finished-banner")
    expect(banner).to_contain_text("Winner: Ann")
    expect(banner).to_contain_text("The game is over after 7 rounds.")
    expect(page.locator("button[name=tap]")).to_have_count(0)
    expect(page.get_by_text("A correction agreed at the table")).to_have_count(0)
    expect_rounds_grid(page, table.rounds, table.dealers, result)
    # By hand: the last player left first, then the eliminated, most recently out first.
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(3)
    standings = [["1", "Ann 🏆", "1"], ["2", "Ben", "out (round 7)"], ["3", "Cat", "out (round 5)"]]
    for row, cells in zip(rows.all(), standings, strict=True):
        expect(row.locator("td, th")).to_have_text(cells)
    check_a11y(page, "finished")

    # Round 2 without Ben's bust would leave it unfinished with round 3 after it: refused.
    lines, stored = correct_round(page, table, 2, 2)
    assert lines == [
        "Round 2: This round has no event that ends it; only the last round may be in progress."
    ]
    expect(page.locator("#messages .alert-danger")).to_have_text(lines)
    check_a11y(page, "correction")
    page.get_by_role("link", name=f"← Back to {TITLE}").click()

    # Round 1 without Ben's hit 33: Ann and Cat keep a token each. Cat still goes out in
    # round 5 (now on the bust, the cross 66 leaving her at 0), and Ann ends with 2.
    lines, stored = correct_round(page, table, 1, 0)
    assert lines == [
        "Round 1 corrected.",
        "Removed event 1: Ben: Hit 33.",
        "Now: Ann 1 token → 2 tokens.",
    ]
    expect(messages(page)).to_have_text(lines)
    page.get_by_role("link", name=f"← Back to {TITLE}").click()
    corrected = adding.score_session(RULES, stored)
    assert corrected.rounds[0].tokens == {"Ann": 8, "Ben": 6, "Cat": 7}  # by hand: 66, then 99
    assert corrected.winners == ("Ann",)
    expect(page.locator(".finished-banner")).to_contain_text("Winner: Ann")
    expect(rows.nth(0).locator("td, th")).to_have_text(["1", "Ann 🏆", "2"])
    expect_standings(page, corrected)
    rounds = [table.rounds[0][1:], *table.rounds[1:]]
    expect_rounds_grid(page, rounds, table.dealers, corrected)
    expect(page.locator("button[name=tap]")).to_have_count(0)
    expect_no_sideways_scroll(page)

    # What is stored is what was tapped (and corrected).
    assert round_entries(GameSession.objects.get(owner=alice)) == stored


def test_a_dollar_bill_shows_its_folds(
    page: Page, open_table: OpenTable, alice: User, roster: list[Player]
) -> None:
    """Tokens as a dollar bill (4 folds, RULES.md §2.2-2.3): a picture, corners folded per bust."""
    game = create_adding_session(
        owner=alice, ruleset="dollar-bill", options={}, players=roster, title="Dollar Bill"
    )
    rules = adding.resolve_rules("dollar-bill", {}, PLAYERS)
    open_table(game, page)
    bills = page.locator("li.adding-seat svg.dollar-bill")
    expect(bills).to_have_count(3)
    expect(page.locator("li.adding-seat .coin")).to_have_count(0)
    labels = page.locator("li.adding-seat .tokens-label")
    # One word throughout: the label counts the folds left, the
    # picture shows the corners folded.
    expect(labels).to_have_text(["4 folds left"] * 3)
    expect(bills.locator(".fold")).to_have_count(0)

    ann = seat(page, "Ann")
    ann.get_by_role("button", name="Ann: Bust", exact=True).click()
    expect(messages(page)).to_have_text(["Ann: Bust. Ann -1. The round is over."])
    expect(labels).to_have_text(["3 folds left", "4 folds left", "4 folds left"])
    assert [adding.bill_shows(rules, n) for n in (4, 3, 2)] == [
        "no folds",
        "1 corner folded",
        "2 corners folded",
    ]
    expect(ann.locator("svg.dollar-bill .fold")).to_have_count(1)
    expect(page.locator("section.next-deal dd")).to_have_text(["Ben"])

    ann.get_by_role("button", name="Ann: Bust", exact=True).click()
    expect(messages(page)).to_have_text(["Ann: Bust. Ann -1. The round is over."])
    expect(labels).to_have_text(["2 folds left", "4 folds left", "4 folds left"])
    expect(ann.locator("svg.dollar-bill .fold")).to_have_count(2)
    expect(page.locator("section.next-deal dd")).to_have_text(["Cat"])
    expect_no_sideways_scroll(page)


def test_a_tap_without_javascript(open_table: OpenTable, alice: User, roster: list[Player]) -> None:
    """The event buttons are plain submit buttons: without JavaScript a tap is stored too."""
    game = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=roster, title="No JS"
    )
    page = open_table(game, java_script_enabled=False)
    url = f"/sessions/{game.public_id}/"
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        seat(page, "Ben").get_by_role("button", name="Ben: Hit 33", exact=True).click()
    # A plain form POST (no htmx), redirected to the table again.
    assert posted.value.url.endswith(url)
    assert posted.value.status == 302
    assert "hx-request" not in posted.value.request.headers
    expect(messages(page)).to_have_text(["Ben: Hit 33. Cat -1, Ann -1."])
    # Back at Ben's row, where the tap was made.
    assert page.url.endswith(url + "#seat-2")
    expect(seat(page, "Ben").locator(".tap-said [role=status]")).to_have_text(
        ["Ben: Hit 33. Cat -1, Ann -1."]
    )
    expect(page.locator("li.adding-seat .tokens-label")).to_have_text(
        ["8 tokens", "9 tokens", "8 tokens"]
    )
    expect(page.locator("#round-heading")).to_have_text("Round 1 in progress")
    assert round_entries(game) == [adding.RoundEntry((adding.Event("Ben", "hit", 33),))]
