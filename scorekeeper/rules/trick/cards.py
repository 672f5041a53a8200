"""The suits of the trick game: names, the letters they are stored as, symbols and bid values.

Every page, form and file of the app takes a suit's letter, symbol, title and bid-card value
from here (RULES.md §1.1: ♦0 ♠1 ♥2 ♣3).
"""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Suit:
    name: str  # as the scoresheet file writes it: "diamonds"
    letter: str  # as a bid-card is stored and posted: "D"
    symbol: str  # "♦"
    title: str  # "Diamonds"
    card: str  # one card of the suit: "Diamond"
    bid_value: int  # the tricks a bid-card of this suit stands for

    @property
    def red(self) -> bool:
        return self.name in ("hearts", "diamonds")


# Lowest bid-card first: ♦0 ♠1 ♥2 ♣3, the order the bid-card buttons show.
BID_SUITS = (
    Suit("diamonds", "D", "♦", "Diamonds", "Diamond", 0),
    Suit("spades", "S", "♠", "Spades", "Spade", 1),
    Suit("hearts", "H", "♥", "Hearts", "Heart", 2),
    Suit("clubs", "C", "♣", "Clubs", "Club", 3),
)
BY_NAME = {suit.name: suit for suit in BID_SUITS}
BY_LETTER = {suit.letter: suit for suit in BID_SUITS}

SUITS = ("clubs", "hearts", "spades", "diamonds")  # highest first, as trumps are listed
NO_TRUMP = "none"
TRUMPS = (*SUITS, NO_TRUMP)
BID_CARD_VALUES = {suit.name: suit.bid_value for suit in BID_SUITS}
# Every way to lay three bid-cards, as the three suit letters in the order entered.
BID_CARD_CODES = tuple(a + b + c for a in "DSHC" for b in "DSHC" for c in "DSHC")


def bid_from_cards(cards: Sequence[str]) -> int:
    """The bid that three bid-cards stand for: each diamond 0, spade 1, heart 2, club 3."""
    if len(cards) != 3:
        raise ValueError(f"A bid is made with three cards, not {len(cards)}.")
    for card in cards:
        if card not in BID_CARD_VALUES:
            raise ValueError(f'"{card}" is not a suit.')
    return sum(BID_CARD_VALUES[card] for card in cards)


def trump_label(trump: str | None) -> str:
    """'♦ Diamonds', 'No trump', or 'Turned up at the table' for a trump the table turns up
    (the rules cannot know it before the deal)."""
    if trump is None:
        return "Turned up at the table"
    if trump == NO_TRUMP:
        return "No trump"
    suit = BY_NAME[trump]
    return f"{suit.symbol} {suit.title}"


def symbol(trump: str) -> str:
    """'♦', or '' for no trump."""
    return "" if trump == NO_TRUMP else BY_NAME[trump].symbol


def cards_text(letters: str) -> str:
    """Bid-cards as stored ('CDD') in symbols: '♣♦♦'."""
    return "".join(BY_LETTER[letter].symbol for letter in letters)


def cards_from_letters(letters: str) -> tuple[str, ...]:
    """'CDD' → ('clubs', 'diamonds', 'diamonds')."""
    return tuple(BY_LETTER[letter].name for letter in letters)


def letters_from_cards(cards: Sequence[str]) -> str:
    """('clubs', 'diamonds', 'diamonds') → 'CDD'."""
    return "".join(BY_NAME[card].letter for card in cards)
