"""What is stored above the tables, worked out from scratch from the history: each player's
record and head to head, the ratings, every club night's leaderboard and every season's
standings, from the sessions' own results. The stored rows (scorekeeper.club) are held to it.
"""

from __future__ import annotations

import datetime
from collections import Counter
from fractions import Fraction

from scorekeeper import live
from scorekeeper.models import GameSession, Player, UnreadableRules
from scorekeeper.night_models import Night, NightBye, Season
from scorekeeper.ratings import Game, Rating, rate
from scorekeeper.rules import night as rules


def _day(session: GameSession) -> datetime.date:
    return session.played_on or session.created.date()


def _places(session: GameSession) -> dict[str, int]:
    """The places at the table by name; none before anything is played."""
    if not session.entries():
        return {}
    return session.rules_family.table_places(live.result(session))


def games(
    owner_id: int,
    family: str | None = None,
    days: tuple[datetime.date, datetime.date] | None = None,
) -> list[Game]:
    """The owner's games that count (finished, neither abandoned nor deleted), as the ratings
    read them: places by player id, in the order played."""
    found = []
    sessions = GameSession.objects.filter(
        owner_id=owner_id, finished=True, abandoned__isnull=True, deleted__isnull=True
    ).with_seats()
    for session in sessions:
        if family is not None and session.family != family:
            continue
        if days is not None and not days[0] <= _day(session) <= days[1]:
            continue
        ids = {seat.player.name: seat.player_id for seat in session.seats.all()}
        found.append(
            Game(
                family=session.family,
                played=_day(session),
                order=(int(session.created.timestamp() * 1_000_000), session.pk),
                places={ids[name]: place for name, place in _places(session).items()},
            )
        )
    return found


def ratings(owner_id: int) -> dict[str, dict[object, Rating]]:
    return rate(games(owner_id))  # type: ignore[return-value]


def record(
    player: Player,
) -> tuple[tuple[int, int, int], dict[str, int], dict[str, tuple[int, int, int, int]]]:
    """The player's record: (sessions, finished, won), its counts, and head to head by the
    opponent's name (sessions, ahead, behind, level); sessions with refused rules left out."""
    sessions, finished, won = 0, 0, 0
    counts: Counter[str] = Counter()
    rivals: dict[str, list[int]] = {}
    seated = GameSession.objects.filter(owner_id=player.owner_id, deleted__isnull=True).with_seats()
    for session in seated.prefetch_related("seats__former"):
        held = [
            (holder, numbers, seat)
            for seat in session.seats.all()
            for holder, numbers in seat.holders()
        ]
        if not any(holder == player.pk for holder, _n, _s in held):
            continue
        try:
            result = live.result(session)
        except UnreadableRules:
            continue
        sessions += 1
        game = session.rules_family
        at_end = None
        for holder, numbers, seat in held:
            if holder == player.pk:
                counts.update(game.player_counts(result, seat.player.name, numbers))
            if seat.player_id == player.pk:
                at_end = seat.player.name
        if at_end is None:
            continue
        if result.finished:
            finished += 1
            won += at_end in result.winners
        played = len(session.entries())
        if not (result.finished or (session.abandoned is not None and played)):
            continue
        places = game.table_places(result)
        for opponent in session.player_names():
            if opponent == at_end:
                continue
            line = rivals.setdefault(opponent, [0, 0, 0, 0])
            line[0] += 1
            mine, theirs = places[at_end], places[opponent]
            line[1 if mine < theirs else 2 if mine > theirs else 3] += 1
    return (
        (sessions, finished, won),
        {name: value for name, value in counts.items() if value},
        {name: (a, b, c, d) for name, (a, b, c, d) in rivals.items()},
    )


def night_lines(night: Night) -> list[tuple[str, Fraction, int, int, int, int]]:
    """The night's leaderboard: (player, score, rank, rounds, byes, firsts), best first."""
    results = []
    for session in GameSession.objects.filter(night=night, deleted__isnull=True).with_seats():
        places = _places(session)
        if not places:
            continue
        points = session.rules_family.table_points(live.result(session))
        results.append(
            rules.TableResult(
                round=session.night_round or 0,
                table=session.night_table or 0,
                places=places,
                points=points,
                finished=session.finished,
            )
        )
    results.sort(key=lambda result: (result.round, result.table))
    byes: dict[str, list[int]] = {}
    for bye in NightBye.objects.filter(night=night).select_related("player"):
        byes.setdefault(bye.player.name, []).append(bye.round)
    players = [entry.player.name for entry in night.players.select_related("player")]
    return [
        (line.player, line.score, line.rank, line.rounds, line.byes, line.firsts)
        for line in rules.leaderboard(night.method, players, results, byes)
    ]


def season_lines(season: Season) -> list[tuple[str, Fraction, int, int, int, int, float | None]]:
    """The season's standings: (player, points, rank, counted, nights, games, rating over its
    games), best first."""
    scores = []
    played: dict[str, int] = {}
    for night in Night.objects.filter(
        owner_id=season.owner_id,
        family=season.family,
        played_on__gte=season.starts,
        played_on__lte=season.ends,
        round__gte=1,
    ):
        lines = night_lines(night)
        scores.append({player: score for player, score, _r, rounds, _b, _f in lines if rounds})
        for player, _score, _rank, rounds, _byes, _firsts in lines:
            played[player] = played.get(player, 0) + rounds
    if season.with_sessions:
        for session in GameSession.objects.filter(
            owner_id=season.owner_id,
            family=season.family,
            night__isnull=True,
            finished=True,
            abandoned__isnull=True,
            deleted__isnull=True,
        ).with_seats():
            if not season.starts <= _day(session) <= season.ends:
                continue
            places = _places(session)
            if not places:
                continue
            scores.append(rules.placement_points(places))
            for name in places:
                played[name] = played.get(name, 0) + 1
    standings = rules.season_standings(scores, played, season.best_of)
    ids = dict(Player.objects.filter(owner_id=season.owner_id).values_list("name", "pk"))
    rated = rate(games(season.owner_id, season.family, (season.starts, season.ends))).get(
        season.family, {}
    )
    return [
        (
            line.player,
            line.points,
            line.rank,
            line.counted,
            line.nights,
            line.games,
            rated[ids[line.player]].shown if ids[line.player] in rated else None,
        )
        for line in standings
    ]
