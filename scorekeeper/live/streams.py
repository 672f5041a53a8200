"""Live push: each open watch or scorer link hears of a new version of its session at once.

A phone opens the link's event stream (Server-Sent Events, `views.live.events`); the stream says
the session's version at once and again each time it changes, and the phone then fetches the
live fragment it already polls for (rendered once per version, `live.pages.fragment`), so a
push costs the server a line of text per phone.

One `VersionWatcher` per app process reads the versions of the sessions that have a stream open
in that process with one query at a time, whatever the number of phones. On PostgreSQL it reads
when the database says a version changed: a trigger (migrations 0012 and 0014) sends a NOTIFY
naming the session whenever any server changes its version, links or deletion, and the watcher
LISTENs on one connection of its own, so news from every server arrives at once, and reads only
the sessions named (and a read of all of them covers a quiet spell or a lost connection). On
SQLite, which has no such thing, a change's commit wakes it to read what changed (`live.wake`),
and it reads every stream's session every TICK besides.

Every read the streams make (a stream's first version, the watcher's reads) runs on one thread
of the process's own, `on_reader`, which keeps its database connection while streams are open:
a new PostgreSQL connection costs the server a process of its own, and at a thousand tables
3,000 streams open in the first minute (BENCHMARKS.md's register: `on_reader`).

Streams need an async server (the ASGI app, `asgi.py`: gunicorn's ASGI workers under
`scripts/run`, uvicorn in production): Django's own handler serves them, the async view
`views.live.events` answering with a `StreamingHttpResponse` of an async iterator, behind
`Gate`, which counts them and gives them one shared thread; under a WSGI server the stream
answers 204 and the phones keep polling, as they do whenever the stream is blocked or lost.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import resource
import weakref
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.db import connection

from scorekeeper.live import wake, watched
from scorekeeper.ratelimit import address_of

TICK = 0.25  # SQLite: seconds between two reads of every version (commits wake it between)
LISTEN_TICK = 5.0  # PostgreSQL: the most seconds between two reads when no NOTIFY comes
CHANNEL = "scorekeeper_versions"  # the channel of the trigger's NOTIFY (migration 0012)
# The stream's heartbeat: after this many seconds of silence it sends a comment. Proxies and
# routers close a connection idle for long (nginx after 60 s, some mobile networks sooner), and a
# phone that left without closing is found out only when a write to it fails; a comment is a
# dozen bytes, so 15 s costs 3,000 open streams 200 small writes a second. The page makes no
# timed polls while its stream is open: a stream that drops is the browser's EventSource's to
# open again, and the page polls meanwhile (static/js/live.js).
KEEP_ALIVE = 15.0
Key = tuple[str, str, str]  # (kind, column, token): what a link opens (live.watched)
Thing = tuple[str, int]  # (kind, id): one session, night or season


class Gate:
    """The event streams' gate in front of Django's own ASGI handler (an ASGI middleware, the way
    Django's deployment docs wrap its application): each address may hold only so many streams
    open, and the streams' synchronous parts share one thread.

    Django gives each request a context in which its synchronous parts (the middleware, the
    signals) run on a thread made for that request and kept until its response ends: for a
    stream, until the phone leaves, so a process with 1,000 streams open would hold 1,000 idle
    threads and their objects, which each of Python's full garbage collections walks while
    every stream waits. A stream's request enters instead a context (asgiref's
    `ThreadSensitiveContext`, given an executor) whose synchronous parts run on the one thread
    the process keeps for them, one stream after another: a few milliseconds at a stream's
    opening and closing. Django's handler, entered inside it, keeps that context.

    Each open stream holds a socket, one of the files the process may open: past
    STREAMS_PER_ADDRESS from one address, or STREAMS_PER_PROCESS in all, a stream is refused
    before Django sees it (429 or 503, `Streams`), and that phone polls instead."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        log_accept_errors_once(asyncio.get_running_loop())
        if scope["type"] == "http" and scope["path"].endswith("/events/"):
            address = address_of(scope_client(scope), scope_header(scope, b"x-forwarded-for"))
            refused = streams.refusal(address)
            if refused is not None:
                await _refuse(send, refused)
                return
            with streams.open(address):
                async with ThreadSensitiveContext(executor=_SHARED):
                    await self.app(scope, receive, send)
        else:
            await self.app(scope, receive, send)


# The thread every stream's synchronous parts run on (`Gate`): one, as they are short.
_SHARED = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream-requests")


def scope_client(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


def scope_header(scope: dict[str, Any], name: bytes) -> str:
    """A request header as the ASGI scope carries it, repeated ones joined by commas."""
    values = [value for key, value in scope.get("headers", ()) if key.lower() == name]
    return b", ".join(values).decode("latin-1")


class Streams:
    """The event streams open in this process, counted by the phone's address."""

    def __init__(self) -> None:
        self.by_address: Counter[str] = Counter()
        self.total = 0

    def refusal(self, address: str) -> int | None:
        """The status that refuses one more stream from `address`: 429 when that address has
        its share open, 503 when the process has; None to open it."""
        if self.by_address[address] >= settings.STREAMS_PER_ADDRESS:
            return 429
        if self.total >= process_share():
            return 503
        return None

    @contextmanager
    def open(self, address: str) -> Iterator[None]:
        """Count a stream from `address` while it is open."""
        self.by_address[address] += 1
        self.total += 1
        try:
            yield
        finally:
            self.total -= 1
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


def process_share() -> int:
    """How many streams this process keeps open at most: STREAMS_PER_PROCESS, or half the
    process's open-files limit, the other half left to pages, slow phones and the database."""
    configured: int = settings.STREAMS_PER_PROCESS
    return configured or resource.getrlimit(resource.RLIMIT_NOFILE)[0] // 2


_REFUSALS = {
    429: b"Too many live streams from this address: the page asks every few seconds instead.",
    503: b"This server carries all the live streams it can: the page asks every few seconds.",
}


async def _refuse(send: Any, status: int) -> None:
    body = _REFUSALS[status]
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"60"),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


logger = logging.getLogger(__name__)
ACCEPT_FAILED = "socket.accept() out of system resource"
ACCEPT_QUIET = 5.0  # seconds without a failed accept after which the next one is news again
_watched_loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def log_accept_errors_once(loop: asyncio.AbstractEventLoop) -> None:
    """Make `loop` log a failed accept (no file left for the connection) once per spell.

    The event loop tries to accept again every second while the process has no file left,
    and logs each failure with its traceback: megabytes a minute while a phone floods the
    server. Here the first failure of a spell is logged, one line, and the others are counted
    into the line of the next spell."""
    if loop in _watched_loops:
        return
    _watched_loops.add(loop)
    previous = loop.get_exception_handler()
    last = float("-inf")
    unsaid = 0

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        nonlocal last, unsaid
        if context.get("message") != ACCEPT_FAILED:
            if previous is None:
                loop.default_exception_handler(context)
            else:
                previous(loop, context)
            return
        now = loop.time()
        if now - last > ACCEPT_QUIET:
            limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            logger.error(
                "New connections wait: %s (open-files limit %d). Said once while it lasts%s.",
                context.get("exception"),
                limit,
                f"; {unsaid} more failed accepts in earlier spells" if unsaid else "",
            )
            unsaid = 0
        else:
            unsaid += 1
        last = now

    loop.set_exception_handler(handle)


class VersionWatcher:
    """The versions of what the streams open in this process follow (sessions, nights,
    seasons), read when they change (PostgreSQL's NOTIFY, or on SQLite `live.wake`'s alarm)
    and every TICK (SQLite)."""

    def __init__(self) -> None:
        self.queues: defaultdict[Key, set[asyncio.Queue[int | None]]] = defaultdict(set)
        self.known: dict[Key, int] = {}
        self.keys_of: defaultdict[Thing, set[Key]] = defaultdict(set)  # by what they open
        self.thing_of: dict[Key, Thing] = {}
        # Keys that began to be followed since the last read: read at the next one whatever
        # the notices name, as a save may have come between a stream's first read and now.
        self.fresh: set[Key] = set()
        self.task: asyncio.Task[None] | None = None

    async def follow(self, key: Key, version: int, thing: int) -> AsyncIterator[int | None]:
        """Each new version of what `key` opens (its id `thing`) after `version`; None once the
        link opens nothing any more (turned off, replaced, or what it opened deleted)."""
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        if key not in self.queues:
            self.known[key] = version
            self.thing_of[key] = (key[0], thing)
            self.keys_of[(key[0], thing)].add(key)
            self.fresh.add(key)
        self.queues[key].add(queue)
        self._start()
        try:
            while True:
                try:
                    found = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                except TimeoutError:
                    yield version  # nothing new: the stream sends a keep-alive
                    continue
                if found is None:
                    yield None
                    return
                if found != version:
                    version = found
                    yield version
        finally:
            self.queues[key].discard(queue)
            if not self.queues[key]:
                self._forget(key)

    def _forget(self, key: Key) -> None:
        del self.queues[key]
        self.known.pop(key, None)
        self.fresh.discard(key)
        thing = self.thing_of.pop(key)
        self.keys_of[thing].discard(key)
        if not self.keys_of[thing]:
            del self.keys_of[thing]

    def _start(self) -> None:
        # The watcher outlives the stream whose request starts it: it runs in a context of its
        # own, not in that request's (whose thread-sensitive context ends with the stream).
        if self.task is None or self.task.done():
            loop = asyncio.get_running_loop()
            self.task = loop.create_task(self._watch(), context=contextvars.Context())

    async def _watch(self) -> None:
        # Everything from the LISTEN on is inside the try: a watcher cancelled at any point (its
        # loop ending) closes its connection.
        listener = alarm = None
        try:
            alarm = wake.Alarm.open()  # SQLite's: None on PostgreSQL
            listener = await _listen() if connection.vendor == "postgresql" else None
            if listener is not None:
                await self._read(None)  # what changed before the LISTEN began
            loop = asyncio.get_running_loop()
            last = whole = loop.time()
            while self.queues:
                changed: set[Thing] | None = None  # None: read what every stream follows
                if listener is None:
                    # What a commit names at once; everything once a TICK has gone by.
                    heard = await wake.wait(alarm, whole + TICK - loop.time())
                    changed = named(heard) if heard else None
                else:
                    listener, changed = await _next_notice(listener)
                    # At most one read a TICK however many deals are saved (17 a second at a
                    # thousand tables): the sessions named meanwhile are all read by the next.
                    if (wait := last + TICK - loop.time()) > 0:
                        await asyncio.sleep(wait)
                    listener, more = await _drain(listener)
                    changed = None if changed is None or more is None else changed | more
                last = loop.time()
                if changed is None:
                    whole = last
                await self._read(changed)
        finally:
            if alarm is not None:
                alarm.close()
            if listener is not None:
                await listener.close()
            _READER.submit(_close)  # no stream open here: nothing keeps it

    async def _read(self, changed: set[Thing] | None) -> None:
        """Read the versions behind the open streams of what `changed` names (every stream's
        if None) and of the keys followed since the last read, and tell their streams."""
        fresh, self.fresh = self.fresh, set()
        if changed is None:
            keys = list(self.queues)
        else:
            named = (key for thing in changed for key in self.keys_of.get(thing, ()))
            keys = list(fresh.union(named))
        if not keys:
            return
        try:
            versions = await on_reader(read_versions, keys)
        except Exception:  # the database out of reach: read them again at the next notice or tick
            self.fresh |= {key for key in keys if key in self.queues}
            return
        for key in keys:
            now = versions.get(key)
            if now != self.known.get(key) and key in self.queues:
                if now is not None:
                    self.known[key] = now
                for queue in self.queues[key]:
                    queue.put_nowait(now)


async def _listen() -> Any:
    """A connection of the watcher's own that LISTENs for the trigger's NOTIFY, or None (then it
    reads every TICK, as on SQLite)."""
    import psycopg

    params = await sync_to_async(_connection_params, thread_sensitive=False)()
    try:
        listener = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    except psycopg.Error:
        return None
    try:
        await listener.execute(f"LISTEN {CHANNEL}")
    except BaseException as error:  # refused, or cancelled: the connection is not left open
        await listener.close()
        if isinstance(error, psycopg.Error):
            return None
        raise
    return listener


async def _next_notice(listener: Any) -> tuple[Any, set[Thing] | None]:
    """Wait for a NOTIFY (or LISTEN_TICK): the listener, and what it names (None: read them
    all, after a quiet spell or a lost connection, which is made again; the listener is
    None while it cannot be, and the watcher reads every TICK)."""
    import psycopg

    try:
        payloads = {n.payload async for n in listener.notifies(timeout=LISTEN_TICK, stop_after=1)}
        return listener, named(payloads) if payloads else None
    except psycopg.Error:
        await listener.close()
        await asyncio.sleep(TICK)
        return await _listen(), None


async def _drain(listener: Any) -> tuple[Any, set[Thing] | None]:
    """Take the notices already waiting, and what they name (the read that follows answers
    them all)."""
    import psycopg

    if listener is None:
        return None, None
    try:
        return listener, named({n.payload async for n in listener.notifies(timeout=0)})
    except psycopg.Error:
        await listener.close()
        return await _listen(), None


def named(payloads: set[str]) -> set[Thing] | None:
    """The sessions, nights and seasons the notices name; None if one names nothing (the
    trigger of migration 0012, before 0014, sent an empty payload: then everything is read)."""
    things = {watched.named(payload) for payload in payloads}
    if None in things:
        return None
    return {thing for thing in things if thing is not None}


def _connection_params() -> dict[str, Any]:
    """How to reach the database, as Django does (host, port, name, user, password, options)."""
    params = connection.get_connection_params()
    wanted = ("host", "port", "dbname", "user", "password", "sslmode", "options")
    return {name: value for name, value in params.items() if name in wanted and value}


# The thread every read of the streams runs on (one: the reads are one small query each).
_READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream-reads")


async def on_reader[T](read: Callable[..., T], *args: Any) -> T:
    """`read(*args)` on the streams' reader thread, on its connection, kept from one read to
    the next while this process has a stream open (checked first, as a request's start checks
    it: too old, broken, or failing its health check, it is made again), closed otherwise."""
    return await asyncio.get_running_loop().run_in_executor(_READER, partial(_kept, read, *args))


def _kept[T](read: Callable[..., T], *args: Any) -> T:
    connection.close_if_unusable_or_obsolete()
    try:
        return read(*args)
    finally:
        if not watcher.queues:  # the first read of a stream about to open, or of none at all
            connection.close()


def _close() -> None:
    connection.close()  # the connection of the thread this runs on (the reader's)


def opened(kind: str, column: str, token: str) -> tuple[int, int] | None:
    """The id and version of what a link opens, or None: a stream's first read."""
    found = watched.KINDS[kind]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, version FROM {found.table} WHERE {found.where(column)}", [token]
        )
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def read_versions(keys: list[Key]) -> dict[Key, int]:
    """The version of what each link opens, in one query a kind and column (links that open
    nothing are left out)."""
    found: dict[Key, int] = {}
    with connection.cursor() as cursor:
        for kind, things in watched.KINDS.items():
            for column in things.columns:
                tokens = [token for (of, col, token) in keys if (of, col) == (kind, column)]
                if not tokens:
                    continue
                marks = ", ".join(["%s"] * len(tokens))
                alive = f" AND {things.alive}" if things.alive else ""
                cursor.execute(
                    f"SELECT {column}, version FROM {things.table} "
                    f"WHERE {column} IN ({marks}){alive}",
                    tokens,
                )
                found |= {(kind, column, token): version for token, version in cursor.fetchall()}
    return found


watcher = VersionWatcher()
streams = Streams()


async def stream(key: Key, version: int, thing: int) -> AsyncIterator[str]:
    """The event stream of one phone: the version now, then each new one; a comment now and
    then to keep the connection open; the end when the link opens nothing any more."""
    yield f"retry: 3000\nevent: version\ndata: {version}\n\n"
    async for found in watcher.follow(key, version, thing):
        if found is None:
            yield "event: gone\ndata: \n\n"
            return
        if found == version:
            yield ": still here\n\n"
        else:
            version = found
            yield f"event: version\ndata: {version}\n\n"
