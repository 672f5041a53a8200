"""An owner's ratings, worked out again from the stored history whenever a result changes.

The games that count are the owner's finished sessions (club-night tables included); an
abandoned, deleted or unfinished session does not count. Their version is the count and the
sum of those sessions' versions: a correction, a deletion, a restore or a session finishing
changes it, while deals entered in a session still being played do not. The ratings are
worked out once per version (and date range: a season's) and kept, never per request.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable

from django.core.cache import cache
from django.db.models import Count, Sum
from django.db.models.functions import Coalesce, TruncDate

from scorekeeper.live.results import result
from scorekeeper.models import GameSession, GameSessionQuerySet
from scorekeeper.ratings import Game, Rating, rate

KEPT_SECONDS = 3600

type Ratings = dict[str, dict[Hashable, Rating]]


def counted(owner_id: int) -> GameSessionQuerySet:
    """The owner's sessions whose results count: finished, neither abandoned nor deleted."""
    return GameSession.objects.filter(
        owner_id=owner_id, finished=True, abandoned__isnull=True, deleted__isnull=True
    )


def version(owner_id: int) -> str:
    found = counted(owner_id).aggregate(count=Count("pk"), total=Sum("version"))
    return f"{found['count']}.{found['total'] or 0}"


def ratings(
    owner_id: int,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> Ratings:
    """Each family's ratings of the owner's players (by player id), from the games played
    between `since` and `until` (all of them by default)."""
    kept = f"ratings:{owner_id}:{version(owner_id)}:{since}:{until}"
    found: Ratings | None = cache.get(kept)
    if found is None:
        found = rate(games(owner_id, since, until))
        cache.set(kept, found, KEPT_SECONDS)
    return found


def games(
    owner_id: int,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> list[Game]:
    """The owner's games that count, each as its players' finishing order (by player id)."""
    sessions = (
        counted(owner_id).with_seats().annotate(day=Coalesce("played_on", TruncDate("created")))
    )
    if since is not None:
        sessions = sessions.filter(day__gte=since)
    if until is not None:
        sessions = sessions.filter(day__lte=until)
    found = []
    for session in sessions:
        by_name = {seat.player.name: seat.player_id for seat in session.seats.all()}
        places = session.rules_family.table_places(result(session))
        found.append(
            Game(
                family=session.family,
                played=session.day,  # annotated above
                order=(int(session.created.timestamp()), session.pk),
                places={by_name[name]: place for name, place in places.items() if name in by_name},
            )
        )
    return found
