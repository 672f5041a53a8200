"""What the pages read of what is stored above a table: rows, one query each, whatever the
history."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

from scorekeeper.club_models import Outcome, PlayerRating, RatingsBehind
from scorekeeper.night_models import Season
from scorekeeper.ratings import Rating, shown
from scorekeeper.rules import night as night_rules

TREND = 60  # a rating's chart shows the player's latest games, as a session's chart does


def ratings(owner_id: int) -> dict[str, dict[int, Rating]]:
    """Each family's ratings now of the owner's players (by player id)."""
    found: dict[str, dict[int, Rating]] = {}
    for rating in PlayerRating.objects.filter(owner_id=owner_id):
        found.setdefault(rating.family, {})[rating.player_id] = Rating(
            mu=rating.mu, sigma=rating.sigma, games=rating.games
        )
    return found


def trend(player_id: int, family: str) -> list[tuple[datetime.date, float]]:
    """The player's rating after each of their latest rated games in the family, oldest
    first."""
    rows = (
        Outcome.objects.filter(player_id=player_id, family=family, mu__isnull=False)
        .order_by(*(f"-{name}" for name in Outcome.order_by))
        .values_list("day", "mu", "sigma")[:TREND]
    )
    return [(day, shown(mu or 0.0, sigma or 0.0)) for day, mu, sigma in reversed(rows)]


def behind(owner_id: int) -> set[str]:
    """The families whose ratings of this owner's players are being brought up to date."""
    return set(RatingsBehind.objects.filter(owner_id=owner_id).values_list("family", flat=True))


@dataclass(frozen=True)
class SeasonRow:
    """A line of a season's standings as its pages show it."""

    rank: int
    player: str
    player_id: int
    points: str
    counted: int
    nights: int
    games: int
    rating: float | None  # over the season's games; None before a rated one
    tied: bool


def season_rows(season: Season) -> list[SeasonRow]:
    """The season's standings, best first, each player's rating over its games beside."""
    lines = list(season.lines.select_related("player"))
    ranks = Counter(line.rank for line in lines)
    return [
        SeasonRow(
            rank=line.rank,
            player=line.player.name,
            player_id=line.player_id,
            points=night_rules.score_text(line.value),
            counted=line.counted,
            nights=line.nights,
            games=line.games,
            rating=line.rating,
            tied=ranks[line.rank] > 1,
        )
        for line in lines
    ]


@dataclass(frozen=True)
class LadderRow:
    place: int
    player_id: int
    name: str
    rating: float
    games: int


def ladder(owner_id: int, family: str, season: Season | None = None) -> list[LadderRow]:
    """The owner's players rated in `family`, best first: over all their games, or over
    `season`'s games (its players)."""
    rows: list[tuple[int, str, float | None, int]]
    if season is None:
        rows = list(
            PlayerRating.objects.filter(owner_id=owner_id, family=family)
            .order_by("-shown", "player__name")
            .values_list("player_id", "player__name", "shown", "games")
        )
    else:
        rows = list(
            season.lines.filter(rating__isnull=False)
            .order_by("-rating", "player__name")
            .values_list("player_id", "player__name", "rating", "rated_games")
        )
    return [
        LadderRow(place, player_id, name, rating or 0.0, games)
        for place, (player_id, name, rating, games) in enumerate(rows, start=1)
    ]
