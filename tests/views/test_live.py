"""Every phone at the table: watch and scorer links, cheap polling, safe simultaneous entry."""

import gzip
import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Change, Deal, GameSession, Player
from scorekeeper.services import create_session
from tests.factories import worked_deal_form

SAVE = worked_deal_form()


def _share(client: Client, game: GameSession, **actions: str) -> GameSession:
    response = client.post(f"/sessions/{game.public_id}/share/", actions)
    assert response.status_code == 302
    game.refresh_from_db()
    return game


# Links


def test_the_owner_turns_links_on_and_sees_qr_codes(
    alice_client: Client, game: GameSession
) -> None:
    page = alice_client.get(f"/sessions/{game.public_id}/share/").text
    assert "Turn on a watch link" in page
    game = _share(alice_client, game, watch="on", scorer="on")
    assert game.watch_token and len(game.watch_token) >= 22  # at least 128 bits
    assert game.scorer_token and game.scorer_token != game.watch_token
    page = alice_client.get(f"/sessions/{game.public_id}/share/").text
    assert f"/w/{game.watch_token}/" in page
    assert f"/s/{game.scorer_token}/" in page
    assert page.count("<svg") >= 2


def test_a_watch_link_shows_live_standings_without_an_account(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game = _share(alice_client, game, watch="on")
    alice_client.post(f"/sessions/{game.public_id}/", SAVE)
    client.logout()
    response = client.get(f"/w/{game.watch_token}/")
    assert response.status_code == 200
    page = response.text
    assert "Standings" in page and ">84<" in page
    assert ">Deal 2</h2>" in page
    assert 'name="save"' not in page  # read-only: no entry form
    assert "/deals/1/" not in page  # no correction links
    assert "History of changes" not in page
    assert game.public_id not in page  # nothing that leads to the owner's pages
    assert response["Referrer-Policy"] == "same-origin"


def test_revoked_and_replaced_links_open_nothing(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game = _share(alice_client, game, watch="on", scorer="on")
    old_watch, old_scorer = game.watch_token, game.scorer_token
    game = _share(alice_client, game, watch="replace", scorer="off")
    assert client.get(f"/w/{old_watch}/").status_code == 404
    assert client.get(f"/w/{old_watch}/live/").status_code == 404
    assert client.get(f"/s/{old_scorer}/").status_code == 404
    assert client.post(f"/s/{old_scorer}/name/", {"name": "Eve"}).status_code == 404
    assert client.get(f"/w/{game.watch_token}/").status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/w/{}/", "/w/{}/live/", "/s/{}/", "/s/{}/live/", "/s/{}/name/", "/s/{}/deals/1/"],
)
def test_guessed_tokens_are_always_404(client: Client, game: GameSession, path: str) -> None:
    for guess in ["", "x", "a" * 32, game.public_id, "None"]:
        response = client.get(path.format(guess))
        assert response.status_code == 404
        assert "Nothing here" in response.text or not response.content


def test_a_link_opens_only_its_own_session(
    alice: User, alice_client: Client, client: Client, game: GameSession
) -> None:
    other = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=list(Player.objects.all())
    )
    game = _share(alice_client, game, watch="on")
    other = _share(alice_client, other, watch="on")
    assert client.get(f"/w/{game.watch_token}/").context["session"].pk == game.pk
    assert client.get(f"/w/{other.watch_token}/").context["session"].pk == other.pk


def test_only_the_owner_manages_links(bob_client: Client, game: GameSession) -> None:
    assert bob_client.get(f"/sessions/{game.public_id}/share/").status_code == 404
    response = bob_client.post(f"/sessions/{game.public_id}/share/", {"watch": "on"})
    assert response.status_code == 404
    game.refresh_from_db()
    assert game.watch_token is None


# The scorer link


def test_a_scorer_gives_a_name_then_enters_a_deal(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game = _share(alice_client, game, scorer="on")
    base = f"/s/{game.scorer_token}/"
    assert client.get(base)["Location"] == f"{base}name/"
    response = client.post(f"{base}name/", {"name": "  "})
    assert "Type your name" in response.text
    assert client.post(f"{base}name/", {"name": "Sam"})["Location"] == base
    page = client.get(base).text
    assert "Scoring as Sam (scorer link)." in page
    assert "History of changes" not in page
    response = client.post(base, SAVE)
    assert response["Location"] == base
    change = Change.objects.get()
    assert (change.by_user, change.by_name) == (None, "Sam (scorer link)")
    page = alice_client.get(f"/sessions/{game.public_id}/history/").text
    assert "by Sam (scorer link)" in page
    # Corrections go through the scorer link too.
    assert client.get(f"{base}deals/1/").status_code == 200
    # Not you? The name is asked again.
    assert client.post(f"{base}forget/")["Location"] == f"{base}name/"


def test_a_scorer_joining_reads_only_what_each_page_shows(
    alice_client: Client, game: GameSession
) -> None:
    """A thousand scorers join in a minute: the name page reads the session's row
    alone (it shows the session's name), and the table page the session, its seats with their
    players, and the phone's name; the history only if the latest change was an undo."""
    game = _share(alice_client, game, scorer="on")
    base = f"/s/{game.scorer_token}/"
    alice_client.post(f"/sessions/{game.public_id}/", SAVE)
    client = Client()  # a phone with no account

    def reads(method: str, path: str, data: dict[str, str] | None = None) -> list[str]:
        with CaptureQueriesContext(connection) as done:
            answer = getattr(client, method)(path, data or {})
        assert answer.status_code in (200, 302)
        return [query["sql"] for query in done if query["sql"].startswith("SELECT")]

    assert len(reads("get", f"{base}name/")) == 1
    sent = reads("post", f"{base}name/", {"name": "Sam"})
    assert len(sent) == 1 and "django_session" not in sent[0]  # a new key is not looked up
    page = reads("get", base)
    assert len(page) == 3 and not any(sql.startswith('SELECT "scorekeeper_change"') for sql in page)
    assert "Save deal 2" in client.get(base).text


# Polling


def test_polling_answers_304_without_rendering_when_nothing_changed(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game = _share(alice_client, game, watch="on")
    url = f"/w/{game.watch_token}/live/"
    first = client.get(url)
    assert first.status_code == 200
    assert first.text.lstrip().startswith('<div id="live"')
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert len(queries) == 1
    assert not hasattr(unchanged, "templates") or not unchanged.templates

    alice_client.post(f"/sessions/{game.public_id}/", SAVE)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert ">84<" in changed.text


def test_a_gzipped_poll_is_compressed_and_its_weak_etag_still_matches(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game = _share(alice_client, game, watch="on")
    alice_client.post(f"/sessions/{game.public_id}/", SAVE)
    url = f"/w/{game.watch_token}/live/"
    plain = client.get(url)
    zipped = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert len(zipped.content) < len(plain.content) / 3
    assert gzip.decompress(zipped.content) == plain.content
    assert zipped["ETag"] == f"W/{plain['ETag']}"
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": zipped["ETag"]})
    assert again.status_code == 304
    listed = client.get(url, headers={"If-None-Match": f'"v0", {zipped["ETag"]}'})
    assert listed.status_code == 304
    assert client.get(url, headers={"If-None-Match": 'W/"v0"'}).status_code == 200


def test_the_owner_and_scorer_poll_too(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game = _share(alice_client, game, scorer="on")
    owner = alice_client.get(f"/sessions/{game.public_id}/live/")
    assert owner.status_code == 200
    again = alice_client.get(
        f"/sessions/{game.public_id}/live/", headers={"If-None-Match": owner["ETag"]}
    )
    assert again.status_code == 304
    scorer = client.get(f"/s/{game.scorer_token}/live/?since=1")
    assert scorer.status_code == 200
    alice_client.post(f"/sessions/{game.public_id}/", SAVE)
    stale = client.get(f"/s/{game.scorer_token}/live/?since=1")
    assert "The table changed on another phone." in stale.text


def test_owner_live_is_private(bob_client: Client, game: GameSession) -> None:
    assert bob_client.get(f"/sessions/{game.public_id}/live/").status_code == 404


# Double taps and simultaneous entry


def test_the_same_form_sent_twice_is_stored_once(alice_client: Client, game: GameSession) -> None:
    data = {**SAVE, "form_key": "k" * 32}
    assert alice_client.post(f"/sessions/{game.public_id}/", data).status_code == 302
    response = alice_client.post(f"/sessions/{game.public_id}/", data, follow=True)
    assert "Deal 1 saved (sent again, stored once)." in response.text
    assert Deal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_the_same_deal_store_it_once(alice: User, game: GameSession) -> None:
    barrier = threading.Barrier(4)
    messages: list[str] = []

    def phone(index: int) -> None:
        client = Client()
        client.force_login(alice)
        barrier.wait()
        response = client.post(
            f"/sessions/{game.public_id}/", {**SAVE, "form_key": f"phone-{index}"}, follow=True
        )
        messages.append(response.text)
        connection.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Deal.objects.filter(session=game).count() == 1
    assert Change.objects.count() == 1
    saved = [text for text in messages if "Deal 1 saved." in text]
    refused = [
        text
        for text in messages
        if "Deal 1 was just saved on another phone, with the same hands as here" in text
    ]
    assert (len(saved), len(refused)) == (1, 3)


def test_a_malformed_form_key_is_ignored(alice_client: Client, game: GameSession) -> None:
    # Found by the fuzz tests: a NUL byte in the key broke PostgreSQL's text column.
    response = alice_client.post(f"/sessions/{game.public_id}/", {**SAVE, "form_key": "\x00"})
    assert response.status_code == 200
    assert "Null characters are not allowed." in response.text
    assert not Change.objects.exists()
    response = alice_client.post(f"/sessions/{game.public_id}/", {**SAVE, "form_key": "a b"})
    assert response.status_code == 302
    assert Change.objects.get().form_key == ""  # not a key the form made: ignored
