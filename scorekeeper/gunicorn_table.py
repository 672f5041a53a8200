"""gunicorn's hooks for `scripts/run` (scorekeeper/tableserver.py): say where to open the app
once it listens, with a QR code for the phones' cameras, and say goodbye on Ctrl-C."""

from __future__ import annotations

import asyncio.base_events
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import segno

from scorekeeper.tableserver import LOOPBACK, URLS_VARIABLE, Plan


def banner(served: Plan, notes: list[str], *, first_start: bool = False) -> str:
    """What the host reads in the terminal once the server answers; on the first start (no
    account yet), how to begin."""
    out = io.StringIO()
    if served.lan:
        out.write("The scorekeeper is ready. On every phone at the table (same Wi-Fi), open\n\n")
        for host in served.lan:
            out.write(f"    {served.url(host)}\n")
        out.write("\nor point the phone's camera at this code:\n")
        segno.make(served.url(served.lan[0]), error="m").terminal(out=out, compact=True)
        if served.local:
            out.write(f"\nOn this computer: {served.url('localhost')}\n")
        else:
            out.write(
                f"\nOn this computer too: open {served.url(served.lan[0])} "
                f"(BIND leaves out {LOOPBACK})\n"
            )
    elif served.left_out:  # the network is there: BIND leaves it out
        listening = ", ".join(served.binds)
        out.write(
            f"The scorekeeper is ready at {served.url('localhost')}\n"
            f"Listening on {listening} only, as BIND asks: the phones cannot open it.\n"
            f"Unset BIND to let them in (this computer is {served.found[0]} on the local "
            "network).\n"
        )
    else:
        out.write(
            f"The scorekeeper is ready at {served.url('localhost')}\n"
            "No local network was found, so only this computer can open it: join the Wi-Fi\n"
            "and start it again to let the phones in.\n"
        )
    if first_start:
        out.write(
            "First start: open it and create the host's account; the others at the table need\n"
            "no account: share a session's watch or scorer link (its QR code) with them.\n"
        )
    if not served.https:
        out.write(
            "Over plain HTTP the phones cannot keep their screen on, keep rule sheets offline\n"
            "or install the app (browsers allow those on HTTPS only). `scripts/run --https`\n"
            "serves HTTPS with a certificate made here, so that the screens can stay on.\n"
        )
    else:
        out.write(
            "The certificate is made by this computer, so each phone warns about it the first\n"
            "time: choose Advanced, then Proceed (Chrome), or Show Details, then visit this\n"
            "website (Safari). Each phone does this once.\n"
        )
    out.write(
        "Offline: a page left open keeps working while this computer is away, and what is\n"
        "entered waits on the phone; a page reloaded meanwhile is the browser's error page\n"
        "(phones keep no offline copy from this server, even over HTTPS: browsers want a\n"
        "certificate they trust for that). A page with entries waiting asks before it goes.\n"
    )
    for note in notes:
        out.write(f"{note}\n")
    out.write("Press Ctrl-C to stop. Everything is kept for the next start.\n")
    return out.getvalue()


def banner_from(env: Mapping[str, str]) -> str | None:
    """The banner for the plan scripts/run announced (tableserver.announcement), if any."""
    shown = json.loads(env.get(URLS_VARIABLE) or "{}")
    if not shown:
        return None
    return banner(Plan(**shown["plan"]), shown["notes"], first_start=shown["first_start"])


def when_ready(server: Any) -> None:
    # Ctrl-C stops like SIGTERM: the workers finish what they are answering, then exit. (The
    # terminal sends SIGINT to the workers too; they leave it to the master, see below.)
    server.handle_int = server.handle_term
    shown = banner_from(os.environ)
    if shown:
        sys.stdout.write("\n" + shown + "\n")
        sys.stdout.flush()


# The worker that runs the app's tasks (a long replay of ratings: scorekeeper/club/ratings.py)
# beside the server: django-tasks-db's, looking for new ones every TASKS_EVERY seconds (each
# look takes SQLite's write lock for a moment).
TASKS_EVERY = 2
_tasks: subprocess.Popen[bytes] | None = None


def on_starting(server: Any) -> None:
    global _tasks
    manage = Path(__file__).resolve().parent.parent / "manage.py"
    command = [sys.executable, str(manage), "db_worker", "--interval", str(TASKS_EVERY)]
    # The worker starts with Ctrl-C ignored: the terminal sends it to the whole process group,
    # and one that came while the worker was still loading Django would stop it with a
    # traceback. Once ready, the worker listens for Ctrl-C itself and stops cleanly; before
    # that, on_exit's SIGTERM stops it.
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _tasks = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    finally:
        signal.signal(signal.SIGINT, interrupt)


def on_exit(server: Any) -> None:
    # Ctrl-C reached the task worker too (the terminal's whole process group); a stop by
    # SIGTERM did not: it is asked here, and waited for.
    if _tasks is not None and _tasks.poll() is None:
        _tasks.terminate()
        try:
            _tasks.wait(10)
        except subprocess.TimeoutExpired:
            _tasks.kill()
    sys.stdout.write("\nStopped. Every session is kept; scripts/run starts it again.\n")
    sys.stdout.flush()


def post_worker_init(worker: Any) -> None:
    # A worker hears Ctrl-C from the terminal as well as the master's SIGTERM after it; acting
    # on both would cut a request short and print its traceback twice.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    wake_server_waiters_once()


def wake_server_waiters_once() -> None:
    """Make asyncio's Server wake its waiters once only, as Python 3.12.8 and 3.13.1 do.

    Before them, a connection accepted just before the server closes, and gone after it, wakes
    the server's waiters a second time, which fails (CPython gh-109564): the worker then prints
    a traceback on the host's terminal at Ctrl-C while phones are connecting.
    """
    if sys.version_info >= (3, 13, 1) or (3, 12, 8) <= sys.version_info < (3, 13):
        return
    server: Any = asyncio.base_events.Server  # its private parts: typeshed leaves them out
    wakeup = server._wakeup

    def once(self: Any) -> None:
        if self._waiters is not None:
            wakeup(self)

    server._wakeup = once
