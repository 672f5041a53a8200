"""Instructions per request, counted by valgrind's callgrind: a figure machine noise cannot move.

The command runs itself again under `valgrind --tool=callgrind` with instrumentation off while
Django starts and a scratch database is made (a 30-deal session with a watch link, as
`bench_figures` uses); then, for each kind of request, it serves a few to warm up, zeroes the
counters, serves `repeat` more through Django's whole middleware stack (the test client, with
production settings) and dumps the count. Callgrind is told when to count by a tiny C library
built here with the machine's gcc from valgrind's own header (callgrind.h), loaded by ctypes.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from django.db import close_old_connections

TOGGLES_C = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
void cg_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""
HEADER = Path("/usr/include/valgrind/callgrind.h")


class Missing(RuntimeError):
    """valgrind, gcc or callgrind.h is not on this machine."""


def build_toggles(folder: Path) -> Path:
    """The C library of callgrind's client requests, compiled into `folder`."""
    if not HEADER.exists() or not shutil.which("gcc") or not shutil.which("valgrind"):
        raise Missing("needs valgrind (and its callgrind.h) and gcc: apt-get install valgrind gcc")
    source, library = folder / "toggles.c", folder / "libtoggles.so"
    source.write_text(TOGGLES_C)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return library


def run_under_callgrind(argv: list[str], folder: Path, env: dict[str, str]) -> dict[str, int]:
    """Run `argv` (which measures itself with the toggles) under callgrind; the instructions
    of each dump, by the name it was dumped at."""
    out = folder / "callgrind.out"
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}.%p",
        *argv,
    ]
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    counts: dict[str, int] = {}
    for dump in sorted(folder.glob("callgrind.out.*")):
        text = dump.read_text(errors="replace")
        trigger = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
        total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if trigger and total:
            counts[trigger.group(1).strip()] = int(total.group(1))
    return counts


class Toggles:
    """The client requests, from inside the measured process."""

    def __init__(self, library: str) -> None:
        self.lib = ctypes.CDLL(library)
        self.lib.cg_dump.argtypes = [ctypes.c_char_p]

    def start(self) -> None:
        self.lib.cg_start()

    def uncounted(self, work: Callable[[], object]) -> None:
        """Do `work` without counting its instructions (a cache cleared before a request that
        must find it empty, say)."""
        self.lib.cg_toggle()
        work()
        self.lib.cg_toggle()

    def measure(self, name: str, repeat: int, request: Callable[[], object]) -> None:
        for _ in range(3):
            served(request)  # warm: imports, template caches, the connection
        self.lib.cg_zero()
        for _ in range(repeat):
            served(request)
        self.lib.cg_dump(name.encode())


def served(request: Callable[[], object]) -> None:
    """One request as a server handles it: Django's test client leaves the database
    connection open between requests, where a server closes it at the end of each one unless
    CONN_MAX_AGE keeps it (Django's request_started and request_finished do this)."""
    close_old_connections()
    request()
    close_old_connections()


def scratch_env(folder: Path) -> dict[str, str]:
    """Production settings on a scratch SQLite file."""
    return {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-instructions-" + "x" * 40,
        "ALLOWED_HOSTS": "testserver",
        "SQLITE_PATH": str(folder / "bench.sqlite3"),
        "STATIC_ROOT": str(folder / "static"),
        "PYTHONHASHSEED": "0",
    }
