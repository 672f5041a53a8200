"""Each result and each watch link's live fragment is worked out once per version and shared:
in the process by default, and across app processes and servers through Redis (REDIS_URL).

A second app process is played by forgetting what this one keeps in memory: what it finds
then came from the shared cache.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from scorekeeper import computed
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import trick
from scorekeeper.services import add_deal, create_session, edit_deal

REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/15",
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
        settings.CACHES = REDIS
    cache.clear()
    computed.forget_all()
    yield request.param
    cache.clear()
    computed.forget_all()


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


def test_a_result_computed_by_one_process_is_taken_by_another(
    shared: str, alice: User, ann_ben_cat: list[Player]
) -> None:
    game = _game(alice, ann_ben_cat)
    add_deal(session=game, number=1, entry=_deal((3, 3, 3)), by_user=alice)
    game.refresh_from_db()
    computed.forget_all()  # the other process
    found = computed.get(game.public_id, game.version)
    assert (found is not None) is (shared == "redis")


def test_the_fragment_is_rendered_once_and_stays_right_after_a_correction(
    shared: str, alice: User, ann_ben_cat: list[Player], django_assert_max_num_queries: Any
) -> None:
    game = _game(alice, ann_ben_cat)
    add_deal(session=game, number=1, entry=_deal((3, 3, 3)), by_user=alice)
    first = Client().get("/w/w-shared/live/")
    assert first.status_code == 200
    computed.forget_all()
    with django_assert_max_num_queries(1):  # the version; the fragment comes from the cache
        second = Client().get("/w/w-shared/live/")
    assert second.content == first.content
    game.refresh_from_db()
    revision = game.deals.get(number=1).revision
    edit_deal(session=game, number=1, revision=revision, entry=_deal((9, 0, 0)), by_user=alice)
    after = Client().get("/w/w-shared/live/").content.decode()
    assert after != first.content.decode()
    game.refresh_from_db()
    totals = game.result().totals
    assert totals["Ann"] == 9 + 10 and f">{totals['Ann']}<" in after


def test_a_phone_that_asks_for_gzip_gets_the_fragment_compressed_once(
    shared: str, alice: User, ann_ben_cat: list[Player]
) -> None:
    game = _game(alice, ann_ben_cat)
    add_deal(session=game, number=1, entry=_deal((3, 3, 3)), by_user=alice)
    first = Client().get("/w/w-shared/live/")
    zipped = Client(headers={"accept-encoding": "gzip, br"}).get("/w/w-shared/live/")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(zipped.content) == first.content
    game.refresh_from_db()
    assert zipped["ETag"] == f'W/"v{game.version}"'
    again = Client().get("/w/w-shared/live/", headers={"if-none-match": zipped["ETag"]})
    assert again.status_code == 304
