"""What a new user needs at the table, as the server answers it; what only a browser shows is
in tests/browser/test_at_the_table.py."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import live
from scorekeeper.models import Change, Deal, GameSession, Player
from scorekeeper.presenters import adding as adding_presenter
from scorekeeper.presenters import trick as trick_presenter
from scorekeeper.rules import adding, trick
from scorekeeper.services import Who, add_deal, create_adding_session, create_session, record_event

NAMES = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def roster_names() -> list[str]:
    """Four players: a deal of three or of four."""
    return NAMES


def _deal(**hands: tuple[int, int | None]) -> trick.DealEntry:
    """A deal: each player's (tricks, bid), a bid None kept hidden (failed)."""
    return trick.DealEntry(
        hands={
            name: trick.HandEntry(tricks, bid=bid)
            if bid is not None
            else trick.HandEntry(tricks, made=False)
            for name, (tricks, bid) in hands.items()
        }
    )


# 3. Two phones on one deal: what phone A typed is never dropped.

ENTERED = {
    "number": "1",
    "form_key": "phone-a",
    "h0-tricks": "3",
    "h0-bid": "3",
    "h1-tricks": "2",
    "h1-bid": "2",
    "h2-tricks": "4",
    "h2-bid": "1",
}


def test_a_deal_entered_meanwhile_on_another_phone_keeps_what_this_phone_typed(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    # Phone B saves deal 1 while phone A is half way through it.
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(3, 3), Cat=(3, 3)), who=Who(alice)
    )
    # A's status box says so, and keeps A's hands.
    status = alice_client.post(
        url, ENTERED, headers={"HX-Request": "true", "HX-Target": "entry-status"}
    )
    assert status.status_code == 200
    assert "Deal 1 was just entered on another phone" in status.text
    assert "deal 2" in status.text
    # A saves: nothing is thrown away; the hands come back as deal 2, said once.
    response = alice_client.post(url, {**ENTERED, "save": ""})
    assert response.status_code == 200
    text = response.content.decode()
    assert text.count("Deal 1 was just entered on another phone") == 1
    form = response.context["form"]
    assert form["number"].value() == "2"
    assert form["h2-tricks"].value() == "4"
    assert form["h2-bid"].value() == "1"
    assert Deal.objects.count() == 1


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true", "HX-Target": "entry-status"}])
def test_the_hands_another_phone_saved_are_not_offered_as_the_next_deal(
    alice_client: Client, alice: User, roster: list[Player], headers: dict[str, str]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    # Phone B saves deal 1 with the very hands phone A has typed.
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(2, 2), Cat=(4, 1)), who=Who(alice)
    )
    # A's check (htmx, or "Check without saving" without JavaScript) says so; its Save now
    # starts deal 2, and the form still names deal 1, so that Save knows these hands again.
    status = alice_client.post(url, ENTERED, headers=headers)
    assert status.status_code == 200
    text = status.content.decode()
    said = (
        "Deal 1 was just saved on another phone, with the same hands as here: it is stored "
        "once, and these hands are not kept for deal 2."
    )
    assert said in text
    assert "What you typed is kept" not in text
    assert "Start deal 2" in text
    assert "Save deal 2" not in text
    assert re.search(r'<input type="hidden" name="number" value="1"', text)
    # A's Save, tapped by reflex, stores nothing twice: the table comes back with deal 2 empty.
    response = alice_client.post(url, {**ENTERED, "save": ""}, follow=True)
    assert response.redirect_chain == [(url, 302)]
    text = response.content.decode()
    assert text.count(said) == 1
    assert response.context["form"]["number"].value() == 2
    assert response.context["form"]["h0-tricks"].value() is None
    assert Deal.objects.count() == 1


def test_other_hands_than_the_deal_saved_meanwhile_are_kept_as_the_next_deal(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(2, 2), Cat=(4, 2)), who=Who(alice)
    )
    response = alice_client.post(url, {**ENTERED, "save": ""})
    assert "Deal 1 was just entered on another phone. What you typed is kept" in response.text
    assert response.context["form"]["number"].value() == "2"
    alice_client.post(url, {**ENTERED, "number": "2", "save": ""})
    assert Deal.objects.count() == 2


def test_an_empty_form_is_told_it_is_the_next_deal_now(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(2, 2), Cat=(4, 2)), who=Who(alice)
    )
    status = alice_client.post(
        f"/sessions/{game.public_id}/",
        {"number": "1", "h0-made": "", "h1-made": ""},
        headers={"HX-Request": "true", "HX-Target": "entry-status"},
    )
    text = status.content.decode()
    assert "Deal 1 was just entered on another phone: this form is deal 2 now." in text
    assert "What you typed" not in text
    assert '<span id="save-label" hx-swap-oob="true">Save deal 2</span>' in text


def test_a_form_ahead_of_the_scoresheet_says_a_deal_was_undone_only_when_one_was(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    """A form for deal 3 reaches a session of one deal: a deal before it never arrived (a deal
    kept on the phone was refused and left unsaved), or another phone undid one. The message
    says which, and never names an undo that nobody made."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(2, 2), Cat=(4, 2)), who=Who(alice)
    )
    ahead = {**ENTERED, "number": "3", "form_key": "phone-a-3"}
    response = alice_client.post(url, {**ahead, "save": ""})
    text = response.content.decode()
    assert (
        "The scoresheet&#x27;s next deal is deal 2, not 3. What you typed is kept here as deal "
        "2: check it, then save." in text
    )
    assert "undone" not in text
    assert response.context["form"]["number"].value() == "2"
    assert Deal.objects.count() == 1

    add_deal(
        session=game, number=2, entry=_deal(Ann=(3, 3), Ben=(3, 3), Cat=(3, 3)), who=Who(alice)
    )
    alice_client.post(url, {"undo": "2"})
    response = alice_client.post(url, {**ahead, "save": ""})
    assert "A deal was undone on another phone. What you typed is kept here as deal 2" in (
        response.content.decode()
    )


def test_a_form_filled_with_a_stored_deal_says_its_points_at_once(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    """The correction page, and the table after an undo, come with every box filled: their
    status box says what the rules make of the deal, as it does after a tap."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(2, 2), Cat=(4, 2)), who=Who(alice)
    )
    for page in (
        alice_client.get(f"{url}deals/1/"),
        alice_client.post(url, {"undo": "1"}, follow=True),
    ):
        status = re.search(r'<div id="entry-status".*?</div>', page.content.decode(), re.S)
        assert status is not None
        assert "Ready to save:" in status.group()
        assert "Ann +23 ✓ · Ben +22 ✓ · Cat +4" in status.group()
        assert "Each hand: bid-cards or bid, then tricks." not in status.group()


# 4. Adding-game charts start at the starting tokens.


def test_an_adding_chart_starts_where_the_players_start(alice: User, roster: list[Player]) -> None:
    game = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=roster[:3]
    )
    record_event(session=game, state="0.0", event=adding.Event("Ann", "bust"), who=Who(alice))
    game = GameSession.objects.with_seats().get(pk=game.pk)
    chart = adding_presenter.chart(live.result(game))
    assert chart is not None
    heights = [[float(p.split(",")[1]) for p in line.points.split()] for line in chart.lines]
    # Everyone starts on 9 tokens: Ben's and Cat's lines stay level, Ann's goes down (the
    # drawing's y grows downwards).
    assert heights[1][0] == heights[1][1] and heights[2][0] == heights[2][1]
    assert heights[0][0] < heights[0][1]


# 5. The history: numbered once per change, and before/after in words.


def test_the_history_numbers_its_changes_and_says_them_in_words(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="declared", options={}, players=roster[:3])
    for number in (1, 2):
        add_deal(
            session=game,
            number=number,
            entry=_deal(Ann=(3, 3), Ben=(3, None), Cat=(3, 2)),
            who=Who(alice),
        )
    alice_client.post(f"/sessions/{game.public_id}/", {"undo": "2"})
    page = alice_client.get(f"/sessions/{game.public_id}/history/").text
    assert Change.objects.count() == 3
    items = re.findall(r'<li class="history-item" value="(\d+)"', page)
    assert items == ["3", "2", "1"]
    assert "{'" not in page and "&#x27;hands&#x27;" not in page
    assert "Ann: 3 tricks, bid 3" in page
    assert "Ben: 3 tricks, failed (bid kept hidden)" in page


# 6. A watch link that was turned off says so, in development too.


@pytest.mark.parametrize("debug", [True, False])
def test_a_link_turned_off_says_it_no_longer_works(
    client: Client, db: None, settings: Any, debug: bool
) -> None:
    settings.DEBUG = debug
    for url in ["/w/no-such-token/", "/s/no-such-token/", "/w/no-such-token/deals/"]:
        response = client.get(url)
        assert response.status_code == 404
        assert "This link no longer works" in response.text
        assert "technical" not in response.text.lower()


# 7. Singular and plural.


def test_one_trick_is_one_trick() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, ["Ann", "Ben", "Cat"])
    result = trick.score_session(rules, [_deal(Ann=(1, None), Ben=(4, 4), Cat=(4, 4))])
    assert trick_presenter.breakdown(result.deals[0].hands[0]) == "1 trick"
    assert trick_presenter.breakdown(result.deals[0].hands[1]) == "4 tricks + 20 bonus"


# 11. The CSV: premiums, made in words, and named after the session.


def test_the_csv_has_premiums_words_and_a_name(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(
        owner=alice,
        ruleset="parlett-jokerless",
        options={},
        players=roster[:3],
        title="Friday at Sam's",
    )
    entry = trick.DealEntry(
        hands={
            "Ann": trick.HandEntry(4, bid=4, premium="reveal"),
            "Ben": trick.HandEntry(5, made=False),
            "Cat": trick.HandEntry(0, bid=0),
        }
    )
    add_deal(session=game, number=1, entry=entry, who=Who(alice))
    response = alice_client.get(f"/sessions/{game.public_id}/session.csv")
    day = game.created.date().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="friday-at-sams-{day}.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][4:9] == ["Ann bid", "Ann tricks", "Ann made", "Ann premium", "Ann points"]
    assert rows[1][4:9] == ["4", "4", "made", "reveal", "84"]
    assert rows[1][9:14] == ["", "5", "failed", "", "5"]


# 13. A dollar bill speaks of folds left, on the whole table page.


def test_a_dollar_bill_game_speaks_of_folds_left(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_adding_session(owner=alice, ruleset="dollar-bill", options={}, players=roster[:3])
    record_event(session=game, state="0.0", event=adding.Event("Ann", "bust"), who=Who(alice))
    page = alice_client.get(f"/sessions/{game.public_id}/").text
    assert "corner" not in page
    assert "3 folds left" in page
    assert "Folds left" in page
    assert "folds left after it" in page


# 14. Smaller ones.


def test_the_player_filter_says_any(alice_client: Client, roster: list[Player]) -> None:
    page = alice_client.get("/sessions/?q=").text
    assert "Select an option" not in page
    assert '<option value="" selected>Any player</option>' in page


def test_a_turned_up_trump_is_called_so(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=roster[:3])
    page = alice_client.get(f"/sessions/{game.public_id}/").text
    assert "Table decides" not in page
    assert "Turned up at the table" in page


# 15. Log-in hashes with Argon2, and older hashes are upgraded when their owner logs in.


def test_passwords_are_hashed_with_argon2_and_old_hashes_upgraded(
    client: Client, db: None, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.Argon2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    user = User.objects.create(
        username="olga", password=make_password("an old pbkdf2 one", hasher="pbkdf2_sha256")
    )
    assert user.password.startswith("pbkdf2_sha256$")
    response = client.post(
        "/accounts/login/", {"username": "olga", "password": "an old pbkdf2 one"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$")


def test_the_production_hashers_put_argon2_first() -> None:
    from scorekeeper import settings as production
    from scorekeeper.hashers import TableArgon2PasswordHasher

    assert production.PASSWORD_HASHERS[0] == "scorekeeper.hashers.TableArgon2PasswordHasher"
    hasher = TableArgon2PasswordHasher()
    # OWASP's Password Storage Cheat Sheet, Argon2id: 19 MiB, 2 passes, 1 lane.
    assert (hasher.memory_cost, hasher.time_cost, hasher.parallelism) == (19 * 1024, 2, 1)
    assert hasher.encode("x", hasher.salt()).startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")


def test_an_argon2_hash_with_other_settings_is_made_again_at_log_in(
    client: Client, db: None, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
    old = make_password("django's own settings")
    settings.PASSWORD_HASHERS = ["scorekeeper.hashers.TableArgon2PasswordHasher"]
    assert "m=102400,t=2,p=8" in old
    user = User.objects.create(username="oscar", password=old)
    response = client.post(
        "/accounts/login/", {"username": "oscar", "password": "django's own settings"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert "$m=19456,t=2,p=1$" in user.password


# The standings strip: on every table page, and in every live answer (swapped out of band).


def test_the_table_and_its_live_answers_carry_the_standings_strip(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(3, 3), Cat=(3, 3)), who=Who(alice)
    )
    page = alice_client.get(f"/sessions/{game.public_id}/").text
    strip = page[page.index('<div id="standings-strip"') :]
    assert "hx-swap-oob" not in strip[: strip.index(">")]
    assert re.findall(r'class="strip-value">(\d+)<', page) == ["13", "13", "13"]
    live = alice_client.get(f"/sessions/{game.public_id}/live/", headers={"HX-Request": "true"})
    assert live.text.lstrip().startswith('<div id="live"')
    assert '<div id="standings-strip" class="standings-strip" hx-swap-oob="true">' in live.text
    assert re.findall(r'class="strip-change">([^<]+)<', live.text) == ["+13", "+13", "+13"]


# Deal entry: a bid-card tap without JavaScript, and the number the cards make.


def test_a_card_tap_without_javascript_sets_the_bid_the_cards_make(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    data = {**ENTERED, "h2-bid": "", "h2-cards": "CD"}
    page = alice_client.post(f"/sessions/{game.public_id}/", {**data, "card": "h2:S"}).text
    assert 'name="h2-cards" id="id_h2-cards" value="CDS"' in page
    assert 'name="h2-bid" id="id_h2-bid" value="4"' in page
    page = alice_client.post(f"/sessions/{game.public_id}/", {**data, "card": "h2:clear"}).text
    assert 'name="h2-bid" id="id_h2-bid" value=""' in page


def test_the_cards_are_stored_as_the_bid_and_a_different_number_is_refused(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    refused = alice_client.post(url, {**ENTERED, "h2-cards": "CDS", "h2-bid": "5", "save": ""})
    assert "The bid-cards make 4, but the bid is 5." in refused.text
    assert not Deal.objects.exists()
    saved = alice_client.post(url, {**ENTERED, "h2-cards": "CDS", "h2-bid": "4", "save": ""})
    assert saved.status_code == 302
    stored = GameSession.objects.get(pk=game.pk).entries()[0].hands["Cat"]
    assert stored == trick.HandEntry(4, bid_cards=("clubs", "diamonds", "spades"))


# Undo offers the undone deal back in the form, and can be redone.


def test_an_undone_deal_comes_back_in_the_form_and_can_be_redone(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    first = _deal(Ann=(3, 3), Ben=(3, 3), Cat=(3, 3))
    second = trick.DealEntry(
        hands={
            "Ann": trick.HandEntry(4, bid_cards=("hearts", "hearts", "diamonds")),
            "Ben": trick.HandEntry(5, made=False),
            "Cat": trick.HandEntry(0, bid=0),
        }
    )
    add_deal(session=game, number=1, entry=first, who=Who(alice))
    add_deal(session=game, number=2, entry=second, who=Who(alice))
    page = alice_client.post(url, {"undo": "2"}, follow=True)
    assert "Deal 2 undone. It is kept in the history." in page.text
    form = page.context["form"]
    assert form["number"].value() == 2
    assert form["h0-cards"].value() == "HHD"
    assert form["h0-bid"].value() == 4  # what the cards make, beside them
    assert form["h1-tricks"].value() == 5
    assert form["h1-made"].value() == "failed"
    assert "Redo deal 2 as it was" in page.text
    # Redo puts it back exactly, recorded as entered again.
    page = alice_client.post(url, {"redo": "2", "form_key": "redo-1"}, follow=True)
    assert "Redone as it was. Deal 2 saved." in page.text
    assert GameSession.objects.get(pk=game.pk).entries() == [first, second]
    assert [c.action for c in Change.objects.order_by("id")] == [
        "added", "added", "deleted", "added",
    ]  # fmt: skip
    assert "Redo deal" not in page.text
    # Nothing to redo once something else happened.
    refused = alice_client.post(url, {"redo": "2"}, follow=True)
    assert "Deal 2 can no longer be redone" in refused.text
    assert len(GameSession.objects.get(pk=game.pk).entries()) == 2


def test_a_redo_is_not_offered_to_a_watcher_or_after_another_deal(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3])
    url = f"/sessions/{game.public_id}/"
    add_deal(
        session=game, number=1, entry=_deal(Ann=(3, 3), Ben=(3, 3), Cat=(3, 3)), who=Who(alice)
    )
    alice_client.post(url, {"undo": "1"})
    add_deal(
        session=game, number=1, entry=_deal(Ann=(4, 4), Ben=(3, 3), Cat=(2, 2)), who=Who(alice)
    )
    page = alice_client.get(url)
    assert "Redo deal" not in page.text
    assert page.context["form"]["h0-tricks"].value() is None
