"""The adding game's options (RULES.md §3): their values, how they are read, and their words."""

from scorekeeper.rules.adding.cards import CARD_TABLES
from scorekeeper.rules.bounds import MAX_PLAYERS, MAX_TOKENS, MIN_PLAYERS
from scorekeeper.rules.common import is_whole
from scorekeeper.rules.i18n import _, gettext_noop
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
        return _("Must be a whole number from 1 to {most}.").format(most=MAX_TOKENS)
    choices = tuple(CARD_TABLES) if name == "card_table" else _CHOICES[name]
    if isinstance(value, str) and value in choices:
        return None
    return _("Choose one of: {choices}.").format(choices=", ".join(choices))


_CHOICES = {"out": OUT_RULES, "on_69": ON_69, "display": DISPLAYS, "bust": BUST_RULES}


# The options in words (the start form and the rule sheets read these), in the order the
# start form asks for them. The words are English ids, translated where they are shown.

OPTIONS = (
    Option(
        "tokens",
        gettext_noop("Tokens each player starts with"),
        gettext_noop("Tokens each"),
        NUMBER,
        # A whole id, so spelled out: MAX_TOKENS (99).
        sheet_help=gettext_noop("a whole number from 1 to 99"),
        least=1,
        most=MAX_TOKENS,
        phrase=gettext_noop("{value} tokens each"),
    ),
    Option(
        "out",
        gettext_noop("When a player is out"),
        gettext_noop("Out"),
        CHOICE,
        (
            Choice(
                "at-zero",
                gettext_noop("Out as soon as their tokens reach 0"),
                gettext_noop("At 0 tokens"),
            ),
            Choice(
                "owing",
                gettext_noop("Stay in at 0; out when they must pay a token they do not have"),
                gettext_noop("When you cannot pay"),
            ),
        ),
        phrase=gettext_noop("out {lower}"),
    ),
    Option(
        "on_69",
        gettext_noop("Making exactly 69"),
        gettext_noop("Exactly 69"),
        CHOICE,
        (
            Choice("nothing", gettext_noop("Nothing special"), gettext_noop("Nothing happens")),
            Choice(
                "token",
                gettext_noop("Whoever makes exactly 69 gains a token"),
                gettext_noop("Gain a token"),
            ),
            Choice(
                "reset",
                gettext_noop("Making exactly 69 sets the total back to 0"),
                gettext_noop("Total back to 0"),
            ),
        ),
        phrase=gettext_noop("exactly 69: {lower}"),
    ),
    Option(
        "display",
        gettext_noop("Show tokens as"),
        gettext_noop("Show tokens as"),
        CHOICE,
        (
            Choice("tokens", gettext_noop("Tokens (drawn as coins)"), gettext_noop("Tokens")),
            Choice(
                "dollar-bill",
                gettext_noop("A dollar bill's folds"),
                gettext_noop("Dollar bill folds"),
            ),
        ),
        phrase=gettext_noop("tokens shown as {lower}"),
    ),
    Option(
        "bust",
        gettext_noop("A bust"),
        gettext_noop("Bust"),
        CHOICE,
        (
            Choice(
                "ends-round",
                gettext_noop("A bust ends the round"),
                gettext_noop("Pay, the round ends"),
            ),
            Choice(
                "out-of-round",
                gettext_noop(
                    "A bust only puts the player out of the round; the last to play wins it"
                ),
                gettext_noop("Out of the round"),
            ),
        ),
        phrase=gettext_noop("bust: {lower}"),
    ),
    Option(
        "card_table",
        gettext_noop("Card values"),
        gettext_noop("Card table"),
        CHOICE,
        tuple(Choice(table.id, table.name) for table in CARD_TABLES.values()),
        phrase=gettext_noop("card table: {value}"),
    ),
)
OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}
