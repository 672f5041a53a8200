"""The CSV export's cells: none starts a formula, however a spreadsheet splits the file."""

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scorekeeper.presenters.common import spreadsheet_safe

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def pieces(cell: str) -> list[str]:
    """What a spreadsheet may make a cell of: the cell, and each piece of it after a ",", ";",
    tab, line break or quote; each also with the spaces in front trimmed."""
    cut = re.split(r'[,;\t\r\n"]', cell)
    return [cell, *cut, cell.lstrip(" "), *(piece.lstrip(" ") for piece in cut)]


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("a;=2+5;", "a;'=2+5;"),
        ("x\t=1", "x\t'=1"),
        ("\t=1", "'\t'=1"),
        ("b;+1", "b;'+1"),
        ("c;-cmd", "c;'-cmd"),
        ("d;@x", "d;'@x"),
        ("e, =1", "e, '=1"),
        ('f;"=1', "f;\"'=1"),
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("-5", "'-5"),
        ("Ann: Adjust -1; Ben: Adjust +2", "Ann: Adjust -1; Ben: Adjust +2"),
        ("Ann - Ben", "Ann - Ben"),
    ],
)
def test_a_quote_goes_before_what_would_start_a_formula(cell: str, written: str) -> None:
    assert spreadsheet_safe([[cell]]) == [[written]]


def test_numbers_stay_numbers_negative_ones_too() -> None:
    assert spreadsheet_safe([[-5, 0, 12, ""]]) == [[-5, 0, 12, ""]]


@given(st.text(alphabet=st.sampled_from(list("=+-@\t\r\n,; \"'a1")), max_size=40))
@example("\t\t=")
@example(" \t=")
def test_no_piece_of_a_written_cell_starts_a_formula(cell: str) -> None:
    [[written]] = spreadsheet_safe([[cell]])
    assert not [piece for piece in pieces(written) if piece.startswith(FORMULA_STARTS)]
    assert written.replace("'", "") == cell.replace("'", "")  # only quotes are added
