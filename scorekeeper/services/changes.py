"""The skeleton every write to a session's entries follows, and what a write answers.

A write runs inside `changing()`: one transaction that locks the session's row (writers to one
session queue), refuses a form already applied (its idempotency key), and hands the write the
locked session. The write checks and scores its change with one pass of the rules, stores it,
and ends with `settle()`: the change goes into the history, the version goes up
(`live.bump`), and the result computed for the new version is kept (`live.keep_result`), so
that no page scores it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper import club, live
from scorekeeper.models import (
    Change,
    ChangeAction,
    GameSession,
)
from scorekeeper.reads import locked_session
from scorekeeper.rules.registry import Evaluation, Result


@dataclass(frozen=True)
class Who:
    """Who makes a change (for the history) and the idempotency key of the form they sent."""

    by_user: User | None
    by_name: str = ""
    form_key: str = ""


@dataclass(frozen=True)
class Saved:
    """What a write did: the session as it is now, with the result the write computed for it
    (kept: `live.result(session)` answers it without scoring), and for a correction the result
    before."""

    session: GameSession
    result: Any
    before: Any = None


class Conflict(Exception):
    """The entry was made on a stale copy: another phone changed the session meanwhile."""


class Rejected(Exception):
    """The rules refuse the change. `problems` are the rules' own (each with its deal or round,
    player and field, for a form to place), or plain sentences."""

    def __init__(self, problems: Sequence[object]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.lines))

    @property
    def lines(self) -> list[str]:
        return [str(problem) for problem in self.problems]


class AlreadyDone(Exception):
    """The same form was already applied (a double tap, or a form sent again)."""


class KeyReused(Exception):
    """A form already applied was sent again with other content: the new content is not
    saved, and the person must hear so (and get it back to save anew)."""

    def __init__(self, change: Change) -> None:
        self.change = change
        super().__init__(
            _("That form was already used for change %(change)s.") % {"change": change.pk}
        )


@contextmanager
def changing(
    session: GameSession,
    who: Who,
    content: object = None,
    *,
    same: Callable[[Change], bool] | None = None,
) -> Iterator[GameSession]:
    """Lock the session and refuse a form already applied; yield the locked session.

    `content` is what the form asks to store: sent again with the same key, the same content
    (the `after` of the change the key made) is AlreadyDone and other content is KeyReused.
    A form whose content depends on the page it was sent from (remove a round's second event;
    undo the last tap, from a page whose taps share its key) says instead with `same` whether
    the change its key made is the one it asks for.
    """
    with transaction.atomic():
        locked = locked_session(session)
        change = replayed(locked, who.form_key)
        if change is not None:
            alike = same(change) if same is not None else content in (None, change.after)
            if not alike:
                raise KeyReused(change)
            raise AlreadyDone(_("That was already saved."))
        yield locked


def replayed(session: GameSession, form_key: str) -> Change | None:
    """The change an idempotency key already made, if any (one at most:
    change_form_key_unique), which every write asks before it stores anything."""
    return session.changes.filter(form_key=form_key).first() if form_key else None


def scored(session: GameSession, entries: Sequence[Any]) -> Result:
    """The result of the session with these entries, from one pass of the rules; Rejected
    with the rules' problems if they refuse them."""
    return accepted(session.evaluate(entries))


def accepted(evaluation: Evaluation) -> Result:
    """The result of one pass of the rules (`.problems`, `.result`); Rejected with the rules'
    problems if they refuse the entries."""
    if evaluation.problems or evaluation.result is None:
        raise Rejected(evaluation.problems)
    return evaluation.result


def settle(
    session: GameSession,
    who: Who,
    *,
    action: str,
    number: int | None,
    result: Any,
    entries: list[Any],
    before: object = None,
    after: object = None,
    was: Any = None,
) -> Saved:
    """End a write: record it in the history, keep the session's summary in step, raise its
    version by one (the row is locked) and keep the result computed for the new version.

    A deal or round entered into an abandoned session takes it up again (said in the history).
    `result` is None for a change that needs no scoring of a session whose stored rules are
    refused (UnreadableRules, such as deleting it): what it stores as finished stays.
    """
    fields = ["finished"]
    if session.abandoned and action == ChangeAction.ADDED:
        session.abandoned = None
        fields.append("abandoned")
        Change.objects.create(
            session=session,
            action=ChangeAction.RESUMED,
            by_user=who.by_user,
            by_name=who.by_name,
            after={"entered": number},
        )
    Change.objects.create(
        session=session,
        action=action,
        number=number,
        by_user=who.by_user,
        by_name=who.by_name,
        before=before,
        after=after,
        form_key=who.form_key,
    )
    if result is not None:
        session.finished = result.finished
    live.bump(session, *fields)
    if result is not None:
        live.keep_result(session, result, len(entries))
    club.session_changed(session, result, len(entries) if result is not None else 0)
    return Saved(session, result, was)
