"""99 and friends, the adding game (RULES.md §2): presets, options, card tables, checks, scoring.

Pure Python. `resolve_rules()` turns a preset id, option overrides and the players into
`AddingRules`; `evaluate()` checks the rounds as entered at the table and scores them in one
pass (`score_session()` and `check_rounds()` are its halves). This package is one of the game
families of `scorekeeper.rules.registry`: it has the same small surface as `rules.trick`.

The table records, round by round, the events that cost or win something (RULES.md §2.1): one
`Event` per tap, in the order they happened. To record a tap, the intended way is

    rounds = add_event(rules, rounds, event)   # into the open round, or a new one
    problems = check_rounds(rules, rounds)      # empty: save the rounds
    result = score_session(rules, rounds)

`allowed_events()` gives the buttons to offer each player right now; `can_act()` one player.

The count assistant (`count.py`) keeps the running total of the round in progress from the
cards played (`new_count`, `play_card`, `undo_card`, `follow_count`) and proposes the events
a card makes, as the same `Event` values, for the table to confirm (`open_proposals`). The
card tables it plays are data (`cards.py`), from which the cheat sheets print their words.

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
- House rules (RULES.md §3): every option may be changed on every preset, but `tokens`, `out`,
  `display` and `bust` only where players hold tokens (not Wilson, not the 98s), and `on_69`
  `token` (adding the event `hit` 69, gaining one) not in the 98s, which count drinks or rounds.
  Any card table may be played with any preset.
- Eliminated players go out in the order they paid; players who went out on the same event
  share a rank (seat order among them).
"""

from scorekeeper.rules.adding import prose
from scorekeeper.rules.adding.cards import CARD_TABLES, REGIONAL_TABLES, Card, CardTable, Effect
from scorekeeper.rules.adding.count import (
    Count,
    InvalidPlay,
    Pile,
    Play,
    Played,
    Proposal,
    card_choices,
    follow_count,
    new_count,
    open_proposals,
    play_card,
    read_pile,
    undo_card,
)
from scorekeeper.rules.adding.entries import Event, InvalidRounds, RoundEntry, RoundProblem
from scorekeeper.rules.adding.events import (
    ADJUST,
    ALL_EVENTS,
    BORDERS,
    BUST,
    BUST_OUT_OF_ROUND,
    CUSTOM_EVENTS,
    EVENT_KINDS,
    EVENT_LABELS,
    HIT_69,
    LAST_TO_PLAY,
    PAYS,
    ROUND_WON,
    TARGETED,
    THIRTY_THREE_EVENTS,
    TRIPS,
    EventRule,
)
from scorekeeper.rules.adding.options import (
    BUST_RULES,
    DEFAULT_PLAYERS,
    DISPLAYS,
    DOLLAR_BILL_CORNERS,
    DOLLAR_BILL_FOLDS,
    ON_69,
    OPTION_NAMES,
    OPTIONS,
    OUT_RULES,
    SCORINGS,
    WILSON_TARGET,
)
from scorekeeper.rules.adding.presets import (
    PRESETS,
    AddingPreset,
    AddingRules,
    applicable_options,
    default_options,
    events_for,
    inapplicable,
    resolve_rules,
)
from scorekeeper.rules.adding.prose import bill_shows, describe_event, show_tokens, tell_event
from scorekeeper.rules.adding.results import (
    AddingResult,
    EventResult,
    NextRound,
    RoundResult,
    Standing,
    player_counts,
    table_places,
    table_points,
)
from scorekeeper.rules.adding.scoring import (
    Evaluation,
    add_event,
    allowed_events,
    can_act,
    check_rounds,
    evaluate,
    record,
    score_session,
    table_state,
)
from scorekeeper.rules.i18n import gettext_noop

# The words about the game are English ids: translate them where they are shown (same id).
ID = "adding"
NAME = gettext_noop("99 and friends (adding game)")
SHORT_NAME = gettext_noop("99 and friends")
TITLE = gettext_noop("99 and friends, the adding game")
BLURB = gettext_noop(
    "Play a card, call the new total, don't go over the limit: tokens, busts and the last "
    "player standing."
)
# The same, shorter, where a page lists the rule sheets.
BRIEF = gettext_noop("Play a card, call the new total, don't go over the limit.")
UNIT = "round"  # what the table enters: a round (its plural: rounds); a key, not translated
SHEET_PLAYERS = 4  # the players a sheet shows before anyone sits down
Rules = AddingRules
Entry = RoundEntry
Result = AddingResult
Preset = AddingPreset
check_entries = check_rounds

__all__ = [
    "ADJUST", "ALL_EVENTS", "BLURB", "BORDERS", "BRIEF", "BUST", "BUST_OUT_OF_ROUND", "BUST_RULES",
    "CARD_TABLES", "CUSTOM_EVENTS", "DEFAULT_PLAYERS", "DISPLAYS", "DOLLAR_BILL_CORNERS",
    "DOLLAR_BILL_FOLDS", "EVENT_KINDS", "EVENT_LABELS", "HIT_69", "ID", "LAST_TO_PLAY", "NAME",
    "ON_69", "OPTIONS", "OPTION_NAMES", "OUT_RULES", "PAYS", "PRESETS", "REGIONAL_TABLES",
    "ROUND_WON", "SCORINGS", "SHEET_PLAYERS", "SHORT_NAME", "TARGETED", "THIRTY_THREE_EVENTS",
    "TITLE", "TRIPS", "UNIT", "WILSON_TARGET", "AddingPreset", "AddingResult", "AddingRules",
    "Card", "CardTable", "Count", "Effect", "Entry", "Evaluation", "Event", "EventResult",
    "EventRule", "InvalidPlay", "InvalidRounds", "NextRound", "Pile", "Play", "Played", "Preset",
    "Proposal", "Result", "RoundEntry", "RoundProblem", "RoundResult", "Rules", "Standing",
    "add_event", "allowed_events", "applicable_options", "bill_shows", "can_act", "card_choices",
    "check_entries", "check_rounds", "default_options", "describe_event", "evaluate", "events_for",
    "follow_count", "inapplicable", "new_count", "open_proposals", "play_card", "prose",
    "player_counts", "read_pile", "record", "resolve_rules", "score_session", "show_tokens",
    "table_places",
    "table_points", "table_state",
    "tell_event", "undo_card",
]  # fmt: skip
