"""A player's record, checked against sessions worked out by hand."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Player
from scorekeeper.presenters.records import player_record
from scorekeeper.rules import adding, trick
from scorekeeper.services import (
    Who,
    abandon_session,
    add_deal,
    create_adding_session,
    create_session,
    record_event,
)


@pytest.fixture
def players(alice: User) -> dict[str, Player]:
    return {name: Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]}


@pytest.fixture
def sessions(alice: User, players: dict[str, Player]) -> None:
    seated = list(players.values())
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=seated)
    first = trick.DealEntry(
        hands={
            "Ann": trick.HandEntry(tricks=4, bid=4, premium="reveal"),  # 4 + 20 + 60 = 84
            "Ben": trick.HandEntry(tricks=5, made=False),  # 5
            "Cat": trick.HandEntry(tricks=0, bid_cards=("diamonds",) * 3),  # 0 + 20 = 20
        }
    )
    second = trick.DealEntry(hands={n: trick.HandEntry(tricks=3, made=True) for n in players})
    add_deal(session=game, number=1, entry=first, who=Who(alice))
    add_deal(session=game, number=2, entry=second, who=Who(alice))  # 3 + 10 each
    quick = create_adding_session(owner=alice, ruleset="sudden-death", options={}, players=seated)
    for state, who in [("0.0", "Ann"), ("1.1", "Ben")]:
        event = adding.Event(player=who, event="bust")
        record_event(session=quick, state=state, event=event, who=Who(alice))


def test_ann(players: dict[str, Player], sessions: None) -> None:
    record = player_record(players["Ann"])
    assert (record.sessions, record.finished, record.won) == (2, 1, 0)
    assert (record.deals, record.points, record.made) == (2, 97, 2)
    assert record.points_per_deal == 48.5
    assert record.success_rate == 1.0
    assert record.common_bids == [(3, 1), (4, 1)]
    assert (record.premiums_tried, record.premiums_made) == (1, 1)
    assert (record.rounds, record.tokens_lost, record.eliminated) == (1, 1, 1)
    # Head to head counts the sessions that ended: the trick game is still being played.
    rivals = {r.opponent: (r.sessions, r.ahead, r.behind, r.level) for r in record.rivals()}
    assert rivals == {"Ben": (1, 0, 1, 0), "Cat": (1, 0, 1, 0)}


def test_ben_and_cat(players: dict[str, Player], sessions: None) -> None:
    ben = player_record(players["Ben"])
    assert (ben.deals, ben.points, ben.made, ben.success_rate) == (2, 18, 1, 0.5)
    assert ben.common_bids == [(3, 1)]  # the failed bid of deal 1 stayed hidden
    assert (ben.rounds, ben.tokens_lost, ben.eliminated) == (2, 1, 1)
    cat = player_record(players["Cat"])
    assert (cat.won, cat.points, cat.common_bids) == (1, 33, [(0, 1), (3, 1)])
    assert (cat.rounds, cat.tokens_lost, cat.eliminated, cat.tokens_per_round) == (2, 0, 0, 0)
    assert {r.opponent: r.ahead for r in cat.rivals()} == {"Ann": 1, "Ben": 1}


def test_head_to_head_counts_only_the_sessions_that_ended(
    alice: User, players: dict[str, Player], sessions: None
) -> None:
    seated = list(players.values())
    # Neither an empty session nor one stopped before its first deal says who was ahead.
    create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=seated)
    stopped = create_session(owner=alice, ruleset="declared", options={}, players=seated)
    abandon_session(session=stopped, who=Who(alice))
    # A session stopped after a deal ended where it stood: Cat 9 + 30 is above Ann and Ben.
    ended = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=seated)
    deal = trick.DealEntry(
        hands={
            "Ann": trick.HandEntry(tricks=0, made=False),
            "Ben": trick.HandEntry(tricks=0, made=False),
            "Cat": trick.HandEntry(tricks=9, bid=9),
        }
    )
    add_deal(session=ended, number=1, entry=deal, who=Who(alice))
    abandon_session(session=ended, who=Who(alice))
    record = player_record(players["Ann"])
    assert record.sessions == 5
    rivals = {r.opponent: (r.sessions, r.ahead, r.behind, r.level) for r in record.rivals()}
    assert rivals == {"Ben": (2, 0, 1, 1), "Cat": (2, 0, 2, 0)}


def test_a_player_without_sessions(alice: User) -> None:
    record = player_record(Player.objects.create(owner=alice, name="New"))
    assert record.sessions == 0
    assert record.points_per_deal is None and record.tokens_per_round is None


def test_the_player_page_shows_the_record(
    alice_client: Client, players: dict[str, Player], sessions: None
) -> None:
    page = alice_client.get(f"/players/{players['Ann'].pk}/").text
    assert "<dt>Points a deal</dt><dd>48.5</dd>" in page
    assert "<dt>Made the bid</dt><dd>100% (2 of 2)</dd>" in page
    assert "<dt>Premiums made</dt><dd>1 of 1 tried</dd>" in page
    assert "<dt>Knocked out</dt><dd>1 time</dd>" in page
    assert '<th scope="row">Ben</th><td class="text-end">1</td>' in page
    assert (
        "Sessions that ended with both at the table: finished, or stopped after at least one "
        "deal or round. Sessions still being played are not counted."
    ) in page
