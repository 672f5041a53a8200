"""The order in which the writes above a table take their locks, so that two never wait for
each other: a session's row (the write's own), then its club night's, then the owner's. The
owner's row serialises everything stored above the owner's tables: records, head to head,
ratings and seasons (SQLite's IMMEDIATE transactions already queue every writer)."""

from __future__ import annotations

from django.contrib.auth.models import User

from scorekeeper.night_models import Night


def lock_night(night_id: int) -> Night:
    return Night.objects.select_for_update().get(pk=night_id)


def lock_owner(owner_id: int) -> None:
    list(User.objects.select_for_update().filter(pk=owner_id).values_list("pk", flat=True))
