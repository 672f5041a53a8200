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
from scorekeeper.rules.common import InvalidRules, Problem, check_player_names, is_whole
from scorekeeper.rules.options import Option, house_rules, rules_title


@dataclass(frozen=True)
class AddingPreset:
    """One row of the ruleset list (RULES.md §2.3)."""

    id: str
    name: str  # short title
    description: str  # one plain line for a picker
    cards_held: tuple[int, ...]  # cards in each hand (the players pick one where several)
    limit: int  # going over it is a bust
    scoring: str  # one of SCORINGS
    defaults: dict[str, object]  # every option's value, JSON-shaped (None: does not apply)
    events: tuple[EventRule, ...]  # the preset's own events (adjust is always allowed too)
    players: tuple[int, ...] = DEFAULT_PLAYERS  # allowed numbers of players
    tokens_over_four: int | None = None  # the tokens when more than 4 play (pagat's 99: 3)

    @property
    def players_label(self) -> str:
        """'2 to 10 players' (the start form seats as many)."""
        return f"{player_range(self.players)} players"


PRESETS: dict[str, AddingPreset] = {
    preset.id: preset
    for preset in (
        AddingPreset(
            id="ninety-nine",
            name="Ninety-Nine",
            description="Pagat's 99: 5 pennies (3 with over 4 players); a bust costs one.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=5),
            events=(BUST,),
            tokens_over_four=3,
        ),
        AddingPreset(
            id="ninety-nine-standard",
            name="Ninety-Nine, standard",
            description="The encyclopaedia's 99: 3 tokens, the 9 sets 99; regional card tables.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(card_table="standard"),
            events=(BUST,),
        ),
        AddingPreset(
            id="dollar-bill",
            name="Dollar Bill",
            description="Fold a corner of your dollar bill for each bust; four corners and out.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=DOLLAR_BILL_CORNERS, display="dollar-bill"),
            events=(BUST,),
        ),
        AddingPreset(
            id="on-honor",
            name="On Your Honor",
            description="1950s: 3 pennies; with none left you play on your honor until you bust.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(out="owing", card_table="stack-1950s"),
            events=(BUST,),
        ),
        AddingPreset(
            id="thirty-three",
            name="Thirty-Three",
            description="33, 66, 99 with 9 tokens: make one exactly, others pay; cross, you pay.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=9, out="owing", card_table="thirty-three"),
            events=THIRTY_THREE_EVENTS,
        ),
        AddingPreset(
            id="wilson",
            name="Wilson",
            description="3 game points a round, one lost at each border; first past 15 ends it.",
            cards_held=(3,),
            limit=99,
            scoring="wilson",
            defaults=usual_options(out=None, card_table="wilson"),
            events=BORDERS,
        ),
        AddingPreset(
            id="one-hundred",
            name="One Hundred",
            description="Limit 100, 3 chips; black aces set any total, tens set 100.",
            cards_held=(3,),
            limit=100,
            scoring="tokens",
            defaults=usual_options(card_table="one-hundred"),
            events=(BUST,),
            players=tuple(range(3, 11)),
        ),
        AddingPreset(
            id="ninety-eight",
            name="Ninety-Eight",
            description="Drinking game: 4 cards, limit 98; whoever goes over drinks.",
            cards_held=(4,),
            limit=98,
            scoring="drinks",
            defaults=usual_options(tokens=None, out=None, card_table="ninety-eight"),
            events=(BUST,),
        ),
        AddingPreset(
            id="ninety-eight-arizona",
            name="Ninety-Eight, Arizona",
            description="Bust and you sit out the round; the last player to play wins it.",
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
            name="Michigan",
            description="Dollar bill, 4 folds; lay down three of a kind and everyone else folds.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=DOLLAR_BILL_CORNERS, display="dollar-bill"),
            events=(BUST, TRIPS),
        ),
        AddingPreset(
            id="sudden-death",
            name="Sudden Death",
            description="One life: go over 99 and you are out. 3, 5 or 7 cards each.",
            cards_held=(3, 5, 7),
            limit=99,
            scoring="tokens",
            defaults=usual_options(tokens=1),
            events=(BUST,),
        ),
        AddingPreset(
            id="custom",
            name="Custom",
            description="Every event and every option: tokens, going out, display, card table.",
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
        plural = _UNITS[preset.scoring][1]
        return f"“{option.short}” does not apply: {preset.name} counts {plural}, not tokens."
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
    players: tuple[str, ...]  # seat order; seat 1 deals the first round
    tokens: int | None  # each player's start; Wilson: game points every round; None: 98s
    out: str | None  # one of OUT_RULES; None where nobody is eliminated
    on_69: str  # one of ON_69
    display: str  # one of DISPLAYS
    card_table: str  # a key of CARD_TABLES
    bust: str  # one of BUST_RULES
    events: tuple[EventRule, ...]  # the events of this session (adjust is always allowed too)

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
            return ("fold", "folds") if self.display == "dollar-bill" else ("token", "tokens")
        return _UNITS[self.scoring]

    def amount(self, count: int) -> str:
        """'1 token', '3 tokens', '2 drinks' …"""
        singular, plural = self.units
        return f"{count} {singular if abs(count) == 1 else plural}"

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
        return rules_title(self.preset.name, self.house_rules())


_UNITS = {
    "wilson": ("game point", "game points"),
    "drinks": ("drink", "drinks"),
    "rounds": ("round won", "rounds won"),
}


def resolve_rules(
    preset_id: str, options: Mapping[str, object], players: Sequence[str]
) -> AddingRules:
    """Check the preset id, the option overrides and the players; raise InvalidRules."""
    problems: list[Problem] = []
    preset = PRESETS.get(preset_id)
    if preset is None:
        choices = ", ".join(PRESETS)
        problems.append(
            Problem("ruleset", f'Unknown ruleset "{preset_id}"; choose one of {choices}.')
        )
    problems += check_player_names(players)
    if preset is not None and len(players) not in preset.players:
        wanted = player_range(preset.players)
        message = f"{preset.name} is for {wanted} players; {len(players)} given."
        problems.append(Problem("players", message))
    defaults = default_options(preset, len(players)) if preset is not None else {}
    overrides: dict[str, object] = {}
    for name, value in options.items():
        path = f"options.{name}"
        if name not in OPTION_NAMES:
            problems.append(Problem(path, f'There is no option "{name}".'))
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
        message = (
            f"A dollar bill folds {DOLLAR_BILL_FOLDS} times at most (four corners, then in "
            f"half), so it cannot stand for {tokens} tokens."
        )
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
    return f"{preset.name} counts {_UNITS[preset.scoring][1]}, so making 69 cannot gain a token."
