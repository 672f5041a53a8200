"""A session's version: the one number every live page and every kept copy hangs on.

Every change to what a session shows (its entries, options, seats, players' names, counter,
links) raises it by one, here and nowhere else, inside the change's transaction. Phones poll
with it (an unchanged version costs one query and sends no body), event streams push it, and
what is kept for a version (results, fragments, boards) is never out of date.
"""

from __future__ import annotations

from scorekeeper.models import GameSession
from scorekeeper.night_models import Night


def bump(session: GameSession, *fields: str) -> None:
    """Raise the version of a session locked by the caller's transaction by one, and save it
    with `fields` (the other columns the change set on the instance)."""
    session.version += 1
    session.save(update_fields=["version", "updated", *fields])


def bump_night(night: Night, *fields: str) -> None:
    """Raise a club night's own version (a round seated, a player added) by one, in a
    transaction holding its row, and save it with `fields`; its tables' changes raise their
    sessions' versions (`live.nights.version` counts both)."""
    night.version += 1
    night.save(update_fields=["version", *fields])
