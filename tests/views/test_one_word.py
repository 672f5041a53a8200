"""One Hundred's pages say one word for what a player pays: tokens, as the rest of the app
(its description, its card table's note, and the start form's choice of how to show them)."""

import re

import pytest
from django.test import Client


def _words(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", page).lower()


@pytest.mark.parametrize(
    "url",
    [
        "/rules/",
        "/rules/adding/one-hundred/",
        "/rules/adding/one-hundred/pad/",
        "/sessions/new/",
        "/sessions/new/adding/one-hundred/",
    ],
)
def test_one_hundred_says_tokens_not_chips(alice_client: Client, url: str) -> None:
    response = alice_client.get(url)
    assert response.status_code == 200
    words = _words(response.text)
    assert "chip" not in words
    assert "token" in words
