"""A season's standings, stored as lines: a player's line is worked out again from their own
nights (their lines in the season's club nights, and where the season counts them, their
ordinary sessions of its days) whenever one of those changes, and the season is ranked again
from the lines. Its cost is the changed players' nights and the season's players, never the
history's."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from fractions import Fraction

from django.db import transaction
from django.db.models import QuerySet
from django.tasks import task

from scorekeeper import live
from scorekeeper.club.locks import lock_owner
from scorekeeper.club.ratings import IN_REQUEST
from scorekeeper.club_models import NightLine, Outcome, SeasonLine
from scorekeeper.models import Player
from scorekeeper.night_models import Night, Season
from scorekeeper.ratings import rate_game, rated, shown
from scorekeeper.rules import night as rules


def seasons_of(owner_id: int, family: str, day: datetime.date) -> QuerySet[Season]:
    """The owner's seasons of this game whose days hold `day`, their rows locked, in order."""
    return (
        Season.objects.select_for_update()
        .filter(owner_id=owner_id, family=family, starts__lte=day, ends__gte=day)
        .order_by("pk")
    )


def nights_of(season: Season) -> QuerySet[Night]:
    """The season's club nights: the owner's, of its game, between its days, seated at least
    once."""
    return Night.objects.filter(
        owner_id=season.owner_id,
        family=season.family,
        played_on__gte=season.starts,
        played_on__lte=season.ends,
        round__gte=1,
    ).order_by("played_on", "created")


def _nights_played(
    season: Season, players: Iterable[int] | None
) -> dict[int, list[tuple[Fraction, int]]]:
    """Each player's nights of the season: (their score, the tables they played)."""
    lines = NightLine.objects.filter(night__in=nights_of(season), rounds__gt=0)
    if players is not None:
        lines = lines.filter(player_id__in=list(players))
    played: dict[int, list[tuple[Fraction, int]]] = {}
    for player, score, rounds in lines.values_list("player_id", "score", "rounds"):
        played.setdefault(player, []).append((Fraction(score), rounds))
    if season.with_sessions:
        sessions = Outcome.objects.filter(
            owner_id=season.owner_id,
            family=season.family,
            counted=True,
            seated=True,
            session__night__isnull=True,
            day__gte=season.starts,
            day__lte=season.ends,
        ).exclude(placement="")
        if players is not None:
            sessions = sessions.filter(player_id__in=list(players))
        for player, placement in sessions.values_list("player_id", "placement"):
            played.setdefault(player, []).append((Fraction(placement), 1))
    return played


def refresh(season: Season, players: Iterable[int] | None = None) -> bool:
    """Work out the lines of `players` (every player if None) again from their nights, rank
    the season again, and raise its version if any line changed (the season's row locked by
    the caller). Whether a player came into the season (their rating over it is then due)."""
    asked = None if players is None else set(players)
    played = _nights_played(season, asked)
    held = {line.player_id: line for line in season.lines.all()}
    names = dict(
        Player.objects.filter(pk__in=held.keys() | played.keys()).values_list("pk", "name")
    )
    totals = {}
    for player, line in held.items():
        if asked is None or player in asked:
            continue
        totals[player] = rules.SeasonTotal(
            names[player], line.value, line.counted, line.nights, line.games
        )
    for player, nights in played.items():
        points, counted = rules.season_points([score for score, _games in nights], season.best_of)
        totals[player] = rules.SeasonTotal(
            names[player], points, counted, len(nights), sum(games for _score, games in nights)
        )
    by_name = {total.player: player for player, total in totals.items()}
    written: list[SeasonLine] = []
    came = False
    for position, ranked in enumerate(rules.ranked(list(totals.values())), start=1):
        player = by_name[ranked.player]
        row = held.pop(player, None) or SeasonLine(season=season, player_id=player)
        fields = {
            "rank": ranked.rank,
            "position": position,
            "points": str(ranked.points),
            "counted": ranked.counted,
            "nights": ranked.nights,
            "games": ranked.games,
        }
        if row.pk and all(getattr(row, name) == value for name, value in fields.items()):
            continue
        for name, value in fields.items():
            setattr(row, name, value)
        came = came or not row.pk
        written.append(row)
    SeasonLine.objects.filter(pk__in=[row.pk for row in held.values()]).delete()
    # The lines that changed in one statement, whatever their number.
    SeasonLine.objects.bulk_create(
        written,
        update_conflicts=True,
        unique_fields=["season", "player"],
        update_fields=["rank", "position", "points", "counted", "nights", "games"],
    )
    # Raised even when no line moved: a night that comes into the season (its first round
    # seated) changes the season's list of nights.
    live.bump_season(season)
    return came


def season_games(season: Season) -> QuerySet[Outcome]:
    """The rated outcomes of the season's games: the owner's counted games of its game between
    its days (club-night tables and ordinary sessions alike), in the order they were played."""
    return Outcome.objects.filter(
        owner_id=season.owner_id,
        family=season.family,
        counted=True,
        place__isnull=False,
        day__gte=season.starts,
        day__lte=season.ends,
    ).order_by(*Outcome.order_by, "pk")


def rate(season: Season) -> None:
    """Each of the season's players' rating over the season's games alone (the season's row
    locked by the caller): now, up to IN_REQUEST games, or by a task."""
    if season_games(season).values("session_id").distinct().count() > IN_REQUEST:
        if not season.ratings_behind:
            season.ratings_behind = True
            season.save(update_fields=["ratings_behind"])
            transaction.on_commit(lambda: rate_season.enqueue(season.pk))
        return
    _rate(season)


def _rate(season: Season) -> None:
    games: dict[int, dict[int, int]] = {}
    for session, player, place in season_games(season).values_list(
        "session_id", "player_id", "place"
    ):
        games.setdefault(session, {})[player] = place or 0
    states: dict[int, tuple[float, float, int]] = {}
    for places in games.values():
        if not rated(places):
            continue
        before = {player: states[player][:2] if player in states else None for player in places}
        for player, (mu, sigma) in rate_game(before, places).items():
            states[player] = (mu, sigma, (states[player][2] if player in states else 0) + 1)
    lines = list(season.lines.all())
    for line in lines:
        state = states.get(line.player_id)
        line.rating = shown(state[0], state[1]) if state else None
        line.rated_games = state[2] if state else 0
    SeasonLine.objects.bulk_create(  # an upsert: see club.ratings.replay
        lines,
        update_conflicts=True,
        unique_fields=["season", "player"],
        update_fields=["rating", "rated_games"],
    )
    season.ratings_behind = False
    live.bump_season(season, "ratings_behind")


@task()
def rate_season(season_id: int) -> None:
    """The task of a long season's ratings."""
    with transaction.atomic():
        season = Season.objects.select_for_update().filter(pk=season_id).first()
        if season is not None and season.ratings_behind:
            lock_owner(season.owner_id)
            _rate(Season.objects.select_for_update().get(pk=season_id))
