"""A season's standings, from its nights' leaderboards (each kept per night version) and,
where the season counts them, its ordinary sessions; each player's rating beside them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db.models.functions import Coalesce, TruncDate

from scorekeeper.live import nights as live_nights
from scorekeeper.live.ratings import counted, ratings
from scorekeeper.live.results import result
from scorekeeper.models import Player
from scorekeeper.night_models import Night, Season
from scorekeeper.rules import night as rules


@dataclass(frozen=True)
class Row:
    rank: int
    player: str
    player_id: int | None
    points: str
    counted: int
    nights: int
    games: int
    rating: float | None  # μ − 3σ over the season's games; None before a rated game
    tied: bool


def nights_of(season: Season) -> list[Night]:
    """The season's club nights: the owner's, of its game, between its days, seated at least
    once."""
    return list(
        Night.objects.filter(
            owner_id=season.owner_id,
            family=season.family,
            played_on__gte=season.starts,
            played_on__lte=season.ends,
            round__gte=1,
        ).order_by("played_on", "created")
    )


def standings(season: Season) -> list[Row]:
    scores: list[dict[str, Fraction]] = []
    games: dict[str, int] = {}
    for night in nights_of(season):
        board = live_nights.board(night)
        scores.append({entry.player: entry.score for entry in board.lines if entry.rounds})
        for entry in board.lines:
            games[entry.player] = games.get(entry.player, 0) + entry.rounds
    if season.with_sessions:
        sessions = (
            counted(season.owner_id)
            .filter(family=season.family, night__isnull=True)
            .annotate(day=Coalesce("played_on", TruncDate("created")))
            .filter(day__gte=season.starts, day__lte=season.ends)
            .with_seats()
        )
        for session in sessions:
            places = session.rules_family.table_places(result(session))
            scores.append(rules.placement_points(places))
            for name in places:
                games[name] = games.get(name, 0) + 1
    lines = rules.season_standings(scores, games, season.best_of)
    ids = dict(
        Player.objects.for_user(season.owner_id)
        .filter(name__in=[line.player for line in lines])
        .values_list("name", "pk")
    )
    rated = ratings(season.owner_id, season.starts, season.ends).get(season.family, {})
    ranks = [line.rank for line in lines]
    rows = []
    for line in lines:
        player_id = ids.get(line.player)
        rating = rated.get(player_id) if player_id is not None else None
        rows.append(
            Row(
                rank=line.rank,
                player=line.player,
                player_id=player_id,
                points=rules.score_text(line.points),
                counted=line.counted,
                nights=line.nights,
                games=line.games,
                rating=rating.shown if rating else None,
                tied=ranks.count(line.rank) > 1,
            )
        )
    return rows
