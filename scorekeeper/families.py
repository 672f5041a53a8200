"""Each game family's typed Django side: the types its rules work in (the rules' side is
`rules/registry.py`).

A session, a saved ruleset or a file names its family by id; `app()` gives the types of its
rules, of one entry and of its result, so that code written for one family reads that family's
rules, entries and result, checked, and mypy knows them. The rest of a family's Django side is
registered where its parts live, each registry typed by what every family's part offers: its
presenter (`presenters.registry`), its table-side screens (`views.table.SCREENS`), how a whole
session's entries are stored at once (`services.stored.STORE_ALL`) and its file's reader and
writer (`scoresheet.SHEETS`). This module imports none of them: they stand above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper import live
from scorekeeper.models import GameSession
from scorekeeper.rules import adding, trick


@dataclass(frozen=True)
class FamilyApp[R, E, S]:
    """A game family's types on the Django side: `R`, `E` and `S` are the types of its rules, of
    one entry (a deal, a round) and of its result."""

    id: str
    rules_type: type[R]
    entry_type: type[E]
    result_type: type[S]

    def rules(self, session: GameSession) -> R:
        """The rules of a session of this family."""
        return _own(self, session.rules(), self.rules_type)

    def entries(self, session: GameSession) -> list[E]:
        """What was entered at the table in a session of this family."""
        return [_own(self, entry, self.entry_type) for entry in session.entries()]

    def result(self, session: GameSession) -> S:
        """The result of a session of this family at its version."""
        return _own(self, live.result(session), self.result_type)


def _own[T](app: FamilyApp[Any, Any, Any], found: object, kind: type[T]) -> T:
    if not isinstance(found, kind):
        raise TypeError(f"not a {app.id} session's: {found!r}")
    return found


TRICK = FamilyApp(trick.ID, trick.TrickRules, trick.DealEntry, trick.SessionResult)
ADDING = FamilyApp(adding.ID, adding.AddingRules, adding.RoundEntry, adding.AddingResult)
APPS: dict[str, FamilyApp[Any, Any, Any]] = {app.id: app for app in (TRICK, ADDING)}


def app(family_id: str) -> FamilyApp[Any, Any, Any]:
    """The Django side of the family with this id."""
    return APPS[family_id]
