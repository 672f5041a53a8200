"""The scoresheet file (FORMAT.md): read one, and write one, whatever its game family.

Pure Python, no Django. `loads_scoresheet()` takes the file's text; `parse_scoresheet()` what
`json.loads` returned; either gives a sheet of the file's family, or raises InvalidScoresheet
listing every problem as a path into the file. `export_scoresheet()` gives the dict to write,
`dumps_scoresheet()` its text. `SHEETS` is the registry of each family's reader and writer
(`SheetFamily`).
"""

import json
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, Protocol

from scorekeeper.scoresheet import adding, trick
from scorekeeper.scoresheet.adding import AddingSheet, event_data, read_change, round_data
from scorekeeper.scoresheet.reading import (
    FORMAT_ID,
    FORMAT_VERSION,
    InvalidScoresheet,
    SheetBase,
    decode,
    header,
    read_header,
)
from scorekeeper.scoresheet.trick import TrickSheet, deal_data, read_deal

Sheet = TrickSheet | AddingSheet


class SheetFamily[T: SheetBase, E, S](Protocol):
    """A family's module of the file (`scoresheet/trick.py`, `scoresheet/adding.py`): its sheet
    `T`, one entry `E` and the result `S` it writes."""

    @property
    def ID(self) -> str:
        """The id a file's "family" holds."""
        ...

    @property
    def SHEET(self) -> type[T]:
        """The family's sheet class."""
        ...

    def parse(self, data: dict[object, object], /) -> T:
        """Read a file of this family whose header was checked."""
        ...

    def export(self, sheet: T, result: S | None = None, /) -> dict[str, object]:
        """The file's content, the computed fields from `result` where it is known."""
        ...

    def entry_data(self, entry: E, /) -> dict[str, object]:
        """An entry's input fields, as the file holds them."""
        ...


TRICK: SheetFamily[TrickSheet, trick.DealEntry, trick.SessionResult] = trick
ADDING: SheetFamily[AddingSheet, adding.RoundEntry, adding.AddingResult] = adding
# Each family's reader and writer, by the id a file's "family" holds.
SHEETS: dict[str, SheetFamily[Any, Any, Any]] = {trick.ID: TRICK, adding.ID: ADDING}


def build_sheet(
    family: str,
    *,
    ruleset: str,
    options: Mapping[str, object],
    players: Sequence[str],
    entries: Sequence[object],
    title: str | None = None,
    played_on: date | None = None,
) -> Sheet:
    """The sheet of a stored session of `family` (raises InvalidRules for rules it cannot
    resolve; the entries are not checked)."""
    sheet_class = SHEETS[family].SHEET
    rules = sheet_class.resolve_rules(ruleset, options, players)
    sheet: Sheet = sheet_class.made(rules, ruleset, options, entries, title, played_on)
    return sheet


def stored_scoresheet(
    family: str,
    *,
    ruleset: str,
    options: Mapping[str, object],
    players: Sequence[str],
    entries: Sequence[object],
    title: str | None = None,
    played_on: date | None = None,
) -> str:
    """The file's text with the input fields alone (FORMAT.md §1 to §3), written as stored
    without resolving the rules: for a session whose stored options or players the rules no
    longer accept. The computed fields (§4) need the rules and are left out (a reader ignores
    them anyway)."""
    sheets = SHEETS[family]
    data = header(family, ruleset, dict(options), title, played_on, players)
    data[sheets.SHEET.entries_field] = [sheets.entry_data(entry) for entry in entries]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def loads_scoresheet(text: str) -> Sheet:
    """Decode the JSON text and parse it; bad JSON is reported as an InvalidScoresheet too."""
    return parse_scoresheet(decode(text))


def parse_scoresheet(data: object) -> Sheet:
    """Check a decoded scoresheet and read it; raise InvalidScoresheet with every problem."""
    checked = read_header(data, SHEETS)
    sheet: Sheet = SHEETS[str(checked["family"])].parse(checked)
    return sheet


def export_scoresheet(sheet: Sheet, result: object = None) -> dict[str, object]:
    """The file's content: the input fields as entered, then the computed fields (FORMAT.md §4),
    from `result` where the sheet's result is known already.

    Keys come in a fixed order, so exporting, importing and exporting again gives the same text.
    """
    data: dict[str, object] = SHEETS[sheet.family].export(sheet, result)
    return data


def dumps_scoresheet(sheet: Sheet, result: object = None) -> str:
    """The file's text: the export as indented JSON, with a final newline."""
    return json.dumps(export_scoresheet(sheet, result), indent=2, ensure_ascii=False) + "\n"


__all__ = [
    "FORMAT_ID", "FORMAT_VERSION", "SHEETS", "AddingSheet", "InvalidScoresheet", "Sheet",
    "TrickSheet", "build_sheet", "deal_data", "dumps_scoresheet", "event_data",
    "export_scoresheet", "loads_scoresheet", "parse_scoresheet", "read_change", "read_deal",
    "round_data", "stored_scoresheet",
]  # fmt: skip
