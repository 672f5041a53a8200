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
from django.db.models import Count, Max, Sum
from django.db.models.functions import Coalesce, TruncDate

from scorekeeper.live.keys import key
from scorekeeper.live.results import table_places
from scorekeeper.models import GameSession, GameSessionQuerySet, Seat
from scorekeeper.ratings import Game, Rating, rate

KEPT_SECONDS = 3600

type Ratings = dict[str, dict[Hashable, Rating]]


def counted(owner_id: int) -> GameSessionQuerySet:
    """The owner's sessions whose results count: finished, neither abandoned nor deleted."""
    return GameSession.objects.filter(
        owner_id=owner_id, finished=True, abandoned__isnull=True, deleted__isnull=True
    )


def version(owner_id: int) -> str:
    """The count and sum of the versions of the sessions that count, and when the latest of
    them changed (which also tells two owners' histories of the same size apart)."""
    found = counted(owner_id).aggregate(
        count=Count("pk"), total=Sum("version"), latest=Max("updated")
    )
    latest = found["latest"].timestamp() if found["latest"] else 0
    return f"{found['count']}.{found['total'] or 0}.{latest}"


def ratings(
    owner_id: int,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> Ratings:
    """Each family's ratings of the owner's players (by player id), from the games played
    between `since` and `until` (all of them by default)."""
    kept = key("ratings", f"{owner_id}:{since}:{until}", version(owner_id))
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
    """The owner's games that count, each as its players' finishing order (by player id):
    read as plain rows, each table's places kept per version of its session."""
    sessions = counted(owner_id).annotate(day=Coalesce("played_on", TruncDate("created")))
    if since is not None:
        sessions = sessions.filter(day__gte=since)
    if until is not None:
        sessions = sessions.filter(day__lte=until)
    rows = list(sessions.values_list("pk", "public_id", "version", "family", "day", "created"))
    players: dict[int, dict[str, int]] = {}
    seated = Seat.objects.filter(session__in=sessions.values("pk"))
    for session_id, player_id, name in seated.values_list(
        "session_id", "player_id", "player__name"
    ):
        players.setdefault(session_id, {})[name] = player_id
    found = []
    for pk, public_id, version_now, family, day, created in rows:
        by_name = players.get(pk, {})
        places, _points = table_places(pk, public_id, version_now)
        found.append(
            Game(
                family=family,
                played=day,
                order=(int(created.timestamp()), pk),
                places={by_name[name]: place for name, place in places.items() if name in by_name},
            )
        )
    return found
