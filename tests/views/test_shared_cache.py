"""Each result and each watch link's live fragment is worked out once per version and shared:
in the process by default, and across app processes and servers through Redis (REDIS_URL).

A second app process is played by forgetting what this one keeps in memory: what it finds
then came from the shared cache.
"""

from __future__ import annotations

import datetime
import gzip
import os
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from django.utils.text import compress_string

from scorekeeper import live
from scorekeeper.http import LINK_HEADERS
from scorekeeper.live import pages
from scorekeeper.live.keys import key as kept_key
from scorekeeper.live.pages import once
from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night, Season
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_session, edit_deal
from scorekeeper.services.nights import change_night_link, start_round
from scorekeeper.services.seasons import change_season_link, create_season
from tests.factories import club_night
from tests.french import CATALOGUE as FRENCH_CATALOGUE

# A database of its own for each test process: clearing the cache empties the whole database,
# and the processes' tests use the same tokens.
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:6379/{15 - _WORKER % 6}",
        "KEY_PREFIX": "scorekeeper-test",
    }
}


def _redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis(socket_connect_timeout=1).ping())
    except Exception:
        return False


@pytest.fixture(params=["local", "redis"])
def shared(request: Any, settings: Any) -> Iterator[str]:
    if request.param == "redis":
        if not _redis_answers():
            pytest.skip("no Redis server answers at 127.0.0.1:6379")
        settings.CACHES = {**settings.CACHES, **REDIS}  # the rows stay in the process
    cache.clear()
    live.forget_all()
    yield request.param
    cache.clear()
    live.forget_all()


def _game(alice: User, players: list[Player]) -> GameSession:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    game.watch_token = "w-shared"
    game.save(update_fields=["watch_token"])
    return game


def _deal(tricks: tuple[int, int, int]) -> trick.DealEntry:
    names = ("Ann", "Ben", "Cat")
    hands = {
        name: trick.HandEntry(tricks=won, made=True)
        for name, won in zip(names, tricks, strict=True)
    }
    return trick.DealEntry(hands)


def _one_deal_in(alice: User, players: list[Player]) -> GameSession:
    """A watched game with one deal entered, read again at its version now."""
    game = _game(alice, players)
    add_deal(session=game, number=1, entry=_deal((3, 3, 3)), who=Who(alice))
    game.refresh_from_db()
    return game


def test_a_result_computed_by_one_process_is_taken_by_another(
    shared: str, alice: User, roster: list[Player]
) -> None:
    game = _one_deal_in(alice, roster)
    live.forget_all()  # the other process
    found = live.results.kept(game)
    assert (found is not None) is (shared == "redis")


def test_the_fragment_is_rendered_once_and_stays_right_after_a_correction(
    shared: str, alice: User, roster: list[Player], django_assert_max_num_queries: Any
) -> None:
    game = _game(alice, roster)
    add_deal(session=game, number=1, entry=_deal((3, 3, 3)), who=Who(alice))
    first = Client().get("/w/w-shared/live/")
    assert first.status_code == 200
    live.forget_all()
    with django_assert_max_num_queries(1):  # the version; the fragment comes from the cache
        second = Client().get("/w/w-shared/live/")
    assert second.content == first.content
    game.refresh_from_db()
    revision = game.deals.get(number=1).revision
    edit_deal(session=game, number=1, revision=revision, entry=_deal((9, 0, 0)), who=Who(alice))
    after = Client().get("/w/w-shared/live/").content.decode()
    assert after != first.content.decode()
    game.refresh_from_db()
    totals = live.result(game).totals
    assert totals["Ann"] == 9 + 10 and f">{totals['Ann']}<" in after


def test_a_phone_showing_an_older_version_reads_the_version_once(
    shared: str, alice: User, roster: list[Player], django_assert_num_queries: Any
) -> None:
    """The poll's fast path reads the version before the view; when it cannot answer 304, the
    view takes that reading and makes no second one."""
    game = _one_deal_in(alice, roster)
    older = f'"v{game.version - 1}"'
    first = Client().get("/w/w-shared/live/", headers={"if-none-match": older})
    assert first.status_code == 200
    with django_assert_num_queries(1):  # the version; the fragment comes from the cache
        second = Client().get("/w/w-shared/live/", headers={"if-none-match": older})
    assert second.status_code == 200 and second.content == first.content
    assert second["ETag"] == f'"v{game.version}"'


def test_a_phone_that_asks_for_gzip_gets_the_fragment_compressed_once(
    shared: str, alice: User, roster: list[Player]
) -> None:
    game = _game(alice, roster)
    add_deal(session=game, number=1, entry=_deal((3, 3, 3)), who=Who(alice))
    first = Client().get("/w/w-shared/live/")
    zipped = Client(headers={"accept-encoding": "gzip, br"}).get("/w/w-shared/live/")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(zipped.content) == first.content
    game.refresh_from_db()
    assert zipped["ETag"] == f'W/"v{game.version}"'
    again = Client().get("/w/w-shared/live/", headers={"if-none-match": zipped["ETag"]})
    assert again.status_code == 304


FRENCH = {"accept-language": "fr"}


def test_a_french_and_an_english_watcher_each_get_their_own_language_from_the_caches(
    shared: str, alice: User, roster: list[Player]
) -> None:
    game = _one_deal_in(alice, roster)
    english, french = Client(), Client(headers=FRENCH)
    # Each fragment and page names its language in its ETag (data-etag): a copy kept for one
    # language and served to the other would show the other's.
    for path in ("/w/w-shared/live/", "/w/w-shared/"):
        for _ in range(2):  # the first of each language renders, the second takes the copy
            en, fr = english.get(path), french.get(path)
            assert f"data-etag='&quot;v{game.version}&quot;'" in en.text
            assert f"data-etag='&quot;v{game.version}-fr&quot;'" in fr.text
            assert en["Content-Language"] == "en" and fr["Content-Language"] == "fr"
            if FRENCH_CATALOGUE.exists():  # the words themselves, where French is compiled
                assert en.text.replace("-fr&quot;", "&quot;") != fr.text
    assert english.get("/w/w-shared/live/")["ETag"] == f'"v{game.version}"'
    assert french.get("/w/w-shared/live/")["ETag"] == f'"v{game.version}-fr"'
    # An unchanged poll is answered 304 only for the language the phone shows.
    en_tag, fr_tag = f'"v{game.version}"', f'"v{game.version}-fr"'
    assert english.get("/w/w-shared/live/", headers={"if-none-match": en_tag}).status_code == 304
    assert french.get("/w/w-shared/live/", headers={"if-none-match": fr_tag}).status_code == 304
    assert english.get("/w/w-shared/live/", headers={"if-none-match": fr_tag}).status_code == 200
    assert french.get("/w/w-shared/live/", headers={"if-none-match": en_tag}).status_code == 200


def test_a_result_kept_in_one_language_is_not_taken_in_another(
    shared: str, alice: User, roster: list[Player]
) -> None:
    game = _game(alice, roster)
    with translation.override("en"):
        live.keep_result(game, "the English result", 1)  # type: ignore[arg-type]
    with translation.override("fr"):
        assert live.results.kept(game) is None
        live.keep_result(game, "the French result", 1)  # type: ignore[arg-type]
        assert live.results.kept(game) == "the French result"
    with translation.override("en"):
        assert live.results.kept(game) == "the English result"


def test_an_unchanged_poll_costs_one_query_and_sends_no_body(
    alice: User, roster: list[Player], django_assert_max_num_queries: Any
) -> None:
    game = _game(alice, roster)
    game.scorer_token = "s-shared"
    game.save(update_fields=["scorer_token"])
    tag = f'"v{game.version}"'
    for path in ("/w/w-shared/live/", "/w/w-shared/display/live/", "/s/s-shared/live/"):
        for headers in (
            {"if-none-match": tag},
            {"if-none-match": f'"v{game.version}-fr"', **FRENCH},
        ):
            with django_assert_max_num_queries(1):
                unchanged = Client().get(path, headers=headers)
            assert unchanged.status_code == 304, path
            assert unchanged.content == b""
            assert unchanged["ETag"] == headers["if-none-match"]
            assert "Content-Security-Policy" in unchanged.headers


def test_an_unchanged_poll_has_the_stacks_headers(alice: User, roster: list[Player]) -> None:
    """The 304 goes through the whole stack, as the 200 does: it carries the headers the
    middleware gives every answer, a link's own, and its language's."""
    game = _game(alice, roster)
    game.scorer_token = "s-shared"
    game.save(update_fields=["scorer_token"])

    def answers() -> list[tuple[int, dict[str, str]]]:
        found = []
        for path in ("/w/w-shared/live/", "/w/w-shared/display/live/", "/s/s-shared/live/"):
            for headers in (
                {"if-none-match": f'"v{game.version}"'},
                {"if-none-match": f'"v{game.version}-fr"', **FRENCH},
            ):
                answer = Client().get(path, headers=headers)
                found.append((answer.status_code, {**answer.headers, "Expires": ""}))
        return found

    early = answers()
    assert {status for status, _ in early} == {304}
    for _, headers in early:
        for name in ("ETag", "Content-Security-Policy", "X-Frame-Options", *LINK_HEADERS):
            assert name in headers, name
        assert "no-store" in headers["Cache-Control"]
        assert "Accept-Language" in headers["Vary"]
    assert [headers["Content-Language"] for _, headers in early] == ["en", "fr"] * 3


def test_a_poll_of_a_page_that_does_not_exist_is_404_whatever_its_etag(
    alice: User, roster: list[Player]
) -> None:
    """A scorer link has no table display: its display's poll is not an unchanged poll."""
    game = _game(alice, roster)
    game.scorer_token = "s-shared"
    game.save(update_fields=["scorer_token"])
    tag = {"if-none-match": f'"v{game.version}"'}
    assert Client().get("/s/s-shared/display/live/").status_code == 404
    assert Client().get("/s/s-shared/display/live/", headers=tag).status_code == 404


def test_an_unchanged_poll_keeps_the_access_rules(
    alice: User, roster: list[Player], client: Client
) -> None:
    game = _game(alice, roster)
    tag = {"if-none-match": f'"v{game.version}"'}
    assert client.get("/w/w-shared/live/", headers=tag).status_code == 304
    assert client.get("/w/not-a-token/live/", headers=tag).status_code == 404  # as before
    game.watch_token = "w-new"  # the owner made a new watch link: the old one is revoked
    game.save(update_fields=["watch_token"])
    gone = client.get("/w/w-shared/live/", headers=tag)
    assert gone.status_code == 404
    assert "Content-Security-Policy" in gone.headers
    assert client.get("/w/w-new/live/", headers=tag).status_code == 304
    assert client.post("/w/w-new/live/", headers=tag).status_code == 405  # not a GET


def _body(response: Any) -> bytes:
    if response.get("Content-Encoding") == "gzip":
        return gzip.decompress(response.content)
    return bytes(response.content)


def _link_pages(alice: User, roster: list[Player]) -> dict[str, Callable[[], None]]:
    """Every page a link opens that is kept for every phone, each with a change that gives
    what it shows a new version: a session's watch page and display, a club night's page and
    big screen, a season's page."""
    game = _game(alice, roster)
    night = change_night_link(night=club_night(alice, roster), action="on")
    assert isinstance(night, Night)
    autumn = Season(
        name="Autumn",
        family="trick",
        starts=datetime.date(2026, 11, 1),
        ends=datetime.date(2026, 11, 30),
    )
    season = change_season_link(season=create_season(owner=alice, season=autumn), action="on")

    def deal() -> None:
        game.refresh_from_db()
        add_deal(
            session=game, number=game.deals.count() + 1, entry=_deal((3, 3, 3)), who=Who(alice)
        )

    def seat() -> None:
        found = Night.objects.get(pk=night.pk)
        if found.round == 0:
            start_round(night=found)
        else:  # seated: what the first page showed was before
            live.bump_night(found)

    def bump() -> None:
        live.bump_season(Season.objects.get(pk=season.pk))

    return {
        "/w/w-shared/": deal,
        "/w/w-shared/display/": deal,
        f"/n/{night.watch_token}/": seat,
        f"/n/{night.watch_token}/display/": seat,
        f"/g/{season.watch_token}/": bump,
    }


def test_every_phone_gets_the_same_bytes_of_a_link_page_for_a_version_and_language(
    shared: str,
    alice: User,
    bob: User,
    roster: list[Player],
    django_assert_max_num_queries: Any,
) -> None:
    """A link's page holds nothing of the phone asking (no CSRF token, nonce, colour choice or
    login): two phones with different cookies, colours and logins get the same bytes, kept
    once and compressed once. A new version gives new bytes; French phones get French ones."""
    for path, change in _link_pages(alice, roster).items():
        first = Client().get(path)
        assert first.status_code == 200, path
        body = _body(first)
        assert b"nonce" not in body and b"csrfmiddlewaretoken" not in body, path
        assert b"X-CSRFToken" not in body and b'data-owner="anonymous"' in body, path
        assert "nonce" not in first["Content-Security-Policy"]
        dark = Client(enforce_csrf_checks=True, headers={"accept-encoding": "gzip"})
        dark.cookies["theme"] = "dark"
        dark.cookies["csrftoken"] = "a" * 32
        light = Client(headers={"accept-encoding": "gzip, br"})
        light.cookies["theme"] = "light"
        logged_in = Client()
        logged_in.force_login(bob)
        for phone in (dark, light, logged_in):
            if phone is logged_in:
                page = phone.get(path)
            else:  # what the page is and its version (a session's: one query); the page is kept
                with django_assert_max_num_queries(1 if path.startswith("/w/") else 2):
                    page = phone.get(path)
            assert _body(page) == body, path
            assert phone is logged_in or page["Content-Encoding"] == "gzip", path
        # The colour switch on the page posts from it, with no token.
        switched = dark.post("/theme/", {"theme": "light", "next": path})
        assert switched.status_code == 302 and switched["Location"] == path
        assert dark.get(path).status_code == 200
        # A French phone gets the French page, the same for every French phone.
        french = Client(headers=FRENCH).get(path)
        french_body = _body(french)
        assert french["Content-Language"] == "fr" and french_body != body, path
        assert _body(Client(headers={**FRENCH, "accept-encoding": "gzip"}).get(path)) == french_body
        change()
        assert _body(Client().get(path)) != body, path


def test_the_kept_watch_page_shows_stored_text_as_it_was_typed(
    shared: str, alice: User, roster: list[Player]
) -> None:
    """The kept page is given as it was rendered, nothing put in: a title or a name that holds
    words like a token's or a nonce's is shown as typed, to every phone."""
    dan = Player.objects.create(owner=alice, name="csrfslotq7x2k")
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=[*roster[:2], dan]
    )
    game.watch_token, game.title = "w-typed", "nonceslotq7x2k night"
    game.save(update_fields=["watch_token", "title"])
    for _ in range(3):  # the first phone renders the page, the others take it kept
        text = Client().get("/w/w-typed/").text
        title = re.search(r"<title>([^<]*)</title>", text)
        assert title and title[1].startswith("nonceslotq7x2k night"), title
        assert text.count("csrfslotq7x2k") == text.count("nonceslotq7x2k") >= 1
        assert "csrfslotq7x2k" in re.sub(r"<[^>]+>", "", text)  # the name, as a name


@pytest.fixture
def redis_only(shared: str) -> str:
    if shared != "redis":
        pytest.skip("claims are made in the shared cache only")
    return shared


def test_a_phone_asking_while_another_process_renders_waits_for_its_fragment(
    redis_only: str, alice: User, roster: list[Player], django_assert_max_num_queries: Any
) -> None:
    game = _one_deal_in(alice, roster)
    key = kept_key("fragment", "/w/w-shared/", game.version)
    assert cache.add(f"rendering:{key}", True, 5)  # another process is rendering it
    html = b'<div id="live">as the other process rendered it</div>'
    keeping = threading.Timer(0.05, lambda: cache.set(key, (html.decode(), compress_string(html))))
    keeping.start()
    with django_assert_max_num_queries(1):  # the version; no session, no render
        waited = Client().get("/w/w-shared/live/")
    keeping.join()
    assert waited.status_code == 200 and waited.content == html


def test_a_phone_renders_itself_when_the_other_render_never_comes(
    redis_only: str,
    alice: User,
    roster: list[Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pages, "RENDER_WAIT_SECONDS", 0.05)
    game = _one_deal_in(alice, roster)
    key = kept_key("fragment", "/w/w-shared/", game.version)
    assert cache.add(f"rendering:{key}", True, 5)  # a process that died while rendering
    rendered = Client().get("/w/w-shared/live/")
    assert rendered.status_code == 200
    assert f">{live.result(game).totals['Ann']}<" in rendered.content.decode()
    assert cache.get(key) is not None


def test_the_first_phone_claims_the_render_and_lets_it_go_once_kept(
    shared: str, alice: User, roster: list[Player]
) -> None:
    game = _one_deal_in(alice, roster)
    key = kept_key("fragment", "/w/w-shared/", game.version)
    claims: list[object] = []
    kept = once(key, lambda: claims.append(cache.get(f"rendering:{key}")) or "made")
    assert kept == "made"
    # Claimed while rendering where the cache is shared (none in a process's own memory) ...
    assert claims == [True if shared == "redis" else None]
    # ... and let go after, so that a phone finding the fragment forgotten renders at once.
    assert cache.get(f"rendering:{key}") is None
    board_key = f"board:/w/w-shared/:{game.version}:en"
    assert Client().get("/w/w-shared/").status_code == 200
    assert cache.get(board_key) is not None and cache.get(f"rendering:{board_key}") is None
