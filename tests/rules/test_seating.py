"""Who deals first: the seats stay as the table sits, and the deal starts from the seat chosen
(RULES.md, vocabulary: the deal passes to the next seat after every deal); a rematch keeps
the seats and moves the first deal on by one."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import adding, bounds, trick
from scorekeeper.rules.common import InvalidRules, dealer_moved_on


@pytest.mark.parametrize(
    ("ruleset", "players", "first", "dealers"),
    [
        ("parlett-jokerless", ["Ann", "Ben", "Cat"], 1, ["Ben", "Cat", "Ann", "Ben"]),
        ("parlett-jokerless", ["Ann", "Ben", "Cat"], 2, ["Cat", "Ann", "Ben", "Cat"]),
        ("four", ["Ann", "Ben", "Cat", "Dan"], 3, ["Dan", "Ann", "Ben", "Cat"]),
        ("two-dummy", ["Ann", "Ben"], 1, ["Ben", "Ann", "Ben", "Ann"]),
    ],
)  # fmt: skip
def test_the_trick_game_deals_from_the_chosen_seat(ruleset, players, first, dealers):
    rules = trick.resolve_rules(ruleset, {}, players, first_dealer=first)
    assert rules.players == tuple(players)  # the seats as the table sits
    assert [trick.seat(rules, index)[0] for index in range(4)] == dealers
    # The dealer's left-hand neighbour leads (in `two-dummy`, the non-dealer).
    leaders = [trick.seat(rules, index)[1] for index in range(4)]
    assert leaders == [players[(players.index(d) + 1) % len(players)] for d in dealers]
    result = trick.score_session(rules, [])
    assert result.next is not None
    assert (result.next.dealer, result.next.leader) == (dealers[0], leaders[0])


def test_the_first_dealer_plays_through_the_deals() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, ["Ann", "Ben", "Cat"], first_dealer=2)
    hands = {name: trick.HandEntry(tricks=3, made=True) for name in rules.players}
    result = trick.score_session(rules, [trick.DealEntry(hands)] * 2)
    assert [deal.dealer for deal in result.deals] == ["Cat", "Ann"]
    assert result.next is not None and result.next.dealer == "Ben"
    # Scores do not depend on who dealt.
    plain = trick.score_session(trick.resolve_rules("parlett-jokerless", {}, rules.players), [])
    assert [s.player for s in plain.standings] == [s.player for s in trick.score_session(
        rules, []).standings]  # fmt: skip


def test_the_adding_game_deals_from_the_chosen_seat() -> None:
    players = ["Ann", "Ben", "Cat", "Dan"]
    rules = adding.resolve_rules("thirty-three", {}, players, first_dealer=2)
    assert rules.players == tuple(players)
    result = adding.score_session(rules, [])
    assert result.next is not None and result.next.dealer == "Cat"
    bust = adding.RoundEntry((adding.Event(player="Ann", event="bust"),))
    result = adding.score_session(rules, [bust])
    assert result.rounds[0].dealer == "Cat"
    assert result.next is not None and result.next.dealer == "Dan"


@pytest.mark.parametrize("family", [trick, adding])
@pytest.mark.parametrize("first", [-1, 3, 7, "1", True])
def test_a_first_dealer_outside_the_seats_is_refused(family, first) -> None:
    preset = "parlett-jokerless" if family is trick else "thirty-three"
    with pytest.raises(InvalidRules) as error:
        family.resolve_rules(preset, {}, ["Ann", "Ben", "Cat"], first_dealer=first)
    [problem] = error.value.problems
    assert problem.path == "first_dealer"
    assert problem.message == "The first dealer is one of the 3 seats."


def test_a_rematch_moves_the_first_deal_on_by_one_seat() -> None:
    assert dealer_moved_on(0, 3) == 1
    assert dealer_moved_on(2, 3) == 0
    assert dealer_moved_on(1, 2) == 0


@given(st.integers(bounds.MIN_PLAYERS, bounds.MAX_PLAYERS), st.data())
def test_every_seat_deals_first_once_in_as_many_rematches(count: int, data: st.DataObject) -> None:
    first = data.draw(st.integers(0, count - 1))
    seen = []
    for _ in range(count):
        seen.append(first)
        first = dealer_moved_on(first, count)
    assert sorted(seen) == list(range(count))
    assert first == seen[0]


def test_the_rule_sheet_says_who_deals_first() -> None:
    players = ["Ann", "Ben", "Cat"]
    plain = trick.resolve_rules("parlett-jokerless", {}, players)
    assert trick.prose.deal_line(plain) == (
        "Seat 1 deals first and the deal passes to the left; the player left of the dealer "
        "leads to the first trick."
    )
    ben = trick.resolve_rules("parlett-jokerless", {}, players, first_dealer=1)
    assert trick.prose.deal_line(ben) == (
        "Ben deals first and the deal passes to the left; the player left of the dealer leads "
        "to the first trick."
    )
    assert [dealer for _deal, dealer, _leader in trick.prose.rotation(ben)] == ["Ben", "Cat", "Ann"]
    cat = adding.resolve_rules("thirty-three", {}, players, first_dealer=2)
    assert adding.prose.round_lines(cat)[0] == (
        "Cat deals the first round; the deal passes to the next player still in."
    )
    seat_one = adding.resolve_rules("ninety-eight", {}, [*players, "Dan"])
    assert adding.prose.round_lines(seat_one)[0] == (
        "Seat 1 deals the first round; the deal passes to the left."
    )
