"""The adding game's options (RULES.md §3): their values, how they are read, and their words."""

from scorekeeper.rules.adding.cards import CARD_TABLES
from scorekeeper.rules.bounds import MAX_PLAYERS, MAX_TOKENS, MIN_PLAYERS
from scorekeeper.rules.common import is_whole
from scorekeeper.rules.options import CHOICE, NUMBER, Choice, Option

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


def usual_options(**changes: object) -> dict[str, object]:
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


def text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def option_problem(name: str, value: object) -> str | None:
    """What is wrong with an option's value, or None."""
    if name == "tokens":
        if is_whole(value) and 1 <= value <= MAX_TOKENS:
            return None
        return f"Must be a whole number from 1 to {MAX_TOKENS}."
    choices = tuple(CARD_TABLES) if name == "card_table" else _CHOICES[name]
    if isinstance(value, str) and value in choices:
        return None
    return f"Choose one of: {', '.join(choices)}."


_CHOICES = {"out": OUT_RULES, "on_69": ON_69, "display": DISPLAYS, "bust": BUST_RULES}


# The options in words (the start form and the rule sheets read these), in the order the
# start form asks for them.

OPTIONS = (
    Option(
        "tokens",
        "Tokens each player starts with",
        "Tokens each",
        NUMBER,
        sheet_help=f"a whole number from 1 to {MAX_TOKENS}",
        least=1,
        most=MAX_TOKENS,
        phrase="{value} tokens each",
    ),
    Option(
        "out",
        "When a player is out",
        "Out",
        CHOICE,
        (
            Choice("at-zero", "Out as soon as their tokens reach 0", "At 0 tokens"),
            Choice(
                "owing",
                "Stay in at 0; out when they must pay a token they do not have",
                "When you cannot pay",
            ),
        ),
        phrase="out {lower}",
    ),
    Option(
        "on_69",
        "Making exactly 69",
        "Exactly 69",
        CHOICE,
        (
            Choice("nothing", "Nothing special", "Nothing happens"),
            Choice("token", "Whoever makes exactly 69 gains a token", "Gain a token"),
            Choice("reset", "Making exactly 69 sets the total back to 0", "Total back to 0"),
        ),
        phrase="exactly 69: {lower}",
    ),
    Option(
        "display",
        "Show tokens as",
        "Show tokens as",
        CHOICE,
        (
            Choice("tokens", "Tokens (coins, chips, lives)", "Tokens"),
            Choice("dollar-bill", "A dollar bill's folds", "Dollar bill folds"),
        ),
        phrase="tokens shown as {lower}",
    ),
    Option(
        "bust",
        "A bust",
        "Bust",
        CHOICE,
        (
            Choice("ends-round", "A bust ends the round", "Pay, the round ends"),
            Choice(
                "out-of-round",
                "A bust only puts the player out of the round; the last to play wins it",
                "Out of the round",
            ),
        ),
        phrase="bust: {lower}",
    ),
    Option(
        "card_table",
        "Card values",
        "Card table",
        CHOICE,
        tuple(Choice(table.id, table.name) for table in CARD_TABLES.values()),
        phrase="card table: {value}",
    ),
)
OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}
