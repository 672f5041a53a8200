"""Changes to a session as a whole (services.manage): each one locked, recorded in the history,
refused when sent twice, and raising the version so that the kept result follows."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from scorekeeper import live
from scorekeeper.models import Change, ChangeAction, FormerSeat, GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.services import (
    AlreadyDone,
    Conflict,
    KeyReused,
    Rejected,
    Who,
    abandon_session,
    add_deal,
    create_adding_session,
    create_session,
    delete_for_good,
    delete_session,
    record_event,
    rematch,
    rename_seated_player,
    rename_session,
    reorder_seats,
    replace_player,
    restore_session,
    resume_session,
)
from tests.factories import finished_session, made_deal
from tests.stored import compute


def _fresh(session: GameSession) -> GameSession:
    return GameSession.objects.with_seats().get(pk=session.pk)


def _actions(session: GameSession) -> list[str]:
    return list(session.changes.order_by("id").values_list("action", flat=True))


def test_it_renames_the_session(game: GameSession, alice: User) -> None:
    saved = rename_session(session=game, title="Friday at Sam's", who=Who(alice, form_key="k1"))
    assert saved.session.title == "Friday at Sam's"
    game.refresh_from_db()
    assert (game.title, game.version) == ("Friday at Sam's", 2)
    change = game.changes.get()
    assert change.action == ChangeAction.TITLED
    assert (change.before, change.after) == ({"title": "Friday"}, {"title": "Friday at Sam's"})
    assert change.by_user == alice
    with pytest.raises(AlreadyDone):
        rename_session(session=game, title="Friday at Sam's", who=Who(alice, form_key="k1"))
    with pytest.raises(KeyReused):
        rename_session(session=game, title="Other", who=Who(alice, form_key="k1"))
    with pytest.raises(Rejected, match="already called"):
        rename_session(session=game, title="Friday at Sam's", who=Who(alice))
    assert game.changes.count() == 1


def test_a_players_name_is_corrected_everywhere(
    game: GameSession, alice: User, roster: list[Player]
) -> None:
    add_deal(session=game, number=1, entry=made_deal((4, 5, 0)), who=Who(alice))
    other = create_session(
        owner=alice,
        ruleset="four",
        options={},
        players=[
            roster[2],
            roster[0],
            roster[1],
            Player.objects.create(owner=alice, name="Dan"),
        ],
    )
    before = compute(game).totals["Cat"]
    old_version, other_version = _fresh(game).version, other.version
    rename_seated_player(session=game, position=2, name="Kat", who=Who(alice))
    roster[2].refresh_from_db()
    assert roster[2].name == "Kat"
    fresh = _fresh(game)
    assert fresh.version > old_version
    assert fresh.player_names() == ["Ann", "Ben", "Kat"]
    # The kept result is the one for the new name (keyed by the new version).
    kept = live.results.kept(fresh)
    assert kept is not None
    assert kept.totals["Kat"] == before
    assert compute(game).totals["Kat"] == before
    other.refresh_from_db()
    assert other.version > other_version
    change = fresh.changes.latest("id")
    assert change.action == ChangeAction.NAMED
    assert (change.before, change.after) == (
        {"seat": 3, "player": "Cat"},
        {"seat": 3, "player": "Kat"},
    )
    with pytest.raises(Rejected, match="already have a player called Ann"):
        rename_seated_player(session=game, position=2, name="Ann", who=Who(alice))
    with pytest.raises(Rejected, match="already called Kat"):
        rename_seated_player(session=game, position=2, name="Kat", who=Who(alice))
    with pytest.raises(Conflict, match="no seat 4"):
        rename_seated_player(session=game, position=3, name="Zed", who=Who(alice))


def test_seats_change_only_before_the_first_deal(
    game: GameSession, alice: User, roster: list[Player]
) -> None:
    ann, ben, cat = roster
    reorder_seats(session=game, players=[cat, ann, ben], who=Who(alice))
    fresh = _fresh(game)
    assert fresh.player_names() == ["Cat", "Ann", "Ben"]
    assert live.result(fresh).next.dealer == "Cat"
    change = fresh.changes.get()
    assert change.action == ChangeAction.SEATED
    assert change.before == {"seats": ["Ann", "Ben", "Cat"]}
    with pytest.raises(Rejected, match="already"):
        reorder_seats(session=game, players=[cat, ann, ben], who=Who(alice))
    with pytest.raises(Conflict):
        dan = Player.objects.create(owner=alice, name="Dan")
        reorder_seats(session=game, players=[dan, ann, ben], who=Who(alice))
    add_deal(
        session=game, number=1, entry=made_deal((4, 5, 0), ("Cat", "Ann", "Ben")), who=Who(alice)
    )
    with pytest.raises(Rejected, match="only before the first deal"):
        reorder_seats(session=game, players=[ann, ben, cat], who=Who(alice))
    assert _fresh(game).player_names() == ["Cat", "Ann", "Ben"]


def test_a_newcomer_takes_the_seat_and_its_score(
    game: GameSession, alice: User, roster: list[Player]
) -> None:
    add_deal(session=game, number=1, entry=made_deal((4, 5, 0)), who=Who(alice))
    add_deal(session=game, number=2, entry=made_deal((3, 3, 3)), who=Who(alice))
    cats = compute(game).totals["Cat"]
    statement = f"Dan takes Cat's seat and its {cats} points."
    replace_player(
        session=game, position=2, newcomer="Dan", played=2, statement=statement, who=Who(alice)
    )
    dan = Player.objects.get(owner=alice, name="Dan")
    fresh = _fresh(game)
    assert fresh.player_names() == ["Ann", "Ben", "Dan"]
    assert compute(game).totals["Dan"] == cats  # the seat's score went on with the seat
    former = FormerSeat.objects.get()
    assert (former.player, former.until, former.seat.position) == (roster[2], 2, 2)
    change = fresh.changes.latest("id")
    assert change.action == ChangeAction.REPLACED
    assert change.number == 2
    assert change.before == {"seat": 3, "player": "Cat"}
    assert change.after == {"seat": 3, "player": "Dan", "after": 2, "statement": statement}
    # Play goes on under the new name.
    add_deal(
        session=game, number=3, entry=made_deal((9, 0, 0), ("Ann", "Ben", "Dan")), who=Who(alice)
    )
    assert compute(game).deals[-1].hands[2].player == "Dan"
    # Cat comes back for Ben: she may sit again; Dan may not take a second seat.
    with pytest.raises(Rejected, match="Dan already sits at this table"):
        replace_player(
            session=game, position=1, newcomer=dan, played=3, statement="", who=Who(alice)
        )
    replace_player(
        session=game, position=1, newcomer=roster[2], played=3, statement="", who=Who(alice)
    )
    assert _fresh(game).player_names() == ["Ann", "Cat", "Dan"]
    seat = _fresh(game).seats.get(position=2)
    assert seat.holders() == [(roster[2].pk, range(1, 3)), (dan.pk, range(3, 2001))]


def test_a_replacement_confirmed_on_a_stale_page_changes_nothing(
    game: GameSession, alice: User
) -> None:
    add_deal(session=game, number=1, entry=made_deal((4, 5, 0)), who=Who(alice))
    with pytest.raises(Conflict, match="changed on another phone"):
        replace_player(
            session=game, position=2, newcomer="Dan", played=0, statement="", who=Who(alice)
        )
    assert not Player.objects.filter(name="Dan").exists()
    assert _fresh(game).player_names() == ["Ann", "Ben", "Cat"]


def test_a_new_name_already_on_the_roster_is_refused(game: GameSession, alice: User) -> None:
    with pytest.raises(Rejected, match="already have a player called ann"):
        replace_player(
            session=game, position=2, newcomer="ann", played=0, statement="", who=Who(alice)
        )


def test_before_the_first_deal_a_replacement_leaves_no_former_seat(
    game: GameSession, alice: User
) -> None:
    replace_player(session=game, position=0, newcomer="Dan", played=0, statement="", who=Who(alice))
    assert not FormerSeat.objects.exists()
    assert _fresh(game).player_names() == ["Dan", "Ben", "Cat"]


def test_abandon_and_resume(game: GameSession, alice: User) -> None:
    add_deal(session=game, number=1, entry=made_deal((4, 5, 0)), who=Who(alice))
    abandon_session(session=game, who=Who(alice))
    game.refresh_from_db()
    assert game.abandoned is not None
    assert game.status == "abandoned"
    assert not GameSession.objects.in_progress().exists()
    with pytest.raises(AlreadyDone):
        abandon_session(session=game, who=Who(alice))
    resume_session(session=game, who=Who(alice))
    game.refresh_from_db()
    assert game.abandoned is None
    with pytest.raises(AlreadyDone):
        resume_session(session=game, who=Who(alice))
    assert _actions(game)[-2:] == [ChangeAction.ABANDONED, ChangeAction.RESUMED]
    assert game.changes.get(action=ChangeAction.ABANDONED).after == {"played": 1}


def test_a_deal_entered_into_an_abandoned_session_resumes_it(
    game: GameSession, alice: User
) -> None:
    abandon_session(session=game, who=Who(alice))
    add_deal(session=game, number=1, entry=made_deal((4, 5, 0)), who=Who(alice, form_key="d1"))
    game.refresh_from_db()
    assert game.abandoned is None
    assert _actions(game) == [ChangeAction.ABANDONED, ChangeAction.RESUMED, ChangeAction.ADDED]
    # Sending the deal again is still recognised by its key.
    with pytest.raises(AlreadyDone):
        add_deal(session=game, number=1, entry=made_deal((4, 5, 0)), who=Who(alice, form_key="d1"))


def test_a_finished_session_cannot_be_abandoned(alice: User, roster: list[Player]) -> None:
    game = finished_session(alice, roster)
    with pytest.raises(Rejected, match="finished"):
        abandon_session(session=game, who=Who(alice))


def test_delete_restore_and_delete_for_good(game: GameSession, alice: User) -> None:
    with pytest.raises(Conflict):
        delete_for_good(session=game)
    delete_session(session=game, who=Who(alice))
    assert not GameSession.objects.for_user(alice).exists()
    assert list(GameSession.objects.deleted_for_user(alice)) == [game]
    with pytest.raises(AlreadyDone):
        delete_session(session=game, who=Who(alice))
    restore_session(session=game, who=Who(alice))
    assert list(GameSession.objects.for_user(alice)) == [game]
    assert _actions(game) == [ChangeAction.REMOVED, ChangeAction.RESTORED]
    delete_session(session=game, who=Who(alice))
    delete_for_good(session=game)
    assert not GameSession.objects.filter(pk=game.pk).exists()
    assert not Change.objects.exists()
    assert Player.objects.filter(owner=alice).count() == 3  # the players stay


def test_a_rematch_moves_the_deal_on(alice: User, roster: list[Player]) -> None:
    options = {"match": {"type": "deals", "deals": 1}, "trump": "turn-up"}
    game = create_session(
        owner=alice, ruleset="custom", options=options, players=roster, title="Friday"
    )
    with pytest.raises(Rejected, match="still being played"):
        rematch(session=game, who=Who(alice))
    entry = trick.DealEntry(hands=made_deal((4, 5, 0)).hands, trump="hearts")
    add_deal(session=game, number=1, entry=entry, who=Who(alice))
    assert compute(game).deals[0].dealer == "Ann"
    new = rematch(session=game, who=Who(alice, form_key="r1"))
    fresh = _fresh(new)
    assert fresh.player_names() == ["Ann", "Ben", "Cat"]  # the seats as the table sits
    assert fresh.first_dealer == 1
    assert live.result(fresh).next.dealer == "Ben"
    assert (fresh.family, fresh.ruleset, fresh.options, fresh.title) == (
        "trick",
        "custom",
        game.options,
        "Friday",
    )
    assert fresh.rematch_of == game
    assert not fresh.entries()
    change = game.changes.latest("id")
    assert change.action == ChangeAction.REMATCH
    assert change.after == {
        "session": new.public_id,
        "seats": ["Ann", "Ben", "Cat"],
        "dealer": "Ben",
    }
    # The same tap again answers the same rematch; a new tap makes another.
    assert rematch(session=game, who=Who(alice, form_key="r1")) == new
    assert GameSession.objects.filter(rematch_of=game).count() == 1
    assert rematch(session=game, who=Who(alice, form_key="r2")) != new


def test_an_abandoned_adding_game_can_be_played_again(alice: User, roster: list[Player]) -> None:
    game = create_adding_session(owner=alice, ruleset="thirty-three", options={}, players=roster)
    record_event(
        session=game, state="0.0", event=adding.Event(player="Ann", event="bust"), who=Who(alice)
    )
    abandon_session(session=game, who=Who(alice))
    new = _fresh(rematch(session=game, who=Who(alice)))
    assert new.family == "adding"
    assert new.player_names() == ["Ann", "Ben", "Cat"]
    assert live.result(new).next.dealer == "Ben"


def test_a_name_the_game_reserves_is_refused(alice: User, roster: list[Player]) -> None:
    game = create_session(owner=alice, ruleset="two-dummy", options={}, players=roster[:2])
    with pytest.raises(Rejected, match="reserved in this game"):
        rename_seated_player(session=game, position=0, name="Dummy", who=Who(alice))
    with pytest.raises(Rejected, match="reserved in this game"):
        replace_player(
            session=game, position=1, newcomer="dummy", played=0, statement="", who=Who(alice)
        )
    roster[0].refresh_from_db()
    assert roster[0].name == "Ann"
    assert not Player.objects.filter(name__iexact="dummy").exists()
    assert _fresh(game).player_names() == ["Ann", "Ben"]
    assert not game.changes.exists()
