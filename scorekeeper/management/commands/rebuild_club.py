"""Work out everything stored above the tables (records, head to head, ratings, club nights'
leaderboards, seasons) again from each owner's history: once, on a server upgraded from a
version that did not store them (docs/DEPLOYMENT.md). `--if-empty` does it only when sessions
exist and nothing is stored yet (scripts/run runs that at every start)."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.club.rebuild import rebuild
from scorekeeper.club_models import Outcome
from scorekeeper.models import GameSession


class Command(BaseCommand):
    help = "Work out the records, ratings, nights' leaderboards and seasons again from history."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="only where sessions are kept and nothing above them is stored yet",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and (Outcome.objects.exists() or not GameSession.objects.exists()):
            return
        started = time.monotonic()
        owners = User.objects.filter(game_sessions__isnull=False).distinct().order_by("pk")
        read = sum(rebuild(owner.pk) for owner in owners)
        self.stdout.write(
            f"Worked out again from {read} sessions of {owners.count()} accounts "
            f"in {time.monotonic() - started:.1f} s."
        )
