"""A club night's live state: its version, and its leaderboard worked out once per version.

A night changes when the night itself does (a round seated, a player added: `Night.version`)
and whenever any of its tables does (its session's version). So the night's version is its
own with the count and sum of its tables' versions: any save at any table raises it, and what
is worked out for it (the leaderboard, every table's progress) stays true for good. It is
worked out once per version for every phone and screen in the room, and kept (in the shared
cache where there is one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Sum
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control

from scorekeeper.live.keys import key
from scorekeeper.live.results import table_places
from scorekeeper.models import GameSession, Seat
from scorekeeper.night_models import Night, NightBye
from scorekeeper.rules import night as rules

KEPT_SECONDS = 3600


@dataclass(frozen=True)
class Table:
    """One table of one round, as the organiser follows it."""

    round: int
    number: int
    session: str  # its public id
    players: tuple[str, ...]
    played: int  # deals or rounds entered
    finished: bool
    closed: bool  # ended early by the organiser (it counts as it stands)


@dataclass(frozen=True)
class Board:
    """The night at one version: the leaderboard and every table of every round."""

    version: str
    lines: tuple[rules.Line, ...]
    tables: tuple[Table, ...]
    byes: dict[int, tuple[str, ...]]  # round → who sat it out

    def round_tables(self, number: int) -> list[Table]:
        return [table for table in self.tables if table.round == number]


def version(night: Night) -> str:
    """The night's version: its own, and the count and sum of its tables' versions."""
    tables = GameSession.objects.filter(night=night).aggregate(
        count=Count("pk"), total=Sum("version")
    )
    return f"{night.version}.{tables['count']}.{tables['total'] or 0}"


def board(night: Night, at: str | None = None) -> Board:
    """The night's leaderboard and tables at its version now (`at`, if the caller read it)."""
    at = at or version(night)
    kept = key("night", night.public_id, at)
    found = cache.get(kept)
    if found is None:
        found = _worked_out(night, at)
        cache.set(kept, found, KEPT_SECONDS)
    return found


def _worked_out(night: Night, at: str) -> Board:
    """The board from the night's tables, read as plain rows (their seats' names in one
    query); a table's result is scored only where its version has none kept."""
    tables: list[Table] = []
    results: list[rules.TableResult] = []
    rows = (
        GameSession.objects.filter(night=night, deleted__isnull=True)  # type: ignore[misc]
        .with_counts()
        .order_by("night_round", "night_table")
        .values_list(
            "pk", "public_id", "version", "night_round", "night_table", "finished",
            "abandoned", "entry_count",
        )
    )  # fmt: skip
    names: dict[int, list[str]] = {}
    seated = Seat.objects.filter(session__night=night).order_by("session_id", "position")
    for session_id, name in seated.values_list("session_id", "player__name"):
        names.setdefault(session_id, []).append(name)
    for pk, public_id, at_version, round_number, number, finished, abandoned, played in rows:
        closed = abandoned is not None
        tables.append(
            Table(
                round=round_number or 0,
                number=number or 0,
                session=public_id,
                players=tuple(names.get(pk, ())),
                played=played,
                finished=finished,
                closed=closed,
            )
        )
        if not played:
            # Nothing played yet (or closed before a deal): no places to count, not even
            # shared ones, so a round just seated moves nobody on the leaderboard.
            continue
        places, points = table_places(pk, public_id, at_version)
        results.append(
            rules.TableResult(
                round=round_number or 0,
                table=number or 0,
                places=places,
                points=points,
                finished=finished or closed,
            )
        )
    byes: dict[int, list[str]] = {}
    by_player: dict[str, list[int]] = {}
    for bye in NightBye.objects.filter(night=night).select_related("player"):
        byes.setdefault(bye.round, []).append(bye.player.name)
        by_player.setdefault(bye.player.name, []).append(bye.round)
    players = [entry.player.name for entry in night.players.select_related("player")]
    lines = rules.leaderboard(night.method, players, results, by_player)
    return Board(
        version=at,
        lines=lines,
        tables=tuple(tables),
        byes={number: tuple(names) for number, names in byes.items()},
    )


def fragment(night: Night, at: str, url: str, render: Callable[[], str]) -> str:
    """The room's leaderboard region at a version of the night, rendered once for every
    screen that polls it at `url` (the region names its own address)."""
    kept = key("night-fragment", f"{night.public_id}:{url}", at)
    found: str | None = cache.get(kept)
    if found is None:
        found = render()
        cache.set(kept, found, KEPT_SECONDS)
    return found


def etag(at: str) -> str:
    return f'"n{at}"'


def not_modified(request: HttpRequest, at: str) -> HttpResponse | None:
    """304 when the phone shows this version of the night already."""
    asked = request.META.get("HTTP_IF_NONE_MATCH", "").split(",")
    if etag(at) in (tag.strip().removeprefix("W/") for tag in asked):
        return headers(HttpResponseNotModified(), at)
    return None


def headers(response: HttpResponse, at: str) -> HttpResponse:
    response["ETag"] = etag(at)
    patch_cache_control(response, no_cache=True, private=True)
    return response
