"""A club night's leaderboard, stored as lines and worked out again, from its tables' stored
outcomes, at each change of the night or of any of its tables: its cost is the night's, never
the history's."""

from __future__ import annotations

from scorekeeper import live
from scorekeeper.club_models import NightLine, Outcome
from scorekeeper.night_models import Night, NightBye
from scorekeeper.rules import night as rules


def results(night: Night) -> list[rules.TableResult]:
    """Every table of the night with something played, as the ranking reads it (its players
    by name, their places and raw points)."""
    rows = (
        Outcome.objects.filter(session__night=night, seated=True, place__isnull=False)
        .order_by("session__night_round", "session__night_table", "pk")
        .values_list(
            "session_id", "session__night_round", "session__night_table", "session__finished",
            "player__name", "place", "points",
        )
    )  # fmt: skip
    tables: dict[int, tuple[int, int, bool, dict[str, int], dict[str, int]]] = {}
    for session, round_number, number, finished, name, place, points in rows:
        table = tables.setdefault(session, (round_number or 0, number or 0, finished, {}, {}))
        table[3][name] = place or 0  # seated with a place: the query asks for one
        if points is not None:
            table[4][name] = points
    return [
        rules.TableResult(
            round=round_number,
            table=number,
            places=places,
            points=points if len(points) == len(places) else None,
            finished=finished,
        )
        for round_number, number, finished, places, points in tables.values()
    ]


FIELDS = ("rank", "position", "score", "rounds", "byes", "firsts")  # a line as stored


def refresh(night: Night) -> set[int]:
    """Work out the night's leaderboard again and store its lines (the night's row locked by
    the caller), and raise its version; the players whose line changed. The lines are read
    and compared as plain rows, and only those that changed are written."""
    names = dict(night.players.values_list("player__name", "player_id"))
    byes: dict[str, list[int]] = {}
    for name, round_number in NightBye.objects.filter(night=night).values_list(
        "player__name", "round"
    ):
        byes.setdefault(name, []).append(round_number)
    lines = rules.leaderboard(night.method, list(names), results(night), byes)
    held = {
        player: values
        for player, *values in NightLine.objects.filter(night=night).values_list(
            "player_id", *FIELDS
        )
    }
    written: list[NightLine] = []
    moved: set[int] = set()
    for position, line in enumerate(lines, start=1):
        player = names[line.player]
        values = [line.rank, position, str(line.score), line.rounds, line.byes, line.firsts]
        was = held.pop(player, None)
        if was == values:
            continue
        written.append(
            NightLine(night=night, player_id=player, **dict(zip(FIELDS, values, strict=True)))
        )
        if was is None or (was[2], was[3]) != (values[2], values[3]):  # score, rounds
            moved.add(player)
    # The lines that changed in one statement, whatever their number.
    if held:
        NightLine.objects.filter(night=night, player_id__in=list(held)).delete()
    NightLine.objects.bulk_create(
        written,
        update_conflicts=True,
        unique_fields=["night", "player"],
        update_fields=list(FIELDS),
    )
    live.bump_night(night)
    return moved | set(held)
