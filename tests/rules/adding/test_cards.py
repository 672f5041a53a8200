"""The card tables as data (RULES.md §2.5): the printed words are made from the effects that
the count assistant plays, and say exactly what the sheets said when they were written by hand."""

import pytest

from scorekeeper.rules.adding import CARD_TABLES
from scorekeeper.rules.adding.cards import (
    ADD,
    ASK_PLAYER,
    ASK_TOTAL,
    ASK_VALUE,
    QUESTIONS,
    RANKS,
    Effect,
    number_words,
)

# Every cell of every printed card table, as the cheat sheets printed them before the tables
# became data (written out again here, not read from the module).
PRINTED = {
    "pagat-99": (
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
    "standard": (
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
    ),
    "thirty-three": (
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
    "wilson": (
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
    "stack-1950s": (
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
    "one-hundred": (
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
    "ninety-eight": (
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
    "arizona": (
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
    "alternate": (
        ("A", "1 or 11"),
        ("2", "2"),
        ("3", "3"),
        ("4", "4"),
        ("5–8", "face value"),
        ("9", "0 (pass)"),
        ("10", "−10"),
        ("J", "10"),
        ("Q", "10"),
        ("K", "total becomes 99"),
    ),
    "chicago": (
        ("A", "1 or 11"),
        ("2", "2"),
        ("3", "3, and the next player is skipped"),
        ("4", "0, and play reverses (not with 2 players)"),
        ("5–8", "face value"),
        ("9", "0, and the next player is skipped"),
        ("10", "−10"),
        ("J", "10"),
        ("Q", "10"),
        ("K", "total becomes 99"),
    ),
    "hawaii": (
        ("A", "1 or 11"),
        ("2", "2"),
        ("3", "3, and the next player is skipped"),
        ("4", "0, and play reverses (not with 2 players)"),
        ("5", "−5"),
        ("6–8", "face value"),
        ("9", "total becomes 99"),
        ("10", "−10"),
        ("J", "total becomes 99"),
        ("Q", "10"),
        ("K", "0 (pass)"),
    ),
    "iceland": (
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
    "taiwan": (
        ("A", "1 or 11"),
        ("A♠", "total becomes 0"),
        ("2", "2"),
        ("3", "3, and the next player is skipped"),
        ("4", "0, and play reverses (not with 2 players)"),
        ("5", "5, and you choose who plays next"),
        ("6–8", "face value"),
        ("9", "9"),
        ("10", "+10 or −10"),
        ("J", "0 (pass)"),
        ("Q", "+20 or −20"),
        ("K", "total becomes 99"),
    ),
}


def test_every_table_prints_what_it_printed_before():
    assert {table.id: table.cells for table in CARD_TABLES.values()} == PRINTED


@pytest.mark.parametrize("table", CARD_TABLES.values(), ids=CARD_TABLES)
def test_every_rank_of_a_table_is_one_button_of_the_counter(table):
    ids = [card.id for card in table.cards]
    assert len(ids) == len(set(ids))
    # A, 2 … K: every rank once, a suited or coloured card beside its rank ("2", "2♠").
    assert sorted({card.rank for card in table.cards}, key=RANKS.index) == [
        rank for rank in RANKS if rank != "Joker" or table.id == "arizona"
    ]
    assert [card.rank for card in table.cards] == sorted(
        (card.rank for card in table.cards), key=RANKS.index
    )
    for row in table.rows:
        assert [card.id for card in row.cards] == list(row.ranks or (row.label,))


def test_a_face_value_row_gives_each_card_its_own_value():
    row = {row.label: row for row in CARD_TABLES["stack-1950s"].rows}["5, 6, 8"]
    assert [(card.id, card.effect.values) for card in row.cards] == [
        ("5", (5,)),
        ("6", (6,)),
        ("8", (8,)),
    ]


@pytest.mark.parametrize(
    ("table", "card", "asks"),
    [
        ("pagat-99", "A", ASK_VALUE),
        ("pagat-99", "10", ASK_VALUE),
        ("pagat-99", "K", None),
        ("iceland", "A", ASK_VALUE),
        ("taiwan", "Q", ASK_VALUE),
        ("taiwan", "5", ASK_PLAYER),
        ("one-hundred", "Black A", ASK_TOTAL),
        ("one-hundred", "Red A", None),
        ("thirty-three", "2", None),
        ("arizona", "Joker", None),
    ],
)
def test_a_card_with_a_choice_asks_one_question(table, card, asks):
    found = CARD_TABLES[table].card(card)
    assert found is not None
    assert found.effect.asks == asks
    assert asks is None or QUESTIONS[asks]


def test_an_unknown_card_is_not_in_the_table():
    assert CARD_TABLES["pagat-99"].card("Joker") is None
    assert CARD_TABLES["pagat-99"].card("5–8") is None


@pytest.mark.parametrize(
    ("value", "signed", "words"),
    [(-10, False, "−10"), (10, False, "10"), (10, True, "+10"), (0, True, "0"), (-5, True, "−5")],
)
def test_numbers_are_written_with_a_true_minus_sign(value, signed, words):
    assert number_words(value, signed) == words


def test_two_values_with_a_minus_are_both_signed():
    assert Effect(ADD, (20, -20)).text == "+20 or −20"
    assert Effect(ADD, (1, 14)).text == "1 or 14"
