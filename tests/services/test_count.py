"""The count assistant's writes (services.count): kept with the session, refused on a stale
version, each raising the version; a proposal recorded exactly as the event button records
it (same service, history and idempotency), a dismissed one recording nothing; events
recorded by hand move the count on."""

from __future__ import annotations

import pytest

from scorekeeper import live
from scorekeeper.models import Change, GameSession, RoundEvent
from scorekeeper.rules import adding, bounds
from scorekeeper.scoresheet import event_data
from scorekeeper.services import (
    AlreadyDone,
    Conflict,
    Rejected,
    Who,
    record_event,
)
from scorekeeper.services import count as counting


@pytest.fixture
def game(adding_game: GameSession) -> GameSession:
    """The table here plays the adding game (tests/conftest.py)."""
    return adding_game


def fresh(session: GameSession) -> GameSession:
    return GameSession.objects.with_seats().get(pk=session.pk)


def tap(session: GameSession, *cards: str) -> GameSession:
    for card in cards:
        card, _, choice = card.partition("|")
        session, _ = counting.play_card(
            session=session,
            version=session.version,
            card=card,
            choice=int(choice) if choice else None,
        )
    return fresh(session)


def test_a_new_session_counts_from_0_left_of_the_dealer(game: GameSession) -> None:
    now = counting.pile(game)
    assert now.count is not None
    assert (now.count.total, now.count.turn, now.proposals) == (0, "Ben", ())
    assert game.counter is None  # nothing stored until a card is tapped


def test_cards_are_kept_with_the_session_and_raise_the_version(game: GameSession) -> None:
    version = game.version
    game = tap(game, "K", "A|11", "10|-10")
    assert game.version == version + 3
    count = counting.pile(game).count
    assert count is not None and count.total == 11
    assert [play.player for play in count.plays] == ["Ben", "Cat", "Ann"]
    assert adding.Count.from_data(game.counter["count"]) == count
    game = fresh(counting.undo_card(session=game, version=game.version))
    count = counting.pile(game).count
    assert count is not None and count.total == 21


def test_a_stale_version_is_refused_and_counts_nothing(game: GameSession) -> None:
    version = game.version
    counting.play_card(session=game, version=version, card="K")
    with pytest.raises(Conflict, match="changed on another phone"):
        counting.play_card(session=game, version=version, card="K")
    with pytest.raises(Conflict):
        counting.undo_card(session=game, version=version)
    count = counting.pile(fresh(game)).count
    assert count is not None and count.total == 10


@pytest.mark.parametrize(
    ("card", "choice", "message"),
    [
        ("Z", None, 'no card "Z"'),
        ("A", 5, "Count the A as 1 or 11."),
        ("A", None, "Count the A as 1 or 11."),
        ("K", 1, "The K takes no choice here."),
    ],
)
def test_a_wrong_card_or_choice_is_rejected(
    game: GameSession, card: str, choice: int | None, message: str
) -> None:
    with pytest.raises(Rejected, match=message):
        counting.play_card(session=game, version=game.version, card=card, choice=choice)
    assert fresh(game).counter is None


def test_undo_with_no_card_is_rejected(game: GameSession) -> None:
    with pytest.raises(Rejected, match="No card has been played"):
        counting.undo_card(session=game, version=game.version)


def test_a_confirmed_proposal_is_the_event_button_s_change(game: GameSession) -> None:
    game = tap(game, "K", "K", "K", "3")
    now = counting.pile(game)
    assert [proposal.event for proposal in now.proposals] == [adding.Event("Ben", "hit", 33)]
    proposal, saved = counting.confirm(
        session=game,
        version=game.version,
        state=adding.table_state(game.entries()),
        index=0,
        who=Who(game.owner, form_key="k1"),
    )
    change = Change.objects.get(form_key="k1")
    assert change.after == event_data(proposal.event)
    assert change.number == 1 and change.by_user == game.owner
    assert saved.session.version == game.version + 1
    game = fresh(game)
    assert counting.pile(game).proposals == ()
    # The same form sent again is already done, as a tap sent again.
    with pytest.raises(AlreadyDone):
        counting.confirm(
            session=game,
            version=game.version,
            state=adding.table_state(game.entries()),
            index=0,
            who=Who(game.owner, form_key="k1"),
        )
    assert RoundEvent.objects.count() == 1


def test_a_proposal_on_a_stale_table_is_refused_by_the_event_service(game: GameSession) -> None:
    game = tap(game, "K", "K", "K", "3")
    with pytest.raises(Conflict, match="table changed"):
        counting.confirm(
            session=game,
            version=game.version,
            state="stale",
            index=0,
            who=Who(game.owner),
        )
    assert RoundEvent.objects.count() == 0
    assert len(counting.pile(fresh(game)).proposals) == 1  # still offered


def test_a_dismissed_proposal_records_nothing(game: GameSession) -> None:
    game = tap(game, "K", "K", "K", "3")
    version = game.version
    game = fresh(counting.dismiss(session=game, version=version, index=0))
    assert counting.pile(game).proposals == ()
    assert RoundEvent.objects.count() == 0 and game.version == version + 1
    with pytest.raises(Conflict):
        counting.dismiss(session=game, version=game.version, index=0)


def test_the_double_crossing_then_the_next_round_at_0_with_the_next_dealer(
    game: GameSession,
) -> None:
    game = tap(game, "K", "K", "K", "K", "K", "3", "2")  # 53, then the 2 doubles it
    now = counting.pile(game)
    assert now.refused == "The 2 would make 106, over 99: it is not counted."
    assert [proposal.event for proposal in now.proposals] == [
        adding.Event("Ben", "cross", 66),
        adding.Event("Ben", "bust"),
    ]
    for _ in range(2):
        counting.confirm(
            session=game,
            version=game.version,
            state=adding.table_state(game.entries()),
            index=0,
            who=Who(game.owner),
        )
        game = fresh(game)
    now = counting.pile(game)
    assert now.count is not None and now.proposals == () and now.refused is None
    assert (now.count.round, now.count.dealer, now.count.total) == (2, "Ben", 0)
    assert now.count.turn == "Cat"


def test_an_event_recorded_by_hand_moves_the_count_on(game: GameSession) -> None:
    game = tap(game, "K", "5")
    saved = record_event(
        session=game,
        state=adding.table_state(game.entries()),
        event=adding.Event("Cat", "bust"),
        who=Who(game.owner),
    )
    now = counting.pile(fresh(saved.session))
    assert now.count is not None and (now.count.round, now.count.total) == (2, 0)


def test_a_count_that_no_longer_fits_the_seats_starts_again(game: GameSession) -> None:
    game = tap(game, "K")
    game.counter = {**game.counter, "count": {**game.counter["count"], "seats": ["X", "Y"]}}
    game.save()
    now = counting.pile(fresh(game))
    assert now.count is not None and now.count.total == 0
    game.counter = {"count": "nonsense"}
    game.save()
    assert counting.pile(fresh(game)).count == adding.new_count(game.rules(), live.result(game))


def test_a_count_at_the_bound_takes_no_card_and_one_past_it_starts_again(
    game: GameSession,
) -> None:
    """A count at MAX_CARDS refuses the next card; a stored count holding more cards than a
    round may is read as no count at all, so no page draws it: the round counts from 0."""
    game = tap(game, "K")
    plays = game.counter["count"]["plays"]
    game.counter["count"]["plays"] = plays * bounds.MAX_CARDS
    game.save()
    now = counting.pile(fresh(game))
    assert now.count is not None and len(now.count.plays) == bounds.MAX_CARDS
    with pytest.raises(Rejected, match="at most 500 cards in a round"):
        tap(fresh(game), "K")
    game.counter["count"]["plays"] = plays * (bounds.MAX_CARDS + 1)
    game.save()
    assert counting.pile(fresh(game)).count == adding.new_count(game.rules(), live.result(game))
