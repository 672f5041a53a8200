"""The session's two downloads, the scoresheet file and the CSV: named alike, after the
session's title (or rules) and day, in plain ASCII that every browser and file system keeps."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_session


def _download_names(client: Client, game: GameSession) -> list[str]:
    names = []
    for suffix in ["scoresheet.json", "session.csv"]:
        response = client.get(f"/sessions/{game.public_id}/{suffix}")
        assert response.status_code == 200
        names.append(response["Content-Disposition"])
    return names


@pytest.mark.parametrize(
    ("title", "stem"),
    [
        ("", "classic-ninety-nine"),  # untitled: the rules' name, the same in every language
        ("Friday at Sam's", "friday-at-sams"),
        ("Soirée chez Zoë 🃏", "soiree-chez-zoe"),  # accents kept as plain letters, the rest left
        ("🃏♠", "session"),  # nothing ASCII to keep
    ],
)
def test_both_downloads_are_named_alike_in_ascii(
    alice_client: Client, roster: list[Player], alice: User, title: str, stem: str
) -> None:
    game = create_session(
        owner=alice, ruleset="parlett-classic", options={}, players=roster, title=title
    )
    day = game.created.date().isoformat()
    assert _download_names(alice_client, game) == [
        f'attachment; filename="{stem}-{day}.json"',
        f'attachment; filename="{stem}-{day}.csv"',
    ]


def test_the_names_do_not_follow_the_pages_language(
    alice_client: Client, roster: list[Player], alice: User
) -> None:
    game = create_session(
        owner=alice, ruleset="parlett-classic", options={}, players=roster, title=""
    )
    alice_client.cookies["django_language"] = "fr"
    day = game.created.date().isoformat()
    assert _download_names(alice_client, game)[0] == (
        f'attachment; filename="classic-ninety-nine-{day}.json"'
    )


def test_another_users_session_downloads_nothing(
    bob_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_session(
        owner=alice, ruleset="parlett-classic", options={}, players=roster, title="Friday"
    )
    for suffix in ["scoresheet.json", "session.csv"]:
        assert bob_client.get(f"/sessions/{game.public_id}/{suffix}").status_code == 404
