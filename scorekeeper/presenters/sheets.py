"""What the printed rule sheets and score pads of both families share: the pad's shape."""

from __future__ import annotations

from dataclasses import dataclass

PAD_ROWS = 24  # rows of a score pad when the match does not fix the number of deals
PAD_MAX_ROWS = 24  # what fits on one printed page
# Fewer rows are taller, with more room to write: (at most this many rows, their class).
PAD_ROW_SIZES = ((12, "pad-spacious"), (18, "pad-roomy"))


@dataclass(frozen=True)
class PadColumn:
    label: str
    title: str  # what to write in it, for the header's tooltip
    width: str = "auto"  # a width class of print.css: "s" (a digit or two), "m", "l", "xl"


@dataclass(frozen=True)
class PadRow:
    number: int
    cells: tuple[str, ...]  # one per deal column, mostly blank


def row_size(rows: int) -> str:
    """The pad's row class: taller rows when there are few."""
    return next((name for most, name in PAD_ROW_SIZES if rows <= most), "")
