"""99 and friends, the adding game (RULES.md §2): presets, options, card tables, checks, scoring.

Pure Python. `resolve_rules()` turns a preset id, option overrides and the players into
`AddingRules`; `score_session()` checks the rounds as entered at the table and scores them.

The table records, round by round, the events that cost or win something (RULES.md §2.1): one
`Event` per tap, in the order they happened. To record a tap, the intended way is

    rounds = add_event(rules, rounds, event)   # into the open round, or a new one
    problems = check_rounds(rules, rounds)      # empty: save the rounds
    result = score_session(rules, rounds)

`allowed_events()` gives the buttons to offer each player right now; `can_act()` one player.

Where RULES.md is silent, this module decides (each is repeated where it is coded):
- `dollar-bill` starts with 4 folds (pagat's four corners); `tokens` may be set to 5 for the
  encyclopaedia's corners-then-half bill. A dollar bill has 5 folds at most.
- Michigan's bust **[choice]** is the option `bust`: `ends-round` (pay, the round ends; the
  default) or `out-of-round` (the encyclopaedia's "drops out and play continues": no cost, and the
  round then ends with `win`, the last player to play, or with trips). It is not in RULES.md §3.
- `custom` is a token game offering every event kind with its usual cost: bust 1, hit 33/66 1
  from each other player, hit 99 2 from each other player (ends), cross 33/66 1, border
  33/66/99 1 (99 ends), empty hand 3 (ends), trips 1 from each other player (ends), and a
  last-to-play `win` that costs nothing and ends the round. The table uses the buttons it needs.
- `wilson`: the `tokens` value is the game points each player starts every round with (3).
- The 98 presets never finish on their own; the standings show who leads when the players stop.
  Their tallies, like Wilson's running scores, count a round once it has ended.
- Nothing may follow the event that ends a token game, except the bust that completes a
  cross 66 which put the player out (§2.1). A Wilson game ends with the round, so adjustments
  after the round-ending border still belong to that round.
- The cross-66-then-bust exception applies wherever `cross` 66 is played (thirty-three, custom).
- `on_69` (`token` adds the event `hit` 69, gaining one) is open in every preset but the 98s.
- Eliminated players go out in the order they paid; players who went out on the same event
  share a rank (seat order among them).
"""

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from scorekeeper.rules.bounds import (
    MAX_ADJUST,
    MAX_DEALS,
    MAX_EVENTS,
    MAX_PLAYERS,
    MAX_TOKENS,
    MIN_PLAYERS,
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

EVENT_KINDS = ("bust", "hit", "cross", "border", "empty", "trips", "win", "adjust")
TARGETED = ("hit", "cross", "border")  # events that carry a target
PAYS = ("self", "others", "gain", "none")
SCORINGS = ("tokens", "wilson", "drinks", "rounds")
OUT_RULES = ("at-zero", "owing")
ON_69 = ("nothing", "token", "reset")
DISPLAYS = ("tokens", "dollar-bill")
BUST_RULES = ("ends-round", "out-of-round")
OPTION_NAMES = ("tokens", "out", "on_69", "display", "card_table", "bust")

DOLLAR_BILL_FOLDS = 5  # four corners, then in half
DOLLAR_BILL_CORNERS = 4
WILSON_TARGET = 15  # a Wilson game ends with a round after which anyone has this many or more
DEFAULT_PLAYERS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


# Events


@dataclass(frozen=True)
class EventRule:
    """One button: an event a preset allows, what it costs and whether it ends the round.

    `pays`: "self" (the player pays `cost`), "others" (every other player still in pays `cost`,
    in seat order from the player's left), "gain" (the player gains `cost`), "none". Costs are
    in the preset's unit: tokens (or folds), Wilson's game points, drinks, or rounds won.
    """

    event: str  # one of EVENT_KINDS
    target: int | None  # 33, 66, 99 (69 with on_69 "token") for hit, cross, border; else None
    cost: int
    pays: str  # one of PAYS
    ends_round: bool
    label: str  # short button label


_LABELS = {
    "bust": "Bust",
    "hit": "Hit",
    "cross": "Cross",
    "border": "Border",
    "empty": "Empty hand",
    "trips": "Trips",
    "win": "Last to play",
    "adjust": "Adjust",
}


def _event(
    event: str, cost: int, pays: str, ends_round: bool, target: int | None = None
) -> EventRule:
    label = _LABELS[event] if target is None else f"{_LABELS[event]} {target}"
    return EventRule(event, target, cost, pays, ends_round, label)


BUST = _event("bust", 1, "self", True)
BUST_OUT_OF_ROUND = _event("bust", 0, "none", False)  # out for the rest of the round only
LAST_TO_PLAY = _event("win", 0, "none", True)
ROUND_WON = _event("win", 1, "gain", True)  # arizona: +1 round won
HIT_69 = _event("hit", 1, "gain", False, 69)  # on_69 "token"
TRIPS = _event("trips", 1, "others", True)
# Adjust is allowed in every preset; its amount is entered (Event.tokens), so cost is 0 here.
ADJUST = _event("adjust", 0, "none", False)

THIRTY_THREE_EVENTS = (
    _event("hit", 1, "others", False, 33),
    _event("hit", 1, "others", False, 66),
    _event("hit", 2, "others", True, 99),
    _event("cross", 1, "self", False, 33),
    _event("cross", 1, "self", False, 66),
    _event("bust", 2, "self", True),
    _event("empty", 3, "self", True),
)
BORDERS = (
    _event("border", 1, "self", False, 33),
    _event("border", 1, "self", False, 66),
    _event("border", 1, "self", True, 99),
)
CUSTOM_EVENTS = (
    BUST,
    *THIRTY_THREE_EVENTS[:5],
    *BORDERS,
    THIRTY_THREE_EVENTS[6],
    TRIPS,
    LAST_TO_PLAY,
)


# Card tables (RULES.md §2.5)


@dataclass(frozen=True)
class CardTable:
    """What each card does to the total, for the printed cheat sheet."""

    id: str
    name: str
    cells: tuple[tuple[str, str], ...]  # (rank label, effect in plain words)
    notes: str


def _cells(**changes: str) -> tuple[tuple[str, str], ...]:
    """The `standard` table's cells with some ranks changed (keys: A, _2 … _10, J, Q, K)."""
    cells = dict(_STANDARD) | {rank.lstrip("_"): effect for rank, effect in changes.items()}
    return tuple(cells.items())


_STANDARD = (
    ("A", "1 or 11"),
    ("2", "2"),
    ("3", "3, and the next player is skipped"),
    ("4", "0, and play reverses (not with 2 players)"),
    ("5–8", "face value"),
    ("9", "total becomes 99"),
    ("10", "+10 or −10"),
    ("J", "10"),
    ("Q", "10"),
    ("K", "0 (pass)"),
)

CARD_TABLES: dict[str, CardTable] = {
    table.id: table
    for table in (
        CardTable(
            "pagat-99",
            "Pagat's Ninety-Nine",
            (
                ("A", "1 or 11"),
                ("2", "2"),
                ("3", "3"),
                ("4", "0, and play reverses (with 2 players: pass)"),
                ("5–8", "face value"),
                ("9", "0 (pass)"),
                ("10", "+10 or −10"),
                ("J", "10"),
                ("Q", "10"),
                ("K", "total becomes 99"),
            ),
            "Call the new total as you play, then draw.",
        ),
        CardTable(
            "standard",
            "Standard (encyclopaedia)",
            _STANDARD,
            "Some swap the 9 and the King: see the alternate table.",
        ),
        CardTable(
            "thirty-three",
            "33, 66, 99",
            (
                ("A", "1 or 11"),
                ("2", "halves an even total over 49; otherwise doubles the total"),
                ("3", "3"),
                ("4", "4, and play reverses (not with 2 players)"),
                ("5–8", "face value"),
                ("9", "0"),
                ("10", "+10 or −10"),
                ("J", "10, and the next player is skipped (2 players: play again)"),
                ("Q", "10"),
                ("K", "10"),
            ),
            "Exactly 33 or 66 going up: everyone else pays 1. Past 33 or 66 going up: you pay 1. "
            "Exactly 99: everyone else pays 2, round over. Over 99: you pay 2, round over.",
        ),
        CardTable(
            "wilson",
            "Wilson",
            (
                ("A", "1 or 11"),
                ("2", "2"),
                ("3", "3"),
                ("4", "4"),
                ("5–7", "face value"),
                ("8", "0, and play reverses"),
                ("9", "0 (pass)"),
                ("10", "+10 or −10"),
                ("J", "10"),
                ("Q", "10"),
                ("K", "10"),
            ),
            "Crossing 33/34, 66/67 or 99/100, either way, costs a game point; past 99 the round "
            "ends.",
        ),
        CardTable(
            "stack-1950s",
            "1950s (Daniel Stack)",
            (
                ("A", "1 or 11"),
                ("2", "2"),
                ("3", "3"),
                ("4", "4"),
                ("5, 6, 8", "face value"),
                ("7", "7, and play reverses"),
                ("9", "0"),
                ("10", "+10 or −10"),
                ("J", "10"),
                ("Q", "10"),
                ("K", "10"),
            ),
            "No card sets the total to 99. The source says only that a 7 reverses; that it also "
            "counts 7 is a choice.",
        ),
        CardTable(
            "one-hundred",
            "One Hundred",
            (
                ("Black A", "set the total to anything from 0 to 100"),
                ("Red A", "1"),
                ("2", "2"),
                ("2♠", "doubles the total"),
                ("3", "3"),
                ("4", "0, and play reverses"),
                ("Red 5", "−5"),
                ("Black 5", "5"),
                ("6–8", "face value"),
                ("9", "9"),
                ("10", "total becomes 100"),
                ("J", "−10"),
                ("Q", "10"),
                ("Q♥", "total becomes 0"),
                ("K", "0"),
            ),
            "Going over 100 costs a chip.",
        ),
        CardTable(
            "ninety-eight",
            "Ninety-Eight",
            (
                ("A", "1"),
                ("2", "2"),
                ("3", "3"),
                ("4", "4"),
                ("5–8", "face value"),
                ("9", "9"),
                ("10", "−10"),
                ("J", "0"),
                ("Q", "0"),
                ("K", "total becomes 98"),
            ),
            "Whoever takes the total over 98 drinks.",
        ),
        CardTable(
            "arizona",
            "Ninety-Eight, Arizona",
            (
                ("A", "1 or 11"),
                ("2", "2"),
                ("3", "3"),
                ("4", "0"),
                ("5–8", "face value"),
                ("9", "0, and play reverses"),
                ("10", "10"),
                ("J", "−10"),
                ("Q", "0"),
                ("K", "total becomes 98"),
                ("Joker", "total becomes 98, and the next player plays twice"),
            ),
            "Cards of the same rank may be played together (aces all count the same).",
        ),
        # Regional tables for ninety-nine-standard: the standard table with the source's changes.
        CardTable(
            "alternate",
            "Alternate",
            _cells(_3="3", _4="4", _9="0 (pass)", _10="−10", K="total becomes 99"),
            "Jokers are in the pack; the source gives them no value, so agree one at the table.",
        ),
        CardTable(
            "chicago",
            "Chicago",
            _cells(_9="0, and the next player is skipped", _10="−10", K="total becomes 99"),
            "",
        ),
        CardTable(
            "hawaii",
            "Hawaii",
            (
                *_cells()[:4],
                ("5", "−5"),
                ("6–8", "face value"),
                *_cells(_10="−10", J="total becomes 99")[5:],
            ),
            "Both the 9 and the Jack set the total to 99.",
        ),
        CardTable(
            "iceland",
            "Iceland",
            (
                ("A", "1 or 14"),
                ("2", "2"),
                ("3", "3"),
                ("4", "0, and play reverses (not with 2 players)"),
                ("5", "5, and the next player is skipped"),
                ("6", "6"),
                ("7", "7, and play reverses"),
                ("8", "8"),
                ("9", "total becomes 99"),
                ("10", "+10 or −10"),
                ("J", "11"),
                ("Q", "0; the next player cannot draw unless they also play a Queen"),
                ("K", "0"),
            ),
            "Queens in a row: after two the next player must play two cards, after three three, "
            "after four four.",
        ),
        CardTable(
            "taiwan",
            "Taiwan",
            (
                ("A", "1 or 11"),
                ("A♠", "total becomes 0"),
                *_cells()[1:4],
                ("5", "5, and you choose who plays next"),
                ("6–8", "face value"),
                *_cells(_9="9", J="0 (pass)", Q="+20 or −20", K="total becomes 99")[5:],
            ),
            "Five cards each.",
        ),
    )
}
REGIONAL_TABLES = ("standard", "alternate", "chicago", "hawaii", "iceland", "taiwan")


# Presets


def _options(**changes: object) -> dict[str, object]:
    """A complete set of option values: the usual ones (pagat's 99) with `changes`."""
    options: dict[str, object] = {
        "tokens": 3,
        "out": "at-zero",
        "on_69": "nothing",
        "display": "tokens",
        "card_table": "pagat-99",
        "bust": "ends-round",
    }
    return options | changes


_USUAL_OPEN = frozenset({"tokens", "on_69", "display"})


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
    open_options: frozenset[str] = _USUAL_OPEN  # what a user may change
    players: tuple[int, ...] = DEFAULT_PLAYERS  # allowed numbers of players
    card_tables: tuple[str, ...] = ()  # the card tables to choose from, where that is open
    tokens_over_four: int | None = None  # the tokens when more than 4 play (pagat's 99: 3)


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
            defaults=_options(tokens=5),
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
            defaults=_options(card_table="standard"),
            events=(BUST,),
            open_options=_USUAL_OPEN | {"card_table"},
            card_tables=REGIONAL_TABLES,
        ),
        AddingPreset(
            id="dollar-bill",
            name="Dollar Bill",
            description="Fold a corner of your dollar bill for each bust; four corners and out.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=_options(tokens=DOLLAR_BILL_CORNERS, display="dollar-bill"),
            events=(BUST,),
            open_options=frozenset({"tokens", "on_69"}),
        ),
        AddingPreset(
            id="on-honor",
            name="On Your Honor",
            description="1950s: 3 pennies; with none left you play on your honor until you bust.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=_options(out="owing", card_table="stack-1950s"),
            events=(BUST,),
        ),
        AddingPreset(
            id="thirty-three",
            name="Thirty-Three",
            description="33, 66, 99 with 9 tokens: make one exactly, others pay; cross, you pay.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=_options(tokens=9, out="owing", card_table="thirty-three"),
            events=THIRTY_THREE_EVENTS,
        ),
        AddingPreset(
            id="wilson",
            name="Wilson",
            description="3 game points a round, one lost at each border; first past 15 ends it.",
            cards_held=(3,),
            limit=99,
            scoring="wilson",
            defaults=_options(out=None, card_table="wilson"),
            events=BORDERS,
            open_options=frozenset({"on_69"}),
        ),
        AddingPreset(
            id="one-hundred",
            name="One Hundred",
            description="Limit 100, 3 chips; black aces set any total, tens set 100.",
            cards_held=(3,),
            limit=100,
            scoring="tokens",
            defaults=_options(card_table="one-hundred"),
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
            defaults=_options(tokens=None, out=None, card_table="ninety-eight"),
            events=(BUST,),
            open_options=frozenset(),
        ),
        AddingPreset(
            id="ninety-eight-arizona",
            name="Ninety-Eight, Arizona",
            description="Bust and you sit out the round; the last player to play wins it.",
            cards_held=(4,),
            limit=98,
            scoring="rounds",
            defaults=_options(tokens=None, out=None, card_table="arizona", bust="out-of-round"),
            events=(BUST_OUT_OF_ROUND, ROUND_WON),
            open_options=frozenset(),
        ),
        AddingPreset(
            id="michigan",
            name="Michigan",
            description="Dollar bill, 4 folds; lay down three of a kind and everyone else folds.",
            cards_held=(3,),
            limit=99,
            scoring="tokens",
            defaults=_options(tokens=DOLLAR_BILL_CORNERS, display="dollar-bill"),
            events=(BUST, TRIPS),
            open_options=frozenset({"tokens", "on_69", "bust"}),
        ),
        AddingPreset(
            id="sudden-death",
            name="Sudden Death",
            description="One life: go over 99 and you are out. 3, 5 or 7 cards each.",
            cards_held=(3, 5, 7),
            limit=99,
            scoring="tokens",
            defaults=_options(tokens=1),
            events=(BUST,),
            open_options=frozenset({"on_69"}),
        ),
        AddingPreset(
            id="custom",
            name="Custom",
            description="Every event and every option: tokens, going out, display, card table.",
            cards_held=(3, 4, 5, 7),
            limit=99,
            scoring="tokens",
            defaults=_options(),
            events=CUSTOM_EVENTS,
            open_options=frozenset(OPTION_NAMES),
            card_tables=tuple(CARD_TABLES),
        ),
    )
}


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
        counts = preset.players
        message = f"{preset.name} is for {counts[0]} to {counts[-1]} players; {len(players)} given."
        problems.append(Problem("players", message))
    defaults = default_options(preset, len(players)) if preset is not None else {}
    overrides: dict[str, object] = {}
    for name, value in options.items():
        path = f"options.{name}"
        if name not in OPTION_NAMES:
            problems.append(Problem(path, f'There is no option "{name}".'))
        elif preset is not None and name not in preset.open_options:
            # Restating the preset's own value changes nothing (files may list every option).
            if value != defaults[name]:
                message = f"{preset.name} does not let you change this; choose Custom."
                problems.append(Problem(path, message))
        else:
            wrong = _option_problem(preset, name, value)
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
        out=_text(values["out"]),
        on_69=str(values["on_69"]),
        display=str(values["display"]),
        card_table=str(values["card_table"]),
        bust=str(values["bust"]),
        events=_session_events(preset, str(values["bust"]), str(values["on_69"])),
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _option_problem(preset: AddingPreset | None, name: str, value: object) -> str | None:
    """What is wrong with an option's value, or None."""
    if name == "tokens":
        if is_whole(value) and 1 <= value <= MAX_TOKENS:
            return None
        return f"Must be a whole number from 1 to {MAX_TOKENS}."
    if name == "card_table":
        choices = preset.card_tables if preset is not None else tuple(CARD_TABLES)
    else:
        choices = _CHOICES[name]
    if isinstance(value, str) and value in choices:
        return None
    return f"Choose one of: {', '.join(choices)}."


_CHOICES = {"out": OUT_RULES, "on_69": ON_69, "display": DISPLAYS, "bust": BUST_RULES}


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


def describe_event(rules: AddingRules, rule: EventRule) -> str:
    """An event in plain words, for the cheat sheet: 'Hit 99: everyone else pays 2 tokens; the
    round ends.'"""
    if rule.event == "adjust":
        return f"Adjust: a correction agreed at the table, so many {rules.units[1]} up or down."
    amount = rules.amount(rule.cost)
    if rules.scoring == "drinks":
        effect = {"self": f"you take {amount}", "others": f"everyone else takes {amount}"}
    else:
        effect = {"self": f"you lose {amount}", "others": f"everyone else loses {amount}"}
    effect["gain"] = f"you gain {amount}"
    if rule.event == "bust" and not rule.ends_round:
        text = "you are out for the rest of the round"
    else:
        text = effect.get(rule.pays, "nothing to pay")
    ending = "; the round ends." if rule.ends_round else "."
    return f"{rule.label}: {text}{ending}"


def show_tokens(rules: AddingRules, count: int) -> str:
    """A player's tokens as the `display` option shows them: '3 tokens', or for a dollar bill
    the folds made so far, corners first, then the halving fold ('2 corners folded')."""
    if rules.display != "dollar-bill" or rules.tokens is None:
        return rules.amount(count)
    folds = rules.tokens - count
    if folds < 0:
        return f"no folds, {rules.amount(-folds)} to spare"
    if folds == 0:
        return "no folds"
    corners = min(folds, DOLLAR_BILL_CORNERS)
    text = "1 corner folded" if corners == 1 else f"{corners} corners folded"
    return f"{corners} corners and the half folded" if folds > DOLLAR_BILL_CORNERS else text


# What the table enters


@dataclass(frozen=True)
class Event:
    """One event of a round, exactly as entered: who, what, at which total (`target`, for hit,
    cross and border) and, for `adjust`, by how many (`tokens`, + gives, − takes)."""

    player: str
    event: str
    target: int | None = None
    tokens: int | None = None


@dataclass(frozen=True)
class RoundEntry:
    """One round: its events in the order they happened."""

    events: tuple[Event, ...] = ()


# Problems with the rounds


@dataclass(frozen=True)
class RoundProblem:
    """Something wrong with one round: which (0-based), which event in it (0-based; None for the
    round as a whole), which field ("player", "event", "target", "tokens"; None for the whole
    event), and what. `player` is who the event names, for the message."""

    round: int
    event: int | None
    field: str | None
    message: str
    player: str | None = None

    @property
    def path(self) -> str:
        """Where in the scoresheet file, e.g. rounds[2].events[1].target."""
        path = f"rounds[{self.round}]"
        if self.event is not None:
            path += f".events[{self.event}]"
            if self.field is not None:
                path += f".{self.field}"
        return path

    def __str__(self) -> str:
        where = f"Round {self.round + 1}"
        if self.event is not None:
            where += f", event {self.event + 1}"
        if self.player is not None:
            where += f" ({self.player})"
        return f"{where}: {self.message}"


class InvalidRounds(ValueError):
    """The rounds cannot be scored; `problems` lists everything found."""

    def __init__(self, problems: Sequence[RoundProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


# Results


@dataclass(frozen=True)
class EventResult:
    """What one event did, to every player it touched."""

    event: Event
    changes: dict[str, int]  # player → change in the unit (tokens −1, drinks +1 …), as paid
    eliminated: tuple[str, ...]  # who went out of the game on this event
    ends_round: bool  # this event ended the round (or the game)
    wins: tuple[str, ...]  # who won the game with this event


@dataclass(frozen=True)
class RoundResult:
    """One round, scored."""

    number: int  # 1-based
    dealer: str
    complete: bool  # False: the round is in progress (only the last one may be)
    events: tuple[EventResult, ...]
    # Tokens left after the round, every player (0 once out); None where the preset has no
    # tokens (Wilson, the 98s).
    tokens: dict[str, int] | None
    eliminated: tuple[str, ...]  # everyone out of the game after it, in the order they went out
    points: dict[str, int] | None  # Wilson: the round's game points (else None)
    totals: dict[str, int] | None  # Wilson: running scores after it (an open round: before it)
    tally: dict[str, int] | None  # 98s: drinks or rounds won after it (counted once it ends)


@dataclass(frozen=True)
class NextRound:
    """Where the next event goes: the round in progress, or the round to deal next."""

    number: int
    dealer: str


@dataclass(frozen=True)
class Standing:
    """One player's place in the session (RULES.md §2.2)."""

    player: str
    rank: int  # 1, 1, 3: equal tokens (or totals), or going out on the same event, share a rank
    tokens: int | None  # where the preset uses tokens
    out: bool
    out_in_round: int | None  # the round (1-based) in which the player went out
    total: int | None  # Wilson's running score, drinks, or rounds won (else None)


@dataclass(frozen=True)
class AddingResult:
    """Everything the rules work out from a session's rounds."""

    rules: AddingRules
    rounds: tuple[RoundResult, ...]
    standings: tuple[Standing, ...]  # best first
    next: NextRound | None  # None once finished
    finished: bool
    winners: tuple[str, ...]  # empty until finished (the 98 presets never finish by themselves)
    current_round_open: bool  # the last round is in progress


# Checking and scoring


def score_session(rules: AddingRules, rounds: Sequence[RoundEntry]) -> AddingResult:
    """Check every round and score the session; raise InvalidRounds listing every problem."""
    problems, game = _run(rules, rounds)
    if problems:
        raise InvalidRounds(problems)
    return game.result()


def check_rounds(rules: AddingRules, rounds: Sequence[RoundEntry | None]) -> list[RoundProblem]:
    """Every problem in the rounds (RULES.md §2.1, §2.4). None stands for a round that could
    not be read at all: it is not checked, and neither is anything later that depends on it."""
    return _run(rules, rounds)[0]


def add_event(
    rules: AddingRules, rounds: Sequence[RoundEntry], event: Event
) -> tuple[RoundEntry, ...]:
    """The rounds with `event` recorded where the table would put it: at the end of the last
    round while it is in progress, otherwise as the first event of a new round. (A correction
    to a round that has ended goes into the next one; edit the round to place it there.)"""
    _, game = _run(rules, rounds)
    if rounds and _goes_into_last(rules, rounds[-1], game, event):
        last = rounds[-1]
        return (*rounds[:-1], RoundEntry((*last.events, event)))
    return (*rounds, RoundEntry((event,)))


def allowed_events(
    rules: AddingRules, rounds: Sequence[RoundEntry]
) -> dict[str, tuple[EventRule, ...]]:
    """The buttons to offer each player now, in seat order (Adjust last where allowed): none
    once the game is over (or while the rounds have problems), for a player who is out of the
    game or sitting out the round in progress; only the bust right after the cross 66 that put
    the player out (RULES.md §2.1). One pass over the rounds for the whole table."""
    problems, game = _run(rules, rounds)
    last = game.current

    def buttons(player: str) -> tuple[EventRule, ...]:
        if problems:
            return ()
        if last is not None and last.after_cross_out == player:
            return tuple(rule for rule in rules.events if rule.event == "bust")
        if game.finished or player in game.out:
            return ()
        if last is not None and last.open and player in last.sitting_out:
            return ()
        return events_for(rules)

    return {player: buttons(player) for player in rules.players}


def can_act(rules: AddingRules, rounds: Sequence[RoundEntry], player: str) -> bool:
    """Whether `player` may record any event now (see allowed_events)."""
    return bool(allowed_events(rules, rounds).get(player))


def _goes_into_last(rules: AddingRules, entry: RoundEntry, game: "_Game", event: Event) -> bool:
    """Whether a new event belongs to the last round: it is in progress, or the event is the
    bust that completes the cross 66 which put its player out (even if that ended the game)."""
    last = game.current
    if last is not None and last.entry is entry:
        return last.open or last.completes_cross(event)
    # The state is unknown (earlier problems): go by the events alone.
    return not any(
        rule.ends_round and (rule.event, rule.target) == (old.event, old.target)
        for rule in rules.events
        for old in entry.events
    )


def _run(
    rules: AddingRules, rounds: Sequence[RoundEntry | None]
) -> tuple[list[RoundProblem], "_Game"]:
    game = _Game(rules)
    problems: list[RoundProblem] = []
    if len(rounds) > MAX_DEALS:
        # Check the rounds a session may hold, and only say how many more there are.
        message = f"A session has at most {number(MAX_DEALS)} rounds; this one has {len(rounds):,}."
        problems.append(RoundProblem(MAX_DEALS, None, None, message))
        rounds = rounds[:MAX_DEALS]
    known = True  # whether every event so far was played, so the state is known
    for index, entry in enumerate(rounds):
        if entry is not None and len(entry.events) > MAX_EVENTS:
            count = len(entry.events)
            message = f"A round has at most {MAX_EVENTS} events; this one has {count:,}."
            problems.append(RoundProblem(index, None, None, message))
            entry = None
        if entry is None:
            known = False
            game.current = None
            continue
        if game.finished:
            message = f"The game ended in round {game.ended_in}; no round can follow it."
            problems.append(RoundProblem(index, None, None, message))
        state = game.start_round(index, entry) if known and not game.finished else None
        for position, event in enumerate(entry.events):
            found = _check_event(rules, index, position, event)
            if not found and state is not None:
                found = state.check(position, event)
            problems += found
            if found:
                known = False
                state = None
                game.current = None
            elif state is not None:
                state.play(position, event)
        if state is not None:
            game.close_round(state)
            if state.open and index < len(rounds) - 1:
                what = "has no events" if not entry.events else "has no event that ends it"
                message = f"This round {what}; only the last round may be in progress."
                problems.append(RoundProblem(index, None, None, message))
    return problems, game


def _check_event(rules: AddingRules, index: int, position: int, event: Event) -> list[RoundProblem]:
    """What is wrong with an event whatever came before it."""
    problems: list[RoundProblem] = []
    player = event.player
    named = player if isinstance(player, str) else None

    def add(field: str, message: str) -> None:
        problems.append(RoundProblem(index, position, field, message, named))

    if named is None:
        add("player", "The player must be a name.")
    elif player not in rules.players:
        add("player", f"{player} is not playing in this session.")
    kind, target = event.event, event.target
    if kind == "adjust":
        if target is not None:
            add("target", "An adjustment has no target.")
        if not is_whole(event.tokens) or event.tokens == 0 or abs(event.tokens) > MAX_ADJUST:
            plural = rules.units[1]
            add(
                "tokens",
                f"An adjustment needs a whole number of {plural} from -{MAX_ADJUST} to "
                f"{MAX_ADJUST} other than 0, e.g. -1.",
            )
        return problems
    if not isinstance(kind, str) or kind not in EVENT_KINDS:
        add("event", f'There is no event "{kind}"; events are {join_names(EVENT_KINDS)}.')
        return problems
    targets = [rule.target for rule in rules.events if rule.event == kind]
    if not targets:
        played = {rule.event for rule in rules.events} | {"adjust"}
        kinds = [name for name in EVENT_KINDS if name in played]
        add("event", f"{rules.preset.name} has no {kind} event; it has {join_names(kinds)}.")
        return problems
    if event.tokens is not None:
        add("tokens", "Only an adjustment carries a number.")
    if kind not in TARGETED:
        if target is not None:
            add("target", f"{_UNTARGETED[kind]} has no target.")
    elif target is None:
        add("target", f"Say which total: {_or(targets)}.")
    elif not is_whole(target) or target not in targets:
        add("target", f"A {kind} in {rules.preset.name} is at {_or(targets)}, not {target}.")
    return problems


_UNTARGETED = {"bust": "A bust", "empty": "An empty hand", "trips": "Trips", "win": "A win"}


def _or(numbers: Sequence[int | None]) -> str:
    words = [str(number) for number in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _rule_for(rules: AddingRules, event: Event) -> EventRule:
    if event.event == "adjust":
        return ADJUST
    return next(
        rule for rule in rules.events if rule.event == event.event and rule.target == event.target
    )


class _Game:
    """The running state while rounds are played one by one."""

    def __init__(self, rules: AddingRules) -> None:
        self.rules = rules
        self.tokens = dict.fromkeys(rules.players, rules.tokens or 0)
        self.out: dict[str, tuple[int, int]] = {}  # player → (round, event) of going out
        self.totals = dict.fromkeys(rules.players, 0)  # Wilson's scores, or the 98s' tally
        self.rounds: list[RoundResult] = []
        self.finished = False
        self.winners: tuple[str, ...] = ()
        self.ended_in: int | None = None  # number of the round that ended the game
        self.current: _Round | None = None  # the last round, if its state is known

    def still_in(self) -> list[str]:
        return [player for player in self.rules.players if player not in self.out]

    def start_round(self, index: int, entry: RoundEntry) -> "_Round":
        if not self.rounds:
            dealer = self.rules.players[0]
        else:
            dealer = self.next_dealer(self.rounds[-1].dealer)
        self.current = _Round(self, index, entry, dealer)
        return self.current

    def next_dealer(self, previous: str) -> str:
        """The next player still in after `previous`, in seat order."""
        players = self.rules.players
        seat = players.index(previous)
        for step in range(1, len(players) + 1):
            player = players[(seat + step) % len(players)]
            if player not in self.out:
                return player
        return previous  # pragma: no cover - someone is always still in

    def close_round(self, state: "_Round") -> None:
        rules = self.rules
        events = state.results
        if not state.open and rules.scoring != "tokens":
            for player in rules.players:
                self.totals[player] += state.points[player]
            if rules.scoring == "wilson" and max(self.totals.values()) >= WILSON_TARGET:
                self.finish(state.index, leaders(self.totals, rules.players))
                events[-1] = replace(events[-1], wins=self.winners)
        gone = sorted(self.out, key=lambda player: self.out[player])
        self.rounds.append(
            RoundResult(
                number=state.index + 1,
                dealer=state.dealer,
                complete=not state.open,
                events=tuple(events),
                tokens=dict(self.tokens) if rules.uses_tokens else None,
                eliminated=tuple(gone),
                points=dict(state.points) if rules.scoring == "wilson" else None,
                totals=dict(self.totals) if rules.scoring == "wilson" else None,
                tally=dict(self.totals) if rules.scoring in ("drinks", "rounds") else None,
            )
        )

    def finish(self, index: int, winners: Sequence[str]) -> None:
        self.finished = True
        self.winners = tuple(winners)
        self.ended_in = index + 1

    def result(self) -> AddingResult:
        last = self.rounds[-1] if self.rounds else None
        current_open = last is not None and not last.complete
        coming: NextRound | None = None
        if not self.finished:
            if last is None:
                coming = NextRound(1, self.rules.players[0])
            elif current_open:
                coming = NextRound(last.number, last.dealer)
            else:
                coming = NextRound(last.number + 1, self.next_dealer(last.dealer))
        return AddingResult(
            rules=self.rules,
            rounds=tuple(self.rounds),
            standings=self.standings(),
            next=coming,
            finished=self.finished,
            winners=self.winners,
            current_round_open=current_open,
        )

    def standings(self) -> tuple[Standing, ...]:
        rules = self.rules
        if rules.scoring != "tokens":
            sign = -1 if rules.scoring == "drinks" else 1  # fewest drinks lead
            scores = {player: sign * self.totals[player] for player in rules.players}
            return tuple(
                Standing(player, place, None, False, None, self.totals[player])
                for player, place in rank(scores, rules.players)
            )
        standings = [
            Standing(player, place, self.tokens[player], False, None, None)
            for player, place in rank(self.tokens, self.still_in())
        ]
        gone = [player for player in rules.players if player in self.out]
        previous: tuple[int, int] | None = None
        for player in sorted(gone, key=lambda player: self.out[player], reverse=True):
            place = standings[-1].rank if self.out[player] == previous else len(standings) + 1
            previous = self.out[player]
            standings.append(Standing(player, place, 0, True, previous[0] + 1, None))
        return tuple(standings)


@dataclass
class _Round:
    """One round being played."""

    game: _Game
    index: int
    entry: RoundEntry
    dealer: str
    results: list[EventResult] = field(default_factory=list)
    ended_by: str | None = None  # "Ann's bust": the round-ending event, once there is one
    sitting_out: set[str] = field(default_factory=set)  # busted out of this round only
    after_cross_out: str | None = None  # whose cross 66 (the event just played) put them out
    points: dict[str, int] = field(default_factory=dict)  # Wilson, 98s: this round's changes

    def __post_init__(self) -> None:
        rules = self.game.rules
        start = rules.tokens if rules.scoring == "wilson" else 0
        self.points = dict.fromkeys(rules.players, start or 0)

    @property
    def open(self) -> bool:
        return self.ended_by is None and not self.game.finished

    def check(self, position: int, event: Event) -> list[RoundProblem]:
        """What is wrong with an event given the game so far (it passed _check_event)."""
        game, player = self.game, event.player

        def problem(field: str | None, message: str) -> RoundProblem:
            return RoundProblem(self.index, position, field, message, player)

        if self.completes_cross(event):
            return []
        if game.finished:
            wins = f"{join_names(game.winners)} won"
            return [problem(None, f"The game is over ({wins}); nothing can follow.")]
        found = []
        if player in game.out:
            since = game.out[player][0] + 1
            found.append(problem("player", f"{player} is out of the game (since round {since})."))
        elif player in self.sitting_out:
            found.append(problem("player", f"{player} busted and sits out the rest of this round."))
        if self.ended_by is not None and event.event != "adjust":
            message = f"The round ended with {self.ended_by}; only an adjustment can follow."
            found.append(problem("event", message))
        return found

    def completes_cross(self, event: Event) -> bool:
        """A bust right after the same player's cross 66 that put them out (RULES.md §2.1)."""
        return event.event == "bust" and event.player == self.after_cross_out

    def play(self, position: int, event: Event) -> None:
        game, rules, player = self.game, self.game.rules, event.player
        rule = _rule_for(rules, event)
        changes: dict[str, int] = {}
        gone: list[str] = []
        if self.completes_cross(event):
            pass  # one card crossed 66 and 99; the cross has cost all it can
        elif rule.event == "adjust":
            self._change(player, event.tokens or 0, position, changes, gone)
        elif rule.pays == "self":
            self._change(player, self._penalty(rule.cost), position, changes, gone)
        elif rule.pays == "gain":
            self._change(player, -self._penalty(rule.cost), position, changes, gone)
        elif rule.pays == "others":
            seat = rules.players.index(player)
            for step in range(1, len(rules.players)):
                other = rules.players[(seat + step) % len(rules.players)]
                if other not in game.out:
                    self._change(other, self._penalty(rule.cost), position, changes, gone)
        if rule.event == "bust" and not rule.ends_round:
            self.sitting_out.add(player)
        self.after_cross_out = (
            player if (rule.event, rule.target) == ("cross", 66) and player in gone else None
        )
        ends = rule.ends_round and self.ended_by is None
        if ends:
            self.ended_by = f"{player}'s {'win' if rule.event == 'win' else rule.label.lower()}"
        wins: tuple[str, ...] = ()
        remaining = game.still_in()
        if rules.uses_tokens and len(remaining) == 1 and not game.finished:
            game.finish(self.index, remaining)
            wins = game.winners
            ends = True
        self.results.append(EventResult(event, changes, tuple(gone), ends, wins))

    def _penalty(self, cost: int) -> int:
        """The change a penalty of `cost` makes: fewer tokens or points, more drinks."""
        return cost if self.game.rules.scoring == "drinks" else -cost

    def _change(
        self, player: str, delta: int, position: int, changes: dict[str, int], gone: list[str]
    ) -> None:
        """Add `delta` to the player's count; with tokens, pay what they can and go out as the
        `out` option says."""
        game = self.game
        if not game.rules.uses_tokens:
            self.points[player] += delta
            changes[player] = delta
            return
        have = game.tokens[player]
        paid = min(-delta, have) if delta < 0 else delta
        left = have - paid if delta < 0 else have + delta
        game.tokens[player] = left
        changes[player] = -paid if delta < 0 else delta
        owing = game.rules.out == "owing"
        if delta < 0 and ((owing and -delta > have) or (not owing and left == 0)):
            game.out[player] = (self.index, position)
            gone.append(player)
