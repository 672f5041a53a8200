"""At the table, as the server answers it: a tap's answer is said beside the row tapped, and
the page without JavaScript comes back at that row."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player, RoundEvent
from tests.factories import adding_session
from tests.pages import table_state

HX = {"HX-Request": "true", "HX-Target": "table"}
NAMES = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def roster_names() -> list[str]:
    """Four players round the adding game's table."""
    return NAMES


@pytest.fixture
def pennies(alice: User, roster: list[Player]) -> GameSession:
    return adding_session(alice, roster)


def _row(page: str, anchor: str) -> str:
    """The html of one row of the adding table (or the undo button's place)."""
    start = page.index(f'id="{anchor}"')
    return page[start : page.index("</li>", start) if anchor.startswith("seat") else None]


def _top_messages(page: str) -> str:
    start = page.index('id="messages"')
    return page[start : page.index("</div>", start)]


# A tap's answer beside its row


def test_a_tap_without_javascript_comes_back_at_its_row_and_says_it_there(
    alice_client: Client, pennies: GameSession
) -> None:
    url = f"/sessions/{pennies.public_id}/"
    response = alice_client.post(
        url, {"state": table_state(alice_client, pennies), "tap": "2:hit:66"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"{url}#seat-3"
    page = alice_client.get(url).text
    said = "Cat: Hit 66. Dan -1, Ann -1, Ben -1."
    assert said in _row(page, "seat-3")
    assert page.count(said) == 1  # beside the row only, not also at the top
    assert 'role="status"' not in _top_messages(page)
    assert RoundEvent.objects.count() == 1


def test_a_tap_with_htmx_says_it_by_its_row_and_clears_the_top(
    alice_client: Client, pennies: GameSession
) -> None:
    url = f"/sessions/{pennies.public_id}/"
    data = {"state": table_state(alice_client, pennies), "tap": "1:bust:"}
    page = alice_client.post(url, data, headers=HX).text
    assert page.lstrip().startswith('<div id="table"')
    row = _row(page, "seat-2")
    assert 'aria-live="polite"' in row
    assert "Ben: Bust. Ben -2. The round is over." in row
    assert 'role="status"' not in _top_messages(page)  # the top's old messages go away
    # Each button keeps its id across the swap, so htmx gives the focus back to it.
    assert 'id="tap-1bust"' in page and 'id="tap-1hit33"' in page


def test_undo_without_javascript_comes_back_at_the_undo_button(
    alice_client: Client, pennies: GameSession
) -> None:
    url = f"/sessions/{pennies.public_id}/"
    alice_client.post(url, {"state": table_state(alice_client, pennies), "tap": "0:hit:33"})
    alice_client.get(url)
    response = alice_client.post(url, {"state": table_state(alice_client, pennies), "undo_tap": ""})
    assert response["Location"] == f"{url}#undo"
    page = alice_client.get(url).text
    # Said where the button was, though nothing is left to undo (so the button is gone).
    assert "Last tap undone." in _row(page, "undo")
    assert 'name="undo_tap"' not in page
    assert not RoundEvent.objects.exists()


def test_a_refused_tap_is_said_by_its_row(alice_client: Client, pennies: GameSession) -> None:
    url = f"/sessions/{pennies.public_id}/"
    state = table_state(alice_client, pennies)
    alice_client.post(url, {"state": state, "tap": "0:bust:"})
    response = alice_client.post(url, {"state": state, "tap": "3:hit:33"})
    assert response["Location"] == f"{url}#seat-4"
    page = alice_client.get(url).text
    assert "The table changed on another phone" in _row(page, "seat-4")
    assert RoundEvent.objects.count() == 1


def test_a_button_of_no_row_is_said_at_the_top(alice_client: Client, pennies: GameSession) -> None:
    url = f"/sessions/{pennies.public_id}/"
    response = alice_client.post(
        url, {"state": table_state(alice_client, pennies), "tap": "7:bust:"}
    )
    assert response["Location"] == url
    page = alice_client.get(url).text.replace("&#x27;", "'")
    assert "That button is not one of this table's." in _top_messages(page)
