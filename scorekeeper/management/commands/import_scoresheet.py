from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from scorekeeper.rules.bounds import shown_problems
from scorekeeper.scoresheet import InvalidScoresheet, loads_scoresheet
from scorekeeper.services import import_scoresheet
from scorekeeper.services.limits import AccountFull


class Command(BaseCommand):
    help = (
        "Import a scoresheet file (docs/FORMAT.md) as a new session of USERNAME. "
        "Prints the session's identifier on the first line and its URL on the second."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the scoresheet JSON file, or - for standard input")
        parser.add_argument("--owner", required=True, help="username of the session's owner")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            owner = User.objects.get(username=options["owner"])
        except User.DoesNotExist:
            raise CommandError(f"No user called {options['owner']!r}.") from None
        path = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        try:
            sheet = loads_scoresheet(text)
        except InvalidScoresheet as error:
            lines = [f"{path} is not a valid scoresheet; nothing was saved:"]
            lines += [f"  {line}" for line in shown_problems(error.problems)]
            raise CommandError("\n".join(lines)) from None
        try:
            session = import_scoresheet(owner=owner, sheet=sheet)
        except AccountFull as full:
            lines = [f"{path} was not imported; nothing was saved:"]
            lines += [f"  {line}" for line in full.lines]
            raise CommandError("\n".join(lines)) from None
        self.stdout.write(session.public_id)
        self.stdout.write(reverse("session", args=[session.public_id]))
