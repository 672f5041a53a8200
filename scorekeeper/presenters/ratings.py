"""A player's ratings for their page: the figure per game, the games it rests on, and how it
went, as a small chart drawn like a session's."""

from __future__ import annotations

from collections.abc import Hashable

from scorekeeper.models import FAMILY_CHOICES
from scorekeeper.presenters.charts import Chart, running_chart
from scorekeeper.ratings import Rating


def player_ratings(
    ratings: dict[str, dict[Hashable, Rating]], player_id: int
) -> list[dict[str, object]]:
    """For each game the player has a rating in: its name, the figure, the games counted, and
    the figure after each game as a chart (whole numbers: the chart's scale)."""
    shown = []
    for family_id, label in FAMILY_CHOICES:
        rating = ratings.get(family_id, {}).get(player_id)
        if rating is None:
            continue
        chart: Chart | None = running_chart(
            {str(label): [round(value) for _, value in rating.trend]}, "game"
        )
        shown.append(
            {"label": label, "rating": rating.shown, "games": rating.games, "chart": chart}
        )
    return shown
