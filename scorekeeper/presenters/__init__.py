"""Presenters: what the rules computed, shaped into rows and words for the templates.

One module per game family, with the same surface (`table_context`, `grid_context`,
`outcome`, `change_label`, `csv_rows`, `count_record`, `sheet_context`, `pad_context`,
`counter_context` (the adding game's card counter; nothing for the trick game), `stale`
(whether a scoring phone's page is behind what was entered), the folder of its templates
(`TEMPLATES`) and the id of the family it presents (`FAMILY`)); `PRESENTERS` is the registry
that finds a session's, by that id.
Nothing here scores: every function takes the result it shows.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from scorekeeper.presenters import adding, trick

if TYPE_CHECKING:
    from scorekeeper.models import GameSession

# Each family's presenter, by the family's id.
PRESENTERS: dict[str, ModuleType] = {module.FAMILY: module for module in (trick, adding)}


def presenter(session: GameSession) -> ModuleType:
    """The presenter of this session's family."""
    return PRESENTERS[session.family]


def template(family: str, name: str) -> str:
    """A template of a family's folder: template("trick", "table") → "trick/table.html"."""
    return f"{PRESENTERS[family].TEMPLATES}/{name}.html"
