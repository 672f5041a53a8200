"""Ninety-Nine, the trick game (RULES.md §1): presets, options, checks and scoring.

Pure Python. `resolve_rules()` turns a preset id, option overrides and the players into
`TrickRules`; `score_session()` checks the deals as entered at the table and scores them.
"""

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from scorekeeper.rules.bounds import (
    MAX_BONUS,
    MAX_DEALS,
    MAX_GAMES,
    MAX_MATCH_DEALS,
    MAX_PLAYERS,
    MAX_TARGET,
    number,
)
from scorekeeper.rules.common import (
    InvalidRules,
    Problem,
    check_player_names,
    is_whole,
    join_names,
    leaders,
    rank,
)

SUITS = ("clubs", "hearts", "spades", "diamonds")
TRUMPS = (*SUITS, "none")
BID_CARD_VALUES = {"diamonds": 0, "spades": 1, "hearts": 2, "clubs": 3}
PREMIUM_POINTS = {"declare": 30, "reveal": 60}
DUMMY = "dummy"  # the dummy's key among the hands of a deal in `two-dummy`

TRUMP_RULES = ("turn-up", "by-successes", "declared", "by-deviation")
FIRST_TRUMPS = ("diamonds", "none")
MATCH_TYPES = ("deals", "target", "rubber", "game-bonus", "long")
OPTION_NAMES = (
    "trump",
    "first_trump",
    "match",
    "bonus",
    "premiums",
    "trick_points",
    "zero_all_tricks",
    "dummy_exact_declarer",
)

BONUS_ROW = (30, 20, 10, 0)  # success bonus for 1, 2, 3, 4 players succeeding
BONUS_ROW_FIVE = (50, 40, 30, 20, 10)  # the same at a five-player table
TRICKS_FOR_PLAYERS = {2: 9, 3: 9, 4: 10, 5: 9}  # tricks per deal where the preset leaves it open
# The next deal's trump, by how many succeeded (4 or more: none) or by the total miss (3 or more:
# clubs) in the deal before.
TRUMP_BY_COUNT = ("diamonds", "spades", "hearts", "clubs")
GAME_TARGET = 100  # a game ends at the end of the deal in which someone reaches this
GAME_BONUS = 100
RUBBER_GAMES = 3  # games to win a rubber (or game bonuses to hold, in `game-bonus`)
RUBBER_LENGTH = 8  # the rubber bonus is 100 for each game fewer than this that the rubber took
DUMMY_DECLARER_POINTS = 30


def bid_from_cards(cards: Sequence[str]) -> int:
    """The bid that three bid-cards stand for: each diamond 0, spade 1, heart 2, club 3."""
    if len(cards) != 3:
        raise ValueError(f"A bid is made with three cards, not {len(cards)}.")
    for card in cards:
        if card not in BID_CARD_VALUES:
            raise ValueError(f'"{card}" is not a suit.')
    return sum(BID_CARD_VALUES[card] for card in cards)


# Options and presets


@dataclass(frozen=True)
class Match:
    """How a session ends (the `match` option, RULES.md §1.5)."""

    type: str  # one of MATCH_TYPES
    deals: int | None = None  # `deals`: how many
    target: int | None = None  # `target`: the total that ends the session
    games: int | None = None  # `long`: games to win

    @property
    def has_games(self) -> bool:
        return self.type in ("rubber", "game-bonus", "long")

    @classmethod
    def from_data(cls, data: object) -> "Match":
        """Read the option's JSON shape, e.g. {"type": "deals", "deals": 9}; raise InvalidRules."""
        path = "options.match"
        if not isinstance(data, Mapping):
            example = '{"type": "deals", "deals": 9}'
            raise InvalidRules([Problem(path, f"The match must be an object such as {example}.")])
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in MATCH_TYPES:
            message = f"The match type must be one of: {', '.join(MATCH_TYPES)}."
            raise InvalidRules([Problem(f"{path}.type", message)])
        setting = _MATCH_SETTINGS.get(kind)
        problems = [
            Problem(f"{path}.{name}", f'A "{kind}" match has no setting "{name}".')
            for name in data
            if name not in ("type", setting)
        ]
        count: int | None = None
        if setting is not None:
            value = data.get(setting, 1 if setting == "games" else None)
            most = MATCH_LIMITS[setting]
            if is_whole(value) and 1 <= value <= most:
                count = value
            else:
                noun = _MATCH_SETTING_NOUNS[setting]
                message = f"{noun} must be a whole number from 1 to {number(most)}."
                problems.append(Problem(f"{path}.{setting}", message))
        if problems:
            raise InvalidRules(problems)
        return cls(
            type=kind,
            deals=count if kind == "deals" else None,
            target=count if kind == "target" else None,
            games=count if kind == "long" else None,
        )

    def to_data(self) -> dict[str, object]:
        data: dict[str, object] = {"type": self.type}
        if self.type == "deals":
            data["deals"] = self.deals
        elif self.type == "target":
            data["target"] = self.target
        elif self.type == "long":
            data["games"] = self.games
        return data

    def describe(self) -> str:
        """The match in plain words, for the cheat sheet."""
        if self.type == "deals":
            return f"{self.deals} deals; the highest total wins."
        if self.type == "target":
            return f"Play until someone has {self.target} or more; the highest total wins."
        if self.type == "rubber":
            return (
                f"Games to {GAME_TARGET}, {GAME_BONUS} bonus for the winner and anyone on "
                f"{GAME_TARGET}; first to win {RUBBER_GAMES} games wins the rubber."
            )
        if self.type == "game-bonus":
            return (
                f"Games to {GAME_TARGET}; {GAME_BONUS} bonus to anyone reaching it who made "
                f"their bid; play until someone holds {RUBBER_GAMES} bonuses."
            )
        games = "1 game" if self.games == 1 else f"{self.games} games"
        return f"Games to {GAME_TARGET} (ties play on); the first to win {games} wins."


_MATCH_SETTINGS = {"deals": "deals", "target": "target", "long": "games"}
# The largest number each match setting takes (RULES.md §3, Bounds).
MATCH_LIMITS = {"deals": MAX_MATCH_DEALS, "target": MAX_TARGET, "games": MAX_GAMES}
_MATCH_SETTING_NOUNS = {
    "deals": "The number of deals",
    "target": "The target",
    "games": "The number of games",
}


def _options(**changes: object) -> dict[str, object]:
    """A complete set of option values: the usual ones with `changes`."""
    options: dict[str, object] = {
        "trump": "by-successes",
        "first_trump": "none",
        "match": {"type": "deals", "deals": 9},
        "bonus": list(BONUS_ROW),
        "premiums": ["declare", "reveal"],
        "trick_points": True,
        "zero_all_tricks": False,
        "dummy_exact_declarer": False,
    }
    return options | changes


@dataclass(frozen=True)
class Preset:
    """One row of the ruleset list (RULES.md §1.6)."""

    id: str
    name: str  # short title
    description: str  # one plain line for a picker
    defaults: dict[str, object]  # every option's value, JSON-shaped; see default_options()
    players: tuple[int, ...] = (3,)  # allowed numbers of players (without the dummy)
    tricks: int | None = 9  # tricks per deal; None: from the number of players
    dummy: bool = False
    scoring: str = "standard"  # or "long" (§1.8)
    game_points: bool = False  # eighteen-ninety-nine
    needs_all_bids: bool = False
    bid_max: int = 9
    open_options: frozenset[str] = frozenset({"match"})  # what a user may change
    match_types: tuple[str, ...] = MATCH_TYPES  # the match types a user may choose


PRESETS: dict[str, Preset] = {
    preset.id: preset
    for preset in (
        Preset(
            id="parlett-classic",
            name="Classic Ninety-Nine",
            description="Parlett's original with the Joker: trump turned up each deal; 9 deals.",
            defaults=_options(trump="turn-up"),
        ),
        Preset(
            id="parlett-jokerless",
            name="Jokerless Ninety-Nine",
            description="Parlett's preferred form: diamonds first, then trump by how many made it.",
            defaults=_options(first_trump="diamonds"),
            open_options=frozenset({"match", "first_trump"}),
        ),
        Preset(
            id="encyclopaedia",
            name="Encyclopaedia",
            description="No trump first, then trump by successes; 100-point games with bonuses.",
            defaults=_options(match={"type": "game-bonus"}),
            open_options=frozenset({"match", "first_trump"}),
        ),
        Preset(
            id="declared",
            name="Ninety-Nine Declared",
            description="Whoever declares or reveals names the trump; otherwise it stays.",
            defaults=_options(trump="declared"),
        ),
        Preset(
            id="eighteen-ninety-nine",
            name="Eighteen Ninety-Nine",
            description="18 deals, trump turned from a stack; game points by the hundred.",
            defaults=_options(trump="turn-up", match={"type": "deals", "deals": 18}),
            game_points=True,
            match_types=("deals", "target"),
        ),
        Preset(
            id="long",
            name="Long Ninety-Nine",
            description="16 cards each, 13 tricks, bids to 13; no trick points, minus the miss.",
            defaults=_options(
                trump="by-deviation",
                first_trump="diamonds",
                match={"type": "long", "games": 1},
                trick_points=False,
            ),
            tricks=13,
            scoring="long",
            needs_all_bids=True,
            bid_max=13,
        ),
        Preset(
            id="four",
            name="Four players",
            description="Four players, 52 cards, 10 tricks; a 0 bid is also made by all 10.",
            defaults=_options(match={"type": "deals", "deals": 12}, zero_all_tricks=True),
            players=(4,),
            tricks=10,
            open_options=frozenset({"match", "first_trump", "bonus", "zero_all_tricks"}),
        ),
        Preset(
            id="five",
            name="Five players",
            description="Five players, 9 tricks; success bonus 50, 40, 30, 20 or 10.",
            defaults=_options(match={"type": "deals", "deals": 10}, bonus=list(BONUS_ROW_FIVE)),
            players=(5,),
            open_options=frozenset({"match", "first_trump", "bonus"}),
        ),
        Preset(
            id="two-dummy",
            name="Two players with a dummy",
            description="Two players and a dummy hand; both may declare, nobody reveals.",
            defaults=_options(premiums=["declare"], dummy_exact_declarer=True),
            players=(2,),
            dummy=True,
            open_options=frozenset({"match", "first_trump", "dummy_exact_declarer"}),
        ),
        Preset(
            id="naughty-nun",
            name="Naughty Nun",
            description="Scored as Ninety-Nine; the trump is chosen at the table each deal.",
            defaults=_options(trump="turn-up"),
        ),
        Preset(
            id="oxford-whist",
            name="Oxford Whist",
            description="No premium bids; 1 a trick and a flat 10 for making your bid; 16 deals.",
            defaults=_options(
                trump="turn-up",
                match={"type": "deals", "deals": 16},
                bonus=[10, 10, 10],
                premiums=[],
            ),
            open_options=frozenset({"match", "bonus"}),
        ),
        Preset(
            id="custom",
            name="Custom",
            description="Two to five players; set every option yourself.",
            defaults=_options(first_trump="diamonds"),
            players=(2, 3, 4, 5),
            tricks=None,
            open_options=frozenset(OPTION_NAMES),
        ),
    )
}


def default_options(preset: Preset, player_count: int) -> dict[str, object]:
    """The preset's option values for this many players (a fresh copy, JSON-shaped).

    A five-player table gets the five-player bonus row unless the preset has its own.
    """
    options = copy.deepcopy(preset.defaults)
    if player_count == 5 and options["bonus"] == list(BONUS_ROW):
        options["bonus"] = list(BONUS_ROW_FIVE)
    return options


@dataclass(frozen=True)
class TrickRules:
    """The rules of one session: a preset with its options, for these players."""

    preset: Preset
    players: tuple[str, ...]  # seat order, without the dummy
    trump: str  # one of TRUMP_RULES
    first_trump: str  # one of FIRST_TRUMPS
    match: Match
    bonus: tuple[int, ...]  # success bonus for 1, 2, 3, … succeeding; 0 beyond the row
    premiums: tuple[str, ...]  # the premium bids allowed, in PREMIUM_POINTS order
    trick_points: bool
    zero_all_tricks: bool
    dummy_exact_declarer: bool
    tricks: int  # tricks per deal

    @property
    def dummy(self) -> bool:
        return self.preset.dummy

    @property
    def hands(self) -> tuple[str, ...]:
        """Who has a hand in every deal: the players, then the dummy."""
        return (*self.players, DUMMY) if self.dummy else self.players

    @property
    def scoring(self) -> str:
        return self.preset.scoring

    @property
    def bid_max(self) -> int:
        return self.preset.bid_max

    @property
    def needs_all_bids(self) -> bool:
        # The trump by deviation needs every player's miss, so every bid.
        return self.preset.needs_all_bids or self.trump == "by-deviation"

    @property
    def has_games(self) -> bool:
        """Whether the session has games to list (§1.5, or the game points at the end)."""
        return self.match.has_games or self.preset.game_points

    def options_data(self) -> dict[str, object]:
        """Every option's effective value, JSON-shaped."""
        return {
            "trump": self.trump,
            "first_trump": self.first_trump,
            "match": self.match.to_data(),
            "bonus": list(self.bonus),
            "premiums": list(self.premiums),
            "trick_points": self.trick_points,
            "zero_all_tricks": self.zero_all_tricks,
            "dummy_exact_declarer": self.dummy_exact_declarer,
        }

    def overrides_data(self) -> dict[str, object]:
        """Only the options that differ from the preset's defaults."""
        defaults = default_options(self.preset, len(self.players))
        return {
            name: value for name, value in self.options_data().items() if value != defaults[name]
        }


def resolve_rules(
    preset_id: str, options: Mapping[str, object], players: Sequence[str]
) -> TrickRules:
    """Check the preset id, the option overrides and the players; raise InvalidRules."""
    problems: list[Problem] = []
    preset = PRESETS.get(preset_id)
    if preset is None:
        choices = ", ".join(PRESETS)
        problems.append(
            Problem("ruleset", f'Unknown ruleset "{preset_id}"; choose one of {choices}.')
        )
    problems += check_player_names(players, reserved=(DUMMY,) if preset and preset.dummy else ())
    if preset is not None and len(players) not in preset.players:
        problems.append(Problem("players", _player_count_problem(preset, len(players))))
    overrides: dict[str, object] = {}
    for name, value in options.items():
        path = f"options.{name}"
        if name not in OPTION_NAMES:
            problems.append(Problem(path, f'There is no option "{name}".'))
        elif (
            preset is not None
            and name not in preset.open_options
            # Restating the preset's own value changes nothing (files may list every option).
            and value != default_options(preset, len(players)).get(name)
        ):
            problems.append(
                Problem(path, f"{preset.name} does not let you change this; choose Custom.")
            )
        else:
            try:
                _OPTION_READERS[name](value)
            except InvalidRules as error:
                problems += error.problems
            else:
                overrides[name] = value
    if preset is not None and "match" in overrides:
        match_type = Match.from_data(overrides["match"]).type
        if match_type not in preset.match_types:
            allowed = " or ".join(f'"{kind}"' for kind in preset.match_types)
            message = f"{preset.name} is played as a {allowed} match."
            problems.append(Problem("options.match.type", message))
    if problems or preset is None:
        raise InvalidRules(problems)
    values = default_options(preset, len(players)) | overrides
    return TrickRules(
        preset=preset,
        players=tuple(players),
        trump=_read_choice("trump", TRUMP_RULES)(values["trump"]),
        first_trump=_read_choice("first_trump", FIRST_TRUMPS)(values["first_trump"]),
        match=Match.from_data(values["match"]),
        bonus=_read_bonus(values["bonus"]),
        premiums=_read_premiums(values["premiums"]),
        trick_points=_read_flag("trick_points")(values["trick_points"]),
        zero_all_tricks=_read_flag("zero_all_tricks")(values["zero_all_tricks"]),
        dummy_exact_declarer=_read_flag("dummy_exact_declarer")(values["dummy_exact_declarer"]),
        tricks=preset.tricks or TRICKS_FOR_PLAYERS[len(players)],
    )


def _player_count_problem(preset: Preset, count: int) -> str:
    counts = preset.players
    wanted = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    dummy = " (the dummy is not listed)" if preset.dummy else ""
    return f"{preset.name} is for {wanted} players{dummy}; {count} given."


def _read_choice(name: str, choices: tuple[str, ...]) -> Callable[[object], str]:
    def read(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _option_problem(name, f"Choose one of: {', '.join(choices)}.")
        return value

    return read


def _read_flag(name: str) -> Callable[[object], bool]:
    def read(value: object) -> bool:
        if not isinstance(value, bool):
            raise _option_problem(name, "Must be true or false.")
        return value

    return read


def _read_bonus(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list | tuple)
        or len(value) > MAX_PLAYERS
        or not all(is_whole(points) and 0 <= points <= MAX_BONUS for points in value)
    ):
        message = (
            f"Must be a list of at most {MAX_PLAYERS} whole numbers from 0 to "
            f"{number(MAX_BONUS)}, e.g. [30, 20, 10, 0]."
        )
        raise _option_problem("bonus", message)
    return tuple(value)


def _read_premiums(value: object) -> tuple[str, ...]:
    if (
        not isinstance(value, list | tuple)
        or not all(isinstance(kind, str) and kind in PREMIUM_POINTS for kind in value)
        or len(set(value)) != len(value)
    ):
        raise _option_problem("premiums", 'Must be a list from "declare" and "reveal".')
    return tuple(kind for kind in PREMIUM_POINTS if kind in value)


def _option_problem(name: str, message: str) -> InvalidRules:
    return InvalidRules([Problem(f"options.{name}", message)])


_OPTION_READERS: dict[str, Callable[[object], object]] = {
    "trump": _read_choice("trump", TRUMP_RULES),
    "first_trump": _read_choice("first_trump", FIRST_TRUMPS),
    "match": Match.from_data,
    "bonus": _read_bonus,
    "premiums": _read_premiums,
    "trick_points": _read_flag("trick_points"),
    "zero_all_tricks": _read_flag("zero_all_tricks"),
    "dummy_exact_declarer": _read_flag("dummy_exact_declarer"),
}


# What the table enters


@dataclass(frozen=True)
class HandEntry:
    """One hand of a deal, exactly as entered at the table.

    `tricks` is required; then a `bid`, or the three `bid_cards` (suits), or `made` alone
    (True: the bid was the tricks won; False: failed, bid kept hidden). `made` may accompany a
    bid but must agree with it. `premium` is "declare" or "reveal".
    """

    tricks: int
    bid: int | None = None
    bid_cards: tuple[str, ...] | None = None
    made: bool | None = None
    premium: str | None = None


@dataclass(frozen=True)
class DealEntry:
    """One deal: a hand per player (and the dummy's, keyed DUMMY), and the trump if entered."""

    hands: Mapping[str, HandEntry]
    trump: str | None = None


# Problems with the deals


@dataclass(frozen=True)
class DealProblem:
    """Something wrong with one deal: which (0-based), whose hand, which field, and what.

    `field` is a hand's field ("tricks", "bid", "bid_cards", "made", "premium"), "trump",
    "hands" for the hands taken together, or None for the hand (with a player) or the deal.
    """

    deal: int
    player: str | None
    field: str | None
    message: str

    @property
    def path(self) -> str:
        """Where in the scoresheet file, e.g. deals[3].hands.Ben.bid."""
        deal = f"deals[{self.deal}]"
        if self.field in ("trump", "hands"):
            return f"{deal}.{self.field}"
        if self.player is None:
            return deal
        hand = f"{deal}.hands.{self.player}"
        return f"{hand}.{self.field}" if self.field else hand

    def __str__(self) -> str:
        who = f", {self.player}" if self.player is not None else ""
        return f"Deal {self.deal + 1}{who}: {self.message}"


class InvalidDeals(ValueError):
    """The deals cannot be scored; `problems` lists everything found."""

    def __init__(self, problems: Sequence[DealProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


# Results


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
    announcements: tuple[str, ...]  # plain sentences: game over, rubber won, session over


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
            return "decided at the table"
        return f"{self.trump} unless someone declares" if self.unless_declared else self.trump


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


# Checking and scoring


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
    """Dealer and leader of deal `index` (0-based). Seat 1 deals first, the deal passes left and
    the dealer's left neighbour leads; in `two-dummy` the two live players alternate."""
    players = rules.players
    return players[index % len(players)], players[(index + 1) % len(players)]


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
        message = f"A session has at most {number(MAX_DEALS)} deals; this one has {len(deals):,}."
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
            found.insert(
                0, DealProblem(index, None, None, f"The session ended after deal {ended_after}.")
            )
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
                "There is no dummy in this game."
                if player == DUMMY
                else f"{player} is not playing in this session."
            )
            problems.append(DealProblem(index, player, None, message))
        else:
            read = _read_hand(rules, index, player, hand, problems)
            if read is not None:
                hands[player] = read
    missing = [player for player in rules.hands if player not in entry.hands]
    for player in missing:
        problems.append(DealProblem(index, player, None, "No hand entered."))
    tricks = [entry.hands[player].tricks for player in rules.hands if player in entry.hands]
    countable = not missing and all(_tricks_possible(rules, count) for count in tricks)
    if countable and sum(tricks) != rules.tricks:
        message = f"Tricks add up to {sum(tricks)}; a deal has {rules.tricks}."
        problems.append(DealProblem(index, None, "hands", message))
    bidders = [
        player
        for player in rules.hands
        if player in entry.hands and entry.hands[player].premium is not None
    ]
    if len(bidders) > 1 and not rules.dummy:
        message = (
            f"Only one premium bid is allowed in a deal, but {join_names(bidders)} made one each."
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
        return problem("The trump is clubs, hearts, spades, diamonds or none.")
    if rules.trump == "turn-up" and entry.trump is None:
        return problem("Enter the trump turned up for this deal (a suit, or none).")
    if rules.trump == "declared" and premium_bid and entry.trump is None:
        return problem("Enter the trump the premium bidder named.")
    if (
        not _from_table(rules, premium_bid)
        and None not in (entry.trump, expected)
        and entry.trump != expected
    ):
        return problem(f"The trump for this deal is {expected}, not {entry.trump}.")
    return []


def _from_table(rules: TrickRules, premium_bid: bool) -> bool:
    return rules.trump == "turn-up" or (rules.trump == "declared" and premium_bid)


def trump_from_table(rules: TrickRules, entry: DealEntry) -> bool:
    """Whether this deal's trump is entered at the table rather than computed by the rules."""
    premium_bid = any(hand.premium for hand in entry.hands.values())
    return _from_table(rules, premium_bid)


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
        add("tricks", "Tricks must be a whole number, 0 or more.")
    elif tricks > rules.tricks:
        add("tricks", f"{tricks} tricks won, but a deal has only {rules.tricks}.")

    card_bid = _read_bid_cards(hand.bid_cards, add)
    bid = card_bid
    if hand.bid is not None:
        bid = None
        if not is_whole(hand.bid):
            add("bid", "A bid must be a whole number.")
        elif not _bid_possible(rules, hand.bid):
            add("bid", f"Bid {hand.bid} is out of range (0–{rules.bid_max}).")
        elif card_bid is not None and _card_value(hand.bid) != card_bid:
            add("bid_cards", f"The bid-cards make {card_bid}, but the bid is {hand.bid}.")
        else:
            bid = hand.bid

    made = hand.made
    if made is not None and not isinstance(made, bool):
        add("made", "Made must be true or false.")
    bid_given = hand.bid is not None or hand.bid_cards is not None
    if not bid_given:
        if is_dummy:
            add("bid", "The dummy's bid is always entered.")
        elif made is None:
            add("bid", "Enter the bid, or mark the hand made or failed.")
        elif made is False and rules.needs_all_bids:
            add("bid", "Every bid must be entered in this game.")
        elif made is True and is_whole(tricks) and not _bid_possible(rules, tricks):
            add("made", f"Bids go up to {rules.bid_max}, so {tricks} tricks cannot be a bid made.")
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
            add("made", f"Marked as made, but the bid was {bid} and {tricks} tricks were won.")
        else:
            add("made", f"Marked as failed, but the bid of {bid} was made.")
        return None
    miss = 0 if succeeded else abs(tricks - bid)
    return _Hand(player, tricks, bid, succeeded, miss, hand.premium)


def _read_bid_cards(cards: object, add: Callable[[str, str], None]) -> int | None:
    if cards is None:
        return None
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        add("bid_cards", "Bid-cards are a list of three suits.")
        return None
    ok = True
    if len(cards) != 3:
        add("bid_cards", f"A bid is made with three cards; {len(cards)} given.")
        ok = False
    for card in cards:
        if not isinstance(card, str) or card not in BID_CARD_VALUES:
            add("bid_cards", f'"{card}" is not a suit: use clubs, hearts, spades or diamonds.')
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
        add("premium", 'A premium bid is "declare" or "reveal".')
    elif is_dummy:
        add("premium", "The dummy cannot make a premium bid.")
    elif rules.dummy and premium == "reveal":
        add("premium", "Nobody may reveal in the game with a dummy; both players may declare.")
    elif not rules.premiums:
        add("premium", "Premium bids are not played in this game.")
    elif premium not in rules.premiums:
        add("premium", f"{_PREMIUM_NOUNS[premium]} is not played in this game.")
    elif not bid_given:
        add("bid", "A premium bid is shown, so enter the bid.")


_PREMIUM_NOUNS = {"declare": "Declaring", "reveal": "Revealing"}


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
            end.announcements.append(self._finish_announcement())

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
                announcements=tuple(end.announcements),
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
        end.announcements.append(f"Game {game_number} is over: {_wins(top)} it.")
        if bonus_to:
            end.announcements.append(f"Game bonus of {GAME_BONUS}: {join_names(bonus_to)}.")

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
                end.announcements.append(f"{_wins(champions)} the rubber (bonus {value}).")
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

    def _finish_announcement(self) -> str:
        sentence = f"The session is over: {_wins(self.winners)}."
        if self.game_points is not None:
            points = ", ".join(f"{player} {value}" for player, value in self.game_points.items())
            sentence += f" Game points: {points}."
        return sentence

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
    announcements: list[str] = field(default_factory=list)


def _game_points(totals: Mapping[str, int], players: Sequence[str]) -> dict[str, int]:
    """Eighteen Ninety-Nine: first place 1 per full 100 of their total, second place their own
    full hundreds less 1 (not below 0), the rest 0. Tied players share the higher place."""
    points = {}
    for player, place in rank(totals, players):
        hundreds = max(0, totals[player] // 100)
        points[player] = {1: hundreds, 2: max(0, hundreds - 1)}.get(place, 0)
    return {player: points[player] for player in players}


def _wins(names: Sequence[str]) -> str:
    return f"{join_names(names)} {'wins' if len(names) == 1 else 'win'}"
