"""A player's ratings for their page: the figure per game, the games it rests on, and how it
went over their latest games, as a small chart drawn like a session's."""

from __future__ import annotations

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
