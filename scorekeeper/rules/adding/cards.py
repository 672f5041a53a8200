"""The card tables of the adding game (RULES.md §2.5): what each card does to the total."""

from dataclasses import dataclass


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
