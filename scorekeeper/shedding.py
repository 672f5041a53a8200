"""Shedding on the async server (`asgi.py`): past its capacity, a process answers the polls of
the live regions 503 with `Retry-After` at once, and keeps its time for what cannot wait.

Every request the process has accepted runs at once, on a thread of its own, all sharing the
process's one interpreter: a process given more than it can do slows every answer alike, a save
as much as the safety-net poll of a watcher's standings. Its requests in flight are its queue:
each one started and not yet answered is work ahead of the next. `Shed` counts them (not the
event streams, which stay open while waiting for news) and, above `SHED_POLLS_ABOVE`, answers a
live region's poll (`is_poll`) with 503 and `Retry-After` before Django sees
it: no thread, no query. Every other request (a save, a page, a stream) is served as before. A
phone whose poll was shed shows what it showed and asks again after `Retry-After`
(static/js/live.js); a save is on the phone's screen at once, and on its watchers' at their
next poll or push.

The bound is the work a process may hold before a poll waits for it: with a request of the
table taking a few milliseconds of CPU, a few dozen in flight keep a core busy for a good part
of a second. At that depth the process is behind, and a poll is the request whose answer loses
least by coming a few seconds later. Under the bound nothing is shed, so an ordinary evening
never sees it.
"""

from __future__ import annotations

import logging
import time

from scorekeeper.bodylimit import App, Receive, Scope, Send

logger = logging.getLogger(__name__)

RETRY_AFTER = 10  # seconds a phone waits after a shed poll (it adds its own share at random)
LOG_EVERY = 10.0  # seconds: while shedding, one log line this often at most, with the count
BODY = b"This server is busy: the standings are asked for again in a few seconds."


def is_poll(scope: Scope) -> bool:
    """Whether a request is a live region asking for itself: a GET (or HEAD) of a route ending
    in `live/` (each region's own route is named `…_live` and ends so: a test holds them to it),
    or of a page whose region (the element `#live`: live.js, htmx) asks for it, as a club
    night's board does from its own page."""
    if scope["method"] not in ("GET", "HEAD"):
        return False
    if scope["path"].endswith("/live/"):
        return True
    headers = scope.get("headers", ())
    return (b"hx-trigger", b"live") in headers and (b"hx-request", b"true") in headers


class Shed:
    """An ASGI app around `app` that answers a live region's poll 503 with `Retry-After` while
    more than `bound` other requests are in flight in this process (0: never)."""

    def __init__(self, app: App, bound: int) -> None:
        self.app = app
        self.bound = bound
        self.in_flight = 0  # requests started and not yet answered, event streams left out
        self.shed = 0  # polls shed since the process started
        self._logged_at = 0.0
        self._logged_count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].endswith("/events/"):
            await self.app(scope, receive, send)
            return
        if self.bound and self.in_flight >= self.bound and is_poll(scope):
            self.shed += 1
            self._log()
            await refuse(send)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1

    def _log(self) -> None:
        """One warning per LOG_EVERY seconds while shedding: how many since the last one."""
        now = time.monotonic()
        if now - self._logged_at < LOG_EVERY:
            return
        logger.warning(
            "Busy: %d live-region polls answered 503 (Retry-After %d s); %d requests in flight, "
            "above SHED_POLLS_ABOVE=%d",
            self.shed - self._logged_count,
            RETRY_AFTER,
            self.in_flight,
            self.bound,
        )
        self._logged_at, self._logged_count = now, self.shed


async def refuse(send: Send) -> None:
    """503 with `Retry-After`, sent as is: not kept by any cache, not read as anything but text."""
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(BODY)).encode()),
        (b"retry-after", str(RETRY_AFTER).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": BODY})
