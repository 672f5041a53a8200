"""What a rule sheet of the trick game says (RULES.md §1), in words: the rule prose.

Everything here comes from the rules themselves: the presets and options, the constants, and
for the highest score of a deal, `score_session()` run on candidate deals. The cheat sheets
and score pads print these lines.
"""

import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scorekeeper.rules.trick.cards import BY_NAME, bid_from_cards, trump_label
from scorekeeper.rules.trick.entries import DealEntry, HandEntry, InvalidDeals
from scorekeeper.rules.trick.options import (
    GAME_BONUS,
    PREMIUM_POINTS,
    RUBBER_GAMES,
    RUBBER_LENGTH,
    TRUMP_BY_COUNT,
)
from scorekeeper.rules.trick.presets import DUMMY, Preset, TrickRules, resolve_rules
from scorekeeper.rules.trick.results import DealResult
from scorekeeper.rules.trick.scoring import score_session, seat


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def seat_names(count: int) -> list[str]:
    """Stand-in names for a sheet printed before anyone sits down: 'Seat 1', 'Seat 2' …"""
    return [f"Seat {number}" for number in range(1, count + 1)]


def table_line(rules: TrickRules) -> str:
    """Who plays with how many cards: 'The 3 players; 3 hands of 12 cards (36 dealt): …'."""
    players = len(rules.players)
    hands = len(rules.hands)
    cards_each = rules.tricks + 3
    who = _plural(players, "player")
    if rules.dummy:
        who += " and a dummy hand"
    return (
        f"{who}; {hands} hands of {cards_each} cards ({cards_each * hands} dealt): 3 bid-cards "
        f"and {rules.tricks} to play. {rules.tricks} tricks a deal."
    )


_EXAMPLE_BIDS = (
    ("diamonds", "diamonds", "diamonds"),
    ("spades", "diamonds", "diamonds"),
    ("clubs", "diamonds", "diamonds"),
    ("hearts", "spades", "diamonds"),
    ("spades", "spades", "spades"),
    ("clubs", "clubs", "hearts"),
    ("clubs", "clubs", "clubs"),
)


def bid_examples() -> list[tuple[str, int]]:
    """('♣♦♦', 3) …: three bid-cards and the bid they stand for."""
    return [
        ("".join(BY_NAME[card].symbol for card in cards), bid_from_cards(cards))
        for cards in _EXAMPLE_BIDS
    ]


def bonus_cells(rules: TrickRules) -> list[tuple[int, int]]:
    """(players succeeding, bonus each) for 1 … every hand at the table."""
    return [
        (count, rules.bonus[count - 1] if count <= len(rules.bonus) else 0)
        for count in range(1, len(rules.hands) + 1)
    ]


@dataclass(frozen=True)
class PremiumRow:
    name: str
    points: int
    how: str


_PREMIUM_HOW = {
    "declare": "bid-cards shown face up before play",
    "reveal": "bid-cards face up and your whole hand played face up",
}


def premium_rows(rules: TrickRules) -> list[PremiumRow]:
    return [
        PremiumRow(kind.capitalize(), PREMIUM_POINTS[kind], _PREMIUM_HOW[kind])
        for kind in rules.premiums
    ]


@dataclass(frozen=True)
class BestDeal:
    """The most one player can score in a deal, as the rules score it, and how."""

    parts: tuple[tuple[int, str], ...]  # (points, what for), e.g. (9, "tricks")
    total: int
    how: str

    @property
    def sum(self) -> str:
        """'9 + 30 + 60 = 99'."""
        if len(self.parts) <= 1:
            return str(self.total)
        return " + ".join(str(points) for points, _ in self.parts) + f" = {self.total}"

    @property
    def legend(self) -> str:
        return " + ".join(what for _, what in self.parts)


def best_deal(rules: TrickRules) -> BestDeal | None:
    """The highest score of one player in one deal (RULES.md §1.3: 9 + 30 + 60 = 99)."""
    key = json.dumps(rules.options_data(), sort_keys=True)
    return _best_deal(rules.preset.id, key, len(rules.players))


@lru_cache(maxsize=256)
def _best_deal(preset_id: str, options_key: str, count: int) -> BestDeal | None:
    rules = resolve_rules(preset_id, json.loads(options_key), seat_names(count))
    best: tuple[int, DealResult, DealEntry] | None = None
    for entry in _candidate_deals(rules):
        try:
            deal = score_session(rules, [entry]).deals[0]
        except InvalidDeals:  # pragma: no cover - every candidate is a legal deal
            continue
        hand = deal.hands[0]
        points = hand.trick_points + hand.bonus + hand.premium + hand.miss
        if best is None or points > best[0]:
            best = (points, deal, entry)
    if best is None:  # pragma: no cover - there is always a legal deal
        return None
    points, deal, entry = best
    hand = deal.hands[0]
    own = entry.hands[hand.player].premium
    failed = [
        other.premium
        for name, other in entry.hands.items()
        if name != hand.player and other.premium is not None
    ]
    parts = [
        (hand.trick_points, "tricks"),
        (hand.bonus, "success bonus"),
        (hand.premium, "premiums" if own and failed else "premium"),
    ]
    shown = tuple((value, what) for value, what in parts if value)
    return BestDeal(shown, points, _how(rules, deal, own, failed))


def _how(rules: TrickRules, deal: DealResult, own: str | None, failed: Sequence[str]) -> str:
    """The best deal in words: 'Win all 9 tricks as the only one to make your bid, and
    reveal.'"""
    hand = deal.hands[0]
    tricks = _plural(hand.tricks, "trick")
    text = f"Win {'all ' if hand.tricks == rules.tricks else ''}{tricks}"
    if hand.bid is not None and hand.bid != hand.tricks:
        text += f" on a bid of {hand.bid}"
    if deal.successes == 1:
        text += " as the only one to make your bid"
    else:
        text += f" as one of {deal.successes} making their bids"
    if own:
        text += f", and {own}"
    if failed:
        who = "the other player" if rules.dummy else "another player"
        text += f", while {who} {failed[0]}s and fails"
    return text + "."


def _candidate_deals(rules: TrickRules) -> Iterator[DealEntry]:
    """Deals among which one is the best for the first player: they make their bid with as
    many tricks as possible, the others make or miss theirs in every combination, and the
    premium bid (theirs, or another player's that fails) is each one allowed."""
    me, others = rules.players[0], rules.hands[1:]
    trump = "none" if rules.trump in ("turn-up", "declared") else None
    if rules.dummy:
        # Both live players may declare, and the dummy may make, miss or hit its bid exactly.
        live, kinds = others[0], [None, *rules.premiums]
        for mine, theirs, makes in itertools.product(kinds[::-1], kinds[::-1], (True, False)):
            for tricks in range(max(0, rules.tricks - 2), rules.tricks + 1):
                for dummy_tricks in range(rules.tricks - tricks + 1):
                    rest = rules.tricks - tricks - dummy_tricks
                    bids = {dummy_tricks, max(dummy_tricks - 1, 0), rules.bid_max}
                    for dummy_bid in sorted(bids):
                        hands = {
                            me: _made(rules, tricks, mine),
                            live: _hand(rules, rest, makes, theirs),
                            DUMMY: HandEntry(tricks=dummy_tricks, bid=dummy_bid),
                        }
                        yield DealEntry(hands=hands, trump=trump)
        return
    # Your own premium first: on equal points, that is the example the sheet gives.
    holders: list[tuple[str | None, str | None]] = [
        *((holder, kind) for holder in (me, others[0]) for kind in reversed(rules.premiums)),
        (None, None),
    ]
    for holder, kind in holders:
        for tricks in sorted({rules.tricks, min(rules.tricks, rules.bid_max)}, reverse=True):
            for made in itertools.product((True, False), repeat=len(others)):
                hands = {me: _made(rules, tricks, kind if holder == me else None)}
                for position, (other, succeeds) in enumerate(zip(others, made, strict=True)):
                    won = rules.tricks - tricks if position == 0 else 0
                    premium = kind if holder == other else None
                    # Another player's premium only helps when it fails.
                    hands[other] = _hand(rules, won, succeeds and premium is None, premium)
                yield DealEntry(hands=hands, trump=trump)


def _made(rules: TrickRules, tricks: int, premium: str | None) -> HandEntry:
    bid = tricks if tricks <= rules.bid_max else 0  # `zero_all_tricks`: 0 made by every trick
    return HandEntry(tricks=tricks, bid=bid, premium=premium)


def _hand(rules: TrickRules, tricks: int, made: bool, premium: str | None = None) -> HandEntry:
    """A hand that makes its bid, or misses it by one"""
    if made:
        return _made(rules, tricks, premium)
    bid = tricks + 1 if tricks < rules.bid_max else tricks - 1
    return HandEntry(tricks=tricks, bid=bid, premium=premium)


def trump_lines(rules: TrickRules) -> list[str]:
    """The trump rule in plain words (RULES.md §1.4)."""
    if rules.trump == "turn-up":
        return [
            "The table decides the trump of every deal, usually by turning up a card before "
            "play; no trump is possible. Tell the scorer which it is."
        ]
    if rules.trump == "by-successes":
        over = " over all three hands" if rules.dummy else ""
        return [
            f"First deal: {trump_label(rules.first_trump)}.",
            f"After that, by how many made their bid in the deal before{over}:",
        ]
    if rules.trump == "by-deviation":
        return [
            f"First deal: {trump_label(TRUMP_BY_COUNT[0])}.",
            "After that, by the total number of tricks by which all players missed their bids "
            "in the deal before:",
        ]
    if not rules.premiums:
        return ["Nobody can make a premium bid here, so every deal is played at no trump."]
    return [
        "Whoever declares or reveals names the trump for that deal.",
        "A deal without a premium bid keeps the trump of the deal before; if the first deal "
        "has none, it is played at no trump.",
    ]


def trump_chain(rules: TrickRules) -> list[tuple[str, str]]:
    """(count, trump) for the computed trump rules: ('0', '♦ Diamonds') … ('4 or more', …)."""
    if rules.trump == "by-deviation":
        last = len(TRUMP_BY_COUNT) - 1
        return [
            (f"{count}{' or more' if count == last else ''}", trump_label(name))
            for count, name in enumerate(TRUMP_BY_COUNT)
        ]
    if rules.trump != "by-successes":
        return []
    hands = len(rules.hands)
    chain = [
        (str(count), trump_label(name))
        for count, name in enumerate(TRUMP_BY_COUNT)
        if count <= hands
    ]
    if hands >= len(TRUMP_BY_COUNT):
        chain.append((f"{len(TRUMP_BY_COUNT)} or more", trump_label("none")))
    return chain


def match_lines(rules: TrickRules) -> list[str]:
    """How the session ends (RULES.md §1.5): `match.describe()` and what it leaves out."""
    lines = [rules.match.describe()]
    if rules.match.type == "rubber":
        games = RUBBER_GAMES
        bonus = GAME_BONUS * (RUBBER_LENGTH - games)
        lines.append(
            f"The rubber's winner adds {GAME_BONUS} for each game fewer than "
            f"{RUBBER_LENGTH} that it took ({games} games: {bonus})."
        )
    if rules.match.type == "long":
        lines.append("No game bonus; a game's winner is its highest scorer.")
    if rules.match.has_games:
        lines.append("Game scores start again from 0 each game; totals run on.")
    if rules.preset.game_points:
        lines.append(
            "Then game points: first place 1 for each full 100 of their total; second place "
            "their own full hundreds less 1 (not below 0); the others 0."
        )
    return lines


def rotation(rules: TrickRules) -> list[tuple[int, str, str]]:
    """(deal, dealer, leader) for one turn round the table."""
    return [(index + 1, *seat(rules, index)) for index in range(len(rules.players))]


def pad_lines(rules: TrickRules) -> list[str]:
    """The numbers a scorer needs beside the pad, in a few short lines."""
    lines = []
    bonus = ", ".join(f"{count}: {points}" for count, points in bonus_cells(rules))
    if rules.scoring == "long":
        lines.append(f"Made: {bonus} (by how many made it). Missed: minus the miss.")
    else:
        tricks = "1 a trick, to everyone. " if rules.trick_points else "No trick points. "
        lines.append(f"{tricks}Success bonus by how many made it: {bonus}.")
    if rules.premiums:
        premiums = ", ".join(f"{row.name.lower()} {row.points}" for row in premium_rows(rules))
        failed = "the bidder loses it" if rules.scoring == "long" else "each other hand gets it"
        lines.append(f"Premiums: {premiums}; failed, {failed}.")
    chain = trump_chain(rules)
    trump = " ".join(trump_lines(rules))
    if chain:
        trump += " " + ", ".join(f"{count} → {name}" for count, name in chain) + "."
    lines.append(f"Trump: {trump}")
    lines.append(" ".join(match_lines(rules)))
    return lines


def number_help(preset: Preset, name: str) -> str:
    """The hint beside a number option left empty for the preset's own: none in this game
    (every number it asks for is shown as the preset has it)."""
    return ""
