from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import GameSession
from scorekeeper.scoresheet import dumps_scoresheet
from scorekeeper.services import scoresheet_for, with_entries


class Command(BaseCommand):
    help = "Write a session as a scoresheet file (../shared/FORMAT.md) to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("identifier", help="the session's identifier, as import printed it")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            session = with_entries(GameSession.objects.all()).get(public_id=options["identifier"])
        except GameSession.DoesNotExist:
            raise CommandError(f"No session {options['identifier']!r}.") from None
        self.stdout.write(dumps_scoresheet(scoresheet_for(session)), ending="")
