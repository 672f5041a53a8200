import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Player

HX = {"HX-Request": "true"}


@pytest.fixture
def ann(alice: User) -> Player:
    return Player.objects.create(owner=alice, name="Ann")


def test_it_requires_login(client: Client, db: None) -> None:
    response = client.get("/players/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/players/"


def test_it_lists_only_my_players(alice_client: Client, alice: User, bob: User) -> None:
    Player.objects.create(owner=alice, name="Ann")
    Player.objects.create(owner=bob, name="Bobs Secret Friend")
    response = alice_client.get("/players/")
    assert response.status_code == 200
    assert "Ann" in response.text
    assert "Bobs Secret Friend" not in response.text


def test_it_adds_a_player(alice_client: Client, alice: User) -> None:
    response = alice_client.post("/players/", {"name": "  Ann   Lee "})
    assert response.status_code == 302
    assert response["Location"] == "/players/"
    assert list(Player.objects.filter(owner=alice).values_list("name", flat=True)) == ["Ann Lee"]


def test_it_adds_a_player_with_htmx(alice_client: Client, alice: User) -> None:
    response = alice_client.post("/players/", {"name": "Ben"}, headers=HX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="roster">')
    assert "<html" not in response.text
    assert 'hx-swap-oob="innerHTML"' in response.text
    assert "Added Ben." in response.text
    assert Player.objects.filter(owner=alice, name="Ben").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Type the player&#x27;s name."),
        ("    ", "Type the player&#x27;s name."),
        ("x" * 41, "A name can be at most 40 characters."),
        ("ann", "You already have a player called Ann."),
        (" ANN ", "You already have a player called Ann."),
    ],
)
@pytest.mark.parametrize("headers", [{}, HX])
def test_it_rejects_bad_names(
    alice_client: Client, ann: Player, name: str, message: str, headers: dict[str, str]
) -> None:
    response = alice_client.post("/players/", {"name": name}, headers=headers)
    assert response.status_code == 200
    assert message in response.text
    assert "is-invalid" in response.text
    assert Player.objects.count() == 1


def test_it_allows_the_same_name_for_another_user(bob_client: Client, ann: Player) -> None:
    response = bob_client.post("/players/", {"name": "Ann"})
    assert response.status_code == 302
    assert Player.objects.filter(name="Ann").count() == 2


def test_it_shows_a_player(alice_client: Client, ann: Player) -> None:
    response = alice_client.get(f"/players/{ann.pk}/")
    assert response.status_code == 200
    assert "Save name" in response.text


def test_it_renames(alice_client: Client, ann: Player) -> None:
    response = alice_client.post(f"/players/{ann.pk}/", {"name": "Annie", "rename": ""})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.name == "Annie"


def test_it_allows_changing_only_the_case(alice_client: Client, ann: Player) -> None:
    response = alice_client.post(f"/players/{ann.pk}/", {"name": "ANN", "rename": ""})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.name == "ANN"


def test_it_rejects_a_rename_to_a_taken_name(
    alice_client: Client, alice: User, ann: Player
) -> None:
    Player.objects.create(owner=alice, name="Ben")
    response = alice_client.post(f"/players/{ann.pk}/", {"name": "ben", "rename": ""})
    assert response.status_code == 200
    assert "You already have a player called Ben." in response.text
    assert '<h1 class="h2">Ann' in response.text
    ann.refresh_from_db()
    assert ann.name == "Ann"


def test_it_archives_and_restores(alice_client: Client, ann: Player) -> None:
    response = alice_client.post(f"/players/{ann.pk}/", {"archive": ""})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.archived
    listing = alice_client.get("/players/").text
    assert "Archived" in listing

    alice_client.post(f"/players/{ann.pk}/", {"restore": ""})
    ann.refresh_from_db()
    assert not ann.archived


def test_it_keeps_another_users_player_private(bob_client: Client, ann: Player) -> None:
    assert bob_client.get(f"/players/{ann.pk}/").status_code == 404
    response = bob_client.post(f"/players/{ann.pk}/", {"name": "Hacked", "rename": ""})
    assert response.status_code == 404
    response = bob_client.post(f"/players/{ann.pk}/", {"archive": ""})
    assert response.status_code == 404
    ann.refresh_from_db()
    assert ann.name == "Ann"
    assert not ann.archived


def test_it_404s_for_a_missing_player(alice_client: Client) -> None:
    response = alice_client.get("/players/999999/")
    assert response.status_code == 404
    assert "Nothing here" in response.text


def test_it_rejects_an_empty_post(alice_client: Client) -> None:
    response = alice_client.post("/players/", {})
    assert response.status_code == 200
    assert "Type the player&#x27;s name." in response.text
    assert not Player.objects.exists()


def test_the_name_keeps_the_focus_after_an_htmx_add(alice_client: Client) -> None:
    response = alice_client.post("/players/", {"name": "Ben"}, headers=HX)
    assert "autofocus" in response.text


def test_a_rename_a_seated_game_cannot_take_is_refused(
    alice_client: Client, alice: User, ann: Player
) -> None:
    """Found while building Manage session: "Dummy" is the dummy's name in the game with a
    dummy; renaming a player who sits in one to it would break that session's rules."""
    from scorekeeper.services import create_session

    ben = Player.objects.create(owner=alice, name="Ben")
    game = create_session(
        owner=alice, ruleset="two-dummy", options={}, players=[ann, ben], title="Two of us"
    )
    response = alice_client.post(f"/players/{ann.pk}/", {"name": "Dummy"})
    assert response.status_code == 200
    assert "Two of us: " in response.text
    assert "dummy" in response.text.lower()
    ann.refresh_from_db()
    assert ann.name == "Ann"
    game.refresh_from_db()
    assert game.rules().players == ("Ann", "Ben")
