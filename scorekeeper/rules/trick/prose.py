"""What a rule sheet of the trick game says (RULES.md §1), in words: the rule prose.

Everything here comes from the rules themselves: the presets and options, the constants, and
for the highest score of a deal, `score_session()` run on candidate deals. The cheat sheets
and score pads print these lines, in the active language (`best_deal()`, which is cached,
keys its cache on it).
"""

import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scorekeeper.rules import i18n
from scorekeeper.rules.common import seat_names
from scorekeeper.rules.i18n import _, gettext_noop, ngettext
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


def table_line(rules: TrickRules) -> str:
    """Who plays with how many cards: 'The 3 players; 3 hands of 12 cards (36 dealt): …'."""
    players = len(rules.players)
    hands = len(rules.hands)
    cards_each = rules.tricks + 3
    if rules.dummy:
        text = ngettext(
            "{players} player and a dummy hand; {hands} hands of {cards} cards ({dealt} dealt): "
            "3 bid-cards and {tricks} to play. {tricks} tricks a deal.",
            "{players} players and a dummy hand; {hands} hands of {cards} cards ({dealt} dealt): "
            "3 bid-cards and {tricks} to play. {tricks} tricks a deal.",
            players,
        )
    else:
        text = ngettext(
            "{players} player; {hands} hands of {cards} cards ({dealt} dealt): 3 bid-cards and "
            "{tricks} to play. {tricks} tricks a deal.",
            "{players} players; {hands} hands of {cards} cards ({dealt} dealt): 3 bid-cards and "
            "{tricks} to play. {tricks} tricks a deal.",
            players,
        )
    return text.format(
        players=players,
        hands=hands,
        cards=cards_each,
        dealt=cards_each * hands,
        tricks=rules.tricks,
    )


def deck_line(rules: TrickRules) -> str:
    """Which cards to play with (RULES.md §1.6): 'Cards: 37, the 6 to the Ace of each suit,
    and one Joker.'"""
    deck = rules.preset.deck
    if deck is None:
        return _("Cards: any pack your table agrees on.")
    dealt = (rules.tricks + 3) * len(rules.hands)
    pack = _(deck.which).format(cards=deck.cards, dealt=dealt, aside=deck.aside)
    return _("Cards: {pack}").format(pack=pack)


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


_PREMIUM_NAMES = {"declare": gettext_noop("Declare"), "reveal": gettext_noop("Reveal")}
_PREMIUM_HOW = {
    "declare": gettext_noop("bid-cards shown face up before play"),
    "reveal": gettext_noop("bid-cards face up and your whole hand played face up"),
}


def premium_rows(rules: TrickRules) -> list[PremiumRow]:
    return [
        PremiumRow(_(_PREMIUM_NAMES[kind]), PREMIUM_POINTS[kind], _(_PREMIUM_HOW[kind]))
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
        return " + ".join(str(points) for points, _what in self.parts) + f" = {self.total}"

    @property
    def legend(self) -> str:
        return " + ".join(what for _, what in self.parts)


def best_deal(rules: TrickRules) -> BestDeal | None:
    """The highest score of one player in one deal (RULES.md §1.3: 9 + 30 + 60 = 99)."""
    key = json.dumps(rules.options_data(), sort_keys=True)
    return _best_deal(rules.preset.id, key, len(rules.players), i18n.language())


@lru_cache(maxsize=256)
def _best_deal(preset_id: str, options_key: str, count: int, language: str) -> BestDeal | None:
    """`best_deal()`, worked out once for each ruleset and language (`language` is only a key:
    the words are in the active one)."""
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
        (hand.trick_points, _("tricks")),
        (hand.bonus, _("success bonus")),
        (hand.premium, _("premiums") if own and failed else _("premium")),
    ]
    shown = tuple((value, what) for value, what in parts if value)
    return BestDeal(shown, points, _how(rules, deal, own, failed))


def _how(rules: TrickRules, deal: DealResult, own: str | None, failed: Sequence[str]) -> str:
    """The best deal in words: 'Win all 9 tricks as the only one to make your bid, and
    reveal.'"""
    hand = deal.hands[0]
    # Too many sentences to write each out: the parts are clauses, each its own message.
    if hand.tricks == rules.tricks:
        text = ngettext("Win all {count} trick", "Win all {count} tricks", hand.tricks)
    else:
        text = ngettext("Win {count} trick", "Win {count} tricks", hand.tricks)
    text = text.format(count=hand.tricks)
    if hand.bid is not None and hand.bid != hand.tricks:
        text += _(" on a bid of {bid}").format(bid=hand.bid)
    if deal.successes == 1:
        text += _(" as the only one to make your bid")
    else:
        text += _(" as one of {count} making their bids").format(count=deal.successes)
    if own:
        text += _(_OWN_PREMIUM[own])
    if failed:
        other = _OTHER_FAILS_DUMMY if rules.dummy else _OTHER_FAILS
        text += _(other[failed[0]])
    return text + "."


_OWN_PREMIUM = {"declare": gettext_noop(", and declare"), "reveal": gettext_noop(", and reveal")}
_OTHER_FAILS = {
    "declare": gettext_noop(", while another player declares and fails"),
    "reveal": gettext_noop(", while another player reveals and fails"),
}
_OTHER_FAILS_DUMMY = {
    "declare": gettext_noop(", while the other player declares and fails"),
    "reveal": gettext_noop(", while the other player reveals and fails"),
}


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
        deck = rules.preset.deck
        if deck is not None and deck.turn_up:
            return [_(deck.turn_up), _("Tell the scorer the trump of every deal.")]
        return [
            _(
                "The table decides the trump of every deal, usually by turning up a card before "
                "play; no trump is possible. Tell the scorer which it is."
            )
        ]
    if rules.trump == "by-successes":
        return [
            _("First deal: {trump}.").format(trump=trump_label(rules.first_trump)),
            _("After that, by how many made their bid in the deal before over all three hands:")
            if rules.dummy
            else _("After that, by how many made their bid in the deal before:"),
        ]
    if rules.trump == "by-deviation":
        return [
            _("First deal: {trump}.").format(trump=trump_label(TRUMP_BY_COUNT[0])),
            _(
                "After that, by the total number of tricks by which all players missed their "
                "bids in the deal before:"
            ),
        ]
    if not rules.premiums:
        return [_("Nobody can make a premium bid here, so every deal is played at no trump.")]
    return [
        _("Whoever declares or reveals names the trump for that deal."),
        _(
            "A deal without a premium bid keeps the trump of the deal before; if the first deal "
            "has none, it is played at no trump."
        ),
    ]


def trump_chain(rules: TrickRules) -> list[tuple[str, str]]:
    """(count, trump) for the computed trump rules: ('0', '♦ Diamonds') … ('4 or more', …)."""
    if rules.trump == "by-deviation":
        last = len(TRUMP_BY_COUNT) - 1
        return [
            (
                _("{count} or more").format(count=count) if count == last else str(count),
                trump_label(name),
            )
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
        more = _("{count} or more").format(count=len(TRUMP_BY_COUNT))
        chain.append((more, trump_label("none")))
    return chain


def match_lines(rules: TrickRules) -> list[str]:
    """How the session ends (RULES.md §1.5): `match.describe()` and what it leaves out."""
    lines = [rules.match.describe()]
    if rules.match.type == "rubber":
        games = RUBBER_GAMES
        bonus = GAME_BONUS * (RUBBER_LENGTH - games)
        lines.append(
            _(
                "The rubber's winner adds {bonus} for each game fewer than {length} that it "
                "took ({games} games: {example})."
            ).format(bonus=GAME_BONUS, length=RUBBER_LENGTH, games=games, example=bonus)
        )
    if rules.match.type == "long":
        lines.append(_("No game bonus; a game's winner is its highest scorer."))
    if rules.match.has_games:
        lines.append(_("Game scores start again from 0 each game; totals run on."))
    if rules.preset.game_points:
        lines.append(
            _(
                "Then game points: first place 1 for each full 100 of their total; second place "
                "their own full hundreds less 1 (not below 0); the others 0."
            )
        )
    return lines


def deal_line(rules: TrickRules) -> str:
    """Who deals first, and how the deal and the lead go round."""
    if rules.dummy:
        return _("The dummy never deals: the two players deal in turn, and the non-dealer leads.")
    if rules.first_dealer:
        return _(
            "{dealer} deals first and the deal passes to the left; the player left of the dealer "
            "leads to the first trick."
        ).format(dealer=rules.players[rules.first_dealer])
    return _(
        "Seat 1 deals first and the deal passes to the left; the player left of the dealer "
        "leads to the first trick."
    )


def rotation(rules: TrickRules) -> list[tuple[int, str, str]]:
    """(deal, dealer, leader) for one turn round the table."""
    return [(index + 1, *seat(rules, index)) for index in range(len(rules.players))]


def pad_lines(rules: TrickRules) -> list[str]:
    """The numbers a scorer needs beside the pad, in a few short lines."""
    lines = []
    # Translators: one cell of the success-bonus row: how many made their bid, and the bonus.
    cell = _("{count}: {points}")
    bonus = ", ".join(
        cell.format(count=count, points=points) for count, points in bonus_cells(rules)
    )
    if rules.scoring == "long":
        lines.append(
            _("Made: {bonus} (by how many made it). Missed: minus the miss.").format(bonus=bonus)
        )
    elif rules.trick_points:
        lines.append(
            _("1 a trick, to everyone. Success bonus by how many made it: {bonus}.").format(
                bonus=bonus
            )
        )
    else:
        lines.append(
            _("No trick points. Success bonus by how many made it: {bonus}.").format(bonus=bonus)
        )
    if rules.premiums:
        premiums = ", ".join(f"{row.name.lower()} {row.points}" for row in premium_rows(rules))
        if rules.scoring == "long":
            text = _("Premiums: {premiums}; failed, the bidder loses it.")
        else:
            text = _("Premiums: {premiums}; failed, each other hand gets it.")
        lines.append(text.format(premiums=premiums))
    chain = trump_chain(rules)
    trump = " ".join(trump_lines(rules))
    if chain:
        trump += " " + ", ".join(f"{count} → {name}" for count, name in chain) + "."
    lines.append(_("Trump: {rules}").format(rules=trump))
    lines.append(" ".join(match_lines(rules)))
    return lines


def number_help(preset: Preset, name: str) -> str:
    """The hint beside a number option left empty for the preset's own: none in this game
    (every number it asks for is shown as the preset has it)."""
    return ""
