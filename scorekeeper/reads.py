"""The reads every page of a session, every poll and every write start from: a session by one
value (a link's token, or the public id of its owner's page), the same session locked for a
write, and the version a poll compares, each in one query (the seats in one more, where
asked): the session's as querysets, the version as the one plain statement it is.
"""

from __future__ import annotations

from django.db import connection

from scorekeeper.models import GameSession, seats_with_players


def session_read(
    column: str, value: str, *, seats: bool = True, owner: int | None = None
) -> GameSession | None:
    """The session (not deleted) whose `column` holds `value`: a link's token, or the public id
    of the owner's page; with its seats unless `seats` is False. None if there is none, or if
    `owner` is given and it is not theirs (the owner is part of the query, so that another
    owner's session costs what a missing one does). The table pages of a phone that may score
    (an owner's, a scorer link's) also get the action of its latest change (`last_undo`); the
    name page, without seats, shows the session's name alone."""
    sessions = GameSession.objects.not_deleted().filter(**{column: value})
    if owner is not None:
        sessions = sessions.filter(owner_id=owner)
    if seats:
        sessions = sessions.prefetch_related(seats_with_players())
        if column != "watch_token":
            sessions = sessions.with_last_action()
    try:
        return sessions.get()
    except GameSession.DoesNotExist:
        return None


def locked_session(session: GameSession) -> GameSession:
    """The session read again with its seats, deleted or not, its row locked until the
    transaction ends (PostgreSQL; SQLite's IMMEDIATE transactions already queue every writer)."""
    locked = GameSession.objects.select_for_update().prefetch_related(seats_with_players())
    return locked.get(public_id=session.public_id)


def version_or_none(column: str, token: str) -> int | None:
    """The version of the session (not deleted) the link token opens, or None.

    Written as the one SQL statement it is: building and compiling the queryset cost an
    unchanged poll, the most frequent request at the table, more than running it (manage.py
    bench_instructions)."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL[column], [token])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


_TABLE = GameSession._meta.db_table
_VERSION_SQL = {
    column: f"SELECT version FROM {_TABLE} WHERE {column} = %s AND deleted IS NULL"
    for column in ("watch_token", "scorer_token")
}
