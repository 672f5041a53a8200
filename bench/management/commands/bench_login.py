"""What a log-in costs with each password hasher, against a bare Django view.

A log-in checks one password hash, and a sign-up or a password change makes one; that hash is
nearly all of what those pages cost. For Argon2 (the first of settings.PASSWORD_HASHERS) and
PBKDF2 (Django's default before it), this prints the median CPU time of checking a hash, and of
a whole log-in through the test client, each also as a multiple of a bare view (`/healthz/`)
requested the same way in the same run, and the log-in's wall-clock time. The app's Argon2id
(scorekeeper/hashers.py) takes 19 MiB and 2 passes in one lane, OWASP's minimum; Django's own
Argon2 row runs 8 lanes on threads (its CPU time spread over the cores) in 100 MiB a hash.
It needs a migrated database (it makes a user per hasher).
"""

from __future__ import annotations

import secrets
import statistics
import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import override_settings
from django.utils.module_loading import import_string

# The hasher of settings.PASSWORD_HASHERS (Argon2 at OWASP's settings), Django's own Argon2
# settings, and PBKDF2 (Django's default first hasher).
HASHERS = (
    "scorekeeper.hashers.TableArgon2PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
)
PASSWORD = "a table of four, deal 7"


def timed(run: Callable[[], object], runs: int) -> tuple[float, float]:
    """The median CPU seconds of `run` (process time, every thread: what the server pays) and
    its median wall-clock seconds (what the person waits, on a quiet machine)."""
    cpu, wall = [], []
    for _ in range(runs):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return statistics.median(cpu), statistics.median(wall)


class Command(BaseCommand):
    help = "Print what checking a password and logging in cost with Argon2 and with PBKDF2."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=5, help="timed runs per row")

    def handle(self, *args: object, **options: object) -> None:
        runs = int(str(options["runs"]))
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            raise CommandError(
                "The database is not migrated: run `manage.py migrate` first "
                "(this command makes a user for each hasher)."
            )
        if settings.PASSWORD_HASHERS[0] != HASHERS[0]:
            self.stderr.write(f"note: these settings put {settings.PASSWORD_HASHERS[0]} first")
        client = Client(SERVER_NAME="localhost")
        bare, _ = timed(lambda: client.get("/healthz/"), runs * 20)
        self.stdout.write(f"bare view /healthz/: {bare * 1000:.2f} ms CPU (median of {runs * 20})")
        self.stdout.write(
            f"{'hasher':<20}{'check a hash':>16}{'log in':>12}{'× bare view':>13}"
            f"{'log in, wall':>15}"
        )
        # The log-in limit (ratelimit.login_allowed) would refuse the repeated log-ins.
        with override_settings(LOGIN_RATE_LIMIT=(10**6, 600)):
            for path in HASHERS:
                self.stdout.write(self.row(path, runs, bare))

    def row(self, path: str, runs: int, bare: float) -> str:
        hasher = import_string(path)()
        encoded = hasher.encode(PASSWORD, hasher.salt())

        def check() -> object:
            return hasher.verify(PASSWORD, encoded)

        checking, _ = timed(check, runs)
        name = path.rsplit(".", 1)[1].removesuffix("PasswordHasher")
        with override_settings(PASSWORD_HASHERS=[path]):
            user = User.objects.create(username=f"bench-{name.lower()}-{secrets.token_hex(4)}")
            User.objects.filter(pk=user.pk).update(password=encoded)
            form = {"username": user.username, "password": PASSWORD}

            def log_in() -> object:
                return Client(SERVER_NAME="localhost").post("/accounts/login/", form)

            login, wall = timed(log_in, runs)
            user.delete()
        return (
            f"{name:<20}{checking * 1000:>13.1f} ms{login * 1000:>9.1f} ms"
            f"{login / bare:>12.0f}×{wall * 1000:>12.1f} ms"
        )
