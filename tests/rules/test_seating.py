"""A rematch's seats: the same table, the deal moved on by one (RULES.md, vocabulary)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import adding, bounds, trick
from scorekeeper.rules.common import seating_moved_on


def test_the_second_seat_deals_first_next_time() -> None:
    assert seating_moved_on(["Ann", "Ben", "Cat"]) == ["Ben", "Cat", "Ann"]
    assert seating_moved_on(["Ann", "Ben"]) == ["Ben", "Ann"]


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [("parlett-jokerless", ["Ann", "Ben", "Cat"]), ("four", ["Ann", "Ben", "Cat", "Dan"]),
     ("two-dummy", ["Ann", "Ben"])],
)  # fmt: skip
def test_the_trick_games_first_dealer_is_the_next_player(ruleset: str, players: list[str]) -> None:
    before = trick.resolve_rules(ruleset, {}, players)
    after = trick.resolve_rules(ruleset, {}, seating_moved_on(players))
    first_dealer = trick.seat(before, 0)[0]
    second_dealer = trick.seat(before, 1)[0]
    assert first_dealer == players[0]
    assert trick.seat(after, 0)[0] == second_dealer
    result = trick.score_session(after, [])
    assert result.next is not None
    assert result.next.dealer == second_dealer


def test_the_adding_games_first_dealer_is_the_next_player() -> None:
    players = ["Ann", "Ben", "Cat", "Dan"]
    rules = adding.resolve_rules("thirty-three", {}, seating_moved_on(players))
    result = adding.score_session(rules, [])
    assert result.next is not None
    assert result.next.dealer == "Ben"


@given(
    st.lists(st.text(min_size=1), min_size=bounds.MIN_PLAYERS, max_size=bounds.MAX_PLAYERS,
             unique=True)
)  # fmt: skip
def test_neighbours_stay_neighbours(players: list[str]) -> None:
    moved = seating_moved_on(players)
    assert sorted(moved) == sorted(players)
    count = len(players)
    left_of = {players[i]: players[(i + 1) % count] for i in range(count)}
    assert {moved[i]: moved[(i + 1) % count] for i in range(count)} == left_of
    seating = players
    for _ in range(count):
        seating = seating_moved_on(seating)
    assert seating == players  # every player deals first once in as many rematches
