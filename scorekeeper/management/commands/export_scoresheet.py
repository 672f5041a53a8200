from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper import live
from scorekeeper.models import GameSession
from scorekeeper.presenters.downloads import scoresheet


class Command(BaseCommand):
    help = "Write a session as a scoresheet file (docs/FORMAT.md) to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("identifier", help="the session's identifier, as import printed it")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            session = GameSession.objects.with_seats().get(public_id=options["identifier"])
        except GameSession.DoesNotExist:
            raise CommandError(f"No session {options['identifier']!r}.") from None
        self.stdout.write(scoresheet(session, live.result(session)), ending="")
