"""Instructions per request (valgrind's callgrind) of the live pages against a bare Django view.

    manage.py bench_instructions [--repeat 20]

Machine noise cannot move these figures (the same binary and inputs count the same), so they
show what a change to the code costs or saves per request. See bench/instructions.py.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import Client

from bench.instructions import (
    Missing,
    Toggles,
    build_toggles,
    run_under_callgrind,
    scratch_env,
)
from bench.load import OPTIONS, PLAYERS, PRESET
from bench.phone import deal_post, form_fields
from bench.sessions import random_deals, scratch_session
from scorekeeper import live
from scorekeeper.rules import trick

# Each kind of request: what it is, in the printed table.
KINDS = {
    "bare": "bare Django view /healthz/",
    "poll": "unchanged poll (304)",
    "fragment": "live fragment, a phone after the first",
    "fragment_news": "live fragment, a phone after the first showing the version before",
    "fragment_first": "live fragment, the first phone of a version in its process",
    "watch": "watch page, a phone after the first",
    "watch_first": "watch page, the first phone of a version in its process",
    "table": "owner's table page",
    "name": "scorer link's name page, a phone joining",
    "scorer": "scorer's table page",
    "deal": "a deal saved by the scorer, and the page after it",
}


GZIP = {"accept-encoding": "gzip, deflate, br"}


class Command(BaseCommand):
    help = "Print instructions per request of the live pages against a bare view (callgrind)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repeat", type=int, default=20, help="requests counted per kind")
        parser.add_argument("--deals", type=int, default=30)
        parser.add_argument("--inside", help=argparse.SUPPRESS)  # the measured process

    def handle(self, *args: Any, **options: Any) -> None:
        if options["inside"]:
            inside = Path(options["inside"])
            return self.measure(json.loads(inside.read_text()) if inside.exists() else {}, options)
        with tempfile.TemporaryDirectory(prefix="bench-instructions-") as name:
            folder = Path(name)
            try:
                library = build_toggles(folder)
            except Missing as error:
                raise CommandError(str(error)) from None
            env = scratch_env(folder)
            manage = [sys.executable, "manage.py"]
            subprocess.run([*manage, "migrate", "-v", "0"], check=True, env=env)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], check=True, env=env)
            setup = folder / "setup.json"
            subprocess.run(
                [*manage, "bench_instructions", "--inside", str(setup), "--deals",
                 str(options["deals"])],
                check=True,
                env={**env, "BENCH_SETUP_ONLY": "1"},
            )  # fmt: skip
            data = json.loads(setup.read_text()) | {"library": str(library)}
            setup.write_text(json.dumps(data))
            argv = [*manage, "bench_instructions", "--inside", str(setup),
                    "--repeat", str(options["repeat"])]  # fmt: skip
            counts = run_under_callgrind(argv, folder, env)
        self.report(counts, options["repeat"])

    def report(self, counts: dict[str, int], repeat: int) -> None:
        missing = [kind for kind in KINDS if kind not in counts]
        if missing:
            raise CommandError(f"callgrind gave no count for: {', '.join(missing)}")
        bare = counts["bare"] / repeat
        self.stdout.write(f"Instructions per request (callgrind, {repeat} requests each)\n")
        self.stdout.write("| request | instructions | x bare |\n|---|---|---|")
        for kind, label in KINDS.items():
            each = counts[kind] / repeat
            self.stdout.write(f"| {label} | {each:,.0f} | {each / bare:.2f} |")

    def measure(self, data: dict[str, Any], options: dict[str, Any]) -> None:
        if os.environ.get("BENCH_SETUP_ONLY"):
            return self.setup(options)
        toggles = Toggles(data["library"])
        # Phones ask for gzip, as browsers do (GZipMiddleware then compresses each answer).
        owner, watcher = Client(headers=GZIP), Client(headers=GZIP)
        owner.cookies.load(data["cookies"])
        watch, base = data["watch"], data["table"]
        live = f"{watch}live/"
        first = Client().get(live, secure=True)  # the first phone renders it
        assert first.status_code == 200, first.status_code
        tag = first["ETag"]
        version = int(tag.strip('"').removeprefix("v"))
        before = f'"v{version - 1}"'  # the ETag a phone shows when a push names a new version
        scorer = Client(headers=GZIP)
        scorer.cookies.load(data["scorer_cookies"])
        entered = _Scorer(scorer, data["scorer"])
        joining = Client(headers=GZIP)  # a phone opening the scorer link, not yet named
        toggles.start()
        repeat = options["repeat"]
        requests: dict[str, Callable[[], object]] = {
            "bare": lambda: watcher.get("/healthz/", secure=True),
            "poll": lambda: watcher.get(live, secure=True, headers={**GZIP, "if-none-match": tag}),
            "fragment": lambda: watcher.get(live, secure=True, headers=GZIP),
            "fragment_news": lambda: watcher.get(
                live, secure=True, headers={**GZIP, "if-none-match": before}
            ),
            "watch": lambda: watcher.get(watch, secure=True),
            "table": lambda: owner.get(base, secure=True),
            "name": lambda: joining.get(f"{data['scorer']}name/", secure=True),
            "scorer": lambda: scorer.get(data["scorer"], secure=True),
            "deal": entered.deal,
        }

        def first_phone(request: Callable[[], object]) -> Callable[[], object]:
            def fresh() -> object:
                toggles.uncounted(_forget)
                return request()

            return fresh

        requests |= {
            "fragment_first": first_phone(requests["fragment"]),
            "watch_first": first_phone(requests["watch"]),
        }
        for kind in KINDS:
            toggles.measure(kind, repeat, requests[kind])

    def setup(self, options: dict[str, Any]) -> None:
        session = scratch_session(PRESET, OPTIONS, PLAYERS, options["deals"])
        session.watch_token = "bench-watch-token-0123456789"
        session.scorer_token = "bench-scorer-token-0123456789"
        session.save(update_fields=["watch_token", "scorer_token"])
        client = Client()
        client.force_login(session.owner)
        scorer, scorer_path = Client(), f"/s/{session.scorer_token}/"
        scorer.get(f"{scorer_path}name/", secure=True)
        named = {"csrfmiddlewaretoken": scorer.cookies["csrftoken"].value, "name": "Scorer"}
        assert scorer.post(f"{scorer_path}name/", named, secure=True).status_code == 302
        path = Path(options["inside"])
        path.write_text(json.dumps({
            "watch": f"/w/{session.watch_token}/",
            "table": f"/sessions/{session.public_id}/",
            "cookies": client.cookies.output(header="", sep=";"),
            "scorer": scorer_path,
            "scorer_cookies": scorer.cookies.output(header="", sep=";"),
        }))  # fmt: skip


def _forget() -> None:
    """Forget the results and pages kept in this process: the next phone's request renders
    them, as a process that has not yet served this version of the session does."""
    cache.clear()
    live.forget_all()


class _Scorer:
    """The scorer's phone entering deal after deal: each time the form its page shows, filled
    in with the next deal, posted, and the page after the save read (two requests a deal)."""

    def __init__(self, client: Client, path: str) -> None:
        self.client, self.path = client, path
        self.deals = random_deals(trick.resolve_rules(PRESET, OPTIONS, PLAYERS), 600, seed=5)
        self.page = self._text(client.get(path, secure=True))

    @staticmethod
    def _text(response: Any) -> str:
        body: bytes = response.content
        return (gzip.decompress(body) if response.get("Content-Encoding") else body).decode()

    def deal(self) -> None:
        form = form_fields(self.page)
        sent = deal_post(self.deals[int(form["number"]) - 1], PLAYERS, form)
        saved = self.client.post(self.path, sent, secure=True)
        assert saved.status_code == 302, saved.status_code
        self.page = self._text(self.client.get(self.path, secure=True))
