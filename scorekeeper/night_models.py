"""The stored data of a club night and of a season: the night, its players, its tables and
who sat out; a season's days and what it counts.

Each table of each round is an ordinary session (`GameSession.night`, `night_round`,
`night_table`): its entries, checks, corrections and history are the session's own. What the
night adds is who plays (players come and go between rounds), the tables' links that hold for
the whole night, and the sit-outs. Its leaderboard and a season's standings are stored above
them (`club_models`), kept in step with the tables (`scorekeeper.club`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scorekeeper.models import (
    FAMILY_CHOICES,
    RULESET_NAME_MAX,
    Player,
    SavedRuleset,
    new_link_token,
    new_public_id,
)
from scorekeeper.rules.bounds import MAX_TITLE_LENGTH


class NightQuerySet(models.QuerySet["Night"]):
    def for_user(self, user: object) -> NightQuerySet:
        return self.filter(owner=user)


class Night(models.Model):
    """A club night: many tables at once, players seated anew each round, one leaderboard."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="nights")
    name = models.CharField(max_length=MAX_TITLE_LENGTH)
    played_on = models.DateField()
    created = models.DateTimeField(auto_now_add=True)
    # The rules every table plays, as a session stores them (copied into each table's session).
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    saved_ruleset = models.ForeignKey(
        SavedRuleset, models.SET_NULL, null=True, blank=True, related_name="nights"
    )
    ruleset_name = models.CharField(max_length=RULESET_NAME_MAX, blank=True)
    # Players at a table: an exact size (least = most) or a range (the adding game).
    least = models.PositiveSmallIntegerField()
    most = models.PositiveSmallIntegerField()
    # A round's length: deals at each table (the trick game); None: until the game ends.
    deals = models.PositiveSmallIntegerField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=20)  # rules.night.METHODS
    # From this round on, tables are seated by the standings (the Swiss way); None: never.
    swiss_from = models.PositiveSmallIntegerField(null=True, blank=True)
    prizes = models.TextField(blank=True)  # one a line, the first for the winner
    round = models.PositiveSmallIntegerField(default=0)  # the round being played; 0: none yet
    finished = models.BooleanField(default=False)
    # Goes up with every change of what its pages show: a round seated, a player added, and
    # every change at any of its tables (scorekeeper.club.nights, in that change's write).
    version = models.PositiveIntegerField(default=1)
    # The room's link (the leaderboard on any phone and the big screen); None: turned off.
    watch_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=new_link_token
    )

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-played_on", "-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(least__gte=2) & models.Q(most__gte=models.F("least")),
                name="night_table_size_range",
            ),
            models.CheckConstraint(condition=models.Q(rounds__gte=1), name="night_rounds_min"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def size(self) -> int | tuple[int, int]:
        """The table size as the seating takes it."""
        return self.least if self.least == self.most else (self.least, self.most)


class NightPlayer(models.Model):
    """A player of the night: from round `joined` on, until round `left` (None: to the end)."""

    night = models.ForeignKey(Night, models.CASCADE, related_name="players")
    player = models.ForeignKey(Player, models.CASCADE, related_name="nights")
    joined = models.PositiveSmallIntegerField(default=1)
    left = models.PositiveSmallIntegerField(null=True, blank=True)  # the last round played

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="night_player_once")
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.night})"

    def plays(self, round_number: int) -> bool:
        return self.joined <= round_number and (self.left is None or round_number <= self.left)


class NightTable(models.Model):
    """A table of the night, with its scorer link for the whole night: the link opens the
    table's session of the round being played, so its card is printed once."""

    night = models.ForeignKey(Night, models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The card's link; None: turned off (the card opens nothing).
    scorer_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=new_link_token
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="night_table_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.night}, table {self.number}"


class NightBye(models.Model):
    """A player who sat out a round (the seating takes sit-outs in turn)."""

    night = models.ForeignKey(Night, models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, models.CASCADE, related_name="+")

    class Meta:
        ordering = ["round", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "round", "player"], name="night_bye_once_a_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} sits out round {self.round} ({self.night})"


class SeasonQuerySet(models.QuerySet["Season"]):
    def for_user(self, user: object) -> SeasonQuerySet:
        return self.filter(owner=user)


class Season(models.Model):
    """A season's ladder: the owner's club nights of one game between two days (and, if they
    want, their ordinary sessions too), ranked by points a night, the best `best_of` nights of
    each player counting where attendance is irregular."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=MAX_TITLE_LENGTH)
    family = models.CharField(max_length=10, choices=FAMILY_CHOICES)
    starts = models.DateField()
    ends = models.DateField()
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)  # None: every night
    with_sessions = models.BooleanField(default=False)  # ordinary sessions count as nights
    # The season's link for every phone; None: turned off.
    watch_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=new_link_token
    )
    created = models.DateTimeField(auto_now_add=True)
    # Goes up with every change of its standings (scorekeeper.club.seasons) or its settings.
    version = models.PositiveIntegerField(default=1)
    # Its ratings are being worked out again by a task (a long season, after a change).
    ratings_behind = models.BooleanField(default=False)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-starts", "-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_dates"
            ),
        ]

    def __str__(self) -> str:
        return self.name
