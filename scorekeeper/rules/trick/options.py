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
from scorekeeper.rules.i18n import _, gettext_noop, ngettext
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
            message = _("The match must be an object such as {example}.").format(example=example)
            raise InvalidRules([Problem(path, message)])
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in MATCH_TYPES:
            message = _("The match type must be one of: {types}.").format(
                types=", ".join(MATCH_TYPES)
            )
            raise InvalidRules([Problem(f"{path}.type", message)])
        setting = MATCH_SETTINGS.get(kind)
        problems = [
            Problem(
                f"{path}.{name}",
                _('A "{kind}" match has no setting "{name}".').format(kind=kind, name=name),
            )
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
                message = _(_MATCH_SETTING_PROBLEMS[setting]).format(most=number(most))
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
            deals = self.deals or 0
            return ngettext(
                "{deals} deal; the highest total wins.",
                "{deals} deals; the highest total wins.",
                deals,
            ).format(deals=deals)
        if self.type == "target":
            return _("Play until someone has {target} or more; the highest total wins.").format(
                target=self.target
            )
        if self.type == "rubber":
            return _(
                "Games to {target}, {bonus} bonus for the winner and anyone on "
                "{target}; first to win {games} games wins the rubber."
            ).format(target=GAME_TARGET, bonus=GAME_BONUS, games=RUBBER_GAMES)
        if self.type == "game-bonus":
            return _(
                "Games to {target}; {bonus} bonus to anyone reaching it who made "
                "their bid; play until someone holds {games} bonuses."
            ).format(target=GAME_TARGET, bonus=GAME_BONUS, games=RUBBER_GAMES)
        games = self.games or 0
        return ngettext(
            "Games to {target} (ties play on); the first to win {games} game wins.",
            "Games to {target} (ties play on); the first to win {games} games wins.",
            games,
        ).format(target=GAME_TARGET, games=games)

    def brief(self) -> str:
        """The match in a few words, as a house rule says it: "18 deals", "play to 200"."""
        if self.type == "deals":
            deals = self.deals or 0
            return ngettext("{deals} deal", "{deals} deals", deals).format(deals=deals)
        if self.type == "target":
            return _("play to {target}").format(target=self.target)
        if self.type == "rubber":
            return _("a rubber of games to {target}").format(target=GAME_TARGET)
        if self.type == "game-bonus":
            return _("games to {target} with game bonuses").format(target=GAME_TARGET)
        games = self.games or 0
        return ngettext(
            "the first to win {games} game of {target}",
            "the first to win {games} games of {target}",
            games,
        ).format(games=games, target=GAME_TARGET)


def match_words(value: object) -> str:
    return Match.from_data(value).brief()


# The match types that take a number, and the setting that holds it (the one home of this map).
MATCH_SETTINGS = {"deals": "deals", "target": "target", "long": "games"}
# The largest number each match setting takes (RULES.md §3, Bounds).
MATCH_LIMITS = {"deals": MAX_MATCH_DEALS, "target": MAX_TARGET, "games": MAX_GAMES}
_MATCH_SETTING_PROBLEMS = {
    "deals": gettext_noop("The number of deals must be a whole number from 1 to {most}."),
    "target": gettext_noop("The target must be a whole number from 1 to {most}."),
    "games": gettext_noop("The number of games must be a whole number from 1 to {most}."),
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
            message = _("Choose one of: {choices}.").format(choices=", ".join(choices))
            raise _option_problem(name, message)
        return value

    return read


def read_flag(name: str) -> Callable[[object], bool]:
    def read(value: object) -> bool:
        if not isinstance(value, bool):
            raise _option_problem(name, _("Must be true or false."))
        return value

    return read


def read_bonus(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list | tuple)
        or len(value) > MAX_PLAYERS
        or not all(is_whole(points) and 0 <= points <= MAX_BONUS for points in value)
    ):
        message = _(
            "Must be a list of at most {count} whole numbers from 0 to {most}, "
            "e.g. [30, 20, 10, 0]."
        ).format(count=MAX_PLAYERS, most=number(MAX_BONUS))
        raise _option_problem("bonus", message)
    return tuple(value)


def read_premiums(value: object) -> tuple[str, ...]:
    if (
        not isinstance(value, list | tuple)
        or not all(isinstance(kind, str) and kind in PREMIUM_POINTS for kind in value)
        or len(set(value)) != len(value)
    ):
        raise _option_problem("premiums", _('Must be a list from "declare" and "reveal".'))
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


# The options in words (the start form and the rule sheets read these): message ids, marked
# here and translated where they are shown.

TRUMP_CHOICES = (
    Choice(
        "turn-up",
        gettext_noop("Turned up at the table each deal"),
        gettext_noop("Turned up at the table"),
    ),
    Choice(
        "by-successes",
        gettext_noop("By how many made their bid in the previous deal"),
        gettext_noop("By how many made it"),
    ),
    Choice(
        "declared",
        gettext_noop("Named by whoever declares or reveals"),
        gettext_noop("Named by the declarer"),
    ),
    Choice(
        "by-deviation",
        gettext_noop("By how far the bids were missed in the previous deal"),
        gettext_noop("By the total miss"),
    ),
)
MATCH_CHOICES = (
    Choice("deals", gettext_noop("A fixed number of deals")),
    Choice("target", gettext_noop("Play to a target score")),
    Choice("rubber", gettext_noop("Rubber: first to win 3 games of 100")),
    Choice("game-bonus", gettext_noop("Games of 100 until someone holds 3 game bonuses")),
    Choice("long", gettext_noop("Games of 100 (ties play on): first to win N games")),
)
# The points are written out in the ids (a message id cannot be computed); checked below.
PREMIUM_CHOICES = (
    Choice("declare", gettext_noop("Declare (30)"), gettext_noop("Declare")),
    Choice("reveal", gettext_noop("Reveal (60)"), gettext_noop("Reveal")),
)
PREMIUM_LABELS = {choice.value: choice.brief for choice in PREMIUM_CHOICES}
OPTIONS = (
    Option(
        "trump",
        gettext_noop("Trump for each deal"),
        gettext_noop("Trump"),
        CHOICE,
        TRUMP_CHOICES,
        phrase=gettext_noop("trump {lower}"),
    ),
    Option(
        "first_trump",
        gettext_noop("Trump for the first deal"),
        gettext_noop("First trump"),
        CHOICE,
        (Choice("diamonds", gettext_noop("♦ Diamonds")), Choice("none", gettext_noop("No trump"))),
        help=gettext_noop("Used when the trump goes by how many made their bid."),
        phrase=gettext_noop("first deal: {lower}"),
    ),
    Option(
        "match",
        gettext_noop("How the session ends"),
        gettext_noop("Match"),
        MATCH,
        MATCH_CHOICES,
        help=gettext_noop("Used by the fixed-deals, target and long endings."),
        least=1,
        most=max(MAX_MATCH_DEALS, MAX_TARGET, MAX_GAMES),
        words=match_words,
        phrase="{value}",
    ),
    Option(
        "bonus",
        gettext_noop("Success bonus when 1, 2, 3, … players make their bid"),
        gettext_noop("Success bonus"),
        NUMBERS,
        help=gettext_noop("Whole numbers separated by commas. Leave empty for the usual row."),
        sheet_help=gettext_noop("points for 1, 2, 3 … players making their bids, e.g. 30,20,10,0"),
        least=0,
        most=MAX_BONUS,
        phrase=gettext_noop("success bonus {value}"),
    ),
    Option(
        "premiums",
        gettext_noop("Premium bids allowed"),
        gettext_noop("Premium bids"),
        SUBSET,
        PREMIUM_CHOICES,
        phrase=gettext_noop("premium bids: {lower}"),
    ),
    Option(
        "trick_points",
        gettext_noop("1 point for every trick won"),
        gettext_noop("Trick points"),
        FLAG,
        flag_phrases=(gettext_noop("1 point a trick"), gettext_noop("no trick points")),
    ),
    Option(
        "zero_all_tricks",
        gettext_noop("A 0 bid is also made by winning every trick"),
        gettext_noop("0 bid made by all tricks"),
        FLAG,
        flag_phrases=(
            gettext_noop("a 0 bid also made by winning every trick"),
            gettext_noop("a 0 bid made by no tricks only"),
        ),
    ),
    Option(
        "dummy_exact_declarer",
        gettext_noop("A dummy that makes its bid exactly scores 30 more"),
        gettext_noop("Dummy's exact bid scores 30"),
        FLAG,
        flag_phrases=(
            gettext_noop("a dummy's exact bid scores 30"),
            gettext_noop("a dummy's exact bid scores nothing more"),
        ),
    ),
)
OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}
# The numbers written out in the words above are the rules' own.
assert PREMIUM_POINTS == {"declare": 30, "reveal": 60}
assert DUMMY_DECLARER_POINTS == 30
assert (GAME_TARGET, RUBBER_GAMES) == (100, 3)
# The number a match type takes, in words: "Number of deals, target score or games to win".
MATCH_NUMBER_LABEL = gettext_noop("Number of deals, target score or games to win")
