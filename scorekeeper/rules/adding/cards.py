"""The card tables of the adding game (RULES.md §2.5): what each card does, as data.

This is the one home of the card tables. A table is a list of rows as the printed cheat sheet
shows them ("5–8: face value"); a row covers one card, or several ranks that each count their
face value, and holds one `Effect`. The sheet's words (`CardTable.cells`) are made here from
the effects, and the count assistant (`count.py`) plays the same effects, so what is printed
and what is counted cannot disagree.

A card is named by its row's label ("A", "Q♥", "Black A", "Joker"), or by its rank in a
face-value row ("6" in "5–8"). A suited row and the plain row of the same rank split the rank:
in `one-hundred`, "2♠" is the two of spades and "2" every other two.
"""

from dataclasses import dataclass

from scorekeeper.rules.i18n import _, gettext_noop

# What a card does to the total (Effect.kind).
ADD = "add"  # add values[0], or one of values at the player's choice; () adds the face value
SET = "set"  # the total becomes values[0]
SET_ANY = "set-any"  # the total becomes any number from values[0] to values[1] (player's choice)
DOUBLE = "double"  # the total is doubled
HALVE_OR_DOUBLE = "halve-or-double"  # an even total over values[0] is halved, any other doubled
KINDS = (ADD, SET, SET_ANY, DOUBLE, HALVE_OR_DOUBLE)

# What a card does to the turn (Effect.turn); None: the next player plays, as after any card.
PASS = "pass"  # the sources' "pass": the total stays and the next player plays, as usual
REVERSE = "reverse"  # play changes direction
SKIP = "skip"  # the next player is skipped
TWICE = "twice"  # the next player plays two cards in a row
CHOOSE = "choose"  # the player says who plays next
TURNS = (PASS, REVERSE, SKIP, TWICE, CHOOSE)

# What a source says a turn effect does with two players (Effect.two_players). The count plays
# all three the same way (count.py): a reverse leaves the direction, a skip brings the turn back.
WITH_TWO_PASS = "pass"  # "with 2 players: pass"
NOT_WITH_TWO = "not"  # "not with 2 players"
WITH_TWO_AGAIN = "again"  # "2 players: play again"

# The one more input a card with a choice needs (Effect.asks), and the question to ask.
ASK_VALUE = "value"  # which of the values to add
ASK_TOTAL = "total"  # which total to set
ASK_PLAYER = "player"  # who plays next
QUESTIONS = {  # English ids, translated where they are shown
    ASK_VALUE: gettext_noop("Count it as"),
    ASK_TOTAL: gettext_noop("Set the total to"),
    ASK_PLAYER: gettext_noop("Who plays next?"),
}

# The sheet's words for each part of an effect: what the card does to the total is `{effect}`.
_TURN_WORDS = {
    PASS: gettext_noop("{effect} (pass)"),
    REVERSE: gettext_noop("{effect}, and play reverses"),
    SKIP: gettext_noop("{effect}, and the next player is skipped"),
    TWICE: gettext_noop("{effect}, and the next player plays twice"),
    CHOOSE: gettext_noop("{effect}, and you choose who plays next"),
}
_TWO_PLAYER_WORDS = {
    WITH_TWO_PASS: gettext_noop("{effect} (with 2 players: pass)"),
    NOT_WITH_TWO: gettext_noop("{effect} (not with 2 players)"),
    WITH_TWO_AGAIN: gettext_noop("{effect} (2 players: play again)"),
}
# The card labels a language may write otherwise (English ids; a number or a run of numbers,
# "5–8", reads the same everywhere). A card's id stays English where it is stored.
_CARD_WORDS = {
    "J": gettext_noop("J"),
    "Q": gettext_noop("Q"),
    "K": gettext_noop("K"),
    "Q♥": gettext_noop("Q♥"),
    "A♠": gettext_noop("A♠"),
    "Black A": gettext_noop("Black A"),
    "Red A": gettext_noop("Red A"),
    "Black 5": gettext_noop("Black 5"),
    "Red 5": gettext_noop("Red 5"),
    "Joker": gettext_noop("Joker"),
}
# The ranks in the order the counter's grid shows them.
RANKS = ("A", *(str(number) for number in range(2, 11)), "J", "Q", "K", "Joker")


def card_words(card: str) -> str:
    """A card's id or a row's label as people read it, in the active language: "K" ("R" in
    French), "Black A"; numbers as they are."""
    return _(_CARD_WORDS[card]) if card in _CARD_WORDS else card


def number_words(value: int, signed: bool = False) -> str:
    """-10 as '−10' (a true minus sign), 10 as '10', or '+10' when `signed`."""
    if value < 0:
        return f"−{-value}"
    return f"+{value}" if signed and value > 0 else str(value)


@dataclass(frozen=True)
class Effect:
    """What one card does: to the total (`kind` with its `values`), and to the turn."""

    kind: str = ADD  # one of KINDS
    values: tuple[int, ...] = ()  # see KINDS; ADD with () is the face value (a row's effect)
    turn: str | None = None  # one of TURNS
    two_players: str | None = None  # what the source says `turn` does with two players
    aside: str = ""  # a rule the count leaves to the table, in words (Iceland's queens)

    @property
    def asks(self) -> str | None:
        """The one more input the card needs (ASK_VALUE, ASK_TOTAL, ASK_PLAYER), or None."""
        if self.kind == ADD and len(self.values) > 1:
            return ASK_VALUE
        if self.kind == SET_ANY:
            return ASK_TOTAL
        return ASK_PLAYER if self.turn == CHOOSE else None

    def apply(self, total: int, choice: int | None = None) -> int:
        """The total after this card (before any limit or house rule), for a checked choice."""
        if self.kind == ADD:
            return total + (
                choice if len(self.values) > 1 and choice is not None else self.values[0]
            )
        if self.kind == SET:
            return self.values[0]
        if self.kind == SET_ANY:
            return total if choice is None else choice
        if self.kind == DOUBLE or total % 2 or total <= self.values[0]:
            return total * 2
        return total // 2  # HALVE_OR_DOUBLE: an even total over the threshold

    @property
    def text(self) -> str:
        """The effect as the cheat sheet prints it: '0, and play reverses (not with 2 players)'."""
        values = self.values
        if self.kind == ADD:
            signed = any(value < 0 for value in values) and len(values) > 1
            numbers = [number_words(value, signed) for value in values]
            if not numbers:
                words = _("face value")
            elif len(numbers) == 1:
                words = numbers[0]
            else:
                words = _("{first} or {second}").format(first=numbers[0], second=numbers[1])
        elif self.kind == SET:
            words = _("total becomes {total}").format(total=values[0])
        elif self.kind == SET_ANY:
            words = _("set the total to anything from {low} to {high}").format(
                low=values[0], high=values[1]
            )
        elif self.kind == DOUBLE:
            words = _("doubles the total")
        else:
            words = _("halves an even total over {total}; otherwise doubles the total").format(
                total=values[0]
            )
        if self.turn is not None:
            words = _(_TURN_WORDS[self.turn]).format(effect=words)
        if self.two_players is not None:
            words = _(_TWO_PLAYER_WORDS[self.two_players]).format(effect=words)
        if self.aside:
            words = _("{effect}; {aside}").format(effect=words, aside=_(self.aside))
        return words


@dataclass(frozen=True)
class Card:
    """One card the count assistant can be told was played: one button of its grid."""

    id: str  # as a play stores it, and the button shows it: "A", "7", "Q♥", "Black A"
    effect: Effect

    @property
    def rank(self) -> str:
        """'A' for "Black A", '2' for "2♠"."""
        return self.id.split()[-1].rstrip("♣♥♠♦")


@dataclass(frozen=True)
class Row:
    """One line of a printed card table: a label and its effect."""

    label: str  # "A", "5–8", "Q♥", "Black A" (English; card_words() for people)
    effect: Effect  # for a face-value row, ADD with no values
    ranks: tuple[str, ...] = ()  # a face-value row's ranks ("5", "6", "7", "8"); else ()

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the row: one, or each rank of a face-value row with its own value."""
        if not self.ranks:
            return (Card(self.label, self.effect),)
        return tuple(Card(rank, Effect(ADD, (int(rank),))) for rank in self.ranks)


@dataclass(frozen=True)
class CardTable:
    """What each card does to the total: the rows of the printed cheat sheet, and the cards
    of the count assistant."""

    id: str
    name: str  # English: translate it where it is shown (same id)
    rows: tuple[Row, ...]
    notes: str  # English: translate it where it is shown (same id)
    # The pack: a standard 52 cards, and its two Jokers where the table plays them (RULES.md
    # §2.5: Arizona's Joker, the alternate rules' "jokers allowed").
    jokers: bool = False

    @property
    def cells(self) -> tuple[tuple[str, str], ...]:
        """(rank label, effect in plain words), for the printed cheat sheet, in the active
        language."""
        return tuple((card_words(row.label), row.effect.text) for row in self.rows)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card the table tells apart, by rank (A, 2 … K, Joker), for the counter's grid;
        cards of one rank in the sheet's order ("Black A", "Red A")."""
        cards = [card for row in self.rows for card in row.cards]
        return tuple(sorted(cards, key=lambda card: RANKS.index(card.rank)))

    def card(self, card_id: str) -> Card | None:
        return next((card for card in self.cards if card.id == card_id), None)


# Building the rows


def _row(label: str, kind: str = ADD, *values: int, **turn: str) -> Row:
    """A one-card row: _row("K", SET, 99), _row("4", ADD, 0, turn=REVERSE)."""
    return Row(label, Effect(kind, values, **turn))


def _adds(label: str, *values: int, **turn: str) -> Row:
    """A card that adds a value, or one of two values at the player's choice."""
    return _row(label, ADD, *values, **turn)


def _face(*numbers: int) -> Row:
    """Ranks that count their face value: "5–8" when in a run, else "5, 6, 8"."""
    ranks = tuple(str(number) for number in numbers)
    in_a_run = numbers == tuple(range(numbers[0], numbers[-1] + 1))
    label = f"{ranks[0]}–{ranks[-1]}" if in_a_run else ", ".join(ranks)
    return Row(label, Effect(ADD), ranks)


_ACE = _adds("A", 1, 11)
_TEN = _adds("10", 10, -10)
_MINUS_TEN = _adds("10", -10)
_SKIP_NEXT = {"turn": SKIP}
_REVERSE_NOT_WITH_TWO = {"turn": REVERSE, "two_players": NOT_WITH_TWO}

_STANDARD = (
    _ACE,
    _adds("2", 2),
    _adds("3", 3, **_SKIP_NEXT),
    _adds("4", 0, **_REVERSE_NOT_WITH_TWO),
    _face(5, 6, 7, 8),
    _row("9", SET, 99),
    _TEN,
    _adds("J", 10),
    _adds("Q", 10),
    _adds("K", 0, turn=PASS),
)


def _standard(*changes: Row) -> tuple[Row, ...]:
    """The `standard` table's rows with some replaced, matched by label."""
    changed = {row.label: row for row in changes}
    return tuple(changed.get(row.label, row) for row in _STANDARD)


CARD_TABLES: dict[str, CardTable] = {
    table.id: table
    for table in (
        CardTable(
            "pagat-99",
            gettext_noop("Pagat's Ninety-Nine"),
            (
                _ACE,
                _adds("2", 2),
                _adds("3", 3),
                _adds("4", 0, turn=REVERSE, two_players=WITH_TWO_PASS),
                _face(5, 6, 7, 8),
                _adds("9", 0, turn=PASS),
                _TEN,
                _adds("J", 10),
                _adds("Q", 10),
                _row("K", SET, 99),
            ),
            gettext_noop("Call the new total as you play, then draw."),
        ),
        CardTable(
            "standard",
            gettext_noop("Standard (encyclopaedia)"),
            _STANDARD,
            gettext_noop("Some swap the 9 and the King: see the alternate table."),
        ),
        CardTable(
            "thirty-three",
            gettext_noop("33, 66, 99"),
            (
                _ACE,
                _row("2", HALVE_OR_DOUBLE, 49),
                _adds("3", 3),
                _adds("4", 4, **_REVERSE_NOT_WITH_TWO),
                _face(5, 6, 7, 8),
                _adds("9", 0),
                _TEN,
                _adds("J", 10, turn=SKIP, two_players=WITH_TWO_AGAIN),
                _adds("Q", 10),
                _adds("K", 10),
            ),
            gettext_noop(
                "Exactly 33 or 66 going up: everyone else pays 1. Past 33 or 66 going up: you "
                "pay 1. Exactly 99: everyone else pays 2, round over. Over 99: you pay 2, round "
                "over."
            ),
        ),
        CardTable(
            "wilson",
            gettext_noop("Wilson"),
            (
                _ACE,
                _adds("2", 2),
                _adds("3", 3),
                _adds("4", 4),
                _face(5, 6, 7),
                _adds("8", 0, turn=REVERSE),
                _adds("9", 0, turn=PASS),
                _TEN,
                _adds("J", 10),
                _adds("Q", 10),
                _adds("K", 10),
            ),
            gettext_noop(
                "Crossing 33/34, 66/67 or 99/100, either way, costs a game point; past 99 the "
                "round ends."
            ),
        ),
        CardTable(
            "stack-1950s",
            gettext_noop("1950s (Daniel Stack)"),
            (
                _ACE,
                _adds("2", 2),
                _adds("3", 3),
                _adds("4", 4),
                _face(5, 6, 8),
                _adds("7", 7, turn=REVERSE),
                _adds("9", 0),
                _TEN,
                _adds("J", 10),
                _adds("Q", 10),
                _adds("K", 10),
            ),
            gettext_noop(
                "No card sets the total to 99. The source says only that a 7 reverses; that it "
                "also counts 7 is a choice."
            ),
        ),
        CardTable(
            "one-hundred",
            gettext_noop("One Hundred"),
            (
                _row("Black A", SET_ANY, 0, 100),
                _adds("Red A", 1),
                _adds("2", 2),
                _row("2♠", DOUBLE),
                _adds("3", 3),
                _adds("4", 0, turn=REVERSE),
                _adds("Red 5", -5),
                _adds("Black 5", 5),
                _face(6, 7, 8),
                _adds("9", 9),
                _row("10", SET, 100),
                _adds("J", -10),
                _adds("Q", 10),
                _row("Q♥", SET, 0),
                _adds("K", 0),
            ),
            gettext_noop("Going over 100 costs a token."),
        ),
        CardTable(
            "ninety-eight",
            gettext_noop("Ninety-Eight"),
            (
                _adds("A", 1),
                _adds("2", 2),
                _adds("3", 3),
                _adds("4", 4),
                _face(5, 6, 7, 8),
                _adds("9", 9),
                _MINUS_TEN,
                _adds("J", 0),
                _adds("Q", 0),
                _row("K", SET, 98),
            ),
            gettext_noop("Whoever takes the total over 98 drinks."),
        ),
        CardTable(
            "arizona",
            gettext_noop("Ninety-Eight, Arizona"),
            (
                _ACE,
                _adds("2", 2),
                _adds("3", 3),
                _adds("4", 0),
                _face(5, 6, 7, 8),
                _adds("9", 0, turn=REVERSE),
                _adds("10", 10),
                _adds("J", -10),
                _adds("Q", 0),
                _row("K", SET, 98),
                _row("Joker", SET, 98, turn=TWICE),
            ),
            gettext_noop(
                "Cards of the same rank may be played together (aces all count the same)."
            ),
            jokers=True,
        ),
        # Regional tables for ninety-nine-standard: the standard table with the source's changes.
        CardTable(
            "alternate",
            gettext_noop("Alternate"),
            _standard(
                _adds("3", 3),
                _adds("4", 4),
                _adds("9", 0, turn=PASS),
                _MINUS_TEN,
                _row("K", SET, 99),
            ),
            gettext_noop(
                "Jokers are in the pack; the source gives them no value, so agree one at the table."
            ),
            jokers=True,
        ),
        CardTable(
            "chicago",
            gettext_noop("Chicago"),
            _standard(_adds("9", 0, **_SKIP_NEXT), _MINUS_TEN, _row("K", SET, 99)),
            "",
        ),
        CardTable(
            "hawaii",
            gettext_noop("Hawaii"),
            (
                *_STANDARD[:4],
                _adds("5", -5),
                _face(6, 7, 8),
                *_standard(_MINUS_TEN, _row("J", SET, 99))[5:],
            ),
            gettext_noop("Both the 9 and the Jack set the total to 99."),
        ),
        CardTable(
            "iceland",
            gettext_noop("Iceland"),
            (
                _adds("A", 1, 14),
                _adds("2", 2),
                _adds("3", 3),
                _adds("4", 0, **_REVERSE_NOT_WITH_TWO),
                _adds("5", 5, **_SKIP_NEXT),
                _adds("6", 6),
                _adds("7", 7, turn=REVERSE),
                _adds("8", 8),
                _row("9", SET, 99),
                _TEN,
                _adds("J", 11),
                Row(
                    "Q",
                    Effect(
                        ADD,
                        (0,),
                        aside=gettext_noop(
                            "the next player cannot draw unless they also play a Queen"
                        ),
                    ),
                ),
                _adds("K", 0),
            ),
            gettext_noop(
                "Queens in a row: after two the next player must play two cards, after three "
                "three, after four four."
            ),
        ),
        CardTable(
            "taiwan",
            gettext_noop("Taiwan"),
            (
                _ACE,
                _row("A♠", SET, 0),
                *_STANDARD[1:4],
                _adds("5", 5, turn=CHOOSE),
                _face(6, 7, 8),
                *_standard(
                    _adds("9", 9),
                    _adds("J", 0, turn=PASS),
                    _adds("Q", 20, -20),
                    _row("K", SET, 99),
                )[5:],
            ),
            gettext_noop("Five cards each."),
        ),
    )
}
REGIONAL_TABLES = ("standard", "alternate", "chicago", "hawaii", "iceland", "taiwan")
