"""The "Manage session" pages, a rematch, the deleted sessions and the home page's "Continue":
each page for its owner only, each form's problems next to its field with what was typed kept,
and each change in the session's history."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from scorekeeper.models import ChangeAction, GameSession, Player
from scorekeeper.presenters.records import player_record
from scorekeeper.rules import adding
from scorekeeper.services import (
    Who,
    abandon_session,
    create_adding_session,
    create_session,
    delete_session,
    record_event,
)
from tests.factories import finished_session, play
from tests.pages import without_tokens
from tests.stored import compute


@pytest.fixture
def done(alice: User, roster: list[Player]) -> GameSession:
    """A finished session: one deal played."""
    return finished_session(alice, roster, title="Done")


def _url(game: GameSession, suffix: str = "manage/") -> str:
    return f"/sessions/{game.public_id}/{suffix}"


def _next_to(page: str, field_id: str, message: str) -> None:
    """The message is shown in the field's own block (crispy's div_id_<field>)."""
    start = page.index(f'id="div_id_{field_id}"')
    end = page.find('id="div_id_', start + 1)
    block = page[start : end if end != -1 else None]
    assert escape(message) in block, block
    assert "is-invalid" in block


def _value_of(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert found, name
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def _history(client: Client, game: GameSession) -> str:
    return client.get(_url(game, "history/")).text


# Reaching the page


def test_the_table_page_leads_the_owner_to_manage_the_session(
    alice_client: Client, game: GameSession
) -> None:
    page = alice_client.get(_url(game, "")).text
    assert f'href="{_url(game)}"' in page
    assert "Manage session" in page
    response = alice_client.get(_url(game))
    assert response.status_code == 200
    assert "<h1" in response.text and "Manage session" in response.text


def test_scorer_and_watch_links_cannot_reach_it(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    alice_client.post(_url(game, "share/"), {"watch": "on", "scorer": "on"})
    game.refresh_from_db()
    client.logout()
    client.post(f"/s/{game.scorer_token}/name/", {"name": "Sam"})
    scorer = client.get(f"/s/{game.scorer_token}/").text
    watch = client.get(f"/w/{game.watch_token}/").text
    for page in (scorer, watch):
        assert "/manage/" not in page and "/rematch/" not in page
        assert "Manage session" not in page
    for token in (game.scorer_token, game.watch_token):
        for suffix in ("manage/", "manage/seats/1/", "manage/delete/", "rematch/"):
            for prefix in ("s", "w"):
                assert client.get(f"/{prefix}/{token}/{suffix}").status_code == 404
                assert client.post(f"/{prefix}/{token}/{suffix}").status_code == 404
    # Logged out, the owner's URLs ask for a log-in and change nothing.
    response = client.post(_url(game), {"abandon": ""})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    game.refresh_from_db()
    assert game.abandoned is None


def test_another_user_gets_404_everywhere(
    bob_client: Client, alice: User, game: GameSession
) -> None:
    play(game, alice, (4, 5, 0))
    gone = create_session(
        owner=alice,
        ruleset="parlett-jokerless",
        options={},
        players=list(Player.objects.filter(owner=alice)),
        title="Gone",
    )
    delete_session(session=gone, who=Who(alice))
    urls = [
        _url(game),
        _url(game, "manage/seats/1/"),
        _url(game, "manage/delete/"),
        _url(game, "rematch/"),
        f"/sessions/deleted/{gone.public_id}/",
    ]
    posts = [
        {"rename": "", "title": "Mine"},
        {"fix_name": "1", "seat1-name": "Mallory"},
        {"abandon": ""},
        {"delete": ""},
        {"confirm": "", "new_name": "Mallory", "played": "1"},
        {"restore": ""},
        {"delete_for_good": ""},
    ]
    for url in urls:
        response = bob_client.get(url)
        assert response.status_code in (404, 405), url
        shown = without_tokens(response.text)
        assert "Friday" not in shown and "Ann" not in shown
        for data in posts:
            assert bob_client.post(url, data).status_code == 404, (url, data)
    page = bob_client.get("/sessions/deleted/").text
    assert "Gone" not in page
    assert "Friday" not in bob_client.get("/").text
    game.refresh_from_db()
    assert (game.title, game.abandoned, game.deleted) == ("Friday", None, None)
    assert GameSession.objects.filter(pk=gone.pk, deleted__isnull=False).exists()
    assert not Player.objects.filter(name="Mallory").exists()


# The session's name


def test_it_renames_the_session(alice_client: Client, game: GameSession) -> None:
    response = alice_client.post(_url(game), {"rename": "", "title": "  Friday at Sam's "})
    assert response.status_code == 302
    assert response["Location"] == _url(game)
    game.refresh_from_db()
    assert game.title == "Friday at Sam's"
    assert game.version == 2
    page = alice_client.get(_url(game)).text
    assert escape("The session is now called “Friday at Sam's”.") in page
    history = _history(alice_client, game)
    assert "Renamed the session" in history
    assert "Name: Friday" in history and escape("Name: Friday at Sam's") in history
    # Empty: called by its rules and day again.
    alice_client.post(_url(game), {"rename": "", "title": ""})
    game.refresh_from_db()
    assert game.title == ""
    assert "No name" in _history(alice_client, game)


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("x" * 101, "A name can be at most 100 characters long."),
        ("Tab\there", "A name cannot hold control characters"),
        ("Friday", "The session is already called “Friday”."),
    ],
)
def test_a_bad_name_is_refused_and_kept(
    alice_client: Client, game: GameSession, title: str, message: str
) -> None:
    response = alice_client.post(_url(game), {"rename": "", "title": title})
    assert response.status_code == 200
    _next_to(response.text, "title", message)
    if "\t" not in title:
        assert _value_of(response.text, "title") == escape(title)
    game.refresh_from_db()
    assert (game.title, game.version) == ("Friday", 1)
    assert not game.changes.exists()


# A player's name


def test_it_corrects_a_players_name(
    alice_client: Client, alice: User, game: GameSession, roster: list[Player]
) -> None:
    play(game, alice, (4, 5, 0))
    cats = compute(game).totals["Cat"]
    response = alice_client.post(_url(game), {"fix_name": "3", "seat3-name": " Kat "})
    assert response.status_code == 302
    roster[2].refresh_from_db()
    assert roster[2].name == "Kat"
    table = alice_client.get(_url(game, "")).text
    assert "Kat" in table
    assert "Cat is now called Kat, here and in every session." in table
    assert compute(game).totals["Kat"] == cats
    history = _history(alice_client, game)
    assert escape("Corrected a player's name") in history
    assert "Seat 3: Cat" in history and "Seat 3: Kat" in history


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Type the player's name."),
        ("   ", "Type the player's name."),
        ("x" * 41, "A name can be at most 40 characters."),
        ("ann", "You already have a player called Ann."),
        ("Cat", "That is already the name in seat 3."),
    ],
)
def test_a_bad_player_name_is_refused_next_to_its_seat(
    alice_client: Client, game: GameSession, roster: list[Player], name: str, message: str
) -> None:
    response = alice_client.post(_url(game), {"fix_name": "3", "seat3-name": name})
    assert response.status_code == 200
    _next_to(response.text, "seat3-name", message)
    if name.strip():
        assert _value_of(response.text, "seat3-name") == name
    assert _value_of(response.text, "seat1-name") == "Ann"  # the other seats as they are
    roster[2].refresh_from_db()
    assert roster[2].name == "Cat"
    assert not game.changes.exists()


def test_a_seat_that_does_not_exist_is_404(alice_client: Client, game: GameSession) -> None:
    for seat in ("4", "0", "x"):
        response = alice_client.post(_url(game), {"fix_name": seat, f"seat{seat}-name": "Zed"})
        assert response.status_code == 404
    assert alice_client.get(_url(game, "manage/seats/4/")).status_code == 404


# The seat order


def test_it_changes_the_seat_order_before_the_first_deal(
    alice_client: Client, alice: User, game: GameSession, roster: list[Player]
) -> None:
    ann, ben, cat = roster
    page = alice_client.get(_url(game)).text
    assert "Seat 1 (deals first)" in page
    order = {"reseat": "", "seat_0": cat.pk, "seat_1": ann.pk, "seat_2": ben.pk}
    response = alice_client.post(_url(game), order)
    assert response.status_code == 302
    fresh = GameSession.objects.with_seats().get(pk=game.pk)
    assert fresh.player_names() == ["Cat", "Ann", "Ben"]
    table = alice_client.get(_url(game, "")).text
    assert "New seats: Cat, Ann, Ben. Cat deals first." in table
    assert "Changed the seats" in _history(alice_client, game)
    # Once a deal is entered the seats are fixed: no form, and a form sent anyway is refused.
    play(game, alice, (4, 5, 0))
    page = alice_client.get(_url(game)).text
    assert 'name="reseat"' not in page
    assert "The seats are fixed" in page
    response = alice_client.post(_url(game), {**order, "seat_0": ann.pk, "seat_1": cat.pk})
    assert response.status_code == 200
    assert "The seats can change only before the first deal is entered." in response.text
    assert GameSession.objects.with_seats().get(pk=game.pk).player_names() == ["Cat", "Ann", "Ben"]


def test_a_seat_order_with_a_player_twice_is_refused(
    alice_client: Client, game: GameSession, roster: list[Player]
) -> None:
    ann, ben, cat = roster
    data = {"reseat": "", "seat_0": ben.pk, "seat_1": ben.pk, "seat_2": ""}
    response = alice_client.post(_url(game), data)
    assert response.status_code == 200
    _next_to(response.text, "seat_1", "Ben already has a seat.")
    _next_to(response.text, "seat_2", "Choose who sits in seat 3.")
    assert f'<option value="{ben.pk}" selected>' in response.text.split('name="seat_1"')[1]
    stranger = Player.objects.create(owner=ann.owner, name="Zed")
    response = alice_client.post(_url(game), {**data, "seat_1": stranger.pk})
    _next_to(response.text, "seat_1", "Choose one of the players at this table.")
    assert GameSession.objects.with_seats().get(pk=game.pk).player_names() == ["Ann", "Ben", "Cat"]


# Replacing a player who leaves


def test_a_newcomer_takes_a_seat_after_being_told_what_it_means(
    alice_client: Client, alice: User, game: GameSession, roster: list[Player]
) -> None:
    play(game, alice, (4, 5, 0), (3, 3, 3))
    cats = compute(game).totals["Cat"]
    url = _url(game, "manage/seats/3/")
    page = alice_client.get(url).text
    assert "Cat leaves" in page
    assert 'name="player"' in page and 'name="new_name"' in page
    # Step 1: choose; nothing changes yet, the page says what it will mean.
    response = alice_client.post(url, {"check": "", "new_name": "Dan"})
    assert response.status_code == 200
    page = response.text
    statement = f"Dan takes Cat's seat (seat 3) and its score: {cats} points."
    assert escape(statement) in page
    assert "Deals 1–2 stay listed under seat 3" in page
    assert "deals 1–2 count for Cat" in page
    assert "Dan is added to your players." in page
    assert 'name="confirm"' in page and _value_of(page, "played") == "2"
    assert not Player.objects.filter(name="Dan").exists()
    # Step 2: confirm.
    response = alice_client.post(
        url,
        {"confirm": "", "new_name": "Dan", "played": "2", "form_key": _value_of(page, "form_key")},
    )
    assert response.status_code == 302
    assert response["Location"] == _url(game, "")
    dan = Player.objects.get(owner=alice, name="Dan")
    fresh = GameSession.objects.with_seats().get(pk=game.pk)
    assert fresh.player_names() == ["Ann", "Ben", "Dan"]
    assert compute(game).totals["Dan"] == cats
    table = alice_client.get(_url(game, "")).text
    assert escape(statement) in table
    history = _history(alice_client, game)
    assert escape("Dan took Cat's seat") in history
    assert "Seat 3: Dan, after deal 2" in history and escape(statement) in history
    manage = alice_client.get(_url(game)).text
    assert "Before: Cat played deals 1–2." in manage
    # Play on: the records split the seat's deals between the two.
    play(game, alice, (9, 0, 0))
    cat_record, dan_record = player_record(roster[2]), player_record(dan)
    assert (cat_record.sessions, cat_record.deals, cat_record.finished) == (1, 2, 0)
    assert (dan_record.sessions, dan_record.deals) == (1, 1)
    assert "Cat" not in [rival.opponent for rival in player_record(roster[0]).rivals()]
    # Review: searching for Cat still finds the session.
    found = alice_client.get("/sessions/", {"player": roster[2].pk}).text
    assert f"/sessions/{game.public_id}/" in found


def test_an_existing_player_can_take_the_seat(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    eve = Player.objects.create(owner=alice, name="Eve")
    url = _url(game, "manage/seats/1/")
    page = alice_client.post(url, {"check": "", "player": eve.pk}).text
    assert "Eve sits in seat 1 instead of Ann." in page
    assert "No deal has been entered yet" in page
    assert "added to your players" not in page
    response = alice_client.post(url, {"confirm": "", "player": eve.pk, "played": "0"})
    assert response.status_code == 302
    assert GameSession.objects.with_seats().get(pk=game.pk).player_names() == ["Eve", "Ben", "Cat"]
    assert game.changes.get().action == ChangeAction.REPLACED


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({}, "player", "Choose who takes the seat, or type a new name below."),
        ({"new_name": "x" * 41}, "new_name", "A name can be at most 40 characters."),
        ({"new_name": " ann "}, "new_name", "Ann already sits at this table."),
        ({"new_name": "eve"}, "new_name", "You already have a player called Eve: choose them"),
        ({"new_name": "Old"}, "new_name", "Old is an archived player of yours"),
        ({"player": "EVE", "new_name": "Dan"}, "new_name", "Choose Eve or type a new name, not"),
        ({"player": "ANN"}, "player", "Choose a player from your roster who is not seated."),
    ],
)
def test_a_bad_choice_is_refused_next_to_its_field(
    alice_client: Client,
    alice: User,
    game: GameSession,
    data: dict[str, str],
    field: str,
    message: str,
) -> None:
    eve = Player.objects.create(owner=alice, name="Eve")
    Player.objects.create(owner=alice, name="Old", archived=True)
    ann = Player.objects.get(owner=alice, name="Ann")
    ids = {"EVE": str(eve.pk), "ANN": str(ann.pk)}
    sent = {key: ids.get(value, value) for key, value in data.items()}
    for button in ("check", "confirm"):
        response = alice_client.post(_url(game, "manage/seats/3/"), {button: "", **sent})
        assert response.status_code == 200
        _next_to(response.text, field, message)
        if "new_name" in sent:
            assert _value_of(response.text, "new_name") == escape(sent["new_name"])
    assert GameSession.objects.with_seats().get(pk=game.pk).player_names() == ["Ann", "Ben", "Cat"]
    assert not game.changes.exists()


def test_choosing_again_keeps_what_was_typed(alice_client: Client, game: GameSession) -> None:
    response = alice_client.post(_url(game, "manage/seats/2/"), {"edit": "", "new_name": "Dan"})
    assert response.status_code == 200
    assert _value_of(response.text, "new_name") == "Dan"
    assert 'name="check"' in response.text


def test_a_confirmation_made_before_another_deal_is_asked_again(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    url = _url(game, "manage/seats/3/")
    alice_client.post(url, {"check": "", "new_name": "Dan"})
    play(game, alice, (4, 5, 0))  # another phone enters a deal meanwhile
    response = alice_client.post(url, {"confirm": "", "new_name": "Dan", "played": "0"})
    assert response.status_code == 200
    assert "The session changed on another phone meanwhile" in response.text
    cats = compute(game).totals["Cat"]
    assert escape(f"Dan takes Cat's seat (seat 3) and its score: {cats} points.") in response.text
    assert _value_of(response.text, "played") == "1"
    assert not Player.objects.filter(name="Dan").exists()
    assert GameSession.objects.with_seats().get(pk=game.pk).player_names() == ["Ann", "Ben", "Cat"]


def test_a_seat_of_the_adding_game_is_taken_with_its_tokens(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    pennies = create_adding_session(owner=alice, ruleset="thirty-three", options={}, players=roster)
    event = adding.Event(player="Cat", event="bust")
    record_event(session=pennies, state="0.0", event=event, who=Who(alice))
    page = alice_client.post(_url(pennies, "manage/seats/3/"), {"check": "", "new_name": "Dan"})
    tokens = next(s.tokens for s in compute(pennies).standings if s.player == "Cat")
    assert f"Dan takes Cat&#x27;s seat (seat 3) and its score: {tokens} tokens." in page.text
    assert "Round 1 stays listed under seat 3" in page.text


# Abandon, resume


def test_abandon_and_resume(alice_client: Client, alice: User, game: GameSession) -> None:
    play(game, alice, (4, 5, 0))
    assert "Friday" in alice_client.get("/").text  # offered to continue
    response = alice_client.post(_url(game), {"abandon": ""})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.abandoned is not None
    page = alice_client.get(_url(game)).text
    assert "The session is abandoned where it stands." in page
    assert 'name="resume"' in page
    assert "Rematch: same seats, Ben deals first" in page
    table = alice_client.get(_url(game, "")).text
    assert "This session was abandoned on" in table
    listing = alice_client.get("/sessions/").text
    assert "Abandoned</h2>" in listing
    assert "Friday" not in alice_client.get("/").text
    assert "Stopped after deal 1" in _history(alice_client, game)
    response = alice_client.post(_url(game), {"resume": ""})
    assert response == response and response["Location"] == _url(game, "")
    game.refresh_from_db()
    assert game.abandoned is None
    assert "Resumed the session" in _history(alice_client, game)
    # Sent again: said, not done twice.
    alice_client.post(_url(game), {"resume": ""})
    assert game.changes.filter(action=ChangeAction.RESUMED).count() == 1


def test_a_finished_session_offers_no_abandon(alice_client: Client, done: GameSession) -> None:
    page = alice_client.get(_url(done)).text
    assert 'name="abandon"' not in page
    alice_client.post(_url(done), {"abandon": ""})
    done.refresh_from_db()
    assert done.abandoned is None


# Delete, restore, delete for good


def test_delete_then_restore(alice_client: Client, alice: User, game: GameSession) -> None:
    play(game, alice, (4, 5, 0))
    page = alice_client.get(_url(game, "manage/delete/")).text
    assert escape("Delete “Friday”?") in page
    assert "kept, with everything entered and its history" in page
    response = alice_client.post(_url(game, "manage/delete/"), {"delete": ""})
    assert response["Location"] == "/sessions/"
    listing = alice_client.get("/sessions/").text
    assert escape("Deleted “Friday”. It is kept under Deleted sessions") in listing
    assert f"/sessions/{game.public_id}/" not in listing
    assert 'href="/sessions/deleted/"' in listing
    for suffix in ("", "manage/", "history/", "scoresheet.json"):
        assert alice_client.get(_url(game, suffix)).status_code == 404
    deleted = alice_client.get("/sessions/deleted/").text
    assert "Friday" in deleted and "1 deal" in deleted
    response = alice_client.post(f"/sessions/deleted/{game.public_id}/", {"restore": ""})
    assert response["Location"] == _url(game, "")
    assert alice_client.get(_url(game, "")).status_code == 200
    history = _history(alice_client, game)
    assert "Deleted the session" in history and "Restored the session" in history
    assert "Friday" not in alice_client.get("/sessions/deleted/").text


def test_delete_for_good_asks_a_second_time(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    alice_client.post(_url(game, "manage/delete/"), {"delete": ""})
    url = f"/sessions/deleted/{game.public_id}/"
    page = alice_client.get(url).text
    assert escape("Delete “Friday” for good?") in page
    assert "cannot be undone" in page
    assert GameSession.objects.filter(pk=game.pk).exists()  # looking changes nothing
    response = alice_client.post(url, {"delete_for_good": ""})
    assert response["Location"] == "/sessions/deleted/"
    assert not GameSession.objects.filter(pk=game.pk).exists()
    assert Player.objects.filter(owner=alice).count() == 3
    assert alice_client.get(url).status_code == 404


def test_a_session_not_deleted_cannot_be_deleted_for_good(
    alice_client: Client, game: GameSession
) -> None:
    url = f"/sessions/deleted/{game.public_id}/"
    assert alice_client.get(url).status_code == 404
    assert alice_client.post(url, {"delete_for_good": ""}).status_code == 404
    assert GameSession.objects.filter(pk=game.pk).exists()


def test_a_deleted_session_leaves_links_and_records(
    alice_client: Client, client: Client, alice: User, game: GameSession, roster: list[Player]
) -> None:
    play(game, alice, (4, 5, 0))
    alice_client.post(_url(game, "share/"), {"watch": "on"})
    game.refresh_from_db()
    assert client.get(f"/w/{game.watch_token}/").status_code == 200
    delete_session(session=game, who=Who(alice))
    assert client.get(f"/w/{game.watch_token}/").status_code == 404
    assert client.get(f"/w/{game.watch_token}/live/").status_code == 404
    assert player_record(roster[0]).sessions == 0


def test_the_deleted_list_pages(alice_client: Client, alice: User, roster: list[Player]) -> None:
    seated = [*roster, Player.objects.create(owner=alice, name="Dan")]
    for number in range(25):
        gone = create_session(
            owner=alice, ruleset="four", options={}, title=f"Game {number}", players=seated
        )
        delete_session(session=gone, who=Who(alice))
    first = alice_client.get("/sessions/deleted/").text
    assert "Game 24" in first and "Page 1 of 2" in first
    assert "Game 0<" not in first
    assert "Game 0" in alice_client.get("/sessions/deleted/?page=2").text


# Rematch


def test_a_rematch_is_one_tap_from_a_finished_session(
    alice_client: Client, done: GameSession
) -> None:
    table = alice_client.get(_url(done, "")).text
    assert "Rematch: same seats, Ben deals first" in table
    assert f'action="{_url(done, "rematch/")}"' in table
    form = table[table.index(f'action="{_url(done, "rematch/")}"') :]
    key = re.search(r'name="form_key" value="([^"]+)"', form[: form.index("</form>")])
    assert key
    response = alice_client.post(_url(done, "rematch/"), {"form_key": key.group(1)})
    new = GameSession.objects.exclude(pk=done.pk).get()
    assert response["Location"] == _url(new, "")
    assert (new.ruleset, new.options, new.title, new.rematch_of) == (
        done.ruleset,
        done.options,
        "Done",
        done,
    )
    page = alice_client.get(_url(new, "")).text
    assert "Rematch: the same seats, the same rules. Ben deals first." in page
    # The seats stay as the table sits; the first deal moves on to the next seat.
    assert GameSession.objects.with_seats().get(pk=new.pk).player_names() == ["Ann", "Ben", "Cat"]
    assert new.first_dealer == 1
    # A double tap makes one rematch.
    again = alice_client.post(_url(done, "rematch/"), {"form_key": key.group(1)})
    assert again["Location"] == _url(new, "")
    assert GameSession.objects.count() == 2
    # Its "Manage session" page now leads to the rematch first.
    manage = alice_client.get(_url(done)).text
    assert f'href="{_url(new, "")}">Go to the rematch (in progress)' in manage
    assert "Another rematch: same seats, Ben deals first" in manage
    history = _history(alice_client, done)
    assert "Started a rematch" in history and "Seats: Ann, Ben, Cat" in history
    assert "Ben deals first" in history
    # The next rematch moves it on again: Cat.
    assert new.rematch_dealer() == "Cat"


def test_the_sessions_list_offers_a_rematch_of_finished_sessions(
    alice_client: Client, game: GameSession, done: GameSession
) -> None:
    listing = alice_client.get("/sessions/").text
    assert listing.index("In progress</h2>") < listing.index("Finished</h2>")
    assert f'action="{_url(done, "rematch/")}"' in listing
    assert f'action="{_url(game, "rematch/")}"' not in listing
    assert escape("Rematch “Done”: Ben deals first") in listing


def test_a_session_in_progress_has_no_rematch(alice_client: Client, game: GameSession) -> None:
    assert alice_client.get(_url(game, "rematch/")).status_code == 405
    response = alice_client.post(_url(game, "rematch/"))
    assert response["Location"] == _url(game, "")
    assert "still being played" in alice_client.get(_url(game, "")).text
    assert GameSession.objects.count() == 1


# Home: continue


def test_home_offers_the_latest_sessions_in_progress(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    made = [
        create_session(
            owner=alice,
            ruleset="parlett-jokerless",
            options={},
            players=roster,
            title=f"Table {number}",
        )
        for number in range(5)
    ]
    play(made[1], alice, (4, 5, 0))  # the latest played
    abandon_session(session=made[4], who=Who(alice))
    delete_session(session=made[3], who=Who(alice))
    page = alice_client.get("/").text
    assert "Continue" in page
    shown = re.findall(r'class="btn btn-success btn-lg continue-session" href="([^"]+)"', page)
    assert shown == [_url(made[1], ""), _url(made[2], ""), _url(made[0], "")]
    assert "1 deal so far" in page


def test_home_without_sessions_in_progress_offers_none(alice_client: Client) -> None:
    assert "Continue" not in alice_client.get("/").text


def test_a_name_the_game_reserves_is_refused_next_to_its_seat(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    pair = create_session(owner=alice, ruleset="two-dummy", options={}, players=roster[:2])
    response = alice_client.post(_url(pair), {"fix_name": "1", "seat1-name": "Dummy"})
    assert response.status_code == 200
    _next_to(response.text, "seat1-name", '"Dummy" is reserved in this game; pick another name.')
    assert _value_of(response.text, "seat1-name") == "Dummy"
    roster[0].refresh_from_db()
    assert roster[0].name == "Ann"
