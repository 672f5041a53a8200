"""Checking and scoring the deals of a trick-game session (RULES.md §1.2-§1.8).

One pass over the deals does both: `evaluate()` gives the problems and, when there are none,
the result; `score_session()` and `check_deals()` are its two halves.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from scorekeeper.rules.bounds import MAX_DEALS, number
from scorekeeper.rules.common import is_whole, join_names, leaders, rank
from scorekeeper.rules.i18n import _, gettext_noop, ngettext
from scorekeeper.rules.trick.cards import BID_CARD_VALUES, TRUMPS, bid_from_cards, trump_word
from scorekeeper.rules.trick.entries import DealEntry, DealProblem, HandEntry, InvalidDeals
from scorekeeper.rules.trick.options import (
    DUMMY_DECLARER_POINTS,
    GAME_BONUS,
    GAME_TARGET,
    PREMIUM_POINTS,
    RUBBER_GAMES,
    RUBBER_LENGTH,
    TRUMP_BY_COUNT,
)
from scorekeeper.rules.trick.presets import DUMMY, TrickRules
from scorekeeper.rules.trick.results import (
    DealResult,
    GameResult,
    HandResult,
    News,
    NextDeal,
    PremiumResult,
    SessionResult,
    Standing,
)


@dataclass(frozen=True)
class Evaluation:
    """What one pass over the deals found: every problem, and the result when there are none."""

    problems: list[DealProblem]
    result: SessionResult | None


def evaluate(rules: TrickRules, deals: Sequence[DealEntry | None]) -> Evaluation:
    """Check every deal and, when all are right, score the session: one pass for both."""
    problems, session = _run(rules, deals)
    return Evaluation(problems, None if problems else session.result())


def score_session(rules: TrickRules, deals: Sequence[DealEntry]) -> SessionResult:
    """Check every deal and score the session; raise InvalidDeals listing every problem."""
    problems, session = _run(rules, deals)
    if problems:
        raise InvalidDeals(problems)
    return session.result()


def check_deals(rules: TrickRules, deals: Sequence[DealEntry | None]) -> list[DealProblem]:
    """Every problem in the deals. None stands for a deal that could not be read at all:
    it is not checked, and neither is anything later that depends on it."""
    return _run(rules, deals)[0]


def check_deal(
    rules: TrickRules, previous_deals: Sequence[DealEntry], entry: DealEntry
) -> list[DealProblem]:
    """The problems with a new deal after `previous_deals` (which should be valid; any
    problems they have are listed too)."""
    return check_deals(rules, [*previous_deals, entry])


def seat(rules: TrickRules, index: int) -> tuple[str, str]:
    """Dealer and leader of deal `index` (0-based). The first dealer's seat deals first, the
    deal passes left and the dealer's left neighbour leads; in `two-dummy` the two live
    players alternate."""
    players = rules.players
    dealer = rules.first_dealer + index
    return players[dealer % len(players)], players[(dealer + 1) % len(players)]


@dataclass(frozen=True)
class _Hand:
    """A hand as the rules read it."""

    player: str
    tricks: int
    bid: int | None  # None when hidden
    made: bool
    miss: int | None  # tricks the bid was missed by (0 when made); None when hidden
    premium: str | None


def _run(
    rules: TrickRules, deals: Sequence[DealEntry | None]
) -> tuple[list[DealProblem], "_Session"]:
    session = _Session(rules)
    problems: list[DealProblem] = []
    if len(deals) > MAX_DEALS:
        # Check the deals a session may hold, and only say how many more there are.
        message = _("A session has at most {most} deals; this one has {count}.").format(
            most=number(MAX_DEALS), count=number(len(deals))
        )
        problems.append(DealProblem(MAX_DEALS, None, None, message))
        deals = deals[:MAX_DEALS]
    known = True  # whether every deal so far was scored, so the state is known
    ended_after: int | None = None
    for index, entry in enumerate(deals):
        if entry is None:
            known = False
            continue
        if known and session.finished:
            ended_after = len(session.deals)
        elif rules.match.deals is not None and index >= rules.match.deals:
            ended_after = rules.match.deals
        expected = session.trump if known and ended_after is None else None
        found, hands = _check_deal(rules, index, entry, expected)
        if ended_after is not None:
            message = _("The session ended after deal {number}.").format(number=ended_after)
            found.insert(0, DealProblem(index, None, None, message))
        elif found:
            known = False
        problems += found
        if known and not found:
            session.play(index, entry, hands)
    return problems, session


def _check_deal(
    rules: TrickRules, index: int, entry: DealEntry, expected_trump: str | None
) -> tuple[list[DealProblem], dict[str, _Hand]]:
    """The deal's problems, and its hands as read. `expected_trump` is the trump the rules
    give this deal (the one that holds unless declared), or None when unknown."""
    problems: list[DealProblem] = []
    hands: dict[str, _Hand] = {}
    for player, hand in entry.hands.items():
        if player not in rules.hands:
            message = (
                _("There is no dummy in this game.")
                if player == DUMMY
                else _("{player} is not playing in this session.").format(player=player)
            )
            problems.append(DealProblem(index, player, None, message))
        else:
            read = _read_hand(rules, index, player, hand, problems)
            if read is not None:
                hands[player] = read
    missing = [player for player in rules.hands if player not in entry.hands]
    for player in missing:
        problems.append(DealProblem(index, player, None, _("No hand entered.")))
    tricks = [entry.hands[player].tricks for player in rules.hands if player in entry.hands]
    countable = not missing and all(_tricks_possible(rules, count) for count in tricks)
    if countable and sum(tricks) != rules.tricks:
        message = _("Tricks add up to {total}; a deal has {tricks}.").format(
            total=sum(tricks), tricks=rules.tricks
        )
        problems.append(DealProblem(index, None, "hands", message))
    bidders = [
        player
        for player in rules.hands
        if player in entry.hands and entry.hands[player].premium is not None
    ]
    if len(bidders) > 1 and not rules.dummy:
        message = _("Only one premium bid is allowed in a deal, but {names} made one each.").format(
            names=join_names(bidders)
        )
        problems.append(DealProblem(index, None, "hands", message))
    problems += _check_trump(rules, index, entry, bool(bidders), expected_trump)
    return problems, hands


def _check_trump(
    rules: TrickRules, index: int, entry: DealEntry, premium_bid: bool, expected: str | None
) -> list[DealProblem]:
    def problem(message: str) -> list[DealProblem]:
        return [DealProblem(index, None, "trump", message)]

    if entry.trump is not None and entry.trump not in TRUMPS:
        return problem(_("The trump is clubs, hearts, spades, diamonds or none."))
    if rules.trump == "turn-up" and entry.trump is None:
        return problem(_("Enter the trump turned up for this deal (a suit, or none)."))
    if rules.trump == "declared" and premium_bid and entry.trump is None:
        return problem(_("Enter the trump the premium bidder named."))
    if (
        not _from_table(rules, premium_bid)
        and None not in (entry.trump, expected)
        and entry.trump != expected
    ):
        assert expected is not None and entry.trump is not None
        return problem(
            _("The trump for this deal is {expected}, not {entered}.").format(
                expected=trump_word(expected), entered=trump_word(entry.trump)
            )
        )
    return []


def _from_table(rules: TrickRules, premium_bid: bool) -> bool:
    return rules.trump == "turn-up" or (rules.trump == "declared" and premium_bid)


def trump_from_table(rules: TrickRules, entry: DealEntry) -> bool:
    """Whether this deal's trump is entered at the table rather than computed by the rules."""
    premium_bid = any(hand.premium for hand in entry.hands.values())
    return _from_table(rules, premium_bid)


def entered_trump(rules: TrickRules, entry: DealEntry) -> str | None:
    """The trump to keep with a deal: the one the table gave, where the table decides it. (A
    trump the rules compute is not kept: it would stay pinned if an earlier deal were
    corrected.)"""
    return entry.trump if entry.trump and trump_from_table(rules, entry) else None


def _tricks_possible(rules: TrickRules, tricks: object) -> bool:
    return is_whole(tricks) and 0 <= tricks <= rules.tricks


def _bid_possible(rules: TrickRules, bid: int) -> bool:
    # With `zero_all_tricks` a bid of every trick (10 in `four`) is accepted as the same bid as 0.
    all_tricks = rules.zero_all_tricks and bid == rules.tricks
    return 0 <= bid <= rules.bid_max or all_tricks


def _card_value(bid: int) -> int:
    """What the bid-cards of a bid add up to: 10–13 are made with the same cards as 0–3."""
    return bid - 10 if bid >= 10 else bid


def _read_hand(
    rules: TrickRules, index: int, player: str, hand: HandEntry, problems: list[DealProblem]
) -> _Hand | None:
    """Check one hand, adding to `problems`; return it as read, or None if it has problems."""
    found_before = len(problems)

    def add(field: str, message: str) -> None:
        problems.append(DealProblem(index, player, field, message))

    is_dummy = rules.dummy and player == DUMMY
    tricks = hand.tricks
    if not is_whole(tricks) or tricks < 0:
        add("tricks", _("Tricks must be a whole number, 0 or more."))
    elif tricks > rules.tricks:
        text = ngettext(
            "{tricks} trick won, but a deal has only {most}.",
            "{tricks} tricks won, but a deal has only {most}.",
            tricks,
        )
        add("tricks", text.format(tricks=tricks, most=rules.tricks))

    card_bid = _read_bid_cards(hand.bid_cards, add)
    bid = card_bid
    if hand.bid is not None:
        bid = None
        if not is_whole(hand.bid):
            add("bid", _("A bid must be a whole number."))
        elif not _bid_possible(rules, hand.bid):
            message = _("Bid {bid} is out of range (0–{most}).")
            add("bid", message.format(bid=hand.bid, most=rules.bid_max))
        elif card_bid is not None and _card_value(hand.bid) != card_bid:
            message = _("The bid-cards make {cards}, but the bid is {bid}.")
            add("bid_cards", message.format(cards=card_bid, bid=hand.bid))
        else:
            bid = hand.bid

    made = hand.made
    if made is not None and not isinstance(made, bool):
        add("made", _("Made must be true or false."))
    bid_given = hand.bid is not None or hand.bid_cards is not None
    if not bid_given:
        if is_dummy:
            add("bid", _("The dummy's bid is always entered."))
        elif made is None:
            add("bid", _("Enter the bid, or mark the hand made or failed."))
        elif made is False and rules.needs_all_bids:
            add("bid", _("Every bid must be entered in this game."))
        elif made is True and is_whole(tricks) and not _bid_possible(rules, tricks):
            message = _("Bids go up to {most}, so {tricks} tricks cannot be a bid made.")
            add("made", message.format(most=rules.bid_max, tricks=tricks))
    _check_premium(rules, is_dummy, hand.premium, bid_given, add)
    if len(problems) > found_before:
        return None

    if bid is None and not made:
        return _Hand(player, tricks, None, False, None, hand.premium)
    if bid is None:  # marked made without a bid: the bid was the tricks won
        bid = tricks
    if rules.scoring == "long":
        bid = _long_bid(bid, tricks)
    elif bid > rules.bid_max:  # `zero_all_tricks`: a bid of every trick means 0
        bid = 0
    succeeded = _succeeded(rules, is_dummy, bid, tricks)
    if made is not None and made != succeeded:
        if made:
            text = ngettext(
                "Marked as made, but the bid was {bid} and {tricks} trick was won.",
                "Marked as made, but the bid was {bid} and {tricks} tricks were won.",
                tricks,
            )
            add("made", text.format(bid=bid, tricks=tricks))
        else:
            add("made", _("Marked as failed, but the bid of {bid} was made.").format(bid=bid))
        return None
    miss = 0 if succeeded else abs(tricks - bid)
    return _Hand(player, tricks, bid, succeeded, miss, hand.premium)


def _read_bid_cards(cards: object, add: Callable[[str, str], None]) -> int | None:
    if cards is None:
        return None
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        add("bid_cards", _("Bid-cards are a list of three suits."))
        return None
    ok = True
    if len(cards) != 3:
        add(
            "bid_cards",
            _("A bid is made with three cards; {count} given.").format(count=len(cards)),
        )
        ok = False
    for card in cards:
        if not isinstance(card, str) or card not in BID_CARD_VALUES:
            message = _('"{card}" is not a suit: use clubs, hearts, spades or diamonds.')
            add("bid_cards", message.format(card=card))
            ok = False
    return bid_from_cards(cards) if ok else None


def _check_premium(
    rules: TrickRules,
    is_dummy: bool,
    premium: object,
    bid_given: bool,
    add: Callable[[str, str], None],
) -> None:
    if premium is None:
        return
    if not isinstance(premium, str) or premium not in PREMIUM_POINTS:
        add("premium", _('A premium bid is "declare" or "reveal".'))
    elif is_dummy:
        add("premium", _("The dummy cannot make a premium bid."))
    elif rules.dummy and premium == "reveal":
        add("premium", _("Nobody may reveal in the game with a dummy; both players may declare."))
    elif not rules.premiums:
        add("premium", _("Premium bids are not played in this game."))
    elif premium not in rules.premiums:
        add("premium", _(_NOT_PLAYED[premium]))
    elif not bid_given:
        add("bid", _("A premium bid is shown, so enter the bid."))


_NOT_PLAYED = {
    "declare": gettext_noop("Declaring is not played in this game."),
    "reveal": gettext_noop("Revealing is not played in this game."),
}


def _long_bid(bid: int, tricks: int) -> int:
    """Long Ninety-Nine: bids 0–3 and 10–13 are made with the same cards, and the bidder gets
    the benefit of the doubt: the bid is whichever of the two is nearer the tricks won."""
    low = _card_value(bid)
    if low > 3:
        return low
    return low if abs(tricks - low) <= abs(tricks - (low + 10)) else low + 10


def _succeeded(rules: TrickRules, is_dummy: bool, bid: int, tricks: int) -> bool:
    if is_dummy:  # the dummy fails only by winning more than its bid
        return tricks <= bid
    if rules.zero_all_tricks and bid == 0 and tricks == rules.tricks:
        return True
    return tricks == bid


def _success_bonus(rules: TrickRules, successes: int) -> int:
    return rules.bonus[successes - 1] if 0 < successes <= len(rules.bonus) else 0


def _premium_points(rules: TrickRules, hands: Sequence[_Hand]) -> dict[str, int]:
    """Premium points to every hand (§1.3, §1.7, §1.8)."""
    points = {hand.player: 0 for hand in hands}
    failed = {hand.player for hand in hands if hand.premium is not None and not hand.made}
    for hand in hands:
        if hand.premium is None:
            continue
        value = PREMIUM_POINTS[hand.premium]
        if hand.made:
            points[hand.player] += value
        elif rules.scoring == "long":
            points[hand.player] -= value
        else:
            # Every other hand gains it; a live player whose own premium failed too does not
            # (with a dummy, both declarers failing leaves 60 to the dummy alone).
            for other in hands:
                if other.player not in failed:
                    points[other.player] += value
    if rules.dummy and rules.dummy_exact_declarer:
        dummy = hands[-1]
        if dummy.bid == dummy.tricks:
            points[DUMMY] += DUMMY_DECLARER_POINTS
    return points


class _Session:
    """The running state while deals are scored one by one."""

    def __init__(self, rules: TrickRules) -> None:
        self.rules = rules
        self.deals: list[DealResult] = []
        self.totals = dict.fromkeys(rules.hands, 0)
        self.game_scores = dict.fromkeys(rules.hands, 0)
        self.wins = dict.fromkeys(rules.players, 0)  # games won, or game bonuses held
        self.games: list[GameResult] = []
        self.finished = False
        self.winners: tuple[str, ...] = ()
        self.game_points: dict[str, int] | None = None
        # The trump of the coming deal where the rules give it (for `declared`, the one that
        # holds unless someone makes a premium bid); None where the table decides it.
        self.trump: str | None = {
            "turn-up": None,
            "by-successes": rules.first_trump,
            "declared": "none",
            "by-deviation": "diamonds",
        }[rules.trump]

    def play(self, index: int, entry: DealEntry, read: Mapping[str, _Hand]) -> None:
        rules = self.rules
        hands = [read[player] for player in rules.hands]
        trump = entry.trump if entry.trump is not None else self.trump
        assert trump is not None  # entered wherever the table decides it
        successes = sum(hand.made for hand in hands)
        bonus = _success_bonus(rules, successes)
        premium = _premium_points(rules, hands)
        results: list[HandResult] = []
        for hand in hands:
            trick_points = hand.tricks if rules.trick_points else 0
            bonus_points = bonus if hand.made else 0
            miss = -(hand.miss or 0) if rules.scoring == "long" else 0
            points = trick_points + bonus_points + premium[hand.player] + miss
            self.totals[hand.player] += points
            self.game_scores[hand.player] += points
            results.append(
                HandResult(
                    player=hand.player,
                    bid=hand.bid,
                    tricks=hand.tricks,
                    made=hand.made,
                    premium_bid=hand.premium,
                    points=points,
                    trick_points=trick_points,
                    bonus=bonus_points,
                    premium=premium[hand.player],
                    miss=miss,
                    game_bonus=0,
                    rubber_bonus=0,
                    is_dummy=rules.dummy and hand.player == DUMMY,
                )
            )

        if rules.trump == "by-successes":
            self.trump = TRUMP_BY_COUNT[successes] if successes < 4 else "none"
        elif rules.trump == "by-deviation":
            self.trump = TRUMP_BY_COUNT[min(sum(hand.miss or 0 for hand in hands), 3)]
        elif rules.trump == "declared":
            self.trump = trump

        number = index + 1
        game_scores = dict(self.game_scores) if rules.match.has_games else None
        end = self._settle(number, {hand.player for hand in hands if hand.made})
        for position, result in enumerate(results):
            game_bonus = end.game_bonuses.get(result.player, 0)
            rubber_bonus = end.rubber_bonuses.get(result.player, 0)
            results[position] = replace(
                result,
                points=result.points + game_bonus + rubber_bonus,
                game_bonus=game_bonus,
                rubber_bonus=rubber_bonus,
            )
            self.totals[result.player] += game_bonus + rubber_bonus
        if self.finished:
            self._finish(number)
            end.news.append(self._finish_news())

        dealer, leader = seat(rules, index)
        self.deals.append(
            DealResult(
                number=number,
                dealer=dealer,
                leader=leader,
                trump=trump,
                hands=tuple(results),
                successes=successes,
                premiums=tuple(
                    PremiumResult(
                        hand.player, hand.premium, hand.made, PREMIUM_POINTS[hand.premium]
                    )
                    for hand in hands
                    if hand.premium is not None
                ),
                totals=dict(self.totals),
                game_scores=game_scores,
                game_over=end.game,
                rubber_winners=end.rubber_winners,
                finished=self.finished,
                news=tuple(end.news),
            )
        )

    def _settle(self, number: int, made: set[str]) -> "_DealEnd":
        """End the game or the session if this deal does; work out the bonuses."""
        match = self.rules.match
        end = _DealEnd()
        live = self.rules.players
        if match.type == "deals":
            self.finished = number >= (match.deals or 0)
        elif match.type == "target":
            self.finished = any(self.totals[player] >= (match.target or 0) for player in live)
        if not match.has_games:
            return end
        top = leaders(self.game_scores, live)
        reached = [player for player in live if self.game_scores[player] >= GAME_TARGET]
        if not reached or (match.type == "long" and len(top) > 1):
            return end
        if match.type == "rubber":
            bonus_to = [player for player in live if player in top or player in reached]
            won = list(top)
        elif match.type == "game-bonus":
            bonus_to = [player for player in reached if player in made]
            won = bonus_to
        else:
            bonus_to = []
            won = list(top)
        end.game_bonuses = dict.fromkeys(bonus_to, GAME_BONUS)
        for player in won:
            self.wins[player] += 1
        game_number = len(self.games) + 1
        end.news.append(News("game-over", top, number=game_number))
        if bonus_to:
            end.news.append(News("game-bonus", tuple(bonus_to), bonus=GAME_BONUS))

        needed = match.games if match.type == "long" else RUBBER_GAMES
        champions = tuple(player for player in live if self.wins[player] >= (needed or 1))
        if champions:
            self.finished = True
            if match.type == "long":
                self.winners = champions
            if match.type == "rubber":
                value = GAME_BONUS * max(0, RUBBER_LENGTH - game_number)
                end.rubber_bonuses = dict.fromkeys(champions, value)
                end.rubber_winners = champions
                end.news.append(News("rubber", champions, bonus=value))
        bonuses = {
            player: end.game_bonuses.get(player, 0) + end.rubber_bonuses.get(player, 0)
            for player in self.rules.hands
        }
        end.game = GameResult(
            number=game_number,
            last_deal=number,
            winner=top,
            scores=dict(self.game_scores),
            bonuses=bonuses,
        )
        self.games.append(end.game)
        self.game_scores = dict.fromkeys(self.rules.hands, 0)
        return end

    def _finish(self, number: int) -> None:
        """The session is over: who won, and the game points of eighteen-ninety-nine."""
        live = self.rules.players
        if not self.winners:
            self.winners = leaders(self.totals, live)
        if self.rules.preset.game_points:
            self.game_points = _game_points(self.totals, live)
            self.games.append(
                GameResult(
                    number=len(self.games) + 1,
                    last_deal=number,
                    winner=self.winners,
                    scores={player: self.totals[player] for player in self.rules.hands},
                    bonuses=dict.fromkeys(self.rules.hands, 0),
                    game_points=self.game_points,
                )
            )

    def _finish_news(self) -> News:
        points = None if self.game_points is None else tuple(self.game_points.items())
        return News("finished", self.winners, game_points=points)

    def result(self) -> SessionResult:
        rules = self.rules
        current_game: int | None = None
        current_scores: dict[str, int] | None = None
        if rules.match.has_games:
            if self.finished:
                current_game, current_scores = len(self.games), dict(self.games[-1].scores)
            else:
                current_game, current_scores = len(self.games) + 1, dict(self.game_scores)
        standings = tuple(
            Standing(
                player=player,
                total=self.totals[player],
                rank=place,
                game_score=None if current_scores is None else current_scores[player],
                games_won=self.wins[player],
            )
            for player, place in rank(self.totals, rules.players)
        )
        return SessionResult(
            rules=rules,
            deals=tuple(self.deals),
            standings=standings,
            totals=dict(self.totals),
            games=tuple(self.games),
            current_game=current_game,
            current_game_scores=current_scores,
            next=None if self.finished else self._next_deal(),
            finished=self.finished,
            winners=self.winners,
            game_points=self.game_points,
        )

    def _next_deal(self) -> NextDeal:
        index = len(self.deals)
        dealer, leader = seat(self.rules, index)
        unless_declared = self.rules.trump == "declared" and bool(self.rules.premiums)
        return NextDeal(index + 1, dealer, leader, self.trump, unless_declared)


@dataclass
class _DealEnd:
    """What the end of a deal settled (filled in by _Session._settle)."""

    game: GameResult | None = None
    game_bonuses: dict[str, int] = field(default_factory=dict)
    rubber_bonuses: dict[str, int] = field(default_factory=dict)
    rubber_winners: tuple[str, ...] = ()
    news: list[News] = field(default_factory=list)


def _game_points(totals: Mapping[str, int], players: Sequence[str]) -> dict[str, int]:
    """Eighteen Ninety-Nine: first place 1 per full 100 of their total, second place their own
    full hundreds less 1 (not below 0), the rest 0. Tied players share the higher place."""
    points = {}
    for player, place in rank(totals, players):
        hundreds = max(0, totals[player] // 100)
        points[player] = {1: hundreds, 2: max(0, hundreds - 1)}.get(place, 0)
    return {player: points[player] for player in players}
