"""Ninety-Nine, the trick game (RULES.md §1): presets, options, checks, scoring and rule prose.

Pure Python. `resolve_rules()` turns a preset id, option overrides and the players into
`TrickRules`; `evaluate()` checks the deals as entered at the table and scores them in one pass
(`score_session()` and `check_deals()` are its halves). This package is one of the game
families of `scorekeeper.rules.registry`: it has the same small surface as `rules.adding`.
"""

from scorekeeper.rules.i18n import gettext_noop
from scorekeeper.rules.trick import prose
from scorekeeper.rules.trick.cards import (
    BID_CARD_CODES,
    BID_CARD_VALUES,
    BID_SUITS,
    NO_TRUMP,
    SUITS,
    TRUMPS,
    Suit,
    bid_from_cards,
    cards_from_letters,
    cards_text,
    letters_from_cards,
    red,
    symbol,
    trump_label,
    trump_word,
)
from scorekeeper.rules.trick.entries import (
    DealEntry,
    DealProblem,
    HandEntry,
    InvalidDeals,
)
from scorekeeper.rules.trick.options import (
    BONUS_ROW,
    BONUS_ROW_FIVE,
    DUMMY_DECLARER_POINTS,
    FIRST_TRUMPS,
    GAME_BONUS,
    GAME_TARGET,
    MATCH_LIMITS,
    MATCH_NUMBER_LABEL,
    MATCH_SETTINGS,
    MATCH_TYPES,
    OPTION_NAMES,
    OPTIONS,
    PREMIUM_LABELS,
    PREMIUM_POINTS,
    RUBBER_GAMES,
    RUBBER_LENGTH,
    TRICKS_FOR_PLAYERS,
    TRUMP_BY_COUNT,
    TRUMP_RULES,
    Match,
)
from scorekeeper.rules.trick.presets import (
    DUMMY,
    DUMMY_LABEL,
    PRESETS,
    Preset,
    TrickRules,
    applicable_options,
    default_options,
    hand_label,
    inapplicable,
    more_deals,
    resolve_rules,
)
from scorekeeper.rules.trick.results import (
    DealResult,
    GameResult,
    HandResult,
    NextDeal,
    PremiumResult,
    SessionResult,
    Standing,
    player_counts,
    table_places,
    table_points,
)
from scorekeeper.rules.trick.scoring import (
    Evaluation,
    check_deal,
    check_deals,
    entered_trump,
    evaluate,
    score_session,
    seat,
    trump_from_table,
)

ID = "trick"
# The family's names and lines are message ids: translate them where shown.
NAME = gettext_noop("Ninety-Nine (trick game)")
SHORT_NAME = gettext_noop("Ninety-Nine")
TITLE = gettext_noop("Ninety-Nine, the trick game")
BLURB = gettext_noop("David Parlett's game: bid an exact number of tricks with three bid-cards.")
BRIEF = BLURB  # the same line, where a page lists the rule sheets
UNIT = "deal"  # what the table enters: a deal (its plural: deals); an id (URLs), never translated
SHEET_PLAYERS = 3  # the players a sheet shows before anyone sits down
Rules = TrickRules
Entry = DealEntry
Result = SessionResult
check_entries = check_deals

__all__ = [
    "BID_CARD_CODES", "BID_CARD_VALUES", "BID_SUITS", "BLURB", "BONUS_ROW", "BONUS_ROW_FIVE",
    "BRIEF", "DUMMY", "DUMMY_DECLARER_POINTS", "DUMMY_LABEL", "FIRST_TRUMPS", "GAME_BONUS",
    "GAME_TARGET", "ID", "MATCH_LIMITS", "MATCH_NUMBER_LABEL", "MATCH_SETTINGS", "MATCH_TYPES",
    "NAME", "NO_TRUMP", "OPTIONS", "OPTION_NAMES", "PREMIUM_LABELS", "PREMIUM_POINTS", "PRESETS",
    "RUBBER_GAMES", "RUBBER_LENGTH", "SHEET_PLAYERS", "SHORT_NAME", "SUITS", "TITLE",
    "TRICKS_FOR_PLAYERS", "TRUMPS", "TRUMP_BY_COUNT", "TRUMP_RULES", "UNIT", "DealEntry",
    "DealProblem", "DealResult", "Entry", "Evaluation", "GameResult", "HandEntry", "HandResult",
    "InvalidDeals", "Match", "NextDeal", "PremiumResult", "Preset", "Result", "Rules",
    "SessionResult", "Standing", "Suit", "TrickRules", "applicable_options", "bid_from_cards",
    "cards_from_letters", "cards_text", "check_deal", "check_deals", "check_entries",
    "default_options", "entered_trump", "evaluate", "hand_label", "inapplicable",
    "letters_from_cards", "more_deals", "prose", "red", "resolve_rules", "score_session", "seat",
    "symbol", "player_counts", "table_places", "table_points",
    "trump_from_table", "trump_label", "trump_word",
]  # fmt: skip
