"""What an attacker with an ordinary account tries, one test for each way in.

Bounds come from RULES.md §3 (Bounds) and live once, in `scorekeeper.rules.bounds`.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from scorekeeper.models import Change, Deal, GameSession, Player, RoundEvent
from scorekeeper.services import create_adding_session, create_session
from tests.factories import EMPTY_SHEET, post_scoresheet
from tests.pages import without_tokens

TRICK = EMPTY_SHEET
ADDING = {**TRICK, "family": "adding", "ruleset": "thirty-three", "rounds": []}
del ADDING["deals"]


def _refused(response: Any, *words: str) -> str:
    """The import was refused with a form message naming the problem; nothing was saved."""
    assert response.status_code == 200, response.status_code
    text = response.content.decode()
    for word in words:
        assert word in text, word
    assert GameSession.objects.count() == 0
    return text


# The login rate limit never tells whether the password was right.


def test_a_refused_login_never_checks_the_password(
    client: Client, alice: User, settings: Any
) -> None:
    settings.LOGIN_RATE_LIMIT = (2, 600)
    for _ in range(2):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    with mock.patch(
        "django.contrib.auth.backends.ModelBackend.authenticate", autospec=True
    ) as backend:
        wrong = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        right = client.post(
            "/accounts/login/", {"username": "alice", "password": "correct horse battery"}
        )
    assert backend.call_count == 0
    assert wrong.status_code == right.status_code == 429
    assert without_tokens(wrong.text) == without_tokens(right.text)
    assert "Please enter a correct username" not in right.text
    assert 'value="alice"' in right.text  # the name stays as typed; the password never does
    assert "_auth_user_id" not in client.session


# No upload stalls or crashes the server.


def test_an_adjustment_in_the_millions_is_refused(alice_client: Client) -> None:
    sheet = {
        **ADDING,
        "rounds": [{"events": [{"player": "Ann", "event": "adjust", "tokens": 10**6}]}],
    }
    _refused(post_scoresheet(alice_client, sheet), "rounds[0].events[0].tokens", "99")


def test_tokens_in_the_millions_are_refused(alice_client: Client) -> None:
    sheet = {**ADDING, "ruleset": "custom", "options": {"tokens": 5_000_000}}
    _refused(post_scoresheet(alice_client, sheet), "options.tokens", "1 to 99")


def test_an_integer_beyond_64_bits_is_refused_not_a_crash(alice_client: Client) -> None:
    sheet = {
        **ADDING,
        "rounds": [{"events": [{"player": "Ann", "event": "adjust", "tokens": -(2**70)}]}],
    }
    _refused(post_scoresheet(alice_client, sheet), "rounds[0].events[0].tokens")
    assert RoundEvent.objects.count() == 0


def test_a_huge_bonus_is_refused_by_the_import_and_the_start_form(
    alice_client: Client, roster: list[Player]
) -> None:
    sheet = {**TRICK, "ruleset": "custom", "options": {"bonus": [10**30, 20, 10]}}
    _refused(post_scoresheet(alice_client, sheet), "options.bonus", "1,000")
    ann, ben, cat = roster
    response = alice_client.post(
        "/sessions/new/trick/five/",
        {"seat_0": ann.pk, "seat_1": ben.pk, "seat_2": cat.pk, "bonus": "1001, 40, 30"},
    )
    _refused(response, "1,000")


def test_a_deeply_nested_value_is_refused_before_it_is_read(alice_client: Client) -> None:
    deep: object = 1
    for _ in range(400):
        deep = [deep]
    sheet = {**TRICK, "options": {"match": deep}}
    _refused(post_scoresheet(alice_client, sheet), "nested")


def test_a_value_nested_thousands_deep_is_refused_not_a_crash(alice_client: Client) -> None:
    # Some hundred levels are read by the JSON reader without trouble; past about 900 it
    # raised RecursionError, a 500. Written out by hand: json.dumps would recurse as deep.
    deep = b"[" * 5_000 + b"1" + b"]" * 5_000
    raw = json.dumps(TRICK)[:-1].encode() + b', "options": {"match": ' + deep + b"}}"
    alice_client.raise_request_exception = False  # a crash is an answer (500) to assert on
    _refused(post_scoresheet(alice_client, raw), "nested")


def test_a_file_of_a_hundred_thousand_deals_is_refused_at_once_in_few_words(
    alice_client: Client,
) -> None:
    sheet = {**TRICK, "deals": [{"hands": {}}] * 100_000}
    raw = json.dumps(sheet, separators=(",", ":")).encode()
    assert len(raw) < 2_000_000
    response = post_scoresheet(alice_client, raw)
    text = _refused(response, "deals", "2,000")
    assert len(text) < 60_000


def test_a_long_list_of_problems_is_cut_short_with_a_count(alice_client: Client) -> None:
    sheet = {**TRICK, "deals": [{"hands": {"Ann": {"tricks": -1}}}] * 1500}
    text = _refused(post_scoresheet(alice_client, sheet), "more problems")
    assert text.count("deals[") < 100


# No rename breaks a session.


def test_names_differing_only_by_case_outside_ascii_are_one_name(
    alice_client: Client, alice: User
) -> None:
    eva = Player.objects.create(owner=alice, name="Éva")
    other = Player.objects.create(owner=alice, name="Zoe")
    response = alice_client.post(f"/players/{other.pk}/", {"name": "éva", "rename": ""})
    assert response.status_code == 200
    assert "You already have a player called Éva" in response.text
    other.refresh_from_db()
    assert other.name == "Zoe"
    # The database holds the line too, on SQLite as on PostgreSQL.
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(owner=alice, name="ÉVA")
    # Compatibility forms are folded as well: a full-width "Ｅｖａ" is not a fourth Eva.
    Player.objects.create(owner=alice, name="Eva")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(owner=alice, name="Ｅｖａ")
    assert eva.name == "Éva"


def test_a_file_with_names_differing_only_by_case_is_refused(alice_client: Client) -> None:
    _refused(
        post_scoresheet(alice_client, {**TRICK, "players": ["Éva", "éva", "Cat"]}), "players[1]"
    )


# Smaller ways in.


def test_the_csv_does_not_turn_names_into_formulas(alice_client: Client, alice: User) -> None:
    sheet = {**TRICK, "players": ["=HYPERLINK(1)", "+Ben", "@Cat"]}
    assert post_scoresheet(alice_client, sheet).status_code == 302
    game = GameSession.objects.get()
    rows = list(
        csv.reader(io.StringIO(alice_client.get(f"/sessions/{game.public_id}/session.csv").text))
    )
    cells = [cell for row in rows for cell in row]
    assert "'=HYPERLINK(1) bid" in cells
    assert not any(cell[:1] in ("=", "+", "@", "\t", "\r") for cell in cells)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"title": "x" * 1_900_000}, "title"),
        ({"title": "Friday\x00"}, "title"),
        ({"players": ["Ann\x00", "Ben", "Cat"]}, "players[0]"),
        ({"players": ["A" * 41, "Ben", "Cat"]}, "players[0]"),
    ],
)
def test_the_import_checks_titles_and_names_as_the_forms_do(
    alice_client: Client, change: dict[str, object], where: str
) -> None:
    _refused(post_scoresheet(alice_client, {**TRICK, **change}), where)


def test_password_change_is_rate_limited(alice_client: Client, alice: User, settings: Any) -> None:
    settings.LOGIN_RATE_LIMIT = (2, 600)
    wrong = {
        "old_password": "nope",
        "new_password1": "a brand new pw!",
        "new_password2": "a brand new pw!",
    }
    for _ in range(2):
        assert alice_client.post("/accounts/password/", wrong).status_code == 200
    with mock.patch(
        "django.contrib.auth.base_user.AbstractBaseUser.check_password", autospec=True
    ) as check:
        response = alice_client.post(
            "/accounts/password/", {**wrong, "old_password": "correct horse battery"}
        )
    assert response.status_code == 429
    assert check.call_count == 0
    alice.refresh_from_db()
    assert alice.check_password("correct horse battery")


def test_sign_up_is_rate_limited(client: Client, db: None, settings: Any) -> None:
    settings.SIGNUP_RATE_LIMIT = (2, 600)
    for name in ("carol", "dave"):
        data = {"username": name, "password1": "x", "password2": "y"}
        assert client.post("/accounts/signup/", data).status_code == 200
    good = {
        "username": "erin",
        "password1": "a fine long password",
        "password2": "a fine long password",
    }
    response = client.post("/accounts/signup/", good)
    assert response.status_code == 429
    assert not User.objects.filter(username="erin").exists()


def test_a_taken_username_costs_the_same_work_as_a_free_one(client: Client, alice: User) -> None:
    data = {
        "username": "alice",
        "password1": "a fine long password",
        "password2": "a fine long password",
    }
    # Creating an account hashes its password once; refusing a taken name must too, or the
    # time of the answer would say what its words try not to.
    with mock.patch("django.contrib.auth.base_user.make_password", wraps=make_password) as hashing:
        response = client.post("/accounts/signup/", data)
    assert response.status_code == 200
    assert hashing.call_count == 1
    free = {**data, "username": "zed"}
    with mock.patch("django.contrib.auth.base_user.make_password", wraps=make_password) as hashing:
        assert client.post("/accounts/signup/", free).status_code == 302
    assert hashing.call_count == 1


def test_pages_with_link_tokens_and_exports_are_never_stored(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    base = f"/sessions/{game.public_id}/"
    alice_client.post(base + "share/", {"watch": "on", "scorer": "on"})
    game.refresh_from_db()
    urls = [
        base + "share/",
        base + "scoresheet.json",
        base + "session.csv",
        f"/w/{game.watch_token}/live/",
    ]  # The table pages are kept by the service worker, no other cache: tests/views/test_rules.py.
    for url in urls:
        response = alice_client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url


def test_a_form_sent_again_with_other_content_says_so_and_keeps_it(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    url = f"/sessions/{game.public_id}/"
    deal = {
        "number": "1",
        "form_key": "key-1",
        "h0-tricks": "4",
        "h0-bid": "4",
        "h1-tricks": "5",
        "h1-made": "failed",
        "h2-tricks": "0",
        "h2-bid": "0",
        "save": "",
    }
    assert alice_client.post(url, deal).status_code == 302
    changed = {**deal, "number": "2", "h0-tricks": "3", "h0-bid": "3", "h1-tricks": "6"}
    response = alice_client.post(url, changed, follow=True)
    assert "already used to save deal 1" in response.text
    assert "was not saved" in response.text
    assert Deal.objects.count() == 1
    assert Change.objects.count() == 1
    # What was typed is offered again, under a fresh key, to save as the next deal.
    form = response.context["form"]
    assert form["h1-tricks"].value() == "6"
    assert form["form_key"].value() not in ("", "key-1")


def test_a_tap_sent_again_as_another_tap_says_so(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_adding_session(owner=alice, ruleset="thirty-three", options={}, players=roster)
    url = f"/sessions/{game.public_id}/"
    first = {"state": "0.0", "form_key": "tap-key", "tap": "0:hit:33"}
    assert alice_client.post(url, first).status_code == 302
    again = {"state": "1.1", "form_key": "tap-key", "tap": "1:bust:"}
    response = alice_client.post(url, again, follow=True)
    assert "already recorded" in response.text
    assert "Ben: Bust was not recorded" in response.text
    assert RoundEvent.objects.count() == 1


def test_ten_players_can_sit_at_an_adding_table(alice_client: Client, alice: User) -> None:
    # Found on the way: the adding game takes 2 to 10 players, but seats stopped at 8, so a
    # file of 9 or 10 players crashed the import and the start form offered 8 seats.
    names = [f"P{n}" for n in range(10)]
    assert (
        post_scoresheet(
            alice_client, {**ADDING, "ruleset": "ninety-nine", "players": names}
        ).status_code
        == 302
    )
    assert GameSession.objects.get().seats.count() == 10
    page = alice_client.get("/sessions/new/adding/ninety-nine/").text
    assert page.count('name="seat_') == 10


def test_a_correction_sent_with_another_deal_number_corrects_the_deal_of_its_page(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    # Found by the fuzz tests: a correction form whose hidden number named a deal that does
    # not exist answered 500.
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=roster)
    url = f"/sessions/{game.public_id}/"
    deal = {"number": "1", "h0-tricks": "3", "h0-made": "made", "h1-tricks": "3",
            "h1-made": "made", "h2-tricks": "3", "h2-made": "made", "save": ""}  # fmt: skip
    assert alice_client.post(url, deal).status_code == 302
    fixed = {**deal, "number": "7", "revision": "1", "h2-made": "failed", "h2-bid": "2"}
    response = alice_client.post(url + "deals/1/", fixed, follow=True)
    assert response.status_code == 200
    assert "Deal 1 corrected." in response.text
    assert Deal.objects.get().hands.get(seat__position=2).bid == 2
