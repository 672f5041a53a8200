"""Benchmark: the CPU a club night's round takes to seat (bench.seating).

    manage.py bench_seating [--players 500] [--rounds 20] [--sizes 3 4 5 3-6 2-10]
    manage.py bench_seating --services [--database sqlite|postgresql] [--size 2-10]

The rules alone, without a database: for each table size the night form allows, a night of
`--players` players seated round by round as `start_round` seats it; each round's CPU seconds,
the worst round, and the most-met pair at the end. The seating's goal: a round of 500 players
in well under 1 s of CPU, at any size and any round.

With `--services`, in a scratch database (made and dropped by the command, in a process of its
own): a night of the adding game seated round by round by `start_round`, with its parts apart
and the organiser's page's "most times any pair has met".
"""

from __future__ import annotations

import argparse
import secrets
import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.seating import SIZES, rules_night, services_night, size_label
from bench.server import (
    DEFAULT_POSTGRES,
    app_env,
    manage,
    postgres_answers,
    scratch_database,
)
from scorekeeper.rules import night as rules


def table_size(text: str) -> rules.Size:
    """'4' or '2-10', as the seating takes it."""
    least, _, most = text.partition("-")
    try:
        size: rules.Size = int(least) if not most else (int(least), int(most))
        rules.table_sizes(0, size)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"a table size is 4 or 2-10, not {text!r}") from error
    return size


class Command(BaseCommand):
    help = "Print the CPU seconds each round of a large club night takes to seat."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=500)
        parser.add_argument("--rounds", type=int, default=20)
        parser.add_argument(
            "--sizes", type=table_size, nargs="+", default=list(SIZES),
            help="table sizes for the rules alone: 4, or a range 2-10 (default: every size "
            "the night form allows, by its largest table)",
        )  # fmt: skip
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--services", action="store_true",
            help="seat a night by start_round in a scratch database instead",
        )  # fmt: skip
        parser.add_argument(
            "--size", type=table_size, default=(2, 10),
            help="the table size of the --services night (default 2-10)",
        )  # fmt: skip
        parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
        parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["inside"]:  # the scratch database's own process
            self.services(options)
        elif options["services"]:
            self.scratch(options)
        else:
            self.rules(options)

    def rules(self, options: dict[str, Any]) -> None:
        out = self.stdout.write
        players, rounds = options["players"], options["rounds"]
        out(
            f"The rules alone: {players} players, {rounds} rounds, each seated by "
            f"rules.next_round given the rounds before; CPU seconds (time.process_time)"
        )
        out(row("tables of", "tables", "median", "worst", "round", "all") + "  most met (pairs)")
        for size in options["sizes"]:
            night = rules_night(players, size, rounds, seed=options["seed"])
            worst_round, worst = night.worst
            out(
                row(
                    size_label(size), len(rules.table_sizes(players, size)),
                    f"{statistics.median(night.seconds):.3f}", f"{worst:.3f}", worst_round,
                    f"{sum(night.seconds):.2f}",
                )
                + f"  {night.most_met} ({night.at_most})"
            )  # fmt: skip
            out(f"{'':>10}each round: {' '.join(f'{s:.3f}' for s in night.seconds)}")

    def scratch(self, options: dict[str, Any]) -> None:
        kind = options["database"]
        if kind == "postgresql" and not postgres_answers(options["postgres_url"]):
            raise CommandError(f"No PostgreSQL server answers at {options['postgres_url']}.")
        with scratch_database(kind, options["postgres_url"]) as database:
            env = app_env(
                database, DEBUG="false", SECRET_KEY=secrets.token_urlsafe(40),
                ALLOWED_HOSTS="localhost",
            )  # fmt: skip
            manage(env, "migrate", "-v", "0")
            size = size_label(options["size"])
            self.stdout.write(
                manage(
                    env, "bench_seating", "--inside", f"--players={options['players']}",
                    f"--rounds={options['rounds']}", f"--size={size}",
                ),
                ending="",
            )  # fmt: skip

    def services(self, options: dict[str, Any]) -> None:
        out = self.stdout.write
        size = options["size"]
        least, most = (size, size) if isinstance(size, int) else size
        figures = services_night(options["players"], least, most, options["rounds"])
        out(
            f"Through the services on {connection.vendor}: {options['players']} players at "
            f"tables of {size_label(size)} ({figures[0].tables} tables), {len(figures)} rounds; "
            f"ms; start_round's CPU is this process's (the database's own is not counted)"
        )
        out(row("round", "start_round", "its CPU", "history read", "seating CPU", "page most-met"))
        for number, seated in enumerate(figures, start=1):
            times = (
                seated.start_round, seated.start_round_cpu, seated.history_read,
                seated.seating_cpu, seated.page_most_met,
            )  # fmt: skip
            out(row(number, *(f"{seconds * 1000:.0f}" for seconds in times)))


def row(first: object, *cells: object) -> str:
    """A line of the printed table: the first cell 10 wide, the others 15, to the right."""
    return f"{first!s:>10}" + "".join(f"{cell!s:>15}" for cell in cells)
