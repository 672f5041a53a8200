"""The writes of a season: make it, change it, delete it, and its link for every phone.

A season stores what the owner chose (its game, days, how many nights count) and its
standings, which `club` works out from the nights and games of those days and keeps in step;
changing or deleting a season changes nothing else.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper import club, live
from scorekeeper.models import new_link_token
from scorekeeper.night_models import Season
from scorekeeper.services.limits import SEASONS, make_room


@transaction.atomic
def create_season(*, owner: User, season: Season) -> Season:
    """Store `season` (a form's unsaved instance) as `owner`'s, with its standings;
    AccountFull past the limit."""
    make_room(owner, SEASONS)
    season.owner = owner
    season.save()
    club.season_changed(season)
    return season


@transaction.atomic
def change_season(*, season: Season) -> Season:
    """Store the season's new settings (a form's instance), and its standings worked out
    again."""
    live.bump_season(season)
    club.season_changed(season)
    return season


@transaction.atomic
def delete_season(*, season: Season) -> None:
    """Delete the season: its standings and link go; its nights, games and the ratings stay."""
    Season.objects.select_for_update().filter(pk=season.pk).delete()


@transaction.atomic
def change_season_link(*, season: Season, action: str) -> Season:
    """Turn the season's link on, replace it, or turn it off (`action`: "on", "replace",
    "off"); the old token opens nothing from now on."""
    locked = Season.objects.select_for_update().get(pk=season.pk)
    locked.watch_token = None if action == "off" else new_link_token()
    locked.save(update_fields=["watch_token"])
    return locked
