"""A club night: many tables, players moved between rounds, one leaderboard (docs/NIGHTS.md).

Pure Python, for either game family. `seating` says who sits where each round (exact designs
where they fit, else a search that keeps repeated meetings down); `ranking` turns every table's
result, as its family reports it (`table_places`, `table_points`), into the night's
leaderboard under the method the organiser chose.
"""

from scorekeeper.rules.night.ranking import (
    BYE_RULE,
    METHODS,
    Line,
    Method,
    TableResult,
    UnknownMethod,
    leaderboard,
    method,
    methods_for,
    placement_points,
    round_scores,
    score_text,
)
from scorekeeper.rules.night.season import (
    BEST_RULE,
    SeasonLine,
    SeasonTotal,
    ranked,
    season_points,
    season_standings,
)
from scorekeeper.rules.night.seating import (
    Design,
    Seating,
    Size,
    affine_plane,
    kirkman,
    meetings,
    most_met,
    next_round,
    plan,
    rainbow,
    seat_round,
    table_sizes,
)

__all__ = [
    "BEST_RULE", "SeasonLine", "SeasonTotal", "ranked", "season_points", "season_standings",
    "BYE_RULE", "METHODS", "Design", "Line", "Method", "Seating", "Size", "TableResult",
    "UnknownMethod", "affine_plane", "kirkman", "leaderboard", "meetings", "method",
    "methods_for", "most_met", "next_round", "placement_points", "plan", "rainbow", "round_scores",
    "score_text", "seat_round", "table_sizes",
]  # fmt: skip
