"""The trick game's options (RULES.md §3): their values, how they are read, and their words."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scorekeeper.rules.bounds import (
    MAX_BONUS,
    MAX_GAMES,
    MAX_MATCH_DEALS,
    MAX_PLAYERS,
    MAX_TARGET,
    number,
)
from scorekeeper.rules.common import InvalidRules, Problem, is_whole
from scorekeeper.rules.options import CHOICE, FLAG, MATCH, NUMBERS, SUBSET, Choice, Option

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
PREMIUM_POINTS = {"declare": 30, "reveal": 60}


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
        setting = MATCH_SETTINGS.get(kind)
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

    def brief(self) -> str:
        """The match in a few words, as a house rule says it: "18 deals", "play to 200"."""
        if self.type == "deals":
            return "1 deal" if self.deals == 1 else f"{self.deals} deals"
        if self.type == "target":
            return f"play to {self.target}"
        if self.type == "rubber":
            return f"a rubber of games to {GAME_TARGET}"
        if self.type == "game-bonus":
            return f"games to {GAME_TARGET} with game bonuses"
        games = "1 game" if self.games == 1 else f"{self.games} games"
        return f"the first to win {games} of {GAME_TARGET}"


def match_words(value: object) -> str:
    return Match.from_data(value).brief()


# The match types that take a number, and the setting that holds it (the one home of this map).
MATCH_SETTINGS = {"deals": "deals", "target": "target", "long": "games"}
# The largest number each match setting takes (RULES.md §3, Bounds).
MATCH_LIMITS = {"deals": MAX_MATCH_DEALS, "target": MAX_TARGET, "games": MAX_GAMES}
_MATCH_SETTING_NOUNS = {
    "deals": "The number of deals",
    "target": "The target",
    "games": "The number of games",
}


def usual_options(**changes: object) -> dict[str, object]:
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


def read_choice(name: str, choices: tuple[str, ...]) -> Callable[[object], str]:
    def read(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _option_problem(name, f"Choose one of: {', '.join(choices)}.")
        return value

    return read


def read_flag(name: str) -> Callable[[object], bool]:
    def read(value: object) -> bool:
        if not isinstance(value, bool):
            raise _option_problem(name, "Must be true or false.")
        return value

    return read


def read_bonus(value: object) -> tuple[int, ...]:
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


def read_premiums(value: object) -> tuple[str, ...]:
    if (
        not isinstance(value, list | tuple)
        or not all(isinstance(kind, str) and kind in PREMIUM_POINTS for kind in value)
        or len(set(value)) != len(value)
    ):
        raise _option_problem("premiums", 'Must be a list from "declare" and "reveal".')
    return tuple(kind for kind in PREMIUM_POINTS if kind in value)


def _option_problem(name: str, message: str) -> InvalidRules:
    return InvalidRules([Problem(f"options.{name}", message)])


# Each option's reader: its value as the rules use it, or InvalidRules naming the option.
READERS: dict[str, Callable[[object], object]] = {
    "trump": read_choice("trump", TRUMP_RULES),
    "first_trump": read_choice("first_trump", FIRST_TRUMPS),
    "match": Match.from_data,
    "bonus": read_bonus,
    "premiums": read_premiums,
    "trick_points": read_flag("trick_points"),
    "zero_all_tricks": read_flag("zero_all_tricks"),
    "dummy_exact_declarer": read_flag("dummy_exact_declarer"),
}


# The options in words (the start form and the rule sheets read these)

TRUMP_CHOICES = (
    Choice("turn-up", "Turned up at the table each deal", "Turned up at the table"),
    Choice(
        "by-successes", "By how many made their bid in the previous deal", "By how many made it"
    ),
    Choice("declared", "Named by whoever declares or reveals", "Named by the declarer"),
    Choice(
        "by-deviation", "By how far the bids were missed in the previous deal", "By the total miss"
    ),
)
MATCH_CHOICES = (
    Choice("deals", "A fixed number of deals"),
    Choice("target", "Play to a target score"),
    Choice("rubber", "Rubber: first to win 3 games of 100"),
    Choice("game-bonus", "Games of 100 until someone holds 3 game bonuses"),
    Choice("long", "Games of 100 (ties play on): first to win N games"),
)
PREMIUM_CHOICES = (
    Choice("declare", f"Declare ({PREMIUM_POINTS['declare']})", "Declare"),
    Choice("reveal", f"Reveal ({PREMIUM_POINTS['reveal']})", "Reveal"),
)
PREMIUM_LABELS = {choice.value: choice.brief for choice in PREMIUM_CHOICES}
OPTIONS = (
    Option("trump", "Trump for each deal", "Trump", CHOICE, TRUMP_CHOICES, phrase="trump {lower}"),
    Option(
        "first_trump",
        "Trump for the first deal",
        "First trump",
        CHOICE,
        (Choice("diamonds", "♦ Diamonds"), Choice("none", "No trump")),
        help="Used when the trump goes by how many made their bid.",
        phrase="first deal: {lower}",
    ),
    Option(
        "match",
        "How the session ends",
        "Match",
        MATCH,
        MATCH_CHOICES,
        help="Used by the fixed-deals, target and long endings.",
        least=1,
        most=max(MAX_MATCH_DEALS, MAX_TARGET, MAX_GAMES),
        words=match_words,
        phrase="{value}",
    ),
    Option(
        "bonus",
        "Success bonus when 1, 2, 3, … players make their bid",
        "Success bonus",
        NUMBERS,
        help="Whole numbers separated by commas. Leave empty for the usual row.",
        sheet_help="points for 1, 2, 3 … players making their bids, e.g. 30,20,10,0",
        least=0,
        most=MAX_BONUS,
        phrase="success bonus {value}",
    ),
    Option(
        "premiums",
        "Premium bids allowed",
        "Premium bids",
        SUBSET,
        PREMIUM_CHOICES,
        phrase="premium bids: {lower}",
    ),
    Option(
        "trick_points",
        "1 point for every trick won",
        "Trick points",
        FLAG,
        flag_phrases=("1 point a trick", "no trick points"),
    ),
    Option(
        "zero_all_tricks",
        "A 0 bid is also made by winning every trick",
        "0 bid made by all tricks",
        FLAG,
        flag_phrases=("a 0 bid also made by winning every trick", "a 0 bid made by no tricks only"),
    ),
    Option(
        "dummy_exact_declarer",
        f"A dummy that makes its bid exactly scores {DUMMY_DECLARER_POINTS} more",
        f"Dummy's exact bid scores {DUMMY_DECLARER_POINTS}",
        FLAG,
        flag_phrases=(
            f"a dummy's exact bid scores {DUMMY_DECLARER_POINTS}",
            "a dummy's exact bid scores nothing more",
        ),
    ),
)
OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}
# The number a match type takes, in words: "Number of deals, target score or games to win".
MATCH_NUMBER_LABEL = "Number of deals, target score or games to win"
