"""The table-side screens: start a session, enter deals, correct, undo, extend, history."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper import live
from scorekeeper.models import Change, Deal, GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.scoresheet import loads_scoresheet
from scorekeeper.services import Who, add_deal, create_session, edit_deal, import_scoresheet
from tests.factories import trick_session, worked_deal_form
from tests.pages import session_url

HX = {"HX-Request": "true", "HX-Target": "entry-status"}


@pytest.fixture
def roster_names() -> list[str]:
    """Four players: a session seats three, the start form has a fourth to offer."""
    return ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def game(alice: User, roster: list[Player]) -> GameSession:
    """Three of the four, in a session titled "Test"."""
    return trick_session(alice, roster[:3], title="Test")


# Starting a session


def test_it_lists_the_presets(alice_client: Client) -> None:
    page = alice_client.get("/sessions/new/").text
    for preset in trick.PRESETS.values():
        assert f"/sessions/new/trick/{preset.id}/" in page
        assert preset.description.replace("'", "&#x27;") in page


def test_it_shows_the_start_form(alice_client: Client, roster: list[Player]) -> None:
    page = alice_client.get("/sessions/new/trick/four/").text
    assert page.count('name="seat_') == 4
    assert "Trump for the first deal" in page
    assert alice_client.get("/sessions/new/trick/snap/").status_code == 404


def test_it_keeps_the_seats_as_entered_and_deals_from_the_seat_chosen(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    ann, ben, cat, _ = roster
    response = alice_client.post(
        "/sessions/new/trick/parlett-jokerless/",
        {
            "seat_0": ann.pk,
            "seat_1": ben.pk,
            "seat_2": cat.pk,
            "first_dealer": "1",  # seat 2, Ben
            "match_type": "deals",
            "match_number": "18",
            "first_trump": "none",
            "title": "Friday",
            "start": "",
        },
    )
    session = GameSession.objects.get(owner=alice)
    assert response["Location"] == session_url(session)
    assert [s.player.name for s in session.seats.all()] == ["Ann", "Ben", "Cat"]
    assert session.first_dealer == 1
    assert session.options == {"match": {"type": "deals", "deals": 18}, "first_trump": "none"}
    assert session.title == "Friday"
    page = alice_client.get(session_url(session)).text
    assert "<dt>Dealer</dt><dd>Ben</dd>" in page and "<dt>Leads</dt><dd>Cat</dd>" in page
    result = live.result(session)
    assert (result.next.dealer, result.next.leader) == ("Ben", "Cat")
    assert [standing.player for standing in result.standings] == ["Ann", "Ben", "Cat"]
    # The file has no first dealer: its seat order starts with them (FORMAT.md).
    add_deal(session=session, number=1, entry=_made_by_all(), who=Who(alice))
    exported = alice_client.get(session_url(session, "scoresheet.json")).content.decode()
    sheet = json.loads(exported)
    assert sheet["players"] == ["Ben", "Cat", "Ann"]
    assert (sheet["deals"][0]["dealer"], sheet["next"]["dealer"]) == ("Ben", "Cat")
    # Imported again, the same players deal the same deals.
    again = import_scoresheet(owner=alice, sheet=loads_scoresheet(exported))
    assert again.first_dealer == 0
    assert [deal.dealer for deal in live.result(again).deals] == ["Ben"]
    assert live.result(again).next.dealer == "Cat"


def _made_by_all() -> trick.DealEntry:
    return trick.DealEntry(
        hands={n: trick.HandEntry(tricks=3, made=True) for n in ["Ann", "Ben", "Cat"]}
    )


def test_an_empty_seat_cannot_deal_first(alice_client: Client, roster: list[Player]) -> None:
    ann, ben, cat, _ = roster
    response = alice_client.post(
        "/sessions/new/trick/custom/",
        {"seat_0": ann.pk, "seat_1": ben.pk, "seat_2": cat.pk, "first_dealer": "3", "start": ""},
    )
    assert response.status_code == 200
    assert "Seat 4 is empty: choose a seat with a player to deal first." in response.text
    assert not GameSession.objects.exists()
    # What was entered stays: the seats, and the dealer chosen.
    assert re.search(rf'<option value="{cat.pk}" selected>', response.text)
    assert re.search(
        r'<input type="radio" name="first_dealer" value="3"[^>]*checked', response.text
    )


def test_a_seat_left_empty_before_the_dealer_does_not_count(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    ann, ben, cat, _ = roster
    response = alice_client.post(
        "/sessions/new/trick/custom/",
        {"seat_0": ann.pk, "seat_1": ben.pk, "seat_3": cat.pk, "first_dealer": "3", "start": ""},
    )
    assert response.status_code == 302
    session = GameSession.objects.get(owner=alice)
    assert session.player_names() == ["Ann", "Ben", "Cat"]
    assert session.first_dealer == 2
    assert live.result(session).next.dealer == "Cat"


def test_the_first_dealer_is_chosen_beside_the_seats_only(
    alice_client: Client, roster: list[Player]
) -> None:
    page = alice_client.get("/sessions/new/trick/four/").text
    # One choice a seat, seat 1 chosen; no list of the whole roster.
    assert page.count('name="first_dealer"') == 4
    assert re.search(r'<input type="radio" name="first_dealer" value="0"[^>]*checked', page)
    assert '<select name="first_dealer"' not in page
    assert "Seat 3 deals first" in re.sub(r"<[^>]+>", "", page)  # a label says which seat


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seat_0": "A", "seat_1": "B"}, "Choose who sits in seat 3."),
        ({"seat_0": "A", "seat_1": "A", "seat_2": "B"}, "Ann already has a seat."),
        ({"seat_0": "A", "seat_1": "B", "first_dealer": "2"}, "Choose who sits in seat 3."),
        ({"seat_0": "A", "seat_1": "B", "seat_2": "C", "first_dealer": "3"}, "Choose the seat"),
        ({"seat_0": "A", "seat_1": "B", "seat_2": "C", "first_dealer": "x"}, "Choose the seat"),
        ({"seat_0": "A", "seat_1": "B", "seat_2": "C", "match_number": ""}, "Say how many"),
        ({"seat_0": "A", "seat_1": "B", "seat_2": "C", "match_number": "0"}, "greater than or"),
        ({"seat_0": "999999", "seat_1": "B", "seat_2": "C"}, "Choose a player from your roster."),
    ],
)
def test_it_rejects_a_bad_start(
    alice_client: Client, roster: list[Player], data: dict[str, str], message: str
) -> None:
    ids = {"A": roster[0].pk, "B": roster[1].pk, "C": roster[2].pk, "D": roster[3].pk}
    form = {"match_type": "deals", "match_number": "9", "first_trump": "diamonds", "start": ""}
    form |= {key: str(ids.get(value, value)) for key, value in data.items()}
    response = alice_client.post("/sessions/new/trick/parlett-jokerless/", form)
    assert response.status_code == 200
    assert message in response.text.replace("&#x27;", "'")
    assert not GameSession.objects.exists()


def test_custom_needs_two_to_five_players_and_checks_options(
    alice_client: Client, roster: list[Player]
) -> None:
    base = {
        "trump": "by-successes",
        "first_trump": "diamonds",
        "match_type": "deals",
        "match_number": "9",
        "premiums": "declare",
        "trick_points": "true",
        "start": "",
    }
    response = alice_client.post("/sessions/new/trick/custom/", {**base, "seat_0": roster[0].pk})
    assert "Choose who sits in seat 2." in response.text
    response = alice_client.post(
        "/sessions/new/trick/custom/",
        {**base, "seat_0": roster[0].pk, "seat_1": roster[1].pk, "bonus": "30, x"},
    )
    assert "Type whole numbers separated by commas" in response.text
    response = alice_client.post(
        "/sessions/new/trick/custom/",
        {**base, "seat_0": roster[0].pk, "seat_1": roster[1].pk, "bonus": "40 25 10"},
    )
    session = GameSession.objects.get()
    assert response["Location"] == session_url(session)
    assert session.options["bonus"] == [40, 25, 10]
    assert session.options["premiums"] == ["declare"]


def test_it_adds_a_player_on_the_spot_keeping_the_form(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    response = alice_client.post(
        "/sessions/new/trick/parlett-jokerless/",
        {"seat_0": roster[0].pk, "new-name": "Eve", "add_player": "", "title": "Kept"},
    )
    assert response.status_code == 200
    assert Player.objects.filter(owner=alice, name="Eve").exists()
    assert "Added Eve" in response.text
    assert 'value="Kept"' in response.text
    assert "Choose who sits" not in response.text
    assert not GameSession.objects.exists()
    response = alice_client.post(
        "/sessions/new/trick/parlett-jokerless/", {"new-name": "ann", "add_player": ""}
    )
    assert "You already have a player called Ann." in response.text


# Entering deals


def test_a_copy_fetched_in_the_background_leaves_the_saved_message_for_the_page(
    alice_client: Client, game: GameSession
) -> None:
    # The service worker keeps a copy of the page (templates/cheatsheets/sw.js) while the
    # phone goes from its save to the page that says it: the copy says nothing of the save,
    # and the page still does.
    alice_client.post(session_url(game), worked_deal_form())
    copy = alice_client.get(session_url(game), headers={"X-Kept-Copy": "1"}).text
    assert ">Deal 2</h2>" in copy and "Deal 1 saved." not in copy
    page = alice_client.get(session_url(game)).text
    assert "Deal 1 saved. Ann and Cat made it: Ann +84, Ben +5, Cat +20." in page


def test_the_table_shows_the_next_deal(alice_client: Client, game: GameSession) -> None:
    page = alice_client.get(session_url(game)).text
    assert ">Deal 1</h2>" in page
    assert "<dt>Dealer</dt><dd>Ann</dd>" in page
    assert "<dt>Leads</dt><dd>Ben</dd>" in page
    assert "♦ Diamonds" in page
    assert "Save deal 1" in page


def test_it_saves_a_deal(alice_client: Client, alice: User, game: GameSession) -> None:
    response = alice_client.post(session_url(game), worked_deal_form())
    assert response.status_code == 302
    deal = Deal.objects.get(session=game)
    assert deal.number == 1
    page = alice_client.get(session_url(game)).text
    assert "Deal 1 saved. Ann and Cat made it: Ann +84, Ben +5, Cat +20." in page
    assert "4 tricks + 20 bonus + 60 premium" in page
    assert ">Deal 2</h2>" in page
    assert "♥ Hearts" in page  # two made it
    change = Change.objects.get(session=game)
    assert (change.action, change.number, change.by_user) == ("added", 1, alice)
    assert change.after["hands"]["Cat"] == {"tricks": 0, "bid_cards": ["diamonds"] * 3}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"h1-tricks": "4"}, "Tricks add up to 8; a deal has 9."),
        ({"h1-made": ""}, "Ben: "),
        ({"h0-tricks": "-1"}, "Tricks cannot be negative."),
        ({"h0-tricks": "x"}, "Tricks are a whole number."),
        ({"h0-bid": "12"}, "A bid is at most 9."),
        ({"h2-cards": "DD"}, "Cat: "),
        ({"h2-cards": "DDX"}, "Tap up to three bid-card suits."),
        ({"h1-premium": "declare"}, "Only one premium bid"),
        ({"h0-bid": "", "h0-made": "made"}, "Ann: "),
        ({"h0-premium": "double"}, "Select a valid choice."),
    ],
)
@pytest.mark.parametrize("headers", [{}, HX])
def test_it_refuses_a_bad_deal_with_a_message(
    alice_client: Client,
    game: GameSession,
    overrides: dict[str, str],
    message: str,
    headers: dict[str, str],
) -> None:
    response = alice_client.post(session_url(game), worked_deal_form(**overrides), headers=headers)
    assert response.status_code == 200
    assert message in response.text.replace("&#x27;", "'")
    assert not Deal.objects.exists()
    if headers:
        assert response.text.lstrip().startswith('<div id="entry-status"')
        assert "<form" not in response.text


def test_live_status_says_ready_with_points(alice_client: Client, game: GameSession) -> None:
    data = worked_deal_form()
    del data["save"]
    response = alice_client.post(session_url(game), data, headers=HX)
    assert "Ready to save:" in response.text
    assert "Ann +84 ✓ · Ben +5 · Cat +20 ✓" in response.text
    assert not Deal.objects.exists()


def test_the_status_names_each_problem_once_with_its_hands(
    alice_client: Client, game: GameSession
) -> None:
    """The box above the keypad stays short: hands with the same problem share its line."""
    data = {"number": "1", "h0-tricks": "3", "h1-tricks": "2", "h2-tricks": "4", "h2-bid": "4"}
    response = alice_client.post(session_url(game), data, headers=HX)
    lines = re.findall(r"<li>(.*?)</li>", response.text)
    assert lines == ["Ann and Ben: Enter the bid, or mark the hand made or failed."]
    data = {"number": "1", "h0-bid": "3"}
    response = alice_client.post(session_url(game), data, headers=HX)
    lines = re.findall(r"<li>(.*?)</li>", response.text)
    assert lines == ["Ann, Ben and Cat: How many tricks?"]
    assert not Deal.objects.exists()


def test_a_hands_choices_are_said_on_its_row_with_the_panel_folded(
    alice_client: Client, game: GameSession
) -> None:
    """The correction page (and the page after a post without JavaScript): each hand's ⋯ is
    folded and its row says what it holds, so the rows stay short enough to see together."""
    alice_client.post(session_url(game), worked_deal_form())
    page = alice_client.get(session_url(game, "deals/1/")).text
    assert re.findall(r'<p class="hand-chosen">(.*?)</p>', page) == ["Reveal", "Failed ✗", ""]
    assert '<details class="hand-more" open>' not in page
    # A choice the rules refuse stays open beside its message.
    refused = alice_client.post(
        session_url(game), worked_deal_form(2, **{"h1-made": "made", "h1-bid": "2"})
    ).text
    assert "Marked as made, but the bid was 2" in refused
    assert refused.count('<details class="hand-more" open>') == 1


def test_taps_work_without_javascript(alice_client: Client, game: GameSession) -> None:
    data = worked_deal_form(**{"h0-tricks": "3", "h2-cards": "DD"})
    del data["save"]
    page = alice_client.post(session_url(game), {**data, "step": "h0-tricks:1"}).text
    assert 'name="h0-tricks" id="id_h0-tricks" value="4"' in page
    page = alice_client.post(session_url(game), {**data, "card": "h2:H"}).text
    assert 'name="h2-cards" id="id_h2-cards" value="DDH"' in page
    assert "♦♦♥=2" in page
    page = alice_client.post(session_url(game), {**data, "card": "h2:clear"}).text
    assert 'name="h2-cards" id="id_h2-cards" value=""' in page
    assert not Deal.objects.exists()


def test_a_refused_form_keeps_each_hands_choices_and_its_card_buttons(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    """The hands' radio and bid-card buttons (templates/trick/deal_form.html): what was chosen stays
    chosen when the form comes back refused, and a player's name is escaped in their labels."""
    roster[0].name = 'Ann & <b>"Bo"</b>'
    roster[0].save()
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=roster[:3])
    page = alice_client.post(session_url(game), worked_deal_form(**{"h2-tricks": "9"})).text
    assert not Deal.objects.exists()
    assert 'name="h0-premium" id="id_h0-premium_2" value="reveal" checked>' in page
    assert 'name="h0-premium" id="id_h0-premium_0" value="">' in page
    assert 'name="h1-made" id="id_h1-made_2" value="failed" checked>' in page
    assert 'name="h2-made" id="id_h2-made_0" value="" checked>' in page
    label = "Ann &amp; &lt;b&gt;&quot;Bo&quot;&lt;/b&gt;"
    assert 'aria-labelledby="id_h0-premium-label">' in page
    assert f'id="id_h0-made-label">Did {label} make the bid?</span>' in page
    path = session_url(game)
    assert (
        f'<button type="submit" name="card" value="h0:H" formaction="{path}#hand-0" '
        f'class="btn suit-btn suit-red" aria-label="Heart, 2, for {label}">♥<small>2</small>'
        "</button>"
    ) in page
    assert page.count('class="btn suit-btn') == 3 * 4
    assert "<b>" not in page.split('id="deal-form"')[1]


def test_a_stale_or_repeated_form_never_stores_twice(
    alice_client: Client, game: GameSession
) -> None:
    assert alice_client.post(session_url(game), worked_deal_form()).status_code == 302
    response = alice_client.post(session_url(game), worked_deal_form(), follow=True)
    assert "Deal 1 was just saved on another phone, with the same hands as here" in response.text
    assert Deal.objects.count() == 1
    other = worked_deal_form(**{"h0-tricks": "3", "h1-tricks": "6"})
    response = alice_client.post(session_url(game), other, follow=True)
    assert "Deal 1 was just entered on another phone. What you typed is kept" in response.text
    assert Deal.objects.count() == 1


def test_undo_the_last_deal(alice_client: Client, game: GameSession) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    response = alice_client.post(session_url(game), {"undo": "1"}, follow=True)
    assert "Deal 1 undone." in response.text
    assert not Deal.objects.exists()
    assert [c.action for c in Change.objects.order_by("id")] == ["added", "deleted"]
    response = alice_client.post(session_url(game), {"undo": "1"}, follow=True)
    assert "Deal 1 is no longer the last deal" in response.text


# Corrections


def test_it_corrects_a_past_deal_and_says_what_changed(
    alice_client: Client, game: GameSession
) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    alice_client.post(
        session_url(game),
        {
            "number": "2",
            "h0-tricks": "3",
            "h0-made": "made",
            "h1-tricks": "3",
            "h1-made": "made",
            "h2-tricks": "3",
            "h2-made": "made",
            "save": "",
        },
    )
    page = alice_client.get(session_url(game, "deals/1/")).text
    assert "Correct deal 1" in page
    assert 'name="h0-bid" id="id_h0-bid" value="4"' in page
    assert 'name="revision" value="1"' in page
    # Ann actually won 3 and Ben 6: Ann failed her reveal.
    response = alice_client.post(
        session_url(game, "deals/1/"),
        {**worked_deal_form(**{"h0-tricks": "3", "h1-tricks": "6"}), "revision": "1"},
        follow=True,
    )
    assert "Deal 1 corrected." in response.text
    assert "Trump changed: deal 2 ♥ Hearts → ♠ Spades." in response.text
    assert "Totals now: Ann 97 → 16, Ben 18 → 79, Cat 33 → 103." in response.text
    change = Change.objects.filter(action="edited").get()
    assert change.before["hands"]["Ann"]["tricks"] == 4
    assert change.after["hands"]["Ann"]["tricks"] == 3
    assert Deal.objects.get(session=game, number=1).revision == 2


def test_a_correction_on_a_stale_copy_is_refused(alice_client: Client, game: GameSession) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    stale = {**worked_deal_form(**{"h0-tricks": "3", "h1-tricks": "6"}), "revision": "1"}
    alice_client.post(session_url(game, "deals/1/"), stale)
    response = alice_client.post(session_url(game, "deals/1/"), stale, follow=True)
    assert "Deal 1 was just corrected on another phone." in response.text
    assert Change.objects.filter(action="edited").count() == 1


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_a_correction_sent_again_with_other_hands_is_not_saved_and_comes_back(
    alice_client: Client, game: GameSession, headers: dict[str, str]
) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    first = {
        **worked_deal_form(**{"h0-tricks": "3", "h1-tricks": "6"}),
        "revision": "1",
        "form_key": "k",
    }
    assert (
        alice_client.post(session_url(game, "deals/1/"), first, headers=headers).status_code == 302
    )
    # Back to the page as it was (its key and revision), another correction, saved again.
    again = {**first, "h0-tricks": "2", "h1-tricks": "7"}
    response = alice_client.post(session_url(game, "deals/1/"), again, headers=headers, follow=True)
    assert "That was already saved." not in response.text
    assert "What you sent this time is different, so it was not saved" in response.text
    deal = Deal.objects.get()
    assert (deal.revision, deal.hands.get(seat__position=0).tricks) == (2, 3)
    assert Change.objects.filter(action="edited").count() == 1
    # What was typed comes back, as the correction of deal 1 as it is now, under a fresh key.
    assert "Correct deal 1" in response.text
    form = response.context["form"]
    assert (form["h0-tricks"].value(), form["h1-tricks"].value()) == ("2", "7")
    assert form["form_key"].value() not in ("", "k")
    assert str(form["revision"].value()) == "2"
    resent = {**again, "form_key": form["form_key"].value(), "revision": "2"}
    response = alice_client.post(
        session_url(game, "deals/1/"), resent, headers=headers, follow=True
    )
    assert "Deal 1 corrected." in response.text
    assert Deal.objects.get().hands.get(seat__position=0).tricks == 2


def test_a_correction_sent_twice_as_it_was_is_saved_once(
    alice_client: Client, game: GameSession
) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    fixed = {
        **worked_deal_form(**{"h0-tricks": "3", "h1-tricks": "6"}),
        "revision": "1",
        "form_key": "k",
    }
    alice_client.post(session_url(game, "deals/1/"), fixed)
    response = alice_client.post(session_url(game, "deals/1/"), fixed, follow=True)
    assert "That was already saved." in response.text
    assert Change.objects.filter(action="edited").count() == 1
    assert Deal.objects.get().revision == 2


def test_a_correction_that_breaks_later_deals_is_refused(
    alice: User, alice_client: Client, roster: list[Player]
) -> None:
    game = create_session(
        owner=alice,
        ruleset="parlett-jokerless",
        options={"match": {"type": "target", "target": 90}},
        players=roster[:3],
    )
    alice_client.post(session_url(game), worked_deal_form())  # Ann 84
    alice_client.post(
        session_url(game),
        {
            "number": "2",
            "h0-tricks": "0",
            "h0-made": "failed",
            "h1-tricks": "4",
            "h1-made": "failed",
            "h2-tricks": "5",
            "h2-made": "failed",
            "save": "",
        },
    )
    # Ann alone making 9 with a reveal scores 99: the session would end after deal 1.
    response = alice_client.post(
        session_url(game, "deals/1/"),
        {
            **worked_deal_form(
                **{
                    "h0-tricks": "9",
                    "h0-bid": "9",
                    "h1-tricks": "0",
                    "h2-tricks": "0",
                    "h2-cards": "",
                    "h2-made": "failed",
                }
            ),
            "revision": "1",
        },
    )
    assert response.status_code == 200
    assert "Deal 2: The session ended after deal 1." in response.text
    assert Deal.objects.get(session=game, number=1).hands.get(seat__position=0).tricks == 4


def test_editing_a_missing_deal_is_404(alice_client: Client, game: GameSession) -> None:
    assert alice_client.get(session_url(game, "deals/1/")).status_code == 404


def test_live_status_on_the_correction_page(alice_client: Client, game: GameSession) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    data = {**worked_deal_form(**{"h1-tricks": "7"}), "revision": "1"}
    del data["save"]
    response = alice_client.post(session_url(game, "deals/1/"), data, headers=HX)
    assert "Tricks add up to 11; a deal has 9." in response.text
    assert "<form" not in response.text


# Finishing and extending


def _play_out(game: GameSession, user: User, deals: int) -> None:
    for number in range(1, deals + 1):
        hands = {name: trick.HandEntry(tricks=3, made=True) for name in ["Ann", "Ben", "Cat"]}
        add_deal(session=game, number=number, entry=trick.DealEntry(hands=hands), who=Who(user))


def test_a_finished_session_shows_winners_and_extends(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    _play_out(game, alice, 9)
    game.refresh_from_db()
    assert game.finished
    page = alice_client.get(session_url(game)).text
    assert "Shared win: Ann, Ben and Cat" in page
    assert "Save deal" not in page
    assert 'name="extend" value="9"' in page
    response = alice_client.post(session_url(game), {"extend": "9"}, follow=True)
    assert "9 more deals to play." in response.text
    assert ">Deal 10</h2>" in response.text
    game.refresh_from_db()
    assert game.options["match"] == {"type": "deals", "deals": 18}
    assert not game.finished
    assert Change.objects.filter(action="extended").get().before == {}
    response = alice_client.post(session_url(game), {"extend": "9"}, follow=True)
    assert "cannot be extended" in response.text


def test_a_deal_after_the_end_is_refused(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    _play_out(game, alice, 9)
    response = alice_client.post(session_url(game), worked_deal_form(number=10), follow=True)
    assert Deal.objects.filter(session=game).count() == 9
    assert "The session ended after deal 9." in response.text.replace("&#x27;", "'")


def test_a_status_check_after_the_end_brings_the_whole_page_back(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    """Another phone saved the last deal while this one was typing: its next status check
    (htmx) loads the table again, finished, rather than a page inside the status box."""
    _play_out(game, alice, 9)
    data = worked_deal_form(number=9)
    del data["save"]
    response = alice_client.post(session_url(game), data, headers=HX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == session_url(game)
    page = alice_client.get(session_url(game)).text.replace("&#x27;", "'")
    assert "The session ended after deal 9." in page
    assert Deal.objects.filter(session=game).count() == 9


@pytest.mark.parametrize("last", [False, True])
def test_a_status_check_that_lands_after_its_own_save_says_nothing(
    alice_client: Client, alice: User, game: GameSession, last: bool
) -> None:
    """A check sent as the last box is filled, just before Save, reaches the server after the
    save: it changes nothing on the phone and leaves the save's message for its page."""
    if last:
        _play_out(game, alice, 8)
    number = 9 if last else 1
    data = worked_deal_form(number=number, form_key="typed-on-this-phone")
    alice_client.post(session_url(game), data)
    del data["save"]
    check = alice_client.post(session_url(game), data, headers=HX)
    assert check.status_code == 204 and not check.content
    page = alice_client.get(session_url(game)).text.replace("&#x27;", "'")
    assert f"Deal {number} saved." in page
    assert "ended after" not in page and "another phone" not in page
    assert Deal.objects.filter(session=game).count() == number


def test_history_lists_every_change(alice_client: Client, game: GameSession) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    alice_client.post(session_url(game), {"undo": "1"})
    page = alice_client.get(session_url(game, "history/")).text
    assert "Entered deal 1" in page
    assert "Deal 1 undone" in page
    assert "Undone deal" not in page
    assert "by alice" in page


def test_history_marks_what_a_correction_changed(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    game.refresh_from_db()
    # Ben keeps his hand; Ann wins 3 instead of 4, and Cat the trick she lost.
    hands = {
        "Ann": trick.HandEntry(tricks=3, bid=4, premium="reveal"),
        "Ben": trick.HandEntry(tricks=5, made=False),
        "Cat": trick.HandEntry(tricks=1, bid_cards=("diamonds",) * 3),
    }
    revision = Deal.objects.get(session=game, number=1).revision
    edit_deal(
        session=game, number=1, revision=revision, entry=trick.DealEntry(hands), who=Who(alice)
    )
    page = alice_client.get(session_url(game, "history/")).text
    correction = page.split("Corrected deal 1", 1)[1].split("Entered deal 1", 1)[0]
    before, after = correction.split(">After<", 1)
    changed = (
        '<li class="history-changed"><mark>{}</mark><span class="visually-hidden"> ({})</span></li>'
    )
    same = '<li class="history-same">{}</li>'
    assert same.format("Ben: 5 tricks, failed (bid kept hidden)") in before
    assert same.format("Ben: 5 tricks, failed (bid kept hidden)") in after
    assert changed.format("Ann: 4 tricks, bid 4, Reveal premium", "changed") in before
    assert changed.format("Ann: 3 tricks, bid 4, Reveal premium", "changed") in after
    assert changed.format("Cat: 1 trick, bid ♦♦♦ (0)", "changed") in after
    # A deal entered or undone has nothing to compare: its lines are plain.
    entered = page.split("Entered deal 1", 1)[1]
    assert "history-changed" not in entered and "history-same" not in entered


def test_sessions_home_lists_in_progress_first(
    alice_client: Client, alice: User, roster: list[Player], game: GameSession
) -> None:
    done = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3], title="Done"
    )
    _play_out(done, alice, 9)
    page = alice_client.get("/sessions/").text
    playing, finished = page.index(">In progress</h2>"), page.index(">Finished</h2>")
    assert playing < page.index(">Test<") < finished < page.index(">Done<")
    assert "9 deals" in page


# Ownership


@pytest.mark.parametrize(
    ("method", "suffix", "data"),
    [
        ("get", "", {}),
        ("post", "", {"undo": "1"}),
        ("post", "", {"extend": "9"}),
        ("post", "", {**worked_deal_form()}),
        ("get", "deals/1/", {}),
        ("post", "deals/1/", {**worked_deal_form(), "revision": "1"}),
        ("get", "history/", {}),
        ("get", "scoresheet.json", {}),
    ],
)
def test_another_user_gets_404_everywhere(
    alice_client: Client,
    bob_client: Client,
    game: GameSession,
    method: str,
    suffix: str,
    data: dict[str, str],
) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    response = getattr(bob_client, method)(session_url(game, suffix), data)
    assert response.status_code == 404
    assert Deal.objects.count() == 1
    assert Change.objects.count() == 1


def test_another_users_players_cannot_be_seated(
    bob_client: Client, bob: User, roster: list[Player]
) -> None:
    response = bob_client.post(
        "/sessions/new/trick/parlett-jokerless/",
        {
            "seat_0": roster[0].pk,
            "seat_1": roster[1].pk,
            "seat_2": roster[2].pk,
            "match_type": "deals",
            "match_number": "9",
            "first_trump": "diamonds",
            "start": "",
        },
    )
    assert "Choose a player from your roster." in response.text
    assert not GameSession.objects.exists()


def test_anonymous_users_are_sent_to_log_in(client: Client, game: GameSession) -> None:
    for suffix in ["", "deals/1/", "history/"]:
        assert client.get(session_url(game, suffix))["Location"].startswith("/accounts/login/")
    assert client.get("/sessions/new/")["Location"].startswith("/accounts/login/")


# Performance


def test_the_session_page_uses_a_fixed_number_of_queries(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    counts = []
    for deals in (3, 90):
        game = create_session(
            owner=alice,
            ruleset="parlett-jokerless",
            options={"match": {"type": "deals", "deals": 90}},
            players=roster[:3],
        )
        _play_out(game, alice, deals)
        with CaptureQueriesContext(connection) as queries:
            assert alice_client.get(session_url(game)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert counts[1] <= 12


def test_export_after_table_entry_round_trips(alice_client: Client, game: GameSession) -> None:
    alice_client.post(session_url(game), worked_deal_form())
    data = json.loads(alice_client.get(session_url(game, "scoresheet.json")).content)
    assert data["deals"][0]["hands"]["Cat"] == {"tricks": 0, "bid_cards": ["diamonds"] * 3}
    assert (
        data["totals"]
        if "totals" in data
        else data["deals"][0]["totals"]
        == {
            "Ann": 84,
            "Ben": 5,
            "Cat": 20,
        }
    )


def test_undo_on_an_empty_session_is_refused_plainly(
    alice_client: Client, game: GameSession
) -> None:
    # Found by the fuzz tests: "undo 0" on a session without deals crashed.
    for number in ["0", "-1", "1"]:
        response = alice_client.post(session_url(game), {"undo": number}, follow=True)
        assert response.status_code == 200
        assert "is no longer the last deal" in response.text


def test_a_saved_deal_and_its_page_never_write_the_login_session(
    alice_client: Client, game: GameSession
) -> None:
    """The save's message rides in a cookie: one write transaction a deal (the deal itself),
    where keeping it in the login session wrote that row twice more (SQLite takes them one at
    a time)."""
    with CaptureQueriesContext(connection) as queries:
        saved = alice_client.post(session_url(game), worked_deal_form())
        page = alice_client.get(saved["Location"])
    assert saved.status_code == 302 and "Deal 1 saved" in page.text
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert not [sql for sql in writes if "django_session" in sql], writes
    assert Deal.objects.filter(session=game).count() == 1


def test_the_trump_buttons_show_the_red_suits_in_red(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    """A trump turned up at the table is picked from suit buttons; hearts and diamonds are red
    (the suits' colours come from the rules' suits, not the template)."""
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={"trump": "turn-up"}, players=roster[:3]
    )
    page = alice_client.get(f"/sessions/{game.public_id}/").text
    buttons = re.findall(r'<label class="([^"]*trump-btn[^"]*)" for="id_trump_(\d)"', page)
    red = {trick.TRUMPS[int(index)] for classes, index in buttons if "suit-red" in classes}
    assert len(buttons) == len(trick.TRUMPS)
    assert red == {"hearts", "diamonds"}
