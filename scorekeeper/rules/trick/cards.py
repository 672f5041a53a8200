"""The suits of the trick game: names, the letters they are stored as, symbols and bid values.

Every page, form and file of the app takes a suit's letter, symbol, title and bid-card value
from here (RULES.md §1.1: ♦0 ♠1 ♥2 ♣3).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules.i18n import _, gettext_noop


@dataclass(frozen=True)
class Suit:
    name: str  # as the scoresheet file writes it: "diamonds"
    letter: str  # as a bid-card is stored and posted: "D"
    symbol: str  # "♦"
    title: str  # "Diamonds" (a message id: translate it where shown)
    card: str  # one card of the suit: "Diamond" (a message id too)
    bid_value: int  # the tricks a bid-card of this suit stands for

    @property
    def red(self) -> bool:
        return self.name in ("hearts", "diamonds")


# Lowest bid-card first: ♦0 ♠1 ♥2 ♣3, the order the bid-card buttons show.
BID_SUITS = (
    Suit("diamonds", "D", "♦", gettext_noop("Diamonds"), gettext_noop("Diamond"), 0),
    Suit("spades", "S", "♠", gettext_noop("Spades"), gettext_noop("Spade"), 1),
    Suit("hearts", "H", "♥", gettext_noop("Hearts"), gettext_noop("Heart"), 2),
    Suit("clubs", "C", "♣", gettext_noop("Clubs"), gettext_noop("Club"), 3),
)
BY_NAME = {suit.name: suit for suit in BID_SUITS}
BY_LETTER = {suit.letter: suit for suit in BID_SUITS}

SUITS = ("clubs", "hearts", "spades", "diamonds")  # highest first, as trumps are listed
NO_TRUMP = "none"
TRUMPS = (*SUITS, NO_TRUMP)
BID_CARD_VALUES = {suit.name: suit.bid_value for suit in BID_SUITS}
# Every way to lay three bid-cards, as the three suit letters in the order entered.
_LETTERS = "".join(suit.letter for suit in BID_SUITS)
BID_CARD_CODES = tuple(a + b + c for a in _LETTERS for b in _LETTERS for c in _LETTERS)


def bid_from_cards(cards: Sequence[str]) -> int:
    """The bid that three bid-cards stand for: each diamond 0, spade 1, heart 2, club 3."""
    if len(cards) != 3:
        raise ValueError(_("A bid is made with three cards, not {count}.").format(count=len(cards)))
    for card in cards:
        if card not in BID_CARD_VALUES:
            raise ValueError(_('"{card}" is not a suit.').format(card=card))
    return sum(BID_CARD_VALUES[card] for card in cards)


def trump_label(trump: str | None) -> str:
    """'♦ Diamonds', 'No trump', or 'Turned up at the table' for a trump the table turns up
    (the rules cannot know it before the deal)."""
    if trump is None:
        return _("Turned up at the table")
    if trump == NO_TRUMP:
        return _("No trump")
    suit = BY_NAME[trump]
    return f"{suit.symbol} {_(suit.title)}"


# A trump in a sentence, with a small letter: "The trump for this deal is diamonds, not none."
_TRUMP_WORDS = {
    "clubs": gettext_noop("clubs"),
    "hearts": gettext_noop("hearts"),
    "spades": gettext_noop("spades"),
    "diamonds": gettext_noop("diamonds"),
    NO_TRUMP: gettext_noop("none"),
}


def trump_word(trump: str) -> str:
    """A trump as a sentence says it: 'diamonds', 'none' (in French: 'carreau', 'sans-atout');
    anything else as it is."""
    word = _TRUMP_WORDS.get(trump)
    return _(word) if word else trump


def symbol(trump: str) -> str:
    """'♦', or '' for no trump."""
    return "" if trump == NO_TRUMP else BY_NAME[trump].symbol


def red(trump: str) -> bool:
    """Whether a trump is a red suit (shown in red); no trump is not."""
    return trump != NO_TRUMP and BY_NAME[trump].red


def cards_text(letters: str) -> str:
    """Bid-cards as stored ('CDD') in symbols: '♣♦♦'."""
    return "".join(BY_LETTER[letter].symbol for letter in letters)


def cards_from_letters(letters: str) -> tuple[str, ...]:
    """'CDD' → ('clubs', 'diamonds', 'diamonds')."""
    return tuple(BY_LETTER[letter].name for letter in letters)


def letters_from_cards(cards: Sequence[str]) -> str:
    """('clubs', 'diamonds', 'diamonds') → 'CDD'."""
    return "".join(BY_NAME[card].letter for card in cards)
