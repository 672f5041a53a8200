"""Each game family's presenter, by the family's id: the module of `presenters/` that shows a
session of that family (`presenter(family_id)`), and the folder of its templates
(`template(family_id, name)`).

`Presenter` is what every family's presenter module offers, typed by the family's rules `R`,
result `S` and one played deal or round `P`; mypy holds each module to it here, so a third
family's presenter that lacks a function, or takes another type, fails the type check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from scorekeeper.models import Change, GameSession
from scorekeeper.presenters import adding as adding_presenter
from scorekeeper.presenters import trick as trick_presenter
from scorekeeper.presenters.common import Board
from scorekeeper.rules import adding, trick


class Presenter[R, S, P](Protocol):
    """A family's presenter module (`presenters/trick.py`, `presenters/adding.py`)."""

    @property
    def FAMILY(self) -> str:
        """The id of the family it presents."""
        ...

    @property
    def TEMPLATES(self) -> str:
        """The folder of the family's templates."""
        ...

    def table_context(self, result: S, /) -> dict[str, object]: ...
    def counter_context(
        self, session: GameSession, result: S, ask: str = "", /
    ) -> dict[str, object]: ...
    def stale(self, session: GameSession, result: S, since: str, /) -> bool: ...
    def board(self, result: S, /) -> Board: ...
    def standing_words(self, result: S, name: str, /) -> str: ...
    def played(self, result: S, /) -> tuple[P, ...]: ...
    def grid_context(self, played: Sequence[P], result: S, /) -> dict[str, object]: ...
    def csv_rows(self, result: S, /) -> list[list[object]]: ...
    def change_label(self, change: Change, /) -> str: ...
    def change_words(self, change: Change, rules: R, /) -> tuple[list[str], list[str]]: ...
    def sheet_context(self, rules: R, /) -> dict[str, object]: ...
    def pad_context(self, rules: R, /) -> dict[str, object]: ...


TRICK: Presenter[trick.TrickRules, trick.SessionResult, trick.DealResult] = trick_presenter
ADDING: Presenter[adding.AddingRules, adding.AddingResult, adding.RoundResult] = adding_presenter
PRESENTERS: dict[str, Presenter[Any, Any, Any]] = {shown.FAMILY: shown for shown in (TRICK, ADDING)}


def presenter(family_id: str) -> Presenter[Any, Any, Any]:
    """The presenter of the family with this id."""
    return PRESENTERS[family_id]


def template(family_id: str, name: str) -> str:
    """A template of the family's folder: template("trick", "table") → "trick/table.html"."""
    return f"{PRESENTERS[family_id].TEMPLATES}/{name}.html"
