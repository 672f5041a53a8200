import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Player
from scorekeeper.services import create_session


def test_it_welcomes_a_first_time_visitor(client: Client, db: None) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert 'href="/accounts/signup/"' in response.text
    assert "Create an account" in response.text


def test_it_shows_home_when_logged_in(alice_client: Client) -> None:
    response = alice_client.get("/")
    assert response.status_code == 200
    assert "Hello, alice" in response.text


def _big_buttons(page: str) -> list[tuple[str, str, str]]:
    """The home page's large buttons in order: (style, link, words)."""
    found = re.findall(
        r'<a class="btn (btn-[\w-]+) btn-lg[^"]*" href="([^"]+)">(.*?)</a>', page, re.S
    )
    return [
        (style, href, " ".join(re.sub(r"<[^>]+>", " ", words).split()))
        for style, href, words in found
    ]


@pytest.mark.parametrize("players", [0, 3])
def test_home_leads_with_starting_a_session(
    alice_client: Client, alice: User, players: int
) -> None:
    """After sign-up the main button starts a session (the start page adds players as it
    seats them); the players and the sessions come after it, then club nights and seasons."""
    for name in ["Ann", "Ben", "Cat"][:players]:
        Player.objects.create(owner=alice, name=name)
    buttons = _big_buttons(alice_client.get("/").text)
    assert buttons[0] == ("btn-success", "/sessions/new/", "Start a session")
    assert [style for style, _, _ in buttons[1:]] == ["btn-outline-success"] * 4
    assert buttons[1][1:] == ("/players/", "Your players" if players else "Add players")
    assert buttons[2][1:] == ("/sessions/", "Sessions")
    assert buttons[3][1:] == ("/nights/", "Club nights")
    assert buttons[4][1:] == ("/seasons/", "Seasons and the club ladder")


def test_with_a_session_in_progress_continuing_comes_first(
    alice_client: Client, alice: User
) -> None:
    seats = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=seats)
    buttons = _big_buttons(alice_client.get("/").text)
    assert buttons[0][:2] == ("btn-success", f"/sessions/{game.public_id}/")
    assert buttons[1] == ("btn-outline-success", "/sessions/new/", "Start a session")


def test_it_signs_up_and_logs_in(client: Client, db: None) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "password1": "a fine long password",
            "password2": "a fine long password",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/players/"
    assert User.objects.filter(username="carol").exists()
    assert client.get("/").context["user"].username == "carol"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "", "password1": "x", "password2": "x"}, "This field is required."),
        (
            {"username": "dave", "password1": "a fine long password", "password2": "different"},
            "The two password fields didn",
        ),
        ({"username": "dave", "password1": "123", "password2": "123"}, "too short"),
        (
            {
                "username": "alice",
                "password1": "a fine long password",
                "password2": "a fine long password",
            },
            "A user with that username already exists.",
        ),
    ],
)
def test_it_rejects_bad_signups(client: Client, alice: User, data: dict, message: str) -> None:
    response = client.post("/accounts/signup/", data)
    assert response.status_code == 200
    assert message in response.text
    assert User.objects.count() == 1


def test_signup_redirects_a_logged_in_user(alice_client: Client) -> None:
    assert alice_client.get("/accounts/signup/")["Location"] == "/"


def test_it_logs_in_and_out(client: Client, alice: User) -> None:
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse battery"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.get("/players/").status_code == 302


def test_it_rejects_a_wrong_password(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.text


def test_logout_needs_post(alice_client: Client) -> None:
    assert alice_client.get("/accounts/logout/").status_code == 405


def test_it_changes_the_password(alice_client: Client, alice: User) -> None:
    assert alice_client.get("/accounts/password/").status_code == 200
    response = alice_client.post(
        "/accounts/password/",
        {
            "old_password": "correct horse battery",
            "new_password1": "a brand new password",
            "new_password2": "a brand new password",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/done/"
    assert alice_client.get("/accounts/password/done/").status_code == 200
    alice.refresh_from_db()
    assert alice.check_password("a brand new password")


def test_it_rejects_a_wrong_old_password(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        "/accounts/password/",
        {
            "old_password": "wrong",
            "new_password1": "a brand new pw",
            "new_password2": "a brand new pw",
        },
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.text
    alice.refresh_from_db()
    assert alice.check_password("correct horse battery")


def test_password_change_requires_login(client: Client, db: None) -> None:
    assert client.get("/accounts/password/")["Location"].startswith("/accounts/login/")


def test_home_leads_with_starting_a_session_in_french(alice_client: Client) -> None:
    alice_client.cookies["django_language"] = "fr"
    page = alice_client.get("/").text
    assert _big_buttons(page)[0] == ("btn-success", "/sessions/new/", "Commencer une séance")
    assert "chaque nouveau venu rejoint vos joueurs" in page
