"""What `scripts/run` does before it serves (scorekeeper/tableserver.py), in one process: apply
the migrations, work out what is stored above the tables where an older version kept none
(`rebuild_club --if-empty`), collect the static files, and print how many accounts there are,
so that the terminal asks for the host's account on the first start only (0: none yet)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Migrate the database and collect the static files, quietly; then print the number of "
        "accounts (scripts/run asks for the host's account when it is 0)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("rebuild_club", if_empty=True, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        self.stdout.write(str(get_user_model().objects.count()))
