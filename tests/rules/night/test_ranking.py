"""Ranking a club night: placement points, totals, points against the table, byes, ties."""

from dataclasses import replace
from fractions import Fraction as F

import pytest

from scorekeeper.rules.night import (
    BYE_RULE,
    METHODS,
    TableResult,
    UnknownMethod,
    leaderboard,
    method,
    methods_for,
    placement_points,
    round_scores,
    score_text,
)


def table(number: int, points: dict[str, int] | None, places: dict[str, int], table_=1):
    return TableResult(number, table_, places, points, finished=True)


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ({"A": 1, "B": 2, "C": 3}, [3, 1, 0]),
        ({"A": 1, "B": 2, "C": 3, "D": 4}, [4, 2, 1, 0]),
        ({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, [5, 3, 2, 1, 0]),
        ({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6}, [6, 4, 3, 2, 1, 0]),
        ({"A": 1, "B": 2}, [2, 0]),
        # Ties split the places they fill: (3 + 1) / 2, (4 + 2) / 2, (2 + 1) / 2 …
        ({"A": 1, "B": 1, "C": 3}, [2, 2, 0]),
        ({"A": 1, "B": 2, "C": 2}, [3, F(1, 2), F(1, 2)]),
        ({"A": 1, "B": 1, "C": 3, "D": 4}, [3, 3, 1, 0]),
        ({"A": 1, "B": 2, "C": 2, "D": 4}, [4, F(3, 2), F(3, 2), 0]),
        ({"A": 1, "B": 1, "C": 1}, [F(4, 3)] * 3),
    ],
)
def test_placement_points(places, expected) -> None:
    assert list(placement_points(places).values()) == expected


def test_round_scores_under_each_method() -> None:
    result = table(1, {"Ann": 60, "Ben": 40, "Cat": 20}, {"Ann": 1, "Ben": 2, "Cat": 3})
    assert round_scores("total", result) == {"Ann": 60, "Ben": 40, "Cat": 20}
    assert round_scores("placement", result) == {"Ann": 3, "Ben": 1, "Cat": 0}
    assert round_scores("share", result) == {"Ann": 20, "Ben": 0, "Cat": -20}
    uneven = table(1, {"Ann": 10, "Ben": 0, "Cat": 0}, {"Ann": 1, "Ben": 2, "Cat": 2})
    assert round_scores("share", uneven) == {"Ann": F(20, 3), "Ben": F(-10, 3), "Cat": F(-10, 3)}


# A worked night: four players at one table of three, one sits out each round.
#   Round 1: Ann 60, Ben 40, Cat 20 (places 1, 2, 3); Dan sits out.
#   Round 2: Dan 90, Ben 30, Cat 30 (places 1, 2, 2); Ann sits out.
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
NIGHT = [
    table(1, {"Ann": 60, "Ben": 40, "Cat": 20}, {"Ann": 1, "Ben": 2, "Cat": 3}),
    table(2, {"Ben": 30, "Cat": 30, "Dan": 90}, {"Dan": 1, "Ben": 2, "Cat": 2}),
]
BYES = {"Ann": [2], "Dan": [1]}


def board(method_id: str, results=NIGHT, byes=BYES, players=PLAYERS):
    return [
        (line.player, line.score, line.rank)
        for line in leaderboard(method_id, players, results, byes)
    ]


def test_total_points_with_a_bye_at_the_players_own_average() -> None:
    # Ann: 60 + 60 for her bye; Dan: 90 + 90; Ben: 40 + 30; Cat: 20 + 30.
    assert board("total") == [("Dan", 180, 1), ("Ann", 120, 2), ("Ben", 70, 3), ("Cat", 50, 4)]


def test_placement_points_tie_broken_by_first_places_then_raw_points() -> None:
    # Ann: 3 + 3 for her bye; Dan: 3 + 3; Ben: 1 + 1/2; Cat: 0 + 1/2. Ann and Dan have one
    # first place each; Dan has more points (180 to 120).
    assert board("placement") == [
        ("Dan", 6, 1),
        ("Ann", 6, 2),
        ("Ben", F(3, 2), 3),
        ("Cat", F(1, 2), 4),
    ]


def test_points_against_the_table() -> None:
    # Round 1's average is 40: Ann +20, Ben 0, Cat -20; round 2's is 50: Dan +40, Ben and Cat
    # -20. Ann: 20 + 20 for her bye; Dan: 40 + 40.
    assert board("share") == [("Dan", 80, 1), ("Ann", 40, 2), ("Ben", -20, 3), ("Cat", -40, 4)]


def test_a_line_has_what_the_page_and_the_tie_breaks_need() -> None:
    lines = {line.player: line for line in leaderboard("share", PLAYERS, NIGHT, BYES)}
    ann, ben = lines["Ann"], lines["Ben"]
    assert (ann.rounds, ann.byes, ann.firsts, ann.placement, ann.points) == (1, 1, 1, 6, 120)
    assert (ben.rounds, ben.byes, ben.firsts, ben.placement, ben.points) == (2, 0, 0, F(3, 2), 70)


def test_a_bye_before_any_round_played_scores_nothing() -> None:
    lines = leaderboard("total", [*PLAYERS, "Eve"], NIGHT[:1], {"Dan": [1], "Eve": [1]})
    assert [(line.player, line.score, line.rank) for line in lines][-2:] == [
        ("Dan", 0, 4),
        ("Eve", 0, 4),
    ]


def test_a_late_arrival_has_fewer_rounds_and_no_byes_for_the_rounds_missed() -> None:
    results = [*NIGHT, table(3, {"Ann": 10, "Eve": 50, "Dan": 0}, {"Eve": 1, "Ann": 2, "Dan": 3})]
    lines = {line.player: line for line in leaderboard("total", [*PLAYERS, "Eve"], results, BYES)}
    assert (lines["Eve"].rounds, lines["Eve"].byes, lines["Eve"].score) == (1, 0, 50)


def test_players_equal_on_everything_share_a_rank() -> None:
    results = [table(1, {"Ann": 50, "Ben": 50, "Cat": 10}, {"Ann": 1, "Ben": 1, "Cat": 3})]
    for method_id in ("total", "placement", "share"):
        ranks = [(p, rank) for p, _, rank in board(method_id, results, {}, ["Ann", "Ben", "Cat"])]
        assert ranks == [("Ann", 1), ("Ben", 1), ("Cat", 3)]


def test_equal_totals_are_split_by_placement_points() -> None:
    results = [
        table(1, {"Ann": 60, "Ben": 10, "Cat": 20}, {"Ann": 1, "Cat": 2, "Ben": 3}, 1),
        table(1, {"Dan": 70, "Eve": 60, "Fay": 0}, {"Dan": 1, "Eve": 2, "Fay": 3}, 2),
    ]
    ranked = board("total", results, {}, ["Eve", "Ann", "Ben", "Cat", "Dan", "Fay"])
    assert ranked[:3] == [("Dan", 70, 1), ("Ann", 60, 2), ("Eve", 60, 3)]


def test_equal_placement_points_are_split_by_first_places() -> None:
    # At tables of four, first then last (4 + 0) beats second twice (2 + 2).
    results = [
        table(1, None, {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 4}),
        table(2, None, {"Dan": 1, "Ben": 2, "Cat": 3, "Ann": 4}),
    ]
    ranked = board("placement", results, {}, ["Ben", "Ann", "Cat", "Dan"])
    # Ann and Dan: 4 each with one first place, and no points to go further: a shared rank.
    assert ranked == [("Ann", 4, 1), ("Dan", 4, 1), ("Ben", 4, 3), ("Cat", 2, 4)]


def test_a_game_without_points_is_ranked_by_places_only() -> None:
    results = [table(1, None, {"Ann": 1, "Ben": 2, "Cat": 3})]
    lines = leaderboard("placement", ["Ann", "Ben", "Cat"], results, {})
    assert [line.points for line in lines] == [None, None, None]
    with pytest.raises(ValueError, match="needs points"):
        leaderboard("total", ["Ann", "Ben", "Cat"], results, {})


def test_a_corrected_table_changes_the_leaderboard() -> None:
    # Round 2 corrected: Ben had 95, not 30, and wins the table.
    corrected = replace(
        NIGHT[1], points={"Ben": 95, "Cat": 30, "Dan": 90}, places={"Ben": 1, "Dan": 2, "Cat": 3}
    )
    assert board("total", [NIGHT[0], corrected]) == [
        ("Dan", 180, 1),
        ("Ben", 135, 2),
        ("Ann", 120, 3),
        ("Cat", 50, 4),
    ]
    # Placement: Ann 3 + 3, Ben 1 + 3, Dan 1 + 1, Cat 0 + 0.
    assert board("placement", [NIGHT[0], corrected]) == [
        ("Ann", 6, 1),
        ("Ben", 4, 2),
        ("Dan", 2, 3),
        ("Cat", 0, 4),
    ]
    assert board("total") == [("Dan", 180, 1), ("Ann", 120, 2), ("Ben", 70, 3), ("Cat", 50, 4)]


def test_a_table_closed_early_counts_as_it_stands() -> None:
    closed = [replace(result, finished=False) for result in NIGHT]
    assert board("total", closed) == board("total")


# The methods' words


def test_each_method_has_its_words_in_one_place() -> None:
    assert [m.id for m in METHODS] == ["total", "placement", "share"]
    for m in METHODS:
        assert m.shown_name and m.shown_explanation.endswith(".")
        assert m.shown_tie_break.endswith(".")
    assert method("share").needs_points and not method("placement").needs_points
    assert BYE_RULE.endswith(".")


def test_a_game_without_points_offers_placement_only() -> None:
    assert [m.id for m in methods_for(has_points=False)] == ["placement"]
    assert methods_for(has_points=True) == METHODS


def test_an_unknown_method() -> None:
    with pytest.raises(UnknownMethod):
        method("elo")
    with pytest.raises(UnknownMethod):
        leaderboard("elo", PLAYERS, NIGHT, BYES)


@pytest.mark.parametrize(
    ("value", "text"),
    [(F(2), "2"), (F(3, 2), "1.5"), (F(7, 3), "2.33"), (F(-1, 3), "-0.33"), (F(1, 10), "0.1")],
)
def test_score_text(value, text) -> None:
    assert score_text(value) == text
