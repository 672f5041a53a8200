"""The table display: big-number standings for a tablet in the middle of the table, reached from
a watch link (no account) or by the owner, kept up to date by polling like the watch page (304
while nothing changed), for both game families through their presenters."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper import live
from scorekeeper.models import GameSession, Player
from scorekeeper.presenters import adding as adding_presenter
from scorekeeper.presenters import trick as trick_presenter
from scorekeeper.rules import adding, trick
from scorekeeper.services import Who, add_deal, record_event
from tests.factories import adding_session, with_links

NAMES = ["Ann", "Ben", "Cat"]


@pytest.fixture
def game(game: GameSession) -> GameSession:
    """The trick-game session, with a watch link."""
    return with_links(game, watch="watch-token-of-friday")


@pytest.fixture
def pennies(alice: User, roster: list[Player]) -> GameSession:
    """An adding-game session of the same players, with a watch link."""
    return with_links(
        adding_session(alice, roster, title="Pennies"), watch="watch-token-of-pennies"
    )


def _deal(game: GameSession, alice: User) -> GameSession:
    hands = {
        "Ann": trick.HandEntry(4, bid=4),
        "Ben": trick.HandEntry(5, made=False),
        "Cat": trick.HandEntry(0, bid=0),
    }
    return add_deal(
        session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice)
    ).session


def _rows(page: str) -> list[tuple[str, str, str]]:
    """The board's rows: (place, name, big figure)."""
    return re.findall(
        r'<td class="display-rank">(\d+)</td>\s*<th scope="row" class="display-name">([^<]+?)'
        r'(?: <span[^>]*>🏆</span>)?</th>\s*<td class="display-figure">([^<]+)',
        page,
    )


def test_the_owner_opens_the_display_of_a_trick_game(
    alice_client: Client, alice: User, game: GameSession
) -> None:
    _deal(game, alice)
    result = live.result(GameSession.objects.get(pk=game.pk))
    page = alice_client.get(f"/sessions/{game.public_id}/display/").text
    assert [(int(place), name, int(total)) for place, name, total in _rows(page)] == [
        (s.rank, s.player, s.total) for s in result.standings
    ]
    assert "<dt>Deal</dt><dd>2 of 9</dd>" in page
    assert f"<dt>Dealer</dt><dd>{result.next.dealer}</dd>" in page  # type: ignore[union-attr]
    assert f'hx-get="/sessions/{game.public_id}/display/live/"' in page
    assert '<script src="/static/js/display.js" defer></script>' in page
    assert 'id="full-screen" hidden' in page  # shown by the script where the browser can
    # From the owner's table page.
    table = alice_client.get(f"/sessions/{game.public_id}/").text
    assert f'href="/sessions/{game.public_id}/display/"' in table


def test_a_watch_link_opens_the_display_of_an_adding_game_without_an_account(
    client: Client, alice: User, pennies: GameSession
) -> None:
    record_event(session=pennies, state="0.0", event=adding.Event("Ben", "hit", 33), who=Who(alice))
    watch = client.get(f"/w/{pennies.watch_token}/").text
    assert f'href="/w/{pennies.watch_token}/display/"' in watch
    response = client.get(f"/w/{pennies.watch_token}/display/")
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin"
    page = response.text
    assert _rows(page) == [("1", "Ben", "9"), ("2", "Ann", "8"), ("2", "Cat", "8")]
    assert '<th scope="col" class="display-figure">Tokens left</th>' in page
    assert "<dt>Round</dt><dd>1</dd>" in page
    assert pennies.public_id not in page  # nothing that leads to the owner's pages
    assert f'hx-get="/w/{pennies.watch_token}/display/live/"' in page


def test_the_display_polls_for_304_while_nothing_changes(
    client: Client, alice: User, game: GameSession
) -> None:
    url = f"/w/{game.watch_token}/display/live/"
    first = client.get(url)
    assert first.status_code == 200
    assert first.text.lstrip().startswith('<div id="live"')
    assert 'class="display-board display-rows-3"' in first.text
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert len(queries) == 1
    _deal(game, alice)
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert _rows(changed.text) == [("1", "Ann", "24"), ("2", "Cat", "20"), ("3", "Ben", "5")]


def test_the_owners_display_polls_too(alice_client: Client, alice: User, game: GameSession) -> None:
    url = f"/sessions/{game.public_id}/display/live/"
    first = alice_client.get(url)
    assert first.status_code == 200
    again = alice_client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert alice_client.get("/sessions/nope/display/live/").status_code == 404


def test_a_link_turned_off_opens_no_display(client: Client, game: GameSession) -> None:
    token = game.watch_token
    GameSession.objects.filter(pk=game.pk).update(watch_token=None)
    for url in (f"/w/{token}/display/", f"/w/{token}/display/live/"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Friday" not in response.text


def test_another_user_gets_404(bob_client: Client, game: GameSession) -> None:
    for url in (
        f"/sessions/{game.public_id}/display/",
        f"/sessions/{game.public_id}/display/live/",
    ):
        response = bob_client.get(url)
        assert response.status_code == 404
        assert "Friday" not in response.text


# The presenters' boards: one shape for both families


def test_a_finished_trick_game_names_its_winner() -> None:
    rules = trick.resolve_rules(
        "parlett-jokerless", {"match": {"type": "deals", "deals": 1}}, NAMES
    )
    hands = {
        "Ann": trick.HandEntry(4, bid=4),
        "Ben": trick.HandEntry(5, made=False),
        "Cat": trick.HandEntry(0, bid=0),
    }
    board = trick_presenter.board(trick.score_session(rules, [trick.DealEntry(hands=hands)]))
    assert board.news == "Winner: Ann"
    assert board.facts == ()
    assert [(row.name, row.figure, row.won) for row in board.rows] == [
        ("Ann", "24", True),
        ("Cat", "20", False),
        ("Ben", "5", False),
    ]


def test_an_adding_board_shows_who_is_out() -> None:
    rules = adding.resolve_rules("thirty-three", {"tokens": 1}, NAMES)
    rounds = [adding.RoundEntry((adding.Event("Ann", "bust"),))]
    board = adding_presenter.board(adding.score_session(rules, rounds))
    ann = board.rows[-1]
    assert (ann.name, ann.figure, ann.note, ann.out) == ("Ann", "out", "in round 1", True)
    assert board.figure_label == "Tokens left"
    assert board.facts == (("Round", "2"), ("Dealer", "Ben"))


def test_the_board_says_how_many_rows_it_shares_the_screen_between(
    client: Client, game: GameSession
) -> None:
    """The rows share the screen's height (static/css/app.css), and a line ready to say how
    many are below when they do not all fit (static/js/display.js), in the page's language."""
    page = client.get(f"/w/{game.watch_token}/display/").text
    assert '<table class="display-board display-rows-3">' in page
    assert (
        '<p class="display-more" id="display-more" hidden '
        'data-words="{count} more below: scroll down to see every player."></p>'
    ) in page
    client.cookies["django_language"] = "fr"
    page = client.get(f"/w/{game.watch_token}/display/").text
    assert 'data-words="Encore {count} plus bas\u00a0: faites défiler' in page
