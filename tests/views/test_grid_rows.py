"""Each row of a deal grid is rendered once per process and kept, keyed by what it shows
(templates/trick/grid.html, the "rows" cache): a page after a new deal renders one new row.

A kept row must never stand in for another: not for another deal, a corrected deal, a phone
that may not correct, another link or another language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client

from scorekeeper import live
from scorekeeper.models import GameSession
from scorekeeper.presenters import trick as presenter
from scorekeeper.services import Who, edit_deal
from tests.factories import made_deal, play, with_links
from tests.french import CATALOGUE as FRENCH_CATALOGUE

ROWS = re.compile(r"<table class=\"table table-sm deal-grid\">.*?</tbody>", re.S)


@pytest.fixture(autouse=True)
def _empty_row_cache() -> Iterator[None]:
    caches["rows"].clear()
    yield
    caches["rows"].clear()


@pytest.fixture
def game(game: GameSession, alice: User) -> GameSession:
    """Three deals played, a watch link and a scorer link."""
    with_links(game, watch="w-grid", scorer="s-grid")
    play(game, alice, (3, 3, 3), (4, 2, 3), (2, 5, 2))
    game.refresh_from_db()
    return game


def _grid(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    found = ROWS.search(response.text)
    assert found, path
    return found.group()


def _fresh(client: Client, path: str) -> str:
    """The grid as a process that has kept nothing renders it."""
    caches["rows"].clear()
    return _grid(client, path)


def test_a_kept_row_is_the_row_a_fresh_render_gives_for_every_kind_of_phone(
    game: GameSession, alice_client: Client
) -> None:
    owner = f"/sessions/{game.public_id}/"
    pages = [(alice_client, owner), (Client(), "/w/w-grid/"), (Client(), "/w/w-grid/live/")]
    kept = {path: _grid(client, path) for client, path in pages}  # each takes the others' rows
    for client, path in pages:
        assert _grid(client, path) == kept[path] == _fresh(client, path)
    # The owner's rows link each deal to its correction; the watchers' rows, kept beside them,
    # link nowhere.
    assert f'href="{owner}deals/3/"' in kept[owner]
    assert "deals/3/" not in kept["/w/w-grid/"] and "<a " not in kept["/w/w-grid/live/"]


def test_a_corrected_deal_shows_its_new_row_on_every_page(
    game: GameSession, alice: User, alice_client: Client
) -> None:
    owner = f"/sessions/{game.public_id}/"
    before = _grid(alice_client, owner), _grid(Client(), "/w/w-grid/live/")
    revision = game.deals.get(number=2).revision
    edit_deal(session=game, number=2, revision=revision, entry=made_deal((9, 0, 0)), who=Who(alice))
    after = _grid(alice_client, owner), _grid(Client(), "/w/w-grid/live/")
    assert after[0] != before[0] and after[1] != before[1]
    assert after == (_fresh(alice_client, owner), _fresh(Client(), "/w/w-grid/live/"))
    game.refresh_from_db()
    live.forget_all()
    total = live.result(game).deals[1].totals["Ann"]
    assert f'<span class="deal-total">{total}</span>' in after[1]


def test_a_row_kept_in_one_language_is_not_shown_in_another(game: GameSession) -> None:
    english = _grid(Client(), "/w/w-grid/live/")
    french = _grid(Client(headers={"accept-language": "fr"}), "/w/w-grid/live/")
    assert french == _fresh(Client(headers={"accept-language": "fr"}), "/w/w-grid/live/")
    assert english == _fresh(Client(), "/w/w-grid/live/")
    if FRENCH_CATALOGUE.exists():  # the words themselves, where French is compiled
        assert english != french


def test_a_rows_key_is_every_word_it_shows(game: GameSession) -> None:
    """The cache key of a row is its text (the dataclasses' repr): no field may be an object
    whose text is its address, such as a lazy translation."""
    rows = presenter.deal_rows(live.result(game).deals)
    assert rows
    for row in rows:
        assert " at 0x" not in repr(row)
        assert all(isinstance(value, str) for value in vars(row).values() if value != row.cells)
        for cell in row.cells:
            assert all(isinstance(value, (str, bool)) for value in vars(cell).values())
