"""The lookups compiled once (scorekeeper/prepared.py): the same sessions, seats and players as
the querysets they are compiled from, in fewer queries."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone

from scorekeeper.models import (
    GameSession,
    Player,
    locked_session,
    owned_session,
    session_by_link,
)
from scorekeeper.prepared import Prepared
from scorekeeper.services import create_session, delete_last_deal
from tests.factories import play


@pytest.fixture
def game(alice: User, roster: list[Player]) -> GameSession:
    made = create_session(
        owner=alice,
        ruleset="parlett-jokerless",
        options={"match": {"type": "deals", "deals": 12}},
        players=[roster[2], roster[0], roster[1]],
        title="Friday at Sam's",
    )
    made.watch_token, made.scorer_token = "w" * 30, "s" * 30
    made.played_on = datetime.date(2026, 11, 20)
    made.save(update_fields=["watch_token", "scorer_token", "played_on"])
    return made


def _fields(row: models.Model) -> dict[str, object]:
    return {field.attname: getattr(row, field.attname) for field in row._meta.fields}


def test_a_link_opens_the_session_as_the_orm_reads_it_with_its_seats(
    game: GameSession, django_assert_num_queries: object
) -> None:
    orm = GameSession.objects.with_seats().get(pk=game.pk)
    for column in ("watch_token", "scorer_token"):
        # The session, then its seats with their players.
        with django_assert_num_queries(2):  # type: ignore[operator]
            found = session_by_link(column, getattr(game, column))
        assert found is not None
        assert _fields(found) == _fields(orm)
        # Read with the fields' own converters: the options a dict, the day a date.
        assert found.options == {"match": {"type": "deals", "deals": 12}}
        assert found.played_on == datetime.date(2026, 11, 20)
        with django_assert_num_queries(0):  # type: ignore[operator]
            assert found.player_names() == ["Cat", "Ann", "Ben"]
            assert [seat.position for seat in found.seats.all()] == [0, 1, 2]
            seats, read = list(orm.seats.all()), list(found.seats.all())
            assert [_fields(seat) for seat in read] == [_fields(seat) for seat in seats]
            assert [_fields(seat.player) for seat in read] == [_fields(s.player) for s in seats]
            assert all(seat.session is found for seat in read)
            assert found.rules().players == orm.rules().players


def test_a_link_to_no_session_or_a_deleted_one_opens_nothing(game: GameSession) -> None:
    assert session_by_link("watch_token", "x" * 30) is None
    assert session_by_link("scorer_token", game.watch_token or "") is None
    game.deleted = timezone.now()
    game.save(update_fields=["deleted"])
    assert session_by_link("watch_token", game.watch_token or "") is None


def test_an_owner_finds_their_own_session_only(game: GameSession, alice: User, bob: User) -> None:
    found = owned_session(alice.pk, game.public_id)
    assert (
        found is not None and found.pk == game.pk and found.player_names() == ["Cat", "Ann", "Ben"]
    )
    assert owned_session(bob.pk, game.public_id) is None
    assert owned_session(alice.pk, "nosuchsession") is None


def test_the_locked_session_keeps_what_was_worked_out_at_the_same_version(
    game: GameSession, alice: User, django_assert_num_queries: object
) -> None:
    play(game, alice, (4, 3, 2))
    read = session_by_link("watch_token", game.watch_token or "")
    assert read is not None
    entries = read.entries()
    with transaction.atomic():
        with django_assert_num_queries(1):  # type: ignore[operator]  # the row; seats copied
            locked = locked_session(read)
        assert locked.entries() is entries
        # Its seats and players are its own: a refused rename leaves the page's as they were.
        assert locked.seats.all()[0].player is not read.seats.all()[0].player
        copied, seats = list(locked.seats.all()), list(read.seats.all())
        assert [_fields(seat) for seat in copied] == [_fields(seat) for seat in seats]
        assert [_fields(seat.player) for seat in copied] == [_fields(s.player) for s in seats]
        assert all(seat.session is locked for seat in copied)
        locked.seats.all()[0].player.name = "Renamed, then refused"
        assert read.player_names() == ["Cat", "Ann", "Ben"]
    GameSession.objects.filter(pk=game.pk).update(version=read.version + 5)
    with transaction.atomic():
        again = locked_session(read)
    assert again.version == read.version + 5 and again.entries() is not entries
    assert again.entries() == entries


def test_a_session_read_without_its_players_has_them_read_under_the_lock(
    game: GameSession, django_assert_num_queries: object
) -> None:
    read = GameSession.objects.prefetch_related("seats").get(pk=game.pk)
    assert len(read.seats.all()) == 3  # the seats, but not their players
    with transaction.atomic():
        with django_assert_num_queries(2):  # type: ignore[operator]  # the row; seats, players
            locked = locked_session(read)
        assert locked.player_names() == ["Cat", "Ann", "Ben"]


def test_a_session_read_without_its_seats_keeps_its_entries_under_the_lock(
    game: GameSession, alice: User, django_assert_num_queries: object
) -> None:
    play(game, alice, (4, 3, 2))
    read = GameSession.objects.get(pk=game.pk)  # no seats held
    entries = read.entries()
    with transaction.atomic():
        with django_assert_num_queries(2):  # type: ignore[operator]  # the row; seats, players
            locked = locked_session(read)
        assert locked.entries() is entries  # the same version: the deals not read again
        assert locked.player_names() == ["Cat", "Ann", "Ben"]


def test_a_session_a_phone_may_score_knows_whether_its_last_change_was_an_undo(
    game: GameSession, alice: User, django_assert_num_queries: object
) -> None:
    """The scorer link's and the owner's reads bring the latest change's action: the page's
    question "was it an undo?" costs no query unless it was one."""

    def scorers() -> list[GameSession]:
        by_link = session_by_link("scorer_token", game.scorer_token or "")
        owned = owned_session(alice.pk, game.public_id)
        assert by_link is not None and owned is not None
        return [by_link, owned]

    for session in scorers():  # no change yet
        with django_assert_num_queries(0):  # type: ignore[operator]
            assert session.last_undo() is None
    play(game, alice, (4, 3, 2), (3, 3, 3))
    for session in scorers():
        with django_assert_num_queries(0):  # type: ignore[operator]
            assert session.last_undo() is None
    earlier = scorers()
    delete_last_deal(session=earlier[0], number=2, by_user=alice)
    for session in earlier:  # read before the undo, then read again
        session.refresh_from_db()
        assert session.last_undo() is not None
    for session in scorers():
        with django_assert_num_queries(1):  # type: ignore[operator]
            undo = session.last_undo()
        assert undo is not None and undo.number == 2 and undo.action == "deleted"
    # A session read without it (the watch link's, a locked one) asks the history.
    watched = session_by_link("watch_token", game.watch_token or "")
    assert watched is not None
    with django_assert_num_queries(1):  # type: ignore[operator]
        assert watched.last_undo() is not None


def test_arguments_go_where_the_queryset_puts_them(game: GameSession, alice: User) -> None:
    # Given in the other order than the SQL's parameters.
    both = Prepared(
        lambda public_id, owner: GameSession.objects.filter(owner_id=owner, public_id=public_id)
    )
    assert [found.pk for found in both.rows(game.public_id, alice.pk)] == [game.pk]
    assert both.rows(game.public_id, alice.pk + 1) == []
    assert both.first("nosuchsession", alice.pk) is None


def test_an_argument_the_sql_does_not_take_as_one_parameter_is_refused(game: GameSession) -> None:
    twice = Prepared(lambda token: GameSession.objects.filter(watch_token=token, title=token))
    with pytest.raises(ValueError, match="one parameter"):
        twice.rows("x")
