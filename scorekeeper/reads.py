"""The reads every page of a session, every poll and every write start from: a session by one
value, a phone's browser session by its key, and the change a form's idempotency key made.

Each runs the SQL that Django compiles for its queryset once per process and database
(`compiled`): that SQL never changes, so no request builds and compiles the queryset again
(BENCHMARKS.md's register). `Manager.raw()` makes the model instance from the row
with the fields' own converters; a session's seats and their players come as they would with
`with_seats()`. A poll reads the version alone, in the one SQL statement it is.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.sessions.models import Session
from django.db import connection
from django.db.models import QuerySet, prefetch_related_objects
from django.utils import timezone

from scorekeeper.compiled import STAND_IN, STAND_IN_ID, compiled
from scorekeeper.models import Change, GameSession, seats_with_players


def session_read(
    column: str, value: str, *, seats: bool = True, owner: int | None = None
) -> GameSession | None:
    """The session (not deleted) whose `column` holds `value`: a link's token, or the public id
    of the owner's page; with its seats unless `seats` is False. None if there is none, or if
    `owner` is given and it is not theirs (read no further, so that another owner's session
    costs what a missing one does). The pages of a phone that may score (an owner's, a scorer
    link's) also get the action of its latest change (`last_undo`)."""
    found = list(GameSession.objects.raw(_sql(column, False, connection.vendor), [value]))
    if not found or (owner is not None and found[0].owner_id != owner):
        return None
    if seats:
        prefetch_related_objects(found, seats_with_players())
    return found[0]


def locked_session(session: GameSession) -> GameSession:
    """The session read again with its seats, deleted or not, its row locked until the
    transaction ends (PostgreSQL; SQLite's IMMEDIATE transactions already queue every writer)."""
    sql = _sql("public_id", True, connection.vendor)
    found = list(GameSession.objects.raw(sql, [session.public_id]))
    if not found:
        raise GameSession.DoesNotExist(f"no session {session.public_id}")
    prefetch_related_objects(found, seats_with_players())
    return found[0]


@cache
def _sql(column: str, locked: bool, vendor: str) -> str:
    """The SQL of the read by `column` on the `vendor`'s database, the value its one parameter."""
    if locked:
        sessions = GameSession.objects.select_for_update().filter(**{column: STAND_IN})
    else:
        sessions = GameSession.objects.not_deleted().filter(**{column: STAND_IN})
        if column != "watch_token":
            sessions = sessions.with_last_action()
    return _one_value(sessions[:1])


def browser_session(key: str) -> Session | None:
    """The browser session stored under `key`, unless it has expired (as Django reads it):
    read by every request of a phone that has one (a scorer link's, a logged-in owner's)."""
    found = list(Session.objects.raw(_browser_session_sql(connection.vendor), [key]))
    if not found or found[0].expire_date <= timezone.now():
        return None
    return found[0]


@cache
def _browser_session_sql(vendor: str) -> str:
    """The SQL of a browser session's read by its key on the `vendor`'s database."""
    return _one_value(Session.objects.filter(session_key=STAND_IN).order_by()[:1])


def change_by_form_key(session: GameSession, form_key: str) -> Change | None:
    """The change of `session` that the form with this idempotency key made, if any (one at
    most: change_form_key_unique), which every write asks before it stores anything."""
    sql = _form_key_sql(connection.vendor)
    found = list(Change.objects.raw(sql, [session.pk, form_key]))
    return found[0] if found else None


@cache
def _form_key_sql(vendor: str) -> str:
    """The SQL of the read by session and form key on the `vendor`'s database."""
    # Filtered one value at a time, so that the values come in this order.
    changes = Change.objects.filter(session_id=STAND_IN_ID).filter(form_key=STAND_IN).order_by()
    return compiled(changes[:1], (STAND_IN_ID, STAND_IN))


def _one_value(queryset: QuerySet[Any]) -> str:
    """The SQL Django compiles for `queryset`, built with the stand-in as its one value."""
    return compiled(queryset, (STAND_IN,))


def version_or_none(column: str, token: str) -> int | None:
    """The version of the session the link token opens, or None.

    Written as the one SQL statement it is, so that the most frequent request builds nothing
    before its query (BENCHMARKS.md's register: one-statement version read)."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL[column], [token])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


_TABLE = GameSession._meta.db_table
_VERSION_SQL = {
    column: f"SELECT version FROM {_TABLE} WHERE {column} = %s AND deleted IS NULL"
    for column in ("watch_token", "scorer_token")
}
