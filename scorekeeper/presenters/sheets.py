"""What the printed rule sheets and score pads of both families share: the pad's shape."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

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


def shown(label: str) -> str:
    """A label the rules package marks for translation (gettext_noop), in the active language
    (the same id; an empty label stays empty, where gettext would give the catalogue's header)."""
    return gettext(label) if label else label


def row_size(rows: int) -> str:
    """The pad's row class: taller rows when there are few."""
    return next((name for most, name in PAD_ROW_SIZES if rows <= most), "")
