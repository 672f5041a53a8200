"""CPU time used during a run, by who used it: the load client, the app servers, the proxy,
the database, and the whole machine; so a reader sees what limited the run.

Read from /proc (Linux): each process's user and system time, sampled through the run so
that a process killed part way (a worker, a whole app server) still counts for what it used.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by one process; None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # after the name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15)


def process_tree(pid: int) -> set[int]:
    """A process and its descendants (gunicorn's master and its workers)."""
    found = {pid}
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in children:
        found |= process_tree(int(child))
    return found


def named(name: str) -> set[int]:
    """Every process whose command name is `name` (e.g. every PostgreSQL backend)."""
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    pids.add(int(entry.name))
            except OSError:
                continue
    return pids


def machine_seconds() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, summed over its cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    total = sum(values[:8])  # guest time is already in user
    return (total - idle) / TICK, total / TICK


@dataclass
class CpuMeter:
    """CPU seconds used by groups of processes between start() and the last sample()."""

    groups: dict[str, Callable[[], set[int]]]
    first: dict[str, dict[int, float]] = field(default_factory=dict)
    last: dict[str, dict[int, float]] = field(default_factory=dict)
    client: float = 0.0
    machine: tuple[float, float] = (0.0, 0.0)
    wall: float = 0.0
    # (seconds since start, the machine's busy CPU seconds since start) at each sample
    timeline: list[tuple[float, float]] = field(default_factory=list)

    def start(self) -> None:
        self.first = {name: self._read(pids()) for name, pids in self.groups.items()}
        self.last = {name: dict(seen) for name, seen in self.first.items()}
        self.client = time.process_time()
        self.machine = machine_seconds()
        self.wall = time.monotonic()

    def sample(self) -> None:
        for name, pids in self.groups.items():
            self.last[name].update(self._read(pids()))
        busy = machine_seconds()[0] - self.machine[0]
        self.timeline.append((time.monotonic() - self.wall, busy))

    def cores(self, start: float, end: float) -> float | None:
        """The machine's cores kept busy on average from `start` to `end` seconds into the
        run (from the samples nearest inside), or None with fewer than two samples there."""
        inside = [(at, busy) for at, busy in self.timeline if start <= at <= end]
        if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
            return None
        return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])

    def stop(self) -> dict[str, float]:
        """Seconds used by each group, by this process ("load client"), by the machine."""
        self.sample()
        used = {"load client": time.process_time() - self.client}
        for name, seen in self.last.items():
            used[name] = sum(v - self.first[name].get(pid, 0.0) for pid, v in seen.items())
        busy, total = machine_seconds()
        used["whole machine"] = busy - self.machine[0]
        used["machine capacity"] = total - self.machine[1]
        used["wall"] = time.monotonic() - self.wall
        return used

    @staticmethod
    def _read(pids: set[int]) -> dict[int, float]:
        seconds = {pid: process_seconds(pid) for pid in pids}
        return {pid: value for pid, value in seconds.items() if value is not None}


def cpu_line(used: dict[str, float]) -> str:
    """One line: each group's CPU seconds and the cores it kept busy on average."""
    wall = used["wall"] or 1.0
    cores = used["machine capacity"] / wall
    parts = [
        f"{name} {seconds:.1f} s ({seconds / wall:.2f} cores)"
        for name, seconds in used.items()
        if name not in ("machine capacity", "wall")
    ]
    return f"CPU over {wall:.0f} s on {cores:.0f} cores: " + "; ".join(parts)
