"""A club night's live state: its version, and its board (the leaderboard and every table's
progress) read from what is stored once per version.

Every change of the night or of any of its tables raises the night's own version in that
change's write (`club.nights`), so the version is one column, read in one query, and what is
read for it stays true for good: it is kept in the cache (shared by every process where there
is one) for every phone and screen in the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache

from scorekeeper.club_models import NightLine
from scorekeeper.live.keys import key
from scorekeeper.models import GameSession, Seat
from scorekeeper.night_models import Night, NightBye

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
class Line:
    """A player's line in the leaderboard."""

    player: str
    score: Fraction
    rank: int
    rounds: int
    byes: int
    firsts: int


@dataclass(frozen=True)
class Board:
    """The night at one version: the leaderboard and every table of every round."""

    version: int
    lines: tuple[Line, ...]
    tables: tuple[Table, ...]
    byes: dict[int, tuple[str, ...]]  # round → who sat it out

    def round_tables(self, number: int) -> list[Table]:
        return [table for table in self.tables if table.round == number]


def version(night: Night) -> int:
    """The night's version now (one query): the night may have changed since it was read."""
    found = Night.objects.filter(pk=night.pk).values_list("version", flat=True).first()
    return found if found is not None else night.version


def board(night: Night, at: int | None = None) -> Board:
    """The night's board at its version now (`at`, if the caller read it)."""
    at = at if at is not None else version(night)
    kept = key("night", night.public_id, at)
    found: Board | None = cache.get(kept)
    if found is None:
        found = _read(night, at)
        cache.set(kept, found, KEPT_SECONDS)
    return found


def _read(night: Night, at: int) -> Board:
    """The board from the stored lines and the night's tables, read as plain rows."""
    lines = tuple(
        Line(
            player=name,
            score=Fraction(score),
            rank=rank,
            rounds=rounds,
            byes=byes,
            firsts=firsts,
        )
        for name, score, rank, rounds, byes, firsts in NightLine.objects.filter(
            night=night
        ).values_list("player__name", "score", "rank", "rounds", "byes", "firsts")
    )
    rows = (
        GameSession.objects.filter(night=night, deleted__isnull=True)  # type: ignore[misc]
        .with_counts()
        .order_by("night_round", "night_table")
        .values_list(
            "pk", "public_id", "night_round", "night_table", "finished", "abandoned",
            "entry_count",
        )
    )  # fmt: skip
    names: dict[int, list[str]] = {}
    seated = Seat.objects.filter(session__night=night).order_by("session_id", "position")
    for session_id, name in seated.values_list("session_id", "player__name"):
        names.setdefault(session_id, []).append(name)
    tables = tuple(
        Table(
            round=round_number or 0,
            number=number or 0,
            session=public_id,
            players=tuple(names.get(pk, ())),
            played=played,
            finished=finished,
            closed=abandoned is not None,
        )
        for pk, public_id, round_number, number, finished, abandoned, played in rows
    )
    byes: dict[int, list[str]] = {}
    for round_number, name in NightBye.objects.filter(night=night).values_list(
        "round", "player__name"
    ):
        byes.setdefault(round_number, []).append(name)
    return Board(
        version=at,
        lines=lines,
        tables=tables,
        byes={number: tuple(names) for number, names in byes.items()},
    )
