"""What phones watch, each opened by its links: a session (its watch and scorer links), a
club night (its link) and a season (its link).

Each has a version that goes up by one with every change its pages show (`live.versions`, in
the change's transaction), read by a link's token in one query. Phones poll with its ETag and
hear of a new one by push (`live.streams`), whatever the kind: a kind is named in a stream's
key and in the database's notice of a change.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from scorekeeper.models import GameSession
from scorekeeper.night_models import Night, Season


@dataclass(frozen=True)
class Watched:
    """A kind of thing phones watch."""

    kind: str  # "session", "night", "season": in a stream's key
    model: type[models.Model]
    columns: tuple[str, ...]  # the link columns that open one
    alive: str  # what else a row needs to open (SQL), or ""
    notice: str  # how the trigger's NOTIFY names one: this and its id (migrations 0014, 0022)

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    def where(self, column: str) -> str:
        """The SQL condition on a row opened by a token of `column`, the token a parameter."""
        return f"{column} = %s" + (f" AND {self.alive}" if self.alive else "")


SESSION = Watched("session", GameSession, ("watch_token", "scorer_token"), "deleted IS NULL", "")
NIGHT = Watched("night", Night, ("watch_token",), "", "n")
SEASON = Watched("season", Season, ("watch_token",), "", "g")
KINDS = {watched.kind: watched for watched in (SESSION, NIGHT, SEASON)}


def named(payload: str) -> tuple[str, int] | None:
    """The kind and id a notice's payload names ("12": session 12, "n3": night 3), or None."""
    for watched in KINDS.values():
        rest = payload.removeprefix(watched.notice) if watched.notice else payload
        if (watched.notice == "" or payload.startswith(watched.notice)) and rest.isdigit():
            return watched.kind, int(rest)
    return None
