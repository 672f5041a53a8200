"""What sits above a table, stored as rows when a session's result changes: each player's
outcome of each session, their record and head to head, their rating in each game, a club
night's leaderboard and a season's standings.

Pages read these rows and never work them out from the history. `scorekeeper.club` keeps them
in step in the transaction of the change that makes them (a long replay of ratings runs as a
task); docs/ARCHITECTURE.md ("Stored above a table") says what is stored when.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

from django.conf import settings
from django.db import models

from scorekeeper.models import FAMILY_CHOICES, GameSession, Player
from scorekeeper.night_models import Night, Season


class Outcome(models.Model):
    """A player's part in one session as its result stands now: their place at the end, what
    their record counts from it, and, where the game is rated, their rating after it.

    A session has one for each player who held a seat (one who left part way has no place),
    deleted sessions none. Games are taken in the order they were played: their day, then
    when they started, then the session's id (`order_by`)."""

    session = models.ForeignKey(GameSession, models.CASCADE, related_name="outcomes")
    player = models.ForeignKey(Player, models.CASCADE, related_name="outcomes")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    day = models.DateField()  # played on, or the day it started
    started = models.DateTimeField()  # the session's start: orders the games of one day
    # False: its stored rules are no longer accepted, so nothing of it counts (its page says so)
    readable = models.BooleanField(default=True)
    seated = models.BooleanField(default=False)  # at the table at the end
    place = models.PositiveSmallIntegerField(null=True)  # 1 best; None: nothing played, or left
    points = models.IntegerField(null=True)  # the table's raw points, where the game has them
    placement = models.CharField(max_length=20, blank=True)  # placement points, as a fraction
    finished = models.BooleanField(default=False)  # the session is, with them at the table
    won = models.BooleanField(default=False)
    ended = models.BooleanField(default=False)  # finished or stopped after play: head to head
    counted = models.BooleanField(default=False)  # finished, not abandoned: ratings, seasons
    counts = models.JSONField(default=dict)  # the family's `player_counts` from this session
    # The rating after this game (None: the game is not rated, or not yet: RatingsBehind)
    mu = models.FloatField(null=True)
    sigma = models.FloatField(null=True)
    games = models.PositiveIntegerField(null=True)  # rated games so far, this one included

    order_by = ("day", "started", "session_id")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="outcome_once_a_player")
        ]
        indexes = [
            models.Index(
                fields=["owner", "family", "counted", "day", "started", "session"],
                name="outcome_rating_chain",
            ),
            models.Index(
                fields=["player", "family", "day", "started", "session"], name="outcome_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.session}"

    @property
    def key(self) -> tuple[datetime.date, datetime.datetime, int]:
        return (self.day, self.started, self.session_id)


class PlayerRecord(models.Model):
    """A player's record over every session they held a seat in: their outcomes added up."""

    player = models.OneToOneField(
        Player, models.CASCADE, primary_key=True, related_name="stored_record"
    )
    sessions = models.PositiveIntegerField(default=0)
    finished = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"{self.player}'s record"


class Rivalry(models.Model):
    """How a player fared against another over the sessions that ended with both at the
    table (finished, or stopped after at least one deal or round)."""

    player = models.ForeignKey(Player, models.CASCADE, related_name="rivalries")
    opponent = models.ForeignKey(Player, models.CASCADE, related_name="+")
    sessions = models.PositiveIntegerField(default=0)
    ahead = models.PositiveIntegerField(default=0)
    behind = models.PositiveIntegerField(default=0)
    level = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "opponent"], name="rivalry_once_a_pair")
        ]

    def __str__(self) -> str:
        return f"{self.player} against {self.opponent}"


class PlayerRating(models.Model):
    """A player's rating in one game now: the state after their latest rated game."""

    player = models.ForeignKey(Player, models.CASCADE, related_name="ratings")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    shown = models.FloatField()  # μ − 3σ, as the pages show and sort it
    # Where the latest rated game stands in the order of games (Outcome.key): a game after it
    # starts from this state.
    last_day = models.DateField()
    last_started = models.DateTimeField()
    last_session = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "family"], name="rating_once_a_game")
        ]
        indexes = [models.Index(fields=["owner", "family", "shown"], name="rating_ladder")]

    def __str__(self) -> str:
        return f"{self.player}: {self.shown:.1f}"

    @property
    def last_key(self) -> tuple[datetime.date, datetime.datetime, int]:
        return (self.last_day, self.last_started, self.last_session)


class RatingsBehind(models.Model):
    """An owner's ratings in one game still to be brought up to date from a game on: a change
    to an older game whose replay of the games after it runs as a task."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    day = models.DateField()
    started = models.DateTimeField()
    session_id = models.BigIntegerField()  # the session may be gone: no foreign key
    queued = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "family"], name="ratings_behind_once")
        ]

    def __str__(self) -> str:
        return f"ratings of {self.owner} ({self.family}) from {self.day}"

    @property
    def key(self) -> tuple[datetime.date, datetime.datetime, int]:
        return (self.day, self.started, self.session_id)


class NightLine(models.Model):
    """A player's line in a club night's leaderboard."""

    night = models.ForeignKey(Night, models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, models.CASCADE, related_name="+")
    rank = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # the leaderboard's order, equals included
    score = models.CharField(max_length=40)  # under the night's method, a fraction
    rounds = models.PositiveSmallIntegerField()
    byes = models.PositiveSmallIntegerField()
    firsts = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="night_line_once")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player} ({self.night})"

    @property
    def value(self) -> Fraction:
        return Fraction(self.score)


class SeasonLine(models.Model):
    """A player's line in a season's standings."""

    season = models.ForeignKey(Season, models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, models.CASCADE, related_name="+")
    rank = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # the standings' order, equals included
    points = models.CharField(max_length=40)  # the best nights' scores added up, a fraction
    counted = models.PositiveSmallIntegerField()  # nights counted
    nights = models.PositiveSmallIntegerField()  # nights played
    games = models.PositiveIntegerField()  # tables played
    # The player's rating over the season's games (`club.seasons.rate`); None before one
    rating = models.FloatField(null=True)
    rated_games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_line_once")
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player} ({self.season})"

    @property
    def value(self) -> Fraction:
        return Fraction(self.points)
