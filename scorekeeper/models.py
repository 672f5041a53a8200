from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Length, Lower, Trim
from django.db.models.lookups import LessThanOrEqual

PLAYER_NAME_MAX = 40


class PlayerQuerySet(models.QuerySet["Player"]):
    def for_user(self, user: object) -> PlayerQuerySet:
        return self.filter(owner=user)

    def active(self) -> PlayerQuerySet:
        return self.filter(archived=False)


class Player(models.Model):
    """Someone the owner plays with. Names are unique per owner, ignoring case."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="players")
    name = models.CharField(max_length=PLAYER_NAME_MAX)
    archived = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint("owner", Lower("name"), name="player_name_unique_per_owner"),
            models.CheckConstraint(
                condition=models.Q(name=Trim("name")) & ~models.Q(name=""),
                name="player_name_trimmed_not_blank",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("name"), PLAYER_NAME_MAX),
                name="player_name_length",
            ),
        ]

    def __str__(self) -> str:
        return self.name
