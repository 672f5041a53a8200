"""On SQLite, a change's commit wakes the streams' watchers at once (`live.streams`).

PostgreSQL tells every server's watcher of a new version itself (its trigger's NOTIFY); SQLite
has nothing of the kind, and the watcher there reads the versions every TICK, which sets most
of a push's wait. Here a version raised (`live.versions`) sends, once its transaction commits,
one datagram naming what changed (as the NOTIFY names it: "12", "n3", "g5") to every process of
this computer whose watcher follows streams on the same database file: each of `scripts/run`'s
workers, and the one that saved. The watcher reads what the datagram names at once
(`Alarm.wait`), and still reads everything every TICK: a change that raises no version (a link
turned off, a session deleted), or a datagram dropped, waits for that read as before.

Each watcher binds a Unix datagram socket in a folder of this user's alone, named after the
database, so the processes of one database hear each other and no one else; a sender writes to
every socket there, never waits (a datagram a busy process cannot take is dropped), and removes
the socket of a process that is gone. Where Unix sockets are missing (Windows), or the folder
cannot be this user's alone, nothing is sent and the watcher reads every TICK.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import hashlib
import os
import secrets
import socket
import tempfile
from functools import partial
from pathlib import Path

from django.db import connection, transaction

from scorekeeper.live.watched import KINDS


def changed(kind: str, pk: int) -> None:
    """Wake the watchers once the caller's transaction commits (at once outside one): the
    version of `kind` ("session", "night", "season") `pk` has changed. On PostgreSQL its NOTIFY
    does this, and nothing is sent."""
    if connection.vendor != "sqlite":
        return
    folder = _folder(make=False)
    if folder is not None:
        payload = f"{KINDS[kind].notice}{pk}".encode()
        # Robust: the change is made whatever happens to its news (the next TICK reads it).
        transaction.on_commit(partial(send, folder, payload), robust=True)


def send(folder: Path, payload: bytes) -> None:
    """Send `payload` to every watcher's socket in `folder`, waiting for none."""
    try:
        names = os.listdir(folder)
        sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    except OSError:  # gone, or no file left to open: the watchers read at their next TICK
        return
    with sender:
        sender.setblocking(False)
        for name in names:
            path = folder / name
            try:
                sender.sendto(payload, str(path))
            except (ConnectionRefusedError, FileNotFoundError):  # its process is gone
                with contextlib.suppress(OSError):
                    path.unlink()
                    folder.rmdir()  # the last one: nobody left to wake
            except OSError:  # its queue is full: that watcher reads at its next TICK
                pass


def _folder(make: bool = True) -> Path | None:
    """The folder of this database's watchers' sockets (made if need be and `make`), or None
    when there is none, it cannot be this user's alone, or the system has no Unix sockets. A
    save makes none: with no watcher listening there is nobody to wake."""
    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return None
    name = os.path.abspath(str(connection.settings_dict["NAME"]))
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    # In the temporary folder, not beside the database: a socket's path has at most 107 bytes.
    folder = Path(tempfile.gettempdir()) / f"scorekeeper-wake-{os.getuid()}-{digest}"
    try:
        if make:
            folder.mkdir(mode=0o700, exist_ok=True)
        found = folder.lstat()
    except OSError:
        return None
    if found.st_uid != os.getuid() or found.st_mode & 0o077 or not folder.is_dir():
        return None
    return folder


class Alarm:
    """A watcher's socket: what the datagrams sent to it name, as the event loop reads them."""

    def __init__(self, sock: socket.socket, path: Path) -> None:
        self.sock, self.path = sock, path
        self.heard: set[str] = set()
        self.rang = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        self.loop.add_reader(sock.fileno(), self._take)
        _bound[path] = os.getpid()

    @classmethod
    def open(cls) -> Alarm | None:
        """This process's alarm, in the running event loop; None on PostgreSQL or where none
        can be made (then the watcher reads every TICK)."""
        if connection.vendor != "sqlite":
            return None
        for _ in range(3):  # the folder may go between its making and the bind (`close`)
            folder = _folder()
            if folder is None:
                return None
            path = folder / f"{os.getpid()}-{secrets.token_hex(4)}"
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            except OSError:  # no file left to open: the watcher reads every TICK
                return None
            try:
                sock.setblocking(False)
                sock.bind(str(path))
                return cls(sock, path)
            except FileNotFoundError:
                sock.close()
            except BaseException as error:
                sock.close()
                with contextlib.suppress(OSError):
                    path.unlink()
                if isinstance(error, OSError):  # no room, no right: the watcher reads every TICK
                    return None
                raise
        return None

    def _take(self) -> None:
        while True:
            try:
                payload = self.sock.recv(256)
            except OSError:  # nothing more waiting
                break
            self.heard.add(payload.decode("ascii", "replace"))
        self.rang.set()

    async def wait(self, seconds: float) -> set[str]:
        """What the datagrams heard name, as soon as one comes, or nothing after `seconds`."""
        if not self.heard:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.rang.wait(), max(seconds, 0.0))
        heard, self.heard = self.heard, set()
        self.rang.clear()
        return heard

    def close(self) -> None:
        """Close the socket and remove it, and its folder if it was the last one there (a
        folder per database: the test runs' scratch databases would leave one each)."""
        self.loop.remove_reader(self.sock.fileno())
        self.sock.close()
        _remove(self.path)


# The sockets bound here and not yet closed, with the process that bound them: removed when it
# exits (a server's worker stopping may end its event loop without closing the watcher's alarm),
# and never by a child forked from it. A process ended by a signal (uvicorn raises SIGTERM again
# once it has stopped) leaves its socket, which the next sender removes.
_bound: dict[Path, int] = {}


def _remove(path: Path) -> None:
    _bound.pop(path, None)
    with contextlib.suppress(OSError):
        path.unlink()
        path.parent.rmdir()


@atexit.register
def _remove_all() -> None:
    for path, pid in list(_bound.items()):
        if pid == os.getpid():
            _remove(path)


async def wait(alarm: Alarm | None, seconds: float) -> set[str]:
    """What woke the watcher within `seconds` (nothing: the time is up); with no alarm, the
    time alone."""
    if alarm is None:
        await asyncio.sleep(seconds)
        return set()
    return await alarm.wait(seconds)
