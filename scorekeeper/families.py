"""Each game family's Django side, registered once (the rules' side is `rules/registry.py`).

A session, a saved ruleset or a file names its family by id; `app()` gives what the app does
differently for it: the types its rules work in, so that code written for one family reads that
family's rules, entries and result, checked, and mypy knows them; its presenter (rows and words
for the templates, and the folder of its templates); its start form; and how a whole session's
entries are stored at once (an imported file). Its table-side screens are views
(`views.table.SCREENS`, above this), and its file reader and writer are the scoresheet
package's (`scoresheet.SHEETS`, below the models).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from scorekeeper import live
from scorekeeper.forms.sessions import StartForm
from scorekeeper.models import GameSession, Seat
from scorekeeper.presenters import adding as adding_presenter
from scorekeeper.presenters import trick as trick_presenter
from scorekeeper.rules import adding, trick
from scorekeeper.services.stored import store_deals, store_rounds


@dataclass(frozen=True)
class FamilyApp[R, E, S]:
    """A game family's Django side: `R`, `E` and `S` are the types of its rules, of one entry
    (a deal, a round) and of its result."""

    id: str
    rules_type: type[R]
    entry_type: type[E]
    result_type: type[S]
    presenter: ModuleType
    start_form: type[StartForm]
    store_all: Callable[[GameSession, R, Sequence[E], dict[str, Seat]], None]

    def rules(self, session: GameSession) -> R:
        """The rules of a session of this family."""
        return _own(self, session.rules(), self.rules_type)

    def entries(self, session: GameSession) -> list[E]:
        """What was entered at the table in a session of this family."""
        return [_own(self, entry, self.entry_type) for entry in session.entries()]

    def result(self, session: GameSession) -> S:
        """The result of a session of this family at its version."""
        return _own(self, live.result(session), self.result_type)

    def template(self, name: str) -> str:
        """A template of the family's folder: template("table") → "trick/table.html"."""
        return f"{self.presenter.TEMPLATES}/{name}.html"


def _own[T](app: FamilyApp[Any, Any, Any], found: object, kind: type[T]) -> T:
    if not isinstance(found, kind):
        raise TypeError(f"not a {app.id} session's: {found!r}")
    return found


TRICK = FamilyApp(
    trick.ID,
    trick.TrickRules,
    trick.DealEntry,
    trick.SessionResult,
    trick_presenter,
    StartForm,
    store_deals,
)
ADDING = FamilyApp(
    adding.ID,
    adding.AddingRules,
    adding.RoundEntry,
    adding.AddingResult,
    adding_presenter,
    StartForm,
    store_rounds,
)
APPS: dict[str, FamilyApp[Any, Any, Any]] = {app.id: app for app in (TRICK, ADDING)}


def app(family_id: str) -> FamilyApp[Any, Any, Any]:
    """The Django side of the family with this id."""
    return APPS[family_id]
