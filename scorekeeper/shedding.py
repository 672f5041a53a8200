"""Load on the async server (`asgi.py`): past its capacity, a process serves what cannot wait
first, and sheds the polls of the live regions (503 with `Retry-After`, at once).

Left alone, every request a process accepts runs at once, on a thread of its own, all sharing
the process's one interpreter: a process given more than it can do slows every answer alike, a
save as much as a watcher's safety-net poll, until answers come later than phones wait for them
and the work done for them is thrown away. `Shed` orders the work instead:

- **Turns.** At most `REQUESTS_AT_ONCE` requests of a process run in Django at a time. A
  request takes its turn once its body has come (a phone slow to send holds none) and gives it
  back once its answer starts (a phone slow to read holds none either). Event streams take no
  turn: they wait for news, and their opening and closing run on the process's one shared
  thread (`live.streams.Gate`).
- **Order.** A request that finds every turn taken waits, in one of three queues served in
  order: first what a person is doing (any form sent: a save, a name, a correction; and the
  scorer's pages, `SCORERS_PAGES`, which a save leads back to), then the polls of the live
  regions (`is_poll`: most are answered 304 for less than a bare view costs), then the other
  pages.
- **Shedding.** A poll that finds a request waiting for `BEHIND` seconds already is answered
  503 with `Retry-After` instead, before Django's view runs: no thread, no query. The phone
  shows what it showed and asks again after that time (static/js/live.js); the saves it would
  have waited behind reach its screen at its next poll or push.

So a poll waits at most about `BEHIND` (it goes before the pages), a burst sheds nothing, and
what a person is doing is never refused: it waits only behind other people's actions.

The bound is a few requests at a time (4 by default). They share one interpreter with the
process's event loop, which reads every phone's request, hands the turns over, answers the
shed polls and carries the event streams: each thread more running Python makes every one of
those wait longer for its share, and the process finishes its work no sooner for starting more
of it. A few let the database's work and the phones' connections overlap with other requests'
Python. Within its capacity a process seldom has more than a few requests running, so nothing
waits and nothing is shed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

from django.urls import Resolver404, resolve

from scorekeeper.bodylimit import DISCONNECT, App, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

RETRY_AFTER = 10  # seconds a phone waits after a shed poll (it adds its own share at random)
LOG_EVERY = 10.0  # seconds: while shedding, one log line this often at most, with the count
BODY = b"This server is busy: the standings are asked for again in a few seconds."
# The pages a scorer is shown after a save, or correcting one: the link's and the owner's
# table, a club night's table card, and their corrections.
SCORERS_PAGES = frozenset(
    {
        "scorer",
        "scorer_deal_edit",
        "scorer_round_edit",
        "session",
        "deal_edit",
        "round_edit",
        "night_table",
    }
)
# The queues, served in this order: a person's action or the scorer's page; a poll; a page.
FIRST, POLLS, THEN = 0, 1, 2
# Seconds the longest-waiting request may have waited before polls are shed: far longer than a
# burst of a save's watchers takes to clear, far shorter than a phone waits for an answer.
BEHIND = 0.5
Waiting = tuple[float, "asyncio.Future[None]"]


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


def queue_of(scope: Scope) -> int:
    """Which queue a request waits in when every turn is taken: FIRST, POLLS or THEN."""
    if scope["method"] not in ("GET", "HEAD"):
        return FIRST
    if is_poll(scope):
        return POLLS
    try:
        name = resolve(scope["path"]).url_name
    except Resolver404:
        return THEN
    return FIRST if name in SCORERS_PAGES else THEN


class Shed:
    """An ASGI app around `app`: at most `at_once` requests in it at a time, the others waiting
    in order, and a live region's poll answered 503 with `Retry-After` instead while the
    process is behind (`behind`) (0: no bound, nothing shed)."""

    def __init__(self, app: App, at_once: int) -> None:
        self.app = app
        self.at_once = at_once
        self.in_flight = 0  # requests started and not yet answered, event streams left out
        self.running = 0  # requests holding a turn
        # Each queue's requests, oldest first: since when (monotonic seconds), and the turn's
        # future, set when the turn is handed over.
        self.waiting: tuple[deque[Waiting], ...] = (deque(), deque(), deque())
        self.shed = 0  # polls shed since the process started
        self._logged_at = 0.0
        self._logged_count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].endswith("/events/"):
            await self.app(scope, receive, send)
            return
        poll = is_poll(scope)
        holding = shed = False

        async def receive_then_wait() -> Message:
            """The request's messages; once its body has come, its turn waited for, or for a
            poll while the process is behind, a 503 sent and the client's leaving said to the
            app, which then stops (as Django's handler does) before any thread or query."""
            nonlocal holding, shed
            message = await receive()
            last = message["type"] == "http.request" and not message.get("more_body")
            if last and not (holding or shed):
                if poll and self.behind():
                    shed = True
                    self.shed += 1
                    self._log()
                    await refuse(send)
                    return DISCONNECT
                await self._turn(scope)
                holding = True
            return message

        async def send_and_give_back(message: Message) -> None:
            nonlocal holding
            if shed:
                return  # answered already
            if message["type"] == "http.response.start" and holding:
                holding = False
                self._pass_on()
            await send(message)

        self.in_flight += 1
        try:
            await self.app(scope, receive_then_wait, send_and_give_back)
        finally:
            self.in_flight -= 1
            if holding:
                self._pass_on()

    def busy(self) -> bool:
        """Whether a request arriving now would wait for its turn."""
        return bool(self.at_once) and (self.running >= self.at_once or any(self.waiting))

    def behind(self) -> bool:
        """Whether a poll arriving now is shed: every turn is taken and a request has waited
        `BEHIND` seconds already. A moment's burst (a save's watchers asking at once) clears
        sooner, and a poll caught in it waits as a page does; a process that is behind sheds."""
        if not self.at_once or self.running < self.at_once:
            return False
        oldest = min((queue[0][0] for queue in self.waiting if queue), default=None)
        return oldest is not None and time.monotonic() - oldest >= BEHIND

    async def _turn(self, scope: Scope) -> None:
        """Wait until this request may run: at once while a turn is free and nobody waits."""
        if not self.busy():
            self.running += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue, entry = self.waiting[queue_of(scope)], (time.monotonic(), turn)
        queue.append(entry)
        try:
            await turn  # the turn handed over (`running` counts it already)
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._pass_on()  # handed over as the request was given up: pass it on
            else:
                queue.remove(entry)
            raise

    def _pass_on(self) -> None:
        """Give a turn back: to the first waiting request of the first queue, if any."""
        for queue in self.waiting:
            while queue:
                _since, turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self.running -= 1

    def _log(self) -> None:
        """One warning per LOG_EVERY seconds while shedding: how many since the last one."""
        now = time.monotonic()
        if now - self._logged_at < LOG_EVERY:
            return
        logger.warning(
            "Busy: %d live-region polls answered 503 (Retry-After %d s); %d requests running "
            "(REQUESTS_AT_ONCE), %d waiting",
            self.shed - self._logged_count,
            RETRY_AFTER,
            self.running,
            sum(len(queue) for queue in self.waiting),
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
