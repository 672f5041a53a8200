"""The adding-game table: start, tap events, undo, adjust, correct a round, ownership."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import live
from scorekeeper.models import Change, GameSession, Player, Round, RoundEvent
from scorekeeper.rules import adding
from scorekeeper.services import create_adding_session
from tests.pages import session_url, table_state

HX = {"HX-Request": "true", "HX-Target": "table"}


@pytest.fixture
def game(adding_game: GameSession) -> GameSession:
    """The table here plays the adding game (tests/conftest.py)."""
    return adding_game


def _tap(client: Client, session: GameSession, tap: str, **headers: str) -> str:
    response = client.post(
        session_url(session),
        {"state": table_state(client, session), "tap": tap},
        headers=headers,
        follow=True,
    )
    assert response.status_code == 200
    return response.text


def test_new_session_lists_both_families(alice_client: Client) -> None:
    page = alice_client.get("/sessions/new/").text
    for preset in adding.PRESETS.values():
        assert f"/sessions/new/adding/{preset.id}/" in page


def test_it_starts_an_adding_session(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    page = alice_client.get("/sessions/new/adding/thirty-three/").text
    assert "Tokens each player starts with" in page
    response = alice_client.post(
        "/sessions/new/adding/thirty-three/",
        {
            "seat_0": roster[0].pk,
            "seat_1": roster[1].pk,
            "seat_2": roster[2].pk,
            "first_dealer": "2",  # seat 3: Cat
            "tokens": "7",
            "start": "",
        },
    )
    session = GameSession.objects.get(owner=alice)
    assert response["Location"] == session_url(session)
    assert session.family == "adding"
    assert session.options == {"tokens": 7}
    assert [s.player.name for s in session.seats.all()] == ["Ann", "Ben", "Cat"]
    assert live.result(session).next.dealer == "Cat"


def test_it_rejects_a_bad_start(alice_client: Client, roster: list[Player]) -> None:
    response = alice_client.post(
        "/sessions/new/adding/thirty-three/",
        {"seat_0": roster[0].pk, "seat_1": roster[0].pk, "tokens": "0", "start": ""},
    )
    assert response.status_code == 200
    text = response.text.replace("&#x27;", "'")
    assert "Ann already has a seat." in text
    assert "Ensure this value is greater than or equal to 1." in text
    assert not GameSession.objects.exists()
    assert alice_client.get("/sessions/new/adding/snap/").status_code == 404


def test_the_table_shows_tokens_and_buttons(alice_client: Client, game: GameSession) -> None:
    page = alice_client.get(session_url(game)).text
    assert ">Round 1<" in page
    assert page.count("9 tokens") == 3
    for label in ["Hit 33", "Hit 66", "Hit 99", "Cross 33", "Cross 66", "Bust", "Empty hand"]:
        assert f">{label}</button>" in page
    assert 'value="1:hit:33"' in page


def test_a_tap_is_stored_at_once_and_says_what_it_did(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    page = _tap(alice_client, game, "1:hit:33")
    assert "Ben: Hit 33. Cat -1, Ann -1." in page
    event = RoundEvent.objects.get()
    assert (event.event, event.target, event.seat.player.name) == ("hit", 33, "Ben")
    assert Change.objects.get().by_user == alice
    page = _tap(alice_client, game, "2:bust:")
    assert "Cat: Bust. Cat -2. The round is over." in page
    assert ">Round 2<" in page
    assert "<dt>Dealer</dt><dd>Ben</dd>" in page


def test_a_tap_with_htmx_returns_the_table(alice_client: Client, game: GameSession) -> None:
    state = table_state(alice_client, game)
    response = alice_client.post(session_url(game), {"state": state, "tap": "0:bust:"}, headers=HX)
    assert response.text.lstrip().startswith('<div id="table"')
    assert 'hx-swap-oob="innerHTML"' in response.text
    assert "Ann: Bust. Ann -2." in response.text
    assert "<html" not in response.text


def test_a_tap_with_htmx_brings_the_strip_out_of_band(
    alice_client: Client, game: GameSession
) -> None:
    """The strip at the top of the page is outside the table: the answer carries it too."""
    state = table_state(alice_client, game)
    response = alice_client.post(session_url(game), {"state": state, "tap": "0:bust:"}, headers=HX)
    strip = re.search(r'<div id="standings-strip"[^>]*>(.*?)</ol>', response.text, re.S)
    assert strip
    assert 'hx-swap-oob="true"' in strip.group(0)
    values = re.findall(r'<span class="strip-value">([^<]*)</span>', strip.group(1))
    assert values == ["7", "9", "9"]


def test_a_stale_or_double_tap_is_refused(alice_client: Client, game: GameSession) -> None:
    state = table_state(alice_client, game)
    alice_client.post(session_url(game), {"state": state, "tap": "0:bust:"})
    response = alice_client.post(session_url(game), {"state": state, "tap": "0:bust:"}, follow=True)
    assert "The table changed on another phone" in response.text
    assert RoundEvent.objects.count() == 1


@pytest.mark.parametrize(
    ("tap", "message"),
    [
        ("0:trips:", "Round 1, event 1 (Ann): "),
        ("0:hit:44", "Round 1, event 1 (Ann): "),
        ("7:bust:", "That button is not one of this table"),
        ("nonsense", "That button is not one of this table"),
        # A hostile value: a seat counted from the end, a target that is no number or too
        # long a number to read, digits of another script, parts missing or added.
        ("-1:bust:", "That button is not one of this table"),
        ("0:hit:abc", "That button is not one of this table"),
        ("0:hit:" + "9" * 5000, "That button is not one of this table"),
        ("0:hit:-33", "That button is not one of this table"),
        ("\u0661:bust:", "That button is not one of this table"),
        ("0:hit:\u0663\u0663", "That button is not one of this table"),
        (" 0:bust:", "That button is not one of this table"),
        ("0:bust::", "That button is not one of this table"),
        ("0:bust", "That button is not one of this table"),
        ("", "That button is not one of this table"),
    ],
)
def test_events_the_preset_does_not_have_are_refused(
    alice_client: Client, game: GameSession, tap: str, message: str
) -> None:
    page = _tap(alice_client, game, tap)
    assert message in page.replace("&#x27;", "'")
    assert not RoundEvent.objects.exists()


def test_undo_the_last_tap(alice_client: Client, game: GameSession) -> None:
    _tap(alice_client, game, "1:hit:33")
    response = alice_client.post(
        session_url(game), {"state": table_state(alice_client, game), "undo_tap": ""}, follow=True
    )
    assert "Last tap undone." in response.text
    assert not RoundEvent.objects.exists()
    assert not Round.objects.exists()
    assert [c.action for c in Change.objects.order_by("id")] == ["added", "deleted"]


def test_adjust(alice_client: Client, game: GameSession) -> None:
    state = table_state(alice_client, game)
    response = alice_client.post(
        session_url(game), {"state": state, "player": "2", "tokens": "2", "adjust": ""}, follow=True
    )
    assert "Cat: Adjust +2. Cat +2." in response.text
    response = alice_client.post(
        session_url(game), {"state": table_state(alice_client, game), "player": "2", "tokens": "0"}
    )
    assert "An adjustment of 0 changes nothing" in response.text
    response = alice_client.post(
        session_url(game), {"state": table_state(alice_client, game), "player": "2", "tokens": ""}
    )
    assert "Say by how many." in response.text
    assert RoundEvent.objects.count() == 1


def test_elimination_and_the_winner(
    alice: User, alice_client: Client, roster: list[Player]
) -> None:
    game = create_adding_session(
        owner=alice, ruleset="sudden-death", options={}, players=roster, title="Quick"
    )
    page = _tap(alice_client, game, "0:bust:")
    assert "Ann is out." in page
    page = _tap(alice_client, game, "1:bust:")
    assert "Cat wins!" in page
    assert "Winner: Cat" in page
    assert 'name="tap"' not in page
    game.refresh_from_db()
    assert game.finished


def test_correct_a_round(alice_client: Client, game: GameSession) -> None:
    _tap(alice_client, game, "1:hit:33")
    _tap(alice_client, game, "2:bust:")
    page = alice_client.get(session_url(game, "rounds/1/")).text
    assert "Correct round 1" in page
    assert 'name="revision" value="1"' in page
    response = alice_client.post(
        session_url(game, "rounds/1/"), {"revision": "1", "remove": "0"}, follow=True
    )
    assert "Round 1 corrected." in response.text
    assert "Ann 8 tokens → 9 tokens" in response.text
    response = alice_client.post(
        session_url(game, "rounds/1/"),
        {"revision": "2", "player": "0", "event": "cross:33", "add": ""},
        follow=True,
    )
    assert "Round 1, event 2 (Ann)" in response.text  # nothing may follow the round's end
    response = alice_client.post(
        session_url(game, "rounds/1/"), {"revision": "1", "remove": "0"}, follow=True
    )
    assert "Round 1 was just corrected on another phone." in response.text
    response = alice_client.post(session_url(game, "rounds/1/"), {"revision": "2", "remove": "0"})
    assert Round.objects.get().events.count() == 1  # a round keeps at least one event
    assert alice_client.get(session_url(game, "rounds/9/")).status_code == 404


def _round_one(game: GameSession) -> list[tuple[str, str]]:
    events = RoundEvent.objects.filter(round__session=game, round__number=1).order_by("position")
    return [(event.seat.player.name, event.event) for event in events]


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_a_round_correction_resent_as_another_removal_is_not_saved(
    alice_client: Client, game: GameSession, headers: dict[str, str]
) -> None:
    _tap(alice_client, game, "1:hit:33")
    _tap(alice_client, game, "0:hit:33")
    url = session_url(game, "rounds/1/")
    first = {"revision": "1", "form_key": "k", "remove": "0"}
    assert alice_client.post(url, first, headers=headers).status_code == 302
    assert _round_one(game) == [("Ann", "hit")]
    # Back to the page as it was (Ben's hit, then Ann's), the other event removed this time.
    again = {**first, "remove": "1"}
    response = alice_client.post(url, again, headers=headers, follow=True)
    assert "That was already saved." not in response.text
    assert "What you sent this time is different, so it was not saved" in response.text
    assert "not saved: removing Ann: Hit 33." in response.text
    assert _round_one(game) == [("Ann", "hit")]
    assert Change.objects.filter(action="edited").count() == 1
    # The page is the round as it is now, under a fresh key.
    assert 'name="revision" value="2"' in response.text
    assert 'name="form_key" value="k"' not in response.text


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_a_round_correction_resent_as_an_added_event_is_not_saved_and_comes_back(
    alice_client: Client, game: GameSession, headers: dict[str, str]
) -> None:
    _tap(alice_client, game, "1:hit:33")
    _tap(alice_client, game, "0:hit:33")
    url = session_url(game, "rounds/1/")
    first = {"revision": "1", "form_key": "k", "remove": "0"}
    alice_client.post(url, first, headers=headers)
    again = {"revision": "1", "form_key": "k", "player": "2", "event": "hit:33", "add": ""}
    response = alice_client.post(url, again, headers=headers, follow=True)
    assert "That was already saved." not in response.text
    assert "What you sent this time is different, so it was not saved" in response.text
    assert _round_one(game) == [("Ann", "hit")]
    assert Change.objects.filter(action="edited").count() == 1
    # What was typed is in the form again, to add under the page's fresh key.
    form = response.context["form"]
    assert (form["player"].value(), form["event"].value()) == ("2", "hit:33")
    assert 'name="form_key" value="k"' not in response.text
    key = re.search(r'name="form_key" value="([^"]+)"', response.text)
    assert key
    resent = {**again, "revision": "2", "form_key": key.group(1)}
    response = alice_client.post(url, resent, headers=headers, follow=True)
    assert "Round 1 corrected." in response.text
    assert _round_one(game) == [("Ann", "hit"), ("Cat", "hit")]


@pytest.mark.parametrize(
    "sent",
    [{"remove": "0"}, {"player": "2", "event": "hit:33", "add": ""}],
    ids=["remove", "add"],
)
def test_a_round_correction_sent_twice_as_it_was_is_saved_once(
    alice_client: Client, game: GameSession, sent: dict[str, str]
) -> None:
    _tap(alice_client, game, "1:hit:33")
    _tap(alice_client, game, "0:hit:33")
    url = session_url(game, "rounds/1/")
    form = {"revision": "1", "form_key": "k", **sent}
    alice_client.post(url, form)
    corrected = _round_one(game)
    response = alice_client.post(url, form, follow=True)
    assert "That was already saved." in response.text
    assert _round_one(game) == corrected
    assert Change.objects.filter(action="edited").count() == 1


@pytest.mark.parametrize("headers", [{}, HX])
def test_an_undo_sent_with_the_key_of_a_tap_already_made_is_not_taken_for_it(
    alice_client: Client, game: GameSession, headers: dict[str, str]
) -> None:
    state = table_state(alice_client, game)
    alice_client.post(session_url(game), {"state": state, "form_key": "k", "tap": "1:hit:33"})
    # Back to that page: its undo button sends the same key as the tap.
    undo = {"state": state, "form_key": "k", "undo_tap": ""}
    response = alice_client.post(session_url(game), undo, headers=headers, follow=True)
    assert "That was already saved." not in response.text
    assert "That page's tap was already recorded (Ben: Hit 33)" in response.text.replace(
        "&#x27;", "'"
    )
    assert "The undo was not done" in response.text
    assert RoundEvent.objects.count() == 1
    assert [c.action for c in Change.objects.order_by("id")] == ["added"]


def test_an_undo_sent_twice_undoes_one_tap(alice_client: Client, game: GameSession) -> None:
    _tap(alice_client, game, "1:hit:33")
    _tap(alice_client, game, "0:hit:33")
    undo = {"state": table_state(alice_client, game), "form_key": "k", "undo_tap": ""}
    alice_client.post(session_url(game), undo)
    response = alice_client.post(session_url(game), undo, follow=True)
    assert "That was already saved." in response.text
    assert RoundEvent.objects.count() == 1
    assert [c.action for c in Change.objects.order_by("id")] == ["added", "added", "deleted"]


def test_the_scoresheet_downloads(alice_client: Client, game: GameSession) -> None:
    _tap(alice_client, game, "1:hit:33")
    data = json.loads(alice_client.get(session_url(game, "scoresheet.json")).content)
    assert data["family"] == "adding"
    assert data["rounds"][0]["events"] == [{"player": "Ben", "event": "hit", "target": 33}]
    assert data["rounds"][0]["tokens"] == {"Ann": 8, "Ben": 9, "Cat": 8}


@pytest.mark.parametrize(
    ("method", "suffix", "data"),
    [
        ("get", "", {}),
        ("post", "", {"state": "1.1", "tap": "0:bust:"}),
        ("post", "", {"state": "1.1", "undo_tap": ""}),
        ("get", "rounds/1/", {}),
        ("post", "rounds/1/", {"revision": "1", "remove": "0"}),
    ],
)
def test_another_user_gets_404(
    alice_client: Client,
    bob_client: Client,
    game: GameSession,
    method: str,
    suffix: str,
    data: dict[str, str],
) -> None:
    _tap(alice_client, game, "1:hit:33")
    assert getattr(bob_client, method)(session_url(game, suffix), data).status_code == 404
    assert RoundEvent.objects.count() == 1


def test_history_speaks_of_rounds(alice_client: Client, game: GameSession) -> None:
    _tap(alice_client, game, "1:hit:33")
    alice_client.post(session_url(game), {"state": table_state(alice_client, game), "undo_tap": ""})
    page = alice_client.get(session_url(game, "history/")).text
    assert "Event in round 1" in page
    assert "Event undone in round 1" in page


def test_csv_and_chart_of_an_adding_game(alice_client: Client, game: GameSession) -> None:
    _tap(alice_client, game, "1:hit:33")
    page = alice_client.get(session_url(game)).text
    assert "Ann ends on 8. Ben ends on 9. Cat ends on 8." in page
    text = alice_client.get(session_url(game, "session.csv")).content.decode()
    assert text.splitlines()[0] == "round,dealer,events,Ann after,Ben after,Cat after"
    assert text.splitlines()[1] == "1,Ann,Ben: Hit 33,8,9,8"


# Correcting a past round: any event changed (player, kind), removed or added anywhere


def _three_rounds(client: Client, game: GameSession) -> None:
    """Round 1: Ben busts (2 tokens). Round 2: Cat hits 33, Ann busts. Round 3: Ben's hit 33."""
    for tap in ("1:bust:", "2:hit:33", "0:bust:", "1:hit:33"):
        _tap(client, game, tap)


def _events(game: GameSession, number: int) -> list[tuple[str, str, int | None]]:
    events = RoundEvent.objects.filter(round__session=game, round__number=number)
    return [(e.seat.player.name, e.event, e.target) for e in events.order_by("position")]


def test_a_past_round_s_event_is_changed_to_another_player(
    alice_client: Client, game: GameSession
) -> None:
    _three_rounds(alice_client, game)
    url = session_url(game, "rounds/1/")
    page = alice_client.get(url).text
    assert 'name="change" value="0"' in page
    # Round 1: "Ben: Bust" becomes "Cat: Bust", in one step: the round is never left empty.
    sent = {"revision": "1", "change": "0", "player": "2", "event": "bust:"}
    response = alice_client.post(url, sent, follow=True)
    assert response.redirect_chain[-1][0].endswith("/rounds/1/#main")
    text = response.text
    assert "Round 1 corrected." in text
    assert "Event 1: Ben: Bust → Cat: Bust." in text
    assert "Now: Ben 6 tokens → 8 tokens; Cat 8 tokens → 6 tokens." in text
    assert _events(game, 1) == [("Cat", "bust", None)]
    # Everything after it is worked out again: the dealers, and the tokens round by round.
    result = live.result(GameSession.objects.with_seats().get(pk=game.pk))
    assert [played.dealer for played in result.rounds] == ["Ann", "Ben", "Cat"]
    assert result.rounds[-1].tokens == {"Ann": 5, "Ben": 8, "Cat": 6}
    # The history keeps the round as it was and as it is.
    change = Change.objects.get(action="edited")
    assert (change.number, change.before, change.after) == (
        1,
        {"events": [{"player": "Ben", "event": "bust"}]},
        {"events": [{"player": "Cat", "event": "bust"}]},
    )
    history = alice_client.get(session_url(game, "history/")).text
    assert "Corrected round 1" in history


def test_an_event_s_kind_is_changed_and_the_rounds_after_it_follow(
    alice_client: Client, game: GameSession
) -> None:
    _three_rounds(alice_client, game)
    # Round 2: Cat's hit 33 was a hit 66: the others pay the same, the page says so.
    sent = {"revision": "1", "change": "0", "player": "2", "event": "hit:66"}
    response = alice_client.post(session_url(game, "rounds/2/"), sent, follow=True)
    assert "Event 1: Cat: Hit 33 → Cat: Hit 66." in response.text
    assert "Standings unchanged." in response.text
    assert _events(game, 2) == [("Cat", "hit", 66), ("Ann", "bust", None)]


def test_an_event_is_added_before_the_one_that_ended_the_round(
    alice_client: Client, game: GameSession
) -> None:
    _three_rounds(alice_client, game)
    url = session_url(game, "rounds/1/")
    page = alice_client.get(url).text
    assert "Before event 1" in page
    sent = {"revision": "1", "add": "", "player": "0", "event": "hit:33", "where": "0"}
    response = alice_client.post(url, sent, follow=True)
    assert "Round 1 corrected." in response.text
    assert "Added as event 1: Ann: Hit 33." in response.text
    assert _events(game, 1) == [("Ann", "hit", 33), ("Ben", "bust", None)]


def test_a_change_the_rules_refuse_says_why_beside_it_and_keeps_what_was_chosen(
    alice_client: Client, game: GameSession
) -> None:
    _three_rounds(alice_client, game)
    # Round 2's bust made a hit 99: it would end the round, and Ann's bust could not follow.
    url = session_url(game, "rounds/2/")
    sent = {"revision": "1", "change": "0", "player": "2", "event": "hit:99"}
    response = alice_client.post(url, sent)
    assert response.status_code == 200
    text = response.text.replace("&#x27;", "'")
    assert "Round 2, event 2 (Ann): The round ended with Cat's hit 99" in text
    assert "only an adjustment can follow." in text
    # What was chosen stays chosen, in the form of the event it was for, left open.
    forms = response.context["change_forms"]
    form = forms[0][2]
    assert (form["player"].value(), form["event"].value()) == ("2", "hit:99")
    assert form.non_field_errors()
    assert re.search(r'<details class="round-edit-change"[^>]*open', text)
    assert _events(game, 2) == [("Cat", "hit", 33), ("Ann", "bust", None)]
    assert not Change.objects.filter(action="edited").exists()


def test_an_added_event_refused_keeps_what_was_chosen(
    alice_client: Client, game: GameSession
) -> None:
    _three_rounds(alice_client, game)
    url = session_url(game, "rounds/1/")
    sent = {"revision": "1", "add": "", "player": "2", "event": "cross:33", "where": "1"}
    response = alice_client.post(url, sent)
    assert response.status_code == 200
    form = response.context["form"]
    assert (form["player"].value(), form["event"].value(), form["where"].value()) == (
        "2",
        "cross:33",
        "1",
    )
    assert "only an adjustment can follow" in response.text.replace("&#x27;", "'")
    assert _events(game, 1) == [("Ben", "bust", None)]


def test_removing_the_only_event_of_a_past_round_says_what_to_do(
    alice_client: Client, game: GameSession
) -> None:
    _three_rounds(alice_client, game)
    response = alice_client.post(
        session_url(game, "rounds/1/"), {"revision": "1", "remove": "0"}, follow=True
    )
    assert "Round 1 needs at least one event: change this one instead of removing it." in (
        response.text
    )
    assert _events(game, 1) == [("Ben", "bust", None)]


def test_a_change_sent_twice_is_saved_once(alice_client: Client, game: GameSession) -> None:
    _three_rounds(alice_client, game)
    url = session_url(game, "rounds/1/")
    sent = {"revision": "1", "form_key": "k", "change": "0", "player": "2", "event": "bust:"}
    alice_client.post(url, sent)
    response = alice_client.post(url, sent, follow=True)
    assert "That was already saved." in response.text
    assert Change.objects.filter(action="edited").count() == 1
    # The same key with another change: not saved, and said so.
    other = {**sent, "player": "0"}
    response = alice_client.post(url, other, follow=True)
    assert "not saved: changing Ben: Bust to Ann: Bust" in response.text
    assert _events(game, 1) == [("Cat", "bust", None)]


@pytest.mark.parametrize("tokens", ["0", "", "100000000000000000000", "-500"])
def test_an_adjustment_refused_comes_back_at_its_field(
    alice_client: Client, game: GameSession, tokens: str
) -> None:
    """Without JavaScript the page comes back at the form's anchor (its action's #adjust),
    with htmx the table with the form open; both keep what was typed and chosen."""
    page = alice_client.get(session_url(game)).text
    assert f'action="{session_url(game)}#adjust"' in page
    assert 'id="adjust"' in page
    sent = {"state": table_state(alice_client, game), "player": "2", "tokens": tokens, "adjust": ""}
    for headers in ({}, HX):
        response = alice_client.post(session_url(game), sent, headers=headers)
        assert response.status_code == 200
        form = response.context["adjust_form"]
        assert (form["player"].value(), form["tokens"].value()) == ("2", tokens)
        assert form.errors["tokens"]
        assert re.search(
            r'<details class="mt-3 adjust" id="adjust" data-place open>', response.text
        )
    assert not RoundEvent.objects.exists()


def test_an_adjustment_made_is_said_by_its_form(alice_client: Client, game: GameSession) -> None:
    sent = {"state": table_state(alice_client, game), "player": "2", "tokens": "-1", "adjust": ""}
    response = alice_client.post(session_url(game), sent)
    assert response["Location"].endswith("#adjust")
    page = alice_client.get(response["Location"]).text
    said = re.search(
        r'<details class="mt-3 adjust" id="adjust" data-place open>.*?</details>', page, re.S
    )
    assert said
    assert "Cat: Adjust -1. Cat -1." in said.group(0)


def test_wilson_rows_show_the_allowance_as_it_stands(
    alice: User, alice_client: Client, roster: list[Player]
) -> None:
    """Wilson (RULES.md §2.3): 3 game points each round, one lost at each border; the score
    counts a round once it has ended. Mid-round the row says what is left of the allowance."""
    game = create_adding_session(
        owner=alice, ruleset="wilson", options={}, players=roster, title="Wilson"
    )

    def labels(page: str) -> list[str]:
        return re.findall(r'<span class="tokens-label">([^<]*)</span>', page)

    page = alice_client.get(session_url(game)).text
    assert labels(page) == ["3 game points this round, score 0"] * 3
    page = _tap(alice_client, game, "1:border:33")
    assert "Ben: Border 33. Ben -1." in page
    assert labels(page) == [
        "3 game points this round, score 0",
        "2 game points this round, score 0",
        "3 game points this round, score 0",
    ]
    _tap(alice_client, game, "1:border:66")
    page = _tap(alice_client, game, "2:border:99")  # ends the round: the scores count it
    assert labels(page) == [
        "3 game points this round, score 3",
        "3 game points this round, score 1",
        "3 game points this round, score 2",
    ]


def test_taps_kept_on_a_phone_are_taken_in_order_each_after_the_one_before(
    alice_client: Client, game: GameSession
) -> None:
    state = table_state(alice_client, game)  # all made on the page as it was, then sent
    url = session_url(game)
    alice_client.post(url, {"state": state, "tap": "0:bust:", "form_key": "k1"})
    alice_client.post(url, {"state": state, "tap": "1:bust:", "form_key": "k2", "after": "k1"})
    alice_client.post(url, {"state": state, "undo_tap": "", "form_key": "k3", "after": "k2"})
    alice_client.post(url, {"state": state, "tap": "2:bust:", "form_key": "k4", "after": "k3"})
    assert [(e.seat.player.name, e.event) for e in RoundEvent.objects.order_by("id")] == [
        ("Ann", "bust"),
        ("Cat", "bust"),
    ]
    # Sent again (its answer was lost): stored once.
    alice_client.post(url, {"state": state, "tap": "2:bust:", "form_key": "k4", "after": "k3"})
    assert RoundEvent.objects.count() == 2


def test_a_kept_tap_is_refused_when_another_phone_tapped_in_between(
    alice_client: Client, game: GameSession
) -> None:
    state = table_state(alice_client, game)
    url = session_url(game)
    alice_client.post(url, {"state": state, "tap": "0:bust:", "form_key": "k1"})
    alice_client.post(url, {"state": table_state(alice_client, game), "tap": "1:bust:"})
    response = alice_client.post(
        url, {"state": state, "tap": "2:bust:", "form_key": "k2", "after": "k1"}, follow=True
    )
    assert "The table changed on another phone" in response.text
    assert RoundEvent.objects.count() == 2
