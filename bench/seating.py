"""The seating benchmark (`manage.py bench_seating`): the CPU a club night's round takes to seat.

The rules alone (`rules_night`, no database): a night of many players seated round after round
as `start_round` seats it (`rules.next_round` given the rounds before), each round's CPU time
(`time.process_time`) and how often the most-met pair met by the end.

Through the services (`services_night`, in the scratch database's own process): a night of the
adding game made by `create_night`, each round seated by `start_round` (timed: the clock and
this process's CPU; a PostgreSQL server's own CPU is not counted), its parts timed apart before
it (the history read, the rules' seating), and the organiser's page's "most times any pair has
met" (`most_met` of the history read) after it. Each round's tables are then marked finished
in one update, so the next can be seated: how tables end is not what is measured.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from scorekeeper.rules import night as rules

# Table sizes the night form allows: the trick game's presets seat 2 (with a dummy), 3, 4 or 5;
# the adding game's a range within 2 to 10, which seats a room at its most where it can.
SIZES: tuple[rules.Size, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, (3, 6), (2, 10))
ADDING_PRESET = "ninety-nine"  # 2 to 10 players a table


@dataclass(frozen=True)
class Night:
    """A night's figures: each round's seconds, and the most-met pair's meetings at the end
    (and how many pairs met that often)."""

    seconds: tuple[float, ...]
    most_met: int
    at_most: int

    @property
    def worst(self) -> tuple[int, float]:
        """The round (from 1) that took longest, and its seconds."""
        index = max(range(len(self.seconds)), key=self.seconds.__getitem__)
        return index + 1, self.seconds[index]


def size_label(size: rules.Size) -> str:
    return str(size) if isinstance(size, int) else f"{size[0]}-{size[1]}"


def names(count: int) -> list[str]:
    return [f"Player {number:03d}" for number in range(1, count + 1)]


def cpu_timed[T](job: Callable[[], T]) -> tuple[T, float]:
    """What `job` returns, and the CPU seconds this process took for it."""
    started = time.process_time()
    done = job()
    return done, time.process_time() - started


def rules_night(players: int, size: rules.Size, rounds: int, seed: int = 0) -> Night:
    """`rounds` rounds of `players` players at this size, each seated by `rules.next_round`."""
    everyone = names(players)
    night: list[rules.Seating] = []
    seconds = []
    for _ in range(rounds):
        seating, used = cpu_timed(lambda: rules.next_round(everyone, size, night, seed=seed))
        night.append(seating)
        seconds.append(used)
    return _figures(night, seconds)


def _figures(night: Sequence[rules.Seating], seconds: list[float]) -> Night:
    met = rules.meetings(night)
    most = max(met.values(), default=0)
    return Night(tuple(seconds), most, sum(1 for times in met.values() if times == most))


@dataclass(frozen=True)
class ServiceRound:
    """One round seated through the services: `start_round` on the clock and in CPU, its
    seating's parts apart (the history read on the clock, the rules' seating in CPU), and the
    organiser's page's most-met (the history read and counted) on the clock."""

    start_round: float
    start_round_cpu: float
    history_read: float
    seating_cpu: float
    page_most_met: float
    tables: int


def services_night(players: int, least: int, most: int, rounds: int) -> list[ServiceRound]:
    """A night of the adding game at tables of `least` to `most`, seated round by round."""
    from django.contrib.auth.models import User

    from scorekeeper.models import GameSession, Player
    from scorekeeper.rules.bounds import name_key
    from scorekeeper.services.nights import create_night, history, start_round

    owner = User.objects.create_user("bench-seating-owner")
    roster = Player.objects.bulk_create(
        Player(owner=owner, name=name, name_key=name_key(name)) for name in names(players)
    )
    night = create_night(
        owner=owner, name="Bench seating", played_on=datetime.date(2026, 11, 26), family="adding",
        ruleset=ADDING_PRESET, options={}, least=least, most=most, deals=None, rounds=rounds,
        method="placement", players=roster,
    )  # fmt: skip
    here = sorted(player.name for player in roster)
    figures = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        before = history(night, number)
        read = time.perf_counter() - started
        _, seating = cpu_timed(partial(rules.next_round, here, night.size, before, seed=night.pk))
        started, used = time.perf_counter(), time.process_time()
        night = start_round(night=night)
        clock, cpu = time.perf_counter() - started, time.process_time() - used
        started = time.perf_counter()
        rules.most_met(history(night, night.round + 1))
        page = time.perf_counter() - started
        tables = GameSession.objects.filter(night=night, night_round=number).update(finished=True)
        figures.append(ServiceRound(clock, cpu, read, seating, page, tables))
    return figures
