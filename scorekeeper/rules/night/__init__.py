"""A club night: many tables, players moved between rounds, one leaderboard (docs/NIGHTS.md).

Pure Python, for either game family. `seating` says who sits where each round (exact designs
where they fit, else a search that keeps repeated meetings down); the night's leaderboard
comes from every table's result, as its family reports it (`table_places`, `table_points`).
"""

from scorekeeper.rules.night.seating import (
    Design,
    Seating,
    Size,
    affine_plane,
    kirkman,
    meetings,
    most_met,
    plan,
    rainbow,
    seat_round,
    table_sizes,
)

__all__ = [
    "Design", "Seating", "Size", "affine_plane", "kirkman", "meetings", "most_met", "plan",
    "rainbow", "seat_round", "table_sizes",
]  # fmt: skip
