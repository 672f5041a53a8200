"""Each family puts one table's result into a club night's terms: ranks and raw points."""

from scorekeeper.rules import adding, trick
from scorekeeper.rules.registry import FAMILIES

H = trick.HandEntry


def test_every_family_offers_the_night_interface() -> None:
    for family in FAMILIES.values():
        assert callable(family.table_places) and callable(family.table_points)


def test_the_trick_game_gives_ranks_and_totals() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, ["Ann", "Ben", "Cat"])
    deal = trick.DealEntry({"Ann": H(4, bid=4), "Ben": H(5, made=False), "Cat": H(0, bid=0)})
    result = trick.score_session(rules, [deal])
    points = trick.table_points(result)
    assert points == {standing.player: standing.total for standing in result.standings}
    assert trick.table_places(result) == {"Ann": 1, "Cat": 2, "Ben": 3}


def test_the_trick_games_dummy_is_never_ranked() -> None:
    rules = trick.resolve_rules("two-dummy", {}, ["Ann", "Ben"])
    hands = dict(zip(rules.hands, (H(4, bid=4), H(4, bid=4), H(1, bid=1)), strict=True))
    result = trick.score_session(rules, [trick.DealEntry(hands)])
    assert set(trick.table_places(result)) == {"Ann", "Ben"}
    assert trick.table_places(result) == {"Ann": 1, "Ben": 1}  # equal totals share a rank
    assert set(trick.table_points(result)) == {"Ann", "Ben"}


def test_the_adding_game_gives_places_by_going_out_and_no_points() -> None:
    rules = adding.resolve_rules("sudden-death", {}, ["Ann", "Ben", "Cat"])
    rounds = [
        adding.RoundEntry((adding.Event("Ben", "bust"),)),
        adding.RoundEntry((adding.Event("Cat", "bust"),)),
    ]
    result = adding.score_session(rules, rounds)
    assert adding.table_places(result) == {"Ann": 1, "Cat": 2, "Ben": 3}
    assert adding.table_points(result) is None
