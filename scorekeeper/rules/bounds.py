"""The bounds every reader enforces (RULES.md §3, Bounds): each number has its home here.

Forms, the scoresheet import and the rules all read them from this module, so a value a form
refuses cannot come in through a file, and no stored number can make a page slow or fail. A
real table never comes near them.
"""

import unicodedata
from collections.abc import Sequence

from scorekeeper.rules.i18n import _, gettext_noop, ngettext

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_TOKENS = 99  # an adding-game `tokens` option
MAX_BONUS = 1_000  # each value of a `bonus` row
MAX_MATCH_DEALS = 999
MAX_TARGET = 10_000
MAX_GAMES = 99
MAX_ADJUST = 99  # an adjustment is ±1 to ±99
MAX_DEALS = 2_000  # deals or rounds in a session
MAX_EVENTS = 200  # events in one round
# Cards the count assistant counts in one round. Not in RULES.md (the count is kept with the
# session, never in a scoresheet file): a round plays through a pack of 52 to 54 cards and
# reshuffles the discards when the stock runs out, and even six players holding the total at
# 99 with Kings, 9s, 4s and 10s do not go through the pack nine times.
MAX_CARDS = 500
MAX_NAME_LENGTH = 40
MAX_TITLE_LENGTH = 100

# What a scoresheet file may be, checked before it is parsed. Not in RULES.md: the format
# needs at most 6 levels of nesting, and a 2,000-deal export of five players with 40-character
# names is about 3.5 MB.
MAX_FILE_BYTES = 5_000_000
MAX_NESTING = 10
# How many problems a refusal lists before it says how many more there are.
SHOWN_PROBLEMS = 50

# Characters no name or title may hold: control characters (NUL, tab, newline …), surrogates,
# private-use characters, line and paragraph separators, and the bidirectional overrides and
# isolates that make text read in another order than it is stored.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Zl", "Zp"})
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def number(value: int) -> str:
    """A bound as the messages write it: 1,000; 10,000 (in French 1 000; 10 000)."""
    # Translators: a sample number, only to show the thousands separator: French 1 000 (with a
    # non-breaking space).
    separator = _("1,000")[1:-3] or ","
    return f"{value:,}".replace(",", separator)


def player_range(counts: Sequence[int]) -> str:
    """The numbers of players a ruleset takes, as every page and message says them: "3",
    "2 to 10" (or "3 or 5" where they do not follow each other)."""
    first, last = counts[0], counts[-1]
    if first == last:
        return str(first)
    if list(counts) == list(range(first, last + 1)):
        return _("{first} to {last}").format(first=first, last=last)
    return _("{numbers} or {last}").format(numbers=", ".join(map(str, counts[:-1])), last=last)


# The subjects `text_problem()` is given by its callers, marked here so that each is translated
# (the forms' and the scoresheet file's as well as the rules' own).
TEXT_SUBJECTS = (
    gettext_noop("A player name"),
    gettext_noop("A name"),
    gettext_noop("A title"),
)


def text_problem(text: str, what: str, longest: int) -> str | None:
    """What is wrong with a name or a title, or None: too long, or holding a character that
    cannot be shown (a control character, NUL …).

    `what` is the subject of the sentence ("A player name", "A title"), marked with
    `gettext_noop()` where it is written: it is translated here.
    """
    if len(text) > longest:
        return ngettext(
            "{what} can be at most {longest} character long.",
            "{what} can be at most {longest} characters long.",
            longest,
        ).format(what=_(what), longest=longest)
    if any(c in _BIDI_CONTROLS or unicodedata.category(c) in _REFUSED_CATEGORIES for c in text):
        return _(
            "{what} cannot hold control characters (such as a tab, a new line or NUL)."
        ).format(what=_(what))
    return None


def name_key(name: str) -> str:
    """The form of a name that two names share when people would call them the same name.

    Unicode's caseless match for identifiers: NFKC, then case folding, then NFKC again, so
    "Éva" and "éva" (which SQLite's lower() tells apart), "Straße" and "STRASSE", or a
    full-width "Ｅｖａ" and "Eva" are one name. NFKC rather than NFC because compatibility
    forms (full-width letters, ligatures, superscripts) look the same at the table.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def shown_problems(problems: Sequence[object]) -> list[str]:
    """The first SHOWN_PROBLEMS problems as text, then how many more there are."""
    lines = [str(problem) for problem in problems[:SHOWN_PROBLEMS]]
    more = len(problems) - SHOWN_PROBLEMS
    if more > 0:
        message = ngettext("… and {count} more problem.", "… and {count} more problems.", more)
        lines.append(message.format(count=number(more)))
    return lines
