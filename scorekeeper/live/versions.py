"""A session's version: the one number every live page and every kept copy hangs on.

Every change to what a session shows (its entries, options, seats, players' names, counter,
links) raises it by one, here and nowhere else, inside the change's transaction. Phones poll
with it (an unchanged version costs one query and sends no body), event streams push it, and
what is kept for a version (results, fragments, boards) is never out of date. Once the change
commits, the streams' watchers hear of it at once (`wake.changed`: on SQLite; PostgreSQL's
trigger tells them itself).
"""

from __future__ import annotations

from scorekeeper.live.wake import changed as wake_watchers
from scorekeeper.models import GameSession
from scorekeeper.night_models import Night, Season


def bump(session: GameSession, *fields: str) -> None:
    """Raise the version of a session locked by the caller's transaction by one, and save it
    with `fields` (the other columns the change set on the instance)."""
    session.version += 1
    session.save(update_fields=["version", "updated", *fields])
    wake_watchers("session", session.pk)


def bump_night(night: Night, *fields: str) -> None:
    """Raise a club night's version by one (a round seated, a player added, any change at one
    of its tables), in a transaction holding its row, and save it with `fields`."""
    night.version += 1
    night.save(update_fields=["version", *fields])
    wake_watchers("night", night.pk)


def bump_season(season: Season, *fields: str) -> None:
    """Raise a season's version by one (its standings, ratings or settings changed), in a
    transaction holding its row, and save it with `fields` (all of them if none is named)."""
    season.version += 1
    season.save(update_fields=["version", *fields] if fields else None)
    wake_watchers("season", season.pk)
