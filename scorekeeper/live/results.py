"""A session's result, worked out once per version and kept.

The rules score a session from everything entered at the table, which takes time in
proportion to its deals or rounds. A result computed for a version stays true for good (every
change raises the version), so a write keeps the result it computed, and every page of that
version takes it from here instead of scoring again. Results are kept by the session's public
id (random, never reused), version and language (a result may carry the rules' messages).

Each app process keeps results in its own memory, bounded by their size (RESULT_BUDGET deals
or rounds in all), not their number, so that a few very long sessions cannot take the memory
of many short ones. Where the cache is shared by every process and server (Redis, with
REDIS_URL), a result is kept there too: the process that saved a deal scores it and the others
take it.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django.conf import settings
from django.core.cache import cache

from scorekeeper.live.keys import key
from scorekeeper.models import GameSession
from scorekeeper.rules.registry import Result

RESULT_BUDGET = 50_000  # deals or rounds, over every result kept in this process
SHARED_SECONDS = 600  # a result in the shared cache: kept while its session is being played

_results: OrderedDict[str, tuple[Result, int]] = OrderedDict()
PLACES_KEPT = 50_000  # tables' places (a few names and numbers each), over every owner
_places: OrderedDict[str, tuple[dict[str, int], dict[str, int] | None]] = OrderedDict()
_weight = 0
_lock = Lock()


def shared() -> bool:
    """Whether the cache is shared between processes (not this process's own memory)."""
    return "locmem" not in settings.CACHES["default"]["BACKEND"]


def result(session: GameSession) -> Result:
    """Everything the rules work out from the session's entries at its version: standings,
    next deal, winners … (UnreadableRules if its stored rules are no longer accepted)."""
    found = kept(session)
    if found is None:
        entries = session.entries()
        found = session.rules_family.score_session(session.rules(), entries)
        keep(session, found, len(entries))
    return found


def keep(session: GameSession, result: Result, size: int) -> None:
    """Keep the result of the session at its version (`size`: its deals or rounds), here and,
    where it is shared, in the cache; forget the results used longest ago while over budget."""
    kept = key("result", session.public_id, session.version)
    if _keep_here(kept, result, size) and shared():
        cache.set(kept, (result, size), SHARED_SECONDS)


def kept(session: GameSession) -> Result | None:
    """The result kept for the session at its version, here or in the shared cache; None if
    no process kept one (nothing is computed)."""
    kept = key("result", session.public_id, session.version)
    with _lock:
        found = _results.get(kept)
        if found is not None:
            _results.move_to_end(kept)
            return found[0]
    if not shared():
        return None
    stored = cache.get(kept)
    if stored is None:
        return None
    result, size = stored
    _keep_here(kept, result, size)
    return result


def _keep_here(kept: str, result: Result, size: int) -> bool:
    """Keep the result in this process; False if it was kept already."""
    global _weight
    with _lock:
        if kept in _results:
            return False
        _results[kept] = (result, size + 1)
        _weight += size + 1
        while _weight > RESULT_BUDGET and len(_results) > 1:
            _, (_, forgotten) = _results.popitem(last=False)
            _weight -= forgotten
        return True


def forget_all() -> None:
    """Drop every result kept in this process (tests that change stored data behind the
    services' back, and a benchmark's process that must score anew)."""
    global _weight
    with _lock:
        _results.clear()
        _places.clear()
        _weight = 0


def table_places(
    pk: int, public_id: str, version: int
) -> tuple[dict[str, int], dict[str, int] | None]:
    """A table's places and raw points at a version of its session, as its family reports
    them (`table_places`, `table_points`), which a club night's leaderboard and the ratings
    read for every table at once: kept in this process per version (PLACES_KEPT of them, the
    latest used), so that a table unchanged since is neither read nor scored again."""
    kept = key("places", public_id, version)
    with _lock:
        found = _places.get(kept)
        if found is not None:
            _places.move_to_end(kept)
            return found
    session = GameSession.objects.with_seats().get(pk=pk)
    scored = result(session)
    game = session.rules_family
    found = (game.table_places(scored), game.table_points(scored))
    with _lock:
        _places[kept] = found
        while len(_places) > PLACES_KEPT:
            _places.popitem(last=False)
    return found
