"""The presets of the trick game (RULES.md §1.6) and the rules of one session."""

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.bounds import player_range
from scorekeeper.rules.common import (
    InvalidRules,
    Problem,
    check_first_dealer,
    check_player_names,
)
from scorekeeper.rules.i18n import _, gettext_noop, ngettext
from scorekeeper.rules.options import Option, house_rules, rules_title
from scorekeeper.rules.trick.options import (
    BONUS_ROW,
    BONUS_ROW_FIVE,
    FIRST_TRUMPS,
    MATCH_TYPES,
    OPTION_NAMES,
    OPTIONS,
    OPTIONS_BY_NAME,
    READERS,
    TRICKS_FOR_PLAYERS,
    TRUMP_RULES,
    Match,
    read_bonus,
    read_choice,
    read_flag,
    read_premiums,
    usual_options,
)

DUMMY = "dummy"  # the dummy's key among the hands of a deal in `two-dummy`
DUMMY_LABEL = gettext_noop("Dummy")  # the dummy as people read it (a message id)


def hand_label(name: str) -> str:
    """A hand as people read it: the player's name, or "Dummy" (in the active language)."""
    return _(DUMMY_LABEL) if name == DUMMY else name


@dataclass(frozen=True)
class Deck:
    """The cards a preset is played with (RULES.md §1.6): how many, which, and how many of
    them are set aside rather than dealt (a card turned up, a stack turned for trumps). Its
    words are message ids with the numbers as fields: {cards}, {dealt} (to the hands), {aside}."""

    cards: int
    which: str
    aside: int = 0
    turn_up: str = ""  # what a card turned for trumps means, where the preset turns one


# The 36 cards of the three-player game, dealt whole (RULES.md §1.6).
SIX_TO_ACE = Deck(36, gettext_noop("{cards}, the 6 to the Ace of each suit."))


@dataclass(frozen=True)
class Preset:
    """One row of the ruleset list (RULES.md §1.6)."""

    id: str
    name: str  # short title (a message id: translate it where shown)
    description: str  # one plain line for a picker (a message id too)
    defaults: dict[str, object]  # every option's value, JSON-shaped; see default_options()
    players: tuple[int, ...] = (3,)  # allowed numbers of players (without the dummy)
    tricks: int | None = 9  # tricks per deal; None: from the number of players
    dummy: bool = False
    scoring: str = "standard"  # or "long" (§1.8)
    game_points: bool = False  # eighteen-ninety-nine
    needs_all_bids: bool = False
    bid_max: int = 9
    match_types: tuple[str, ...] = MATCH_TYPES  # the match types a user may choose
    deck: Deck | None = None  # None: any pack the table agrees on (`custom`)

    @property
    def players_label(self) -> str:
        """'3 players', '2 to 5 players', '2 players + dummy' (the start form seats as many)."""
        count, players = self.players[-1], player_range(self.players)
        if self.dummy:
            text = ngettext("{players} player + dummy", "{players} players + dummy", count)
        else:
            text = ngettext("{players} player", "{players} players", count)
        return text.format(players=players)


PRESETS: dict[str, Preset] = {
    preset.id: preset
    for preset in (
        Preset(
            id="parlett-classic",
            name=gettext_noop("Classic Ninety-Nine"),
            description=gettext_noop(
                "Parlett's original with the Joker: trump turned up each deal; 9 deals."
            ),
            defaults=usual_options(trump="turn-up"),
            deck=Deck(
                37,
                gettext_noop("{cards}, the 6 to the Ace of each suit, and one Joker."),
                aside=1,
                turn_up=gettext_noop(
                    "The 37th card, left over, is turned up: its suit is trump; a Nine or the "
                    "Joker turned up means no trump. A Joker in a hand counts as the turned-up "
                    "card, for bidding and play."
                ),
            ),
        ),
        Preset(
            id="parlett-jokerless",
            name=gettext_noop("Jokerless Ninety-Nine"),
            description=gettext_noop(
                "Parlett's preferred form: diamonds first, then trump by how many made it."
            ),
            defaults=usual_options(first_trump="diamonds"),
            deck=SIX_TO_ACE,
        ),
        Preset(
            id="encyclopaedia",
            name=gettext_noop("Encyclopaedia"),
            description=gettext_noop(
                "No trump first, then trump by successes; 100-point games with bonuses."
            ),
            defaults=usual_options(match={"type": "game-bonus"}),
            deck=SIX_TO_ACE,
        ),
        Preset(
            id="declared",
            name=gettext_noop("Ninety-Nine Declared"),
            description=gettext_noop(
                "Whoever declares or reveals names the trump; otherwise it stays."
            ),
            defaults=usual_options(trump="declared"),
            deck=SIX_TO_ACE,
        ),
        Preset(
            id="eighteen-ninety-nine",
            name=gettext_noop("Eighteen Ninety-Nine"),
            description=gettext_noop(
                "18 deals, trump turned from a stack; game points by the hundred."
            ),
            defaults=usual_options(trump="turn-up", match={"type": "deals", "deals": 18}),
            game_points=True,
            match_types=("deals", "target"),
            deck=Deck(
                54,
                gettext_noop(
                    "a {cards}-card pack with its two Jokers. Deal the {dealt} from 6 to Ace; "
                    "shuffle the other {aside} (2 to 5, and the Jokers) and stack them face down."
                ),
                aside=18,
                turn_up=gettext_noop(
                    "Each deal, turn the top card of the stack: its suit is trump; a Joker means "
                    "no trump."
                ),
            ),
        ),
        Preset(
            id="long",
            name=gettext_noop("Long Ninety-Nine"),
            description=gettext_noop(
                "16 cards each, 13 tricks, bids to 13; no trick points, minus the miss."
            ),
            # The first deal's ♦ is the trump by deviation's own (RULES.md §1.4); `first_trump`
            # keeps the usual `none`, which a house rule of trump by successes starts from.
            defaults=usual_options(
                trump="by-deviation",
                match={"type": "long", "games": 1},
                trick_points=False,
            ),
            tricks=13,
            scoring="long",
            needs_all_bids=True,
            bid_max=13,
            deck=Deck(48, gettext_noop("{cards}, a 52-card pack without its four Nines.")),
        ),
        Preset(
            id="four",
            name=gettext_noop("Four players"),
            description=gettext_noop(
                "Four players, 52 cards, 10 tricks; a 0 bid is also made by all 10."
            ),
            defaults=usual_options(match={"type": "deals", "deals": 12}, zero_all_tricks=True),
            players=(4,),
            tricks=10,
            deck=Deck(52, gettext_noop("{cards}, the whole pack, 2 to Ace.")),
        ),
        Preset(
            id="five",
            name=gettext_noop("Five players"),
            description=gettext_noop("Five players, 9 tricks; success bonus 50, 40, 30, 20 or 10."),
            defaults=usual_options(
                match={"type": "deals", "deals": 10}, bonus=list(BONUS_ROW_FIVE)
            ),
            players=(5,),
            deck=Deck(
                60,
                gettext_noop(
                    "{cards}, a 52-card pack and eight more: the 11s and 12s, or a second set of "
                    "7s and 8s."
                ),
            ),
        ),
        Preset(
            id="two-dummy",
            name=gettext_noop("Two players with a dummy"),
            description=gettext_noop(
                "Two players and a dummy hand; both may declare, nobody reveals."
            ),
            defaults=usual_options(premiums=["declare"], dummy_exact_declarer=True),
            players=(2,),
            dummy=True,
            deck=SIX_TO_ACE,
        ),
        Preset(
            id="naughty-nun",
            name=gettext_noop("Naughty Nun"),
            description=gettext_noop(
                "Scored as Ninety-Nine; the trump is chosen at the table each deal."
            ),
            defaults=usual_options(trump="turn-up"),
            deck=SIX_TO_ACE,
        ),
        Preset(
            id="oxford-whist",
            name=gettext_noop("Oxford Whist"),
            description=gettext_noop(
                "No premium bids; 1 a trick and a flat 10 for making your bid; 16 deals."
            ),
            defaults=usual_options(
                trump="turn-up",
                match={"type": "deals", "deals": 16},
                bonus=[10, 10, 10],
                premiums=[],
            ),
            deck=Deck(
                52,
                gettext_noop(
                    "a {cards}-card pack. Deal the {dealt} from 6 to Ace; shuffle the other "
                    "{aside} (2 to 5) and stack them face down."
                ),
                aside=16,
                turn_up=gettext_noop(
                    "Before each deal, turn the top card of the stack: its suit is trump."
                ),
            ),
        ),
        Preset(
            id="custom",
            name=gettext_noop("Custom"),
            description=gettext_noop("Two to five players; set every option yourself."),
            defaults=usual_options(first_trump="diamonds"),
            players=(2, 3, 4, 5),
            tricks=None,
        ),
    )
}


def inapplicable(preset: Preset, name: str) -> str | None:
    """Why an option cannot apply to a preset, or None: every other option may be changed on
    every preset, as a house rule (RULES.md §3)."""
    if name == "dummy_exact_declarer" and not preset.dummy:
        option = OPTIONS_BY_NAME[name]
        return _("“{option}” does not apply: {preset} has no dummy.").format(
            option=_(option.short), preset=_(preset.name)
        )
    return None


def applicable_options(preset: Preset) -> tuple[Option, ...]:
    """The options a table may change on this preset, in the order the forms ask for them."""
    return tuple(option for option in OPTIONS if inapplicable(preset, option.name) is None)


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
    first_dealer: int = 0  # the seat (index into `players`) that deals the first deal

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

    def house_rules(self) -> tuple[str, ...]:
        """Each option changed from the preset's own value, in words: ("trump named by the
        declarer", "18 deals")."""
        return house_rules(OPTIONS, self.overrides_data())

    @property
    def title(self) -> str:
        """ "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals"."""
        return rules_title(self.preset.name, self.house_rules())


def resolve_rules(
    preset_id: str,
    options: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int = 0,
) -> TrickRules:
    """Check the preset id, the option overrides, the players (in seat order) and the seat
    that deals first; raise InvalidRules."""
    problems: list[Problem] = check_first_dealer(first_dealer, players)
    preset = PRESETS.get(preset_id)
    if preset is None:
        choices = ", ".join(PRESETS)
        message = _('Unknown ruleset "{ruleset}"; choose one of {choices}.')
        problems.append(Problem("ruleset", message.format(ruleset=preset_id, choices=choices)))
    problems += check_player_names(players, reserved=(DUMMY,) if preset and preset.dummy else ())
    if preset is not None and len(players) not in preset.players:
        problems.append(Problem("players", _player_count_problem(preset, len(players))))
    overrides: dict[str, object] = {}
    for name, value in options.items():
        path = f"options.{name}"
        if name not in OPTION_NAMES:
            problems.append(Problem(path, _('There is no option "{name}".').format(name=name)))
        elif (
            preset is not None
            and (why := inapplicable(preset, name))
            # Restating the preset's own value changes nothing (files may list every option).
            and value != default_options(preset, len(players)).get(name)
        ):
            problems.append(Problem(path, why))
        else:
            try:
                READERS[name](value)
            except InvalidRules as error:
                problems += error.problems
            else:
                overrides[name] = value
    if preset is not None and preset.dummy and "reveal" in read_premiums_or_none(overrides):
        message = _(
            "Nobody reveals in {preset}: the dummy's hand is open. Choose declare only."
        ).format(preset=_(preset.name))
        problems.append(Problem("options.premiums", message))
    if preset is not None and "match" in overrides:
        match_type = Match.from_data(overrides["match"]).type
        if match_type not in preset.match_types:
            allowed = f'"{preset.match_types[0]}"'
            for kind in preset.match_types[1:]:
                allowed = _("{first} or {second}").format(first=allowed, second=f'"{kind}"')
            message = _("{preset} is played as a {kinds} match.").format(
                preset=_(preset.name), kinds=allowed
            )
            problems.append(Problem("options.match.type", message))
    if problems or preset is None:
        raise InvalidRules(problems)
    values = default_options(preset, len(players)) | overrides
    return TrickRules(
        preset=preset,
        players=tuple(players),
        trump=read_choice("trump", TRUMP_RULES)(values["trump"]),
        first_trump=read_choice("first_trump", FIRST_TRUMPS)(values["first_trump"]),
        match=Match.from_data(values["match"]),
        bonus=read_bonus(values["bonus"]),
        premiums=read_premiums(values["premiums"]),
        trick_points=read_flag("trick_points")(values["trick_points"]),
        zero_all_tricks=read_flag("zero_all_tricks")(values["zero_all_tricks"]),
        dummy_exact_declarer=read_flag("dummy_exact_declarer")(values["dummy_exact_declarer"]),
        tricks=preset.tricks or TRICKS_FOR_PLAYERS[len(players)],
        first_dealer=first_dealer,
    )


def read_premiums_or_none(overrides: Mapping[str, object]) -> tuple[str, ...]:
    """The premium bids among checked overrides, or none if they do not change them."""
    return read_premiums(overrides["premiums"]) if "premiums" in overrides else ()


def _player_count_problem(preset: Preset, count: int) -> str:
    last, wanted = preset.players[-1], player_range(preset.players)
    if preset.dummy:
        text = ngettext(
            "{preset} is for {wanted} player (the dummy is not listed); {count} given.",
            "{preset} is for {wanted} players (the dummy is not listed); {count} given.",
            last,
        )
    else:
        text = ngettext(
            "{preset} is for {wanted} player; {count} given.",
            "{preset} is for {wanted} players; {count} given.",
            last,
        )
    return text.format(preset=_(preset.name), wanted=wanted, count=count)


def more_deals(rules: TrickRules) -> int | None:
    """How many deals "play more" adds to a finished session of a fixed number of deals (the
    preset's own number, or three rounds of the table), or None for other matches."""
    if rules.match.type != "deals":
        return None
    default = default_options(rules.preset, len(rules.players))["match"]
    assert isinstance(default, dict)
    more = default.get("deals")
    return more if isinstance(more, int) else len(rules.players) * 3
