"""The presets of the adding game (RULES.md §2.3) and the rules of one session."""

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.adding.events import (
    ADJUST,
    BORDERS,
    BUST,
    BUST_OUT_OF_ROUND,
    CUSTOM_EVENTS,
    HIT_69,
    LAST_TO_PLAY,
    ROUND_WON,
    THIRTY_THREE_EVENTS,
    TRIPS,
    EventRule,
)
from scorekeeper.rules.adding.options import (
    DEFAULT_PLAYERS,
    DOLLAR_BILL_CORNERS,
    DOLLAR_BILL_FOLDS,
    OPTION_NAMES,
    OPTIONS,
    OPTIONS_BY_NAME,
    option_problem,
    text_or_none,
    usual_options,
)
from scorekeeper.rules.bounds import player_range
from scorekeeper.rules.common import (
    InvalidRules,
    Problem,
    check_first_dealer,
    check_player_names,
    is_whole,
)
from scorekeeper.rules.i18n import _, gettext_noop, ngettext
from scorekeeper.rules.options import Option, house_rules, rules_title


@dataclass(frozen=True)
class AddingPreset:
    """One row of the ruleset list (RULES.md §2.3)."""

    id: str
    name: str  # short title (English: translate it where it is shown, same id)
    description: str  # one plain line for a picker (English, as `name`)
    cards_held: tuple[int, ...]  # cards in each hand (the players pick one where several)
    limit: int  # going over it is a bust
    scoring: str  # one of SCORINGS
    defaults: dict[str, object]  # every option's value, JSON-shaped (None: does not apply)
    events: tuple[EventRule, ...]  # the preset's own events (adjust is always allowed too)
    players: tuple[int, ...] = DEFAULT_PLAYERS  # allowed numbers of players
    tokens_over_four: int | None = None  # the tokens when more than 4 play (pagat's 99: 3)

    @property
    def players_label(self) -> str:
        """'2 to 10 players' (the start form seats as many), in the active language."""
        text = ngettext("{players} player", "{players} players", self.players[-1])
        return text.format(players=player_range(self.players))


PRESETS: dict[str, AddingPreset] = {
    preset.id: preset
    for preset in (
        AddingPreset(
            id="ninety-nine",
            name=gettext_noop("Ninety-Nine"),
            description=gettext_noop(
                "Pagat's 99: 5 pennies (3 with over 4 players); a bust costs one."
            ),
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=5),
            events=(BUST,),
            tokens_over_four=3,
        ),
        AddingPreset(
            id="ninety-nine-standard",
            name=gettext_noop("Ninety-Nine, standard"),
            description=gettext_noop(
                "The encyclopaedia's 99: 3 tokens, the 9 sets 99; regional card tables."
            ),
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(card_table="standard"),
            events=(BUST,),
        ),
        AddingPreset(
            id="dollar-bill",
            name=gettext_noop("Dollar Bill"),
            description=gettext_noop(
                "Fold a corner of your dollar bill for each bust; four corners and out."
            ),
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=DOLLAR_BILL_CORNERS, display="dollar-bill"),
            events=(BUST,),
        ),
        AddingPreset(
            id="on-honor",
            name=gettext_noop("On Your Honor"),
            description=gettext_noop(
                "1950s: 3 pennies; with none left you play on your honor until you bust."
            ),
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(out="owing", card_table="stack-1950s"),
            events=(BUST,),
        ),
        AddingPreset(
            id="thirty-three",
            name=gettext_noop("Thirty-Three"),
            description=gettext_noop(
                "33, 66, 99 with 9 tokens: make one exactly, others pay; cross, you pay."
            ),
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=9, out="owing", card_table="thirty-three"),
            events=THIRTY_THREE_EVENTS,
        ),
        AddingPreset(
            id="wilson",
            name=gettext_noop("Wilson"),
            description=gettext_noop(
                "3 game points a round, one lost at each border; first past 15 ends it."
            ),
            cards_held=(3,),
            limit=99,
            scoring="wilson",
            defaults=usual_options(out=None, card_table="wilson"),
            events=BORDERS,
        ),
        AddingPreset(
            id="one-hundred",
            name=gettext_noop("One Hundred"),
            description=gettext_noop(
                "Limit 100, 3 tokens; black aces set any total, tens set 100."
            ),
            cards_held=(3,),
            limit=100,
            scoring="tokens",
            defaults=usual_options(card_table="one-hundred"),
            events=(BUST,),
            players=tuple(range(3, 11)),
        ),
        AddingPreset(
            id="ninety-eight",
            name=gettext_noop("Ninety-Eight"),
            description=gettext_noop("Drinking game: 4 cards, limit 98; whoever goes over drinks."),
            cards_held=(4,),
            limit=98,
            scoring="drinks",
            defaults=usual_options(tokens=None, out=None, card_table="ninety-eight"),
            events=(BUST,),
        ),
        AddingPreset(
            id="ninety-eight-arizona",
            name=gettext_noop("Ninety-Eight, Arizona"),
            description=gettext_noop(
                "Bust and you sit out the round; the last player to play wins it."
            ),
            cards_held=(4,),
            limit=98,
            scoring="rounds",
            defaults=usual_options(
                tokens=None, out=None, card_table="arizona", bust="out-of-round"
            ),
            events=(BUST_OUT_OF_ROUND, ROUND_WON),
        ),
        AddingPreset(
            id="michigan",
            name=gettext_noop("Michigan"),
            description=gettext_noop(
                "Dollar bill, 4 folds; lay down three of a kind and everyone else folds."
            ),
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=DOLLAR_BILL_CORNERS, display="dollar-bill"),
            events=(BUST, TRIPS),
        ),
        AddingPreset(
            id="sudden-death",
            name=gettext_noop("Sudden Death"),
            description=gettext_noop("One life: go over 99 and you are out. 3, 5 or 7 cards each."),
            cards_held=(3, 5, 7),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=1),
            events=(BUST,),
        ),
        AddingPreset(
            id="custom",
            name=gettext_noop("Custom"),
            description=gettext_noop(
                "Every event and every option: tokens, going out, display, card table."
            ),
            cards_held=(3, 4, 5, 7),
            limit=99,
            scoring="tokens",
            defaults=usual_options(),
            events=CUSTOM_EVENTS,
        ),
    )
}


TOKEN_OPTIONS = ("tokens", "out", "display", "bust")  # only where players hold tokens


def inapplicable(preset: AddingPreset, name: str) -> str | None:
    """Why an option cannot apply to a preset, or None: every other option may be changed on
    every preset, as a house rule (RULES.md §3). Tokens, going out, their display and the bust
    that costs them belong to the games played for tokens; Wilson counts game points, the 98s
    drinks or rounds won."""
    if name in TOKEN_OPTIONS and preset.scoring != "tokens":
        option = OPTIONS_BY_NAME[name]
        message = _INAPPLICABLE[preset.scoring]
        return _(message).format(option=_(option.short), preset=_(preset.name))
    return None


def applicable_options(preset: AddingPreset) -> tuple[Option, ...]:
    """The options a table may change on this preset, in the order the forms ask for them."""
    return tuple(option for option in OPTIONS if inapplicable(preset, option.name) is None)


def default_options(preset: AddingPreset, player_count: int) -> dict[str, object]:
    """The preset's option values for this many players (a fresh copy, JSON-shaped).

    Pagat's 99 gives each player 3 pennies instead of 5 when more than 4 play.
    """
    options = copy.deepcopy(preset.defaults)
    if preset.tokens_over_four is not None and player_count > 4:
        options["tokens"] = preset.tokens_over_four
    return options


@dataclass(frozen=True)
class AddingRules:
    """The rules of one session: a preset with its options, for these players."""

    preset: AddingPreset
    players: tuple[str, ...]  # seat order
    tokens: int | None  # each player's start; Wilson: game points every round; None: 98s
    out: str | None  # one of OUT_RULES; None where nobody is eliminated
    on_69: str  # one of ON_69
    display: str  # one of DISPLAYS
    card_table: str  # a key of CARD_TABLES
    bust: str  # one of BUST_RULES
    events: tuple[EventRule, ...]  # the events of this session (adjust is always allowed too)
    first_dealer: int = 0  # the seat (index into `players`) that deals the first round

    @property
    def scoring(self) -> str:
        return self.preset.scoring

    @property
    def limit(self) -> int:
        return self.preset.limit

    @property
    def uses_tokens(self) -> bool:
        """Players hold tokens and are eliminated (every scoring but Wilson's and the 98s')."""
        return self.preset.scoring == "tokens"

    @property
    def units(self) -> tuple[str, str]:
        """What the numbers count, singular and plural: ("token", "tokens"), ("fold", …)."""
        if self.uses_tokens:
            return _FOLD_UNITS if self.display == "dollar-bill" else _TOKEN_UNITS
        return _UNITS[self.scoring]

    def amount(self, count: int) -> str:
        """'1 token', '3 tokens', '2 drinks' … in the active language."""
        unit, many = self.units[0], abs(count)
        if unit == "token":
            text = ngettext("{count} token", "{count} tokens", many)
        elif unit == "fold":
            text = ngettext("{count} fold", "{count} folds", many)
        elif unit == "game point":
            text = ngettext("{count} game point", "{count} game points", many)
        elif unit == "drink":
            text = ngettext("{count} drink", "{count} drinks", many)
        else:
            text = ngettext("{count} round won", "{count} rounds won", many)
        return text.format(count=count)

    def options_data(self) -> dict[str, object]:
        """Every option's effective value, JSON-shaped."""
        return {
            "tokens": self.tokens,
            "out": self.out,
            "on_69": self.on_69,
            "display": self.display,
            "card_table": self.card_table,
            "bust": self.bust,
        }

    def overrides_data(self) -> dict[str, object]:
        """Only the options that differ from the preset's defaults."""
        defaults = default_options(self.preset, len(self.players))
        return {
            name: value for name, value in self.options_data().items() if value != defaults[name]
        }

    def house_rules(self) -> tuple[str, ...]:
        """Each option changed from the preset's own value, in words: ("2 tokens each",
        "out when you cannot pay")."""
        return house_rules(OPTIONS, self.overrides_data())

    @property
    def title(self) -> str:
        """ "Thirty-Three, house rules: out at 0 tokens"."""
        return rules_title(_(self.preset.name), self.house_rules())


# What the numbers count, singular and plural: English ids, translated where they are shown.
_UNITS = {
    "wilson": (gettext_noop("game point"), gettext_noop("game points")),
    "drinks": (gettext_noop("drink"), gettext_noop("drinks")),
    "rounds": (gettext_noop("round won"), gettext_noop("rounds won")),
}
_TOKEN_UNITS = (gettext_noop("token"), gettext_noop("tokens"))
_FOLD_UNITS = (gettext_noop("fold"), gettext_noop("folds"))
# Why a token option does not apply, by the preset's scoring.
_INAPPLICABLE = {
    "wilson": gettext_noop("“{option}” does not apply: {preset} counts game points, not tokens."),
    "drinks": gettext_noop("“{option}” does not apply: {preset} counts drinks, not tokens."),
    "rounds": gettext_noop("“{option}” does not apply: {preset} counts rounds won, not tokens."),
}


def resolve_rules(
    preset_id: str,
    options: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int = 0,
) -> AddingRules:
    """Check the preset id, the option overrides, the players (in seat order) and the seat
    that deals first; raise InvalidRules."""
    problems: list[Problem] = check_first_dealer(first_dealer, players)
    preset = PRESETS.get(preset_id)
    if preset is None:
        choices = ", ".join(PRESETS)
        problems.append(
            Problem(
                "ruleset",
                _('Unknown ruleset "{preset}"; choose one of {choices}.').format(
                    preset=preset_id, choices=choices
                ),
            )
        )
    problems += check_player_names(players)
    if preset is not None and len(players) not in preset.players:
        wanted = player_range(preset.players)
        message = _("{preset} is for {wanted} players; {count} given.").format(
            preset=_(preset.name), wanted=wanted, count=len(players)
        )
        problems.append(Problem("players", message))
    defaults = default_options(preset, len(players)) if preset is not None else {}
    overrides: dict[str, object] = {}
    for name, value in options.items():
        path = f"options.{name}"
        if name not in OPTION_NAMES:
            problems.append(Problem(path, _('There is no option "{name}".').format(name=name)))
        elif preset is not None and (why := inapplicable(preset, name)):
            # Restating the preset's own value changes nothing (files may list every option).
            if value != defaults[name]:
                problems.append(Problem(path, why))
        else:
            wrong = option_problem(name, value)
            if not wrong and preset is not None and (name, value) == ("on_69", "token"):
                wrong = _no_token_to_gain(preset)
            if wrong:
                problems.append(Problem(path, wrong))
            else:
                overrides[name] = value
    if preset is None:
        raise InvalidRules(problems)
    values = defaults | overrides
    tokens = values["tokens"]
    if values["display"] == "dollar-bill" and is_whole(tokens) and tokens > DOLLAR_BILL_FOLDS:
        where = "options.tokens" if "tokens" in overrides else "options.display"
        message = _(
            "A dollar bill folds {folds} times at most (four corners, then in half), so it "
            "cannot stand for {tokens} tokens."
        ).format(folds=DOLLAR_BILL_FOLDS, tokens=tokens)
        problems.append(Problem(where, message))
    if problems:
        raise InvalidRules(problems)
    return AddingRules(
        preset=preset,
        players=tuple(players),
        tokens=tokens if is_whole(tokens) else None,
        out=text_or_none(values["out"]),
        on_69=str(values["on_69"]),
        display=str(values["display"]),
        card_table=str(values["card_table"]),
        bust=str(values["bust"]),
        events=_session_events(preset, str(values["bust"]), str(values["on_69"])),
        first_dealer=first_dealer,
    )


def _session_events(preset: AddingPreset, bust: str, on_69: str) -> tuple[EventRule, ...]:
    """The preset's events as the options change them: a bust that only puts the player out of
    the round needs a `win` to end the round; on_69 "token" adds the hit 69."""
    events = list(preset.events)
    if bust == "out-of-round":
        events = [BUST_OUT_OF_ROUND if rule.event == "bust" else rule for rule in events]
        if not any(rule.event == "win" for rule in events):
            events.append(LAST_TO_PLAY)
    if on_69 == "token":
        events.append(HIT_69)
    return tuple(events)


def events_for(rules: AddingRules) -> tuple[EventRule, ...]:
    """The buttons to show for this session: its events, then Adjust."""
    return (*rules.events, ADJUST)


def _no_token_to_gain(preset: AddingPreset) -> str | None:
    """Why making 69 cannot gain a token in this preset (the 98s count drinks or rounds won)."""
    if preset.scoring in ("tokens", "wilson"):
        return None
    if preset.scoring == "drinks":
        message = _("{preset} counts drinks, so making 69 cannot gain a token.")
    else:
        message = _("{preset} counts rounds won, so making 69 cannot gain a token.")
    return message.format(preset=_(preset.name))
