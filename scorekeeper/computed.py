"""Results computed from a session's entries, kept by the session's version, in this process.

The rules score a session from everything entered at the table, which takes time in
proportion to its deals or rounds. Every change to a session raises its version (deals,
rounds, options, seats, a player's name), so a result computed for (session, version) stays
true for good: a write service keeps the result it computed, and every page of that version
takes it from here instead of scoring again. Results are kept by the session's public id (random,
never reused) and version. Each app process keeps its own; a process that has
not seen a version scores it once.

The results kept are bounded by their size (RESULT_BUDGET deals or rounds in all), not their
number, so that a few very long sessions cannot take the memory of many short ones.

A result may carry words (the rules' messages, in the language active when it was computed),
so results are kept by language too: a French phone never takes an English phone's result.

Where the cache is shared by every app process and server (Redis, with REDIS_URL), a result is
also kept there, so that the process that saved a deal scores it and the others take it.
"""

from collections import OrderedDict
from threading import Lock

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

RESULT_BUDGET = 50_000  # deals or rounds, over every result kept

_results: OrderedDict[tuple[str, int, str], tuple[object, int]] = OrderedDict()
_weight = 0
_lock = Lock()


SHARED_SECONDS = 600  # a result in the shared cache: kept while its session is being played


def shared() -> bool:
    """Whether the cache is shared between processes (not this process's own memory)."""
    return "locmem" not in settings.CACHES["default"]["BACKEND"]


def _key(public_id: str, version: int, language: str) -> str:
    return f"result:{public_id}:{version}:{language}"


def get(public_id: str, version: int) -> object | None:
    """The result kept for this version of the session, or None."""
    language = get_language() or ""
    with _lock:
        found = _results.get((public_id, version, language))
        if found is not None:
            _results.move_to_end((public_id, version, language))
            return found[0]
    if not shared():
        return None
    kept = cache.get(_key(public_id, version, language))
    if kept is None:
        return None
    result, size = kept
    _keep_here((public_id, version, language), result, size)
    return result


def keep(public_id: str, version: int, result: object, size: int) -> None:
    """Keep the result of this version (`size`: its deals or rounds), here and, where it is
    shared, in the cache; forget the results used longest ago while over the budget."""
    language = get_language() or ""
    if shared() and _keep_here((public_id, version, language), result, size):
        cache.set(_key(public_id, version, language), (result, size), SHARED_SECONDS)
    else:
        _keep_here((public_id, version, language), result, size)


def _keep_here(key: tuple[str, int, str], result: object, size: int) -> bool:
    """Keep the result in this process; False if it was kept already."""
    global _weight
    with _lock:
        if key in _results:
            return False
        _results[key] = (result, size + 1)
        _weight += size + 1
        while _weight > RESULT_BUDGET and len(_results) > 1:
            _, (_, forgotten) = _results.popitem(last=False)
            _weight -= forgotten
        return True


def forget_all() -> None:
    """Drop every result kept (tests that change stored data behind the services' back)."""
    global _weight
    with _lock:
        _results.clear()
        _weight = 0
