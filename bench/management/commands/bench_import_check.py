"""Benchmark: what the checks before a scoresheet is parsed cost, against the file's size.

    manage.py bench_import_check [--sizes 10000 100000 1000000 5000000] [--runs 3]

For each shape of file (a real scoresheet, and the texts made to make a reader go back and
forth) and each size, prints the median time of the nesting check alone and of the whole
`decode()` (the size and nesting checks, then the JSON reader), and each time per byte: a
check that reads the text once costs about the same per byte at every size.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench.sessions import random_deals
from scorekeeper.rules import trick
from scorekeeper.rules.bounds import MAX_FILE_BYTES
from scorekeeper.scoresheet import InvalidScoresheet, TrickSheet, dumps_scoresheet
from scorekeeper.scoresheet.reading import _nesting, decode


def _scoresheet(size: int) -> str:
    """A scoresheet file of random deals, as the app writes it, of at most `size` characters
    (for the big sizes, more deals than a session may hold: the checks come before that)."""
    players = ["Ann", "Ben", "Cat"]
    options = {"match": {"type": "deals", "deals": 100}}
    rules = trick.resolve_rules("parlett-jokerless", options, players)
    deals = random_deals(rules, 100, seed=100)
    sheet = TrickSheet.build(
        ruleset="parlett-jokerless", options=options, players=players, deals=deals
    )
    data = json.loads(dumps_scoresheet(sheet))
    written = data["deals"]
    count = max(1, size * len(written) // len(json.dumps(written, indent=2)))
    while True:
        data["deals"] = [written[index % len(written)] for index in range(count)]
        text = json.dumps(data, indent=2, ensure_ascii=False)
        if len(text) <= size or count == 1:
            return text
        count = min(count - 1, count * size // len(text))


# Each shape of file, made `size` characters long (or a few less).
SHAPES: dict[str, Callable[[int], str]] = {
    "scoresheet": _scoresheet,
    "one quote, then escaped quotes": lambda size: '"' + '\\"' * ((size - 1) // 2),
    "an open string on every line": lambda size: '["a\\"\n' * (size // 6),
    "quotes only": lambda size: '"' * size,
    "brackets nested deep": lambda size: "[" * (size // 2) + "]" * (size // 2),
    "brackets left open": lambda size: "[" * size,
    "peaks six levels high": lambda size: ("[" * 6 + "]" * 6) * (size // 12),
    "peaks twelve levels high": lambda size: ("[" * 12 + "]" * 12) * (size // 24),
    "strings between brackets": lambda size: '["",{}]' * (size // 7),
}


class Command(BaseCommand):
    help = "Print how long the checks before a scoresheet is parsed take, by file size and shape."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000, MAX_FILE_BYTES]
        )
        parser.add_argument("--runs", type=int, default=3)

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(
            f"{'shape':<32} {'bytes':>9} {'check ms':>9} {'decode ms':>10} "
            f"{'check ns/B':>11} {'decode ns/B':>12}  answer"
        )
        for name, shape in SHAPES.items():
            for size in options["sizes"]:
                self._measure(name, shape(size), options["runs"])

    def _measure(self, name: str, text: str, runs: int) -> None:
        checks, decodes = [], []
        answer = "read"
        for _ in range(runs):
            started = time.perf_counter()
            _nesting(text)
            checked = time.perf_counter()
            try:
                decode(text)
            except InvalidScoresheet as error:
                answer = error.problems[0].message
            done = time.perf_counter()
            checks.append(checked - started)
            decodes.append(done - checked)
        check, whole = statistics.median(checks), statistics.median(decodes)
        size = len(text.encode())
        self.stdout.write(
            f"{name:<32} {size:>9,} {check * 1e3:>9.1f} {whole * 1e3:>10.1f} "
            f"{check * 1e9 / size:>11.1f} {whole * 1e9 / size:>12.1f}  {answer}"
        )
