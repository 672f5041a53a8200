"""Copy the SQLite database to a file while the app keeps running (SQLite's online backup).

A plain `cp` of a database in WAL mode can miss what is still in the write-ahead log;
the backup API copies a consistent snapshot page by page.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection


class Command(BaseCommand):
    help = "Write a consistent copy of the SQLite database to DEST (safe while the app runs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dest", help="the backup file to write (must not exist)")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "sqlite":
            raise CommandError(
                "This is for SQLite. For PostgreSQL use pg_dump (see docs/DEPLOYMENT.md)."
            )
        dest = Path(options["dest"])
        if dest.exists():
            raise CommandError(f"{dest} exists already; choose a new file name.")
        connection.ensure_connection()
        source = connection.connection
        assert isinstance(source, sqlite3.Connection)
        with closing(sqlite3.connect(dest)) as target:
            source.backup(target)
            check = target.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise CommandError(f"The copy failed its integrity check: {check}")
        self.stdout.write(f"Backed up to {dest} ({dest.stat().st_size} bytes), integrity ok.")
