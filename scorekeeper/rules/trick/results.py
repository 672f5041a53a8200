"""What the rules work out from a trick-game session's deals."""

from dataclasses import dataclass

from scorekeeper.rules.common import join_names
from scorekeeper.rules.i18n import _, ngettext
from scorekeeper.rules.trick.cards import trump_word
from scorekeeper.rules.trick.presets import TrickRules


@dataclass(frozen=True)
class HandResult:
    """One hand of a scored deal. `points` is the sum of the breakdown that follows it."""

    player: str
    bid: int | None  # None when kept hidden; as the cards mean it (`four`: 10 is 0)
    tricks: int
    made: bool
    premium_bid: str | None  # the premium bid this hand made
    points: int
    trick_points: int
    bonus: int  # success bonus
    premium: int  # premium points won or paid, including other players' failed premiums
    miss: int  # `long`: minus the tricks the bid was missed by; otherwise 0
    game_bonus: int
    rubber_bonus: int
    is_dummy: bool


@dataclass(frozen=True)
class PremiumResult:
    """A premium bid and whether it came off."""

    player: str
    kind: str  # "declare" or "reveal"
    made: bool
    value: int


@dataclass(frozen=True)
class GameResult:
    """A finished game (rubber, game-bonus, long), or eighteen-ninety-nine's game points."""

    number: int  # 1-based
    last_deal: int  # number of the deal that ended it
    winner: tuple[str, ...]  # highest scorers (tied ones all win)
    scores: dict[str, int]  # the game's scores, before its bonuses
    bonuses: dict[str, int]  # game and rubber bonuses settled at its end
    game_points: dict[str, int] | None = None  # eighteen-ninety-nine


@dataclass(frozen=True)
class News:
    """Something a deal settled, as the facts: `str()` tells it in a sentence, in the language
    active then (a result is kept and shown to phones in different languages)."""

    kind: str  # "game-over", "game-bonus", "rubber" or "finished"
    names: tuple[str, ...]  # who won it, or who gets the bonus
    number: int = 0  # game-over: the game's number
    bonus: int = 0  # game-bonus, rubber: the bonus each
    game_points: tuple[tuple[str, int], ...] | None = None  # finished: eighteen-ninety-nine

    def __str__(self) -> str:
        names, count = join_names(self.names), len(self.names)
        if self.kind == "game-over":
            text = ngettext(
                "Game {number} is over: {names} wins it.",
                "Game {number} is over: {names} win it.",
                count,
            )
            return text.format(number=self.number, names=names)
        if self.kind == "game-bonus":
            return _("Game bonus of {bonus}: {names}.").format(bonus=self.bonus, names=names)
        if self.kind == "rubber":
            text = ngettext(
                "{names} wins the rubber (bonus {bonus}).",
                "{names} win the rubber (bonus {bonus}).",
                count,
            )
            return text.format(names=names, bonus=self.bonus)
        text = ngettext(
            "The session is over: {names} wins.", "The session is over: {names} win.", count
        ).format(names=names)
        if self.game_points is not None:
            points = ", ".join(f"{player} {value}" for player, value in self.game_points)
            text += " " + _("Game points: {points}.").format(points=points)
        return text


@dataclass(frozen=True)
class DealResult:
    """One scored deal, with what it settled."""

    number: int  # 1-based
    dealer: str
    leader: str
    trump: str
    hands: tuple[HandResult, ...]  # seat order, the dummy last
    successes: int
    premiums: tuple[PremiumResult, ...]  # two only in `two-dummy`
    totals: dict[str, int]  # session totals after the deal
    game_scores: dict[str, int] | None  # the game's scores after the deal (None: no games)
    game_over: GameResult | None  # the game this deal ended
    rubber_winners: tuple[str, ...]  # who won the rubber in this deal
    finished: bool  # this deal ended the session
    news: tuple[News, ...]  # game over, game bonuses, rubber won, session over

    @property
    def announcements(self) -> tuple[str, ...]:
        """The news in plain sentences, in the active language."""
        return tuple(str(news) for news in self.news)


@dataclass(frozen=True)
class NextDeal:
    """Who deals and leads the coming deal, and its trump where the rules decide it."""

    number: int
    dealer: str
    leader: str
    trump: str | None  # None: the table decides (turn-up)
    unless_declared: bool  # `declared`: the trump holds unless someone makes a premium bid

    @property
    def trump_note(self) -> str:
        if self.trump is None:
            return _("decided at the table")
        trump = trump_word(self.trump)
        if self.unless_declared:
            return _("{trump} unless someone declares").format(trump=trump)
        return trump


@dataclass(frozen=True)
class Standing:
    """One player's place in the session."""

    player: str
    total: int
    rank: int  # equal totals share a rank: 1, 1, 3
    game_score: int | None  # in the current game (None: no games)
    games_won: int  # rubber, long: games won; game-bonus: game bonuses held


@dataclass(frozen=True)
class SessionResult:
    """Everything the rules work out from a session's deals."""

    rules: TrickRules
    deals: tuple[DealResult, ...]
    standings: tuple[Standing, ...]  # best first; the dummy is never ranked
    totals: dict[str, int]  # every hand, the dummy too
    games: tuple[GameResult, ...]  # finished games only
    current_game: int | None  # the game the next deal belongs to (the last one when finished)
    current_game_scores: dict[str, int] | None
    next: NextDeal | None  # None once finished
    finished: bool
    winners: tuple[str, ...]  # empty until finished
    game_points: dict[str, int] | None  # eighteen-ninety-nine, once finished


def table_places(result: SessionResult) -> dict[str, int]:
    """Each ranked player's rank at this table (a club night's placement): the standings' ranks,
    1 best, equal totals sharing one. The dummy is never ranked, so it has no place."""
    return {standing.player: standing.rank for standing in result.standings}


def table_points(result: SessionResult) -> dict[str, int]:
    """Each ranked player's raw points at this table: the standings' totals (the dummy's are
    no player's)."""
    return {standing.player: standing.total for standing in result.standings}


def player_counts(result: SessionResult, name: str, numbers: range | None = None) -> dict[str, int]:
    """What a player's record counts from this session: the hands of seat `name` in the deals
    `numbers` (all of them by default; a player who left a seat played only some). Deals,
    points and bids made; each shown bid as "bid:<n>"; premium bids tried and made."""
    counts: dict[str, int] = {}
    for deal in result.deals:
        if numbers is not None and deal.number not in numbers:
            continue
        for hand in deal.hands:
            if hand.player != name:
                continue
            _add(counts, "deals", 1)
            _add(counts, "points", hand.points)
            _add(counts, "made", int(hand.made))
            if hand.bid is not None:
                _add(counts, f"bid:{hand.bid}", 1)
            if hand.premium_bid:
                _add(counts, "premiums_tried", 1)
                _add(counts, "premiums_made", int(hand.made))
    return {count: value for count, value in counts.items() if value}


def _add(counts: dict[str, int], name: str, value: int) -> None:
    counts[name] = counts.get(name, 0) + value
