"""One test per finding of the probe of the scoresheet import and the CSV export, each failing
before its fix: a small upload that stalled a worker, a byte order mark that was refused, and
formulas that a spreadsheet split on ";" found in the CSV.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from scorekeeper.models import GameSession
from scorekeeper.rules.bounds import MAX_FILE_BYTES
from tests.factories import post_scoresheet
from tests.views.test_hardening import ADDING, TRICK, _refused

# What a spreadsheet reads as a formula when a cell starts with it (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
WHOLE_NUMBER = re.compile(r"-?[0-9]+")


# 1. High: one small upload froze a worker.


def test_a_file_of_one_quote_then_escaped_quotes_gets_the_json_readers_place(
    alice_client: Client,
) -> None:
    raw = b'"' + b'\\"' * ((MAX_FILE_BYTES - 1) // 2)
    text = _refused(post_scoresheet(alice_client, raw), "This is not valid JSON (line 1, column 1)")
    assert "Unterminated string" in text


def test_a_file_beginning_with_a_byte_order_mark_is_imported(alice_client: Client) -> None:
    response = post_scoresheet(alice_client, b"\xef\xbb\xbf" + json.dumps(TRICK).encode())
    assert response.status_code == 302
    assert GameSession.objects.count() == 1


def test_the_import_command_reads_a_file_beginning_with_a_byte_order_mark(
    tmp_path: Path, alice: User
) -> None:
    path = tmp_path / "sheet.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(ADDING).encode())
    out = io.StringIO()
    call_command("import_scoresheet", str(path), owner="alice", stdout=out)
    assert out.getvalue().splitlines()[0] == GameSession.objects.get().public_id


# 2. Low: a name such as "a;=2+5;" made a formula in a spreadsheet that splits on ";".

NAMES = ["a;=2+5;", "b;+1", "c;-cmd"]
MORE_NAMES = ["d;@x", "e, =1", 'f;"=1', "g; -2", "h,+3", "-5"]


def _csv(client: Client, sheet: dict[str, Any]) -> str:
    assert post_scoresheet(client, sheet).status_code == 302
    game = GameSession.objects.order_by("-pk").first()
    assert game is not None
    return client.get(f"/sessions/{game.public_id}/session.csv").text


def _cells(text: str) -> list[str]:
    """Every cell a spreadsheet could make of the text: read as CSV split on ",", ";" or a
    tab, and cut at every one of these characters and line break without minding quotes; each
    cell also with its spaces and quotes trimmed in front, as some importers do."""
    cells = []
    for delimiter in (",", ";", "\t"):
        cells += [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter)
                  for cell in row]  # fmt: skip
    cells += re.split(r'[,;\t\r\n"]', text)
    return cells + [cell.lstrip(' "') for cell in cells]


def test_no_cell_starts_a_formula_however_the_csv_is_split(alice_client: Client) -> None:
    trick = {**TRICK, "ruleset": "long", "players": NAMES, "deals": [{"hands": {
        NAMES[0]: {"tricks": 3, "bid": 4},  # failed by one: -1
        NAMES[1]: {"tricks": 10, "bid": 6},  # failed by four: -4
        NAMES[2]: {"tricks": 0, "bid": 0},
    }}]}  # fmt: skip
    event = {"player": "d;@x", "event": "adjust", "tokens": -1}
    adding = {**ADDING, "players": MORE_NAMES, "rounds": [{"events": [event]}]}
    text = _csv(alice_client, trick) + _csv(alice_client, adding)
    starts = [cell for cell in _cells(text) if cell.startswith(FORMULA_STARTS)]
    # The scores stay numbers, negative ones too: a spreadsheet reads them as numbers.
    assert starts
    assert all(WHOLE_NUMBER.fullmatch(cell) for cell in starts), starts
    assert {"-1", "-4"} <= set(starts)
    # What a cell shows, as it was typed, with a ' before what would start a formula.
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][4] == "a;'=2+5; bid"
    assert rows[1][4:10] == ["4", "3", "failed", "", "-1", "6"]
    assert "d;'@x: Adjust -1" in rows[3]
    assert rows[2][3:9] == ["d;'@x after", "e, '=1 after", "f;\"'=1 after", "g; '-2 after",
                            "h,'+3 after", "'-5 after"]  # fmt: skip
