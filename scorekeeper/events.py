"""Live push: each open watch or scorer link hears of a new version of its session at once.

A phone opens the link's event stream (Server-Sent Events, `views.live.events`); the stream says
the session's version at once and again each time it changes, and the phone then fetches the
live fragment it already polls for (rendered once per version, `views.live.shared_live`), so a
push costs the server a line of text per phone.

One `VersionWatcher` per app process reads the versions of every session that has a stream open
in that process with one query at a time, whatever the number of phones. On PostgreSQL it reads
when the database says a version changed: a trigger (migration 0012) sends a NOTIFY when any
server raises a session's version, and the watcher LISTENs on one connection of its own, so
news from every server arrives at once (and a read every few seconds covers a lost connection).
On SQLite, which has no such thing, it reads every TICK.

Every read the streams make (a stream's first version, the watcher's reads) runs on one thread
of the process's own, `on_reader`, which keeps its database connection while streams are open:
a new PostgreSQL connection costs the server a process of its own (about 4 ms of CPU, measured
here), and at a thousand tables 3,000 streams open in the first minute.

Streams need an async server (the ASGI app, e.g. uvicorn); under a WSGI server the stream
answers 204 and the phones keep polling, as they do whenever the stream is blocked or lost.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from django.db import connection

from scorekeeper.models import GameSession

TICK = 0.25  # SQLite: seconds between two reads of the versions (the most a push waits)
LISTEN_TICK = 5.0  # PostgreSQL: the most seconds between two reads when no NOTIFY comes
CHANNEL = "scorekeeper_versions"  # the channel of the trigger's NOTIFY (migration 0012)
KEEP_ALIVE = 15.0  # seconds of silence after which a stream sends a comment (proxies close idle)
COLUMNS = ("watch_token", "scorer_token")

Key = tuple[str, str]  # (column, token)


class VersionWatcher:
    """The versions of the sessions whose streams are open in this process, read every TICK."""

    def __init__(self) -> None:
        self.queues: defaultdict[Key, set[asyncio.Queue[int | None]]] = defaultdict(set)
        self.known: dict[Key, int] = {}
        self.task: asyncio.Task[None] | None = None

    async def follow(self, key: Key, version: int) -> AsyncIterator[int | None]:
        """Each new version of the session behind `key` after `version`; None once the link
        opens nothing any more (turned off, replaced, or the session deleted)."""
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        self.queues[key].add(queue)
        self.known.setdefault(key, version)
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
                del self.queues[key]
                self.known.pop(key, None)

    def _start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        listener = await _listen() if connection.vendor == "postgresql" else None
        if listener is not None:
            await self._read()  # what changed before the LISTEN began
        loop = asyncio.get_running_loop()
        last = loop.time()
        try:
            while self.queues:
                if listener is None:
                    await asyncio.sleep(TICK)
                else:
                    listener = await _next_notice(listener)
                    # At most one read a TICK however many deals are saved: each read is of
                    # every open stream's session (a NOTIFY per save, at a thousand tables,
                    # read them all 17 times a second, each read on a new connection). The
                    # notices that came meanwhile are all answered by the next read.
                    if (wait := last + TICK - loop.time()) > 0:
                        await asyncio.sleep(wait)
                    listener = await _drain(listener)
                last = loop.time()
                await self._read()
        finally:
            if listener is not None:
                await listener.close()
            _READER.submit(_close)  # no stream open here: nothing keeps it

    async def _read(self) -> None:
        keys = list(self.queues)
        try:
            versions = await on_reader(read_versions, keys)
        except Exception:  # the database out of reach: try again at the next notice or tick
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
        await listener.execute(f"LISTEN {CHANNEL}")
    except psycopg.Error:
        return None
    return listener


async def _next_notice(listener: Any) -> Any:
    """Wait for a NOTIFY (or LISTEN_TICK); a lost connection is made again (None: reading every
    TICK until it can be)."""
    import psycopg

    try:
        async for _ in listener.notifies(timeout=LISTEN_TICK, stop_after=1):
            pass
        return listener
    except psycopg.Error:
        await asyncio.sleep(TICK)
        return await _listen()


async def _drain(listener: Any) -> Any:
    """Take the notices already waiting (the read that follows answers them all)."""
    import psycopg

    if listener is None:
        return None
    try:
        async for _ in listener.notifies(timeout=0):
            pass
        return listener
    except psycopg.Error:
        return await _listen()


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


def read_versions(keys: list[Key]) -> dict[Key, int]:
    """The version of each session a link opens, in one query a column (links that open
    nothing are left out)."""
    return _read(GameSession._meta.db_table, keys, {})


def _read(table: str, keys: list[Key], found: dict[Key, int]) -> dict[Key, int]:
    with connection.cursor() as cursor:
        for column in COLUMNS:
            tokens = [token for (col, token) in keys if col == column]
            if not tokens:
                continue
            marks = ", ".join(["%s"] * len(tokens))
            cursor.execute(
                f"SELECT {column}, version FROM {table} "
                f"WHERE {column} IN ({marks}) AND deleted IS NULL",
                tokens,
            )
            found |= {(column, token): version for token, version in cursor.fetchall()}
    return found


watcher = VersionWatcher()


async def stream(key: Key, version: int) -> AsyncIterator[str]:
    """The event stream of one phone: the version now, then each new one; a comment now and
    then to keep the connection open; the end when the link opens nothing any more."""
    yield f"retry: 3000\nevent: version\ndata: {version}\n\n"
    async for found in watcher.follow(key, version):
        if found is None:
            yield "event: gone\ndata: \n\n"
            return
        if found == version:
            yield ": still here\n\n"
        else:
            version = found
            yield f"event: version\ndata: {version}\n\n"
