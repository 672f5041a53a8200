"""A player's ratings for their page: the figure per game, the games it rests on, and how it
went over their latest games, as a small chart drawn like a session's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.template.defaultfilters import floatformat
from django.urls import reverse

from scorekeeper.club import reads
from scorekeeper.club_models import PlayerRating
from scorekeeper.models import FAMILY_CHOICES, Player
from scorekeeper.presenters.charts import Chart, running_chart


def player_ratings(player: Player) -> list[dict[str, object]]:
    """For each game the player has a rating in: its name, the figure, the games counted, and
    the figure after each of their latest games as a chart (whole numbers: the chart's
    scale); whether the owner's ratings in it are being brought up to date."""
    held = {rating.family: rating for rating in PlayerRating.objects.filter(player=player)}
    behind = reads.behind(player.owner_id) if held else set()
    shown = []
    for family_id, label in FAMILY_CHOICES:
        rating = held.get(family_id)
        if rating is None:
            continue
        points = [round(value) for _, value in reads.trend(player.pk, family_id)]
        chart: Chart | None = running_chart({str(label): points}, "game")
        shown.append(
            {
                "label": label,
                "rating": rating.shown,
                "games": rating.games,
                "chart": chart,
                "behind": family_id in behind,
            }
        )
    return shown


@dataclass(frozen=True)
class LadderLine:
    """A line of the club ladder as the page shows it: its figures as text, written once."""

    place: int
    url: str
    name: str
    rating: str
    games: int


def ladder_lines(rows: Sequence[reads.LadderRow]) -> list[LadderLine]:
    """The ladder's lines, each player's page and rating as text (rounded as the templates'
    `floatformat` rounds it), so that a ladder of hundreds renders no tag or filter a line."""
    pages = reverse("player", args=[0]).removesuffix("0/")
    return [
        LadderLine(
            row.place, f"{pages}{row.player_id}/", row.name, floatformat(row.rating, 1), row.games
        )
        for row in rows
    ]
