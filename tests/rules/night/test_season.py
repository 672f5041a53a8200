"""A season's standings: the best nights of each player, worked out by hand."""

from fractions import Fraction

from scorekeeper.rules.night import season_standings


def test_the_best_two_nights_count() -> None:
    nights = [
        {"Ann": Fraction(6), "Ben": Fraction(3), "Cat": Fraction(1)},
        {"Ann": Fraction(0), "Ben": Fraction(5), "Cat": Fraction(4)},
        {"Ben": Fraction(1), "Cat": Fraction(7)},  # Ann missed it
    ]
    lines = season_standings(nights, {"Ann": 8, "Ben": 12, "Cat": 12}, best_of=2)
    # Ann 6 + 0 = 6; Ben 5 + 3 = 8; Cat 7 + 4 = 11.
    assert [(line.player, line.points, line.counted, line.nights, line.rank) for line in lines] == [
        ("Cat", 11, 2, 3, 1),
        ("Ben", 8, 2, 3, 2),
        ("Ann", 6, 2, 2, 3),
    ]


def test_every_night_counts_without_best_of() -> None:
    nights = [{"Ann": Fraction(3), "Ben": Fraction(1)}, {"Ann": Fraction(1), "Ben": Fraction(3)}]
    lines = season_standings(nights, {"Ann": 2, "Ben": 2})
    assert [(line.player, line.points, line.rank) for line in lines] == [
        ("Ann", 4, 1),
        ("Ben", 4, 1),
    ]


def test_equal_points_go_to_more_nights_counted_then_more_games() -> None:
    nights = [
        {"Ann": Fraction(4), "Ben": Fraction(2), "Cat": Fraction(2), "Dan": Fraction(2)},
        {"Ben": Fraction(2), "Cat": Fraction(2), "Dan": Fraction(2)},
    ]
    lines = season_standings(nights, {"Ann": 4, "Ben": 8, "Cat": 8, "Dan": 6}, best_of=3)
    # Ann 4 in 1 night; Ben, Cat, Dan 4 in 2 nights: Ben and Cat 8 games, Dan 6.
    assert [(line.player, line.rank) for line in lines] == [
        ("Ben", 1),
        ("Cat", 1),
        ("Dan", 3),
        ("Ann", 4),
    ]


def test_fractions_add_up_exactly() -> None:
    nights = [{"Ann": Fraction(3, 2)}, {"Ann": Fraction(1, 3)}, {"Ann": Fraction(1, 6)}]
    (line,) = season_standings(nights, {"Ann": 3}, best_of=3)
    assert line.points == 2
