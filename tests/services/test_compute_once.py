"""A request computes each result once: one pass of the rules for a saved deal or a tapped
event, the page after it included.

Every check and every scoring goes through each family's `scoring._run` (one pass over the
session's entries); the tests count its calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import live
from scorekeeper.models import ENTRY_MODELS, Deal, GameSession, Player, RoundEvent
from scorekeeper.rules import trick
from scorekeeper.rules.adding import scoring as adding_scoring
from scorekeeper.rules.trick import scoring as trick_scoring
from scorekeeper.services import (
    Conflict,
    Who,
    add_deal,
    create_adding_session,
    create_session,
    rename_session,
)
from scorekeeper.services import deals as deals_service

HX = {"HX-Request": "true"}
NAMES = ("Ann", "Ben", "Cat")
DEAL = {
    "number": "1",
    "h0-tricks": "3",
    "h0-made": "made",
    "h1-tricks": "3",
    "h1-made": "made",
    "h2-tricks": "3",
    "h2-made": "made",
}


@contextmanager
def _each_pass(note: Callable[[], None]) -> Iterator[None]:
    """Call `note` at each full pass of the rules over a session's entries (either family)."""
    real = {trick_scoring: trick_scoring._run, adding_scoring: adding_scoring._run}

    def noting(module: Any) -> Any:
        def run(*args: object, **kwargs: object) -> object:
            note()
            return real[module](*args, **kwargs)

        return run

    with (
        mock.patch.object(trick_scoring, "_run", noting(trick_scoring)),
        mock.patch.object(adding_scoring, "_run", noting(adding_scoring)),
    ):
        yield


@contextmanager
def passes() -> Iterator[list[int]]:
    """Count the full passes of the rules over a session's entries."""
    counted = [0]

    def count() -> None:
        counted[0] += 1

    with _each_pass(count):
        yield counted


@pytest.fixture
def players(alice: User) -> list[Player]:
    return [Player.objects.create(owner=alice, name=name) for name in NAMES]


def test_saving_a_deal_scores_the_session_once(
    alice_client: Client, alice: User, players: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    url = f"/sessions/{game.public_id}/"
    alice_client.get(url)
    with passes() as counted:
        response = alice_client.post(url, {**DEAL, "save": ""}, follow=True)
    assert "Deal 1 saved." in response.text
    assert Deal.objects.count() == 1
    assert counted[0] == 1


def test_the_page_of_a_new_version_in_another_process_scores_once(
    alice_client: Client, alice: User, players: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    url = f"/sessions/{game.public_id}/"
    alice_client.post(url, {**DEAL, "save": ""})
    live.forget_all()  # as a process that has not seen this version
    with passes() as counted:
        assert alice_client.get(url).status_code == 200
        assert alice_client.get(url).status_code == 200
        assert alice_client.get(url + "live/").status_code == 200
    assert counted[0] == 1


def test_checking_a_deal_as_it_is_typed_is_one_pass(
    alice_client: Client, alice: User, players: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    with passes() as counted:
        response = alice_client.post(
            f"/sessions/{game.public_id}/", DEAL, headers={**HX, "HX-Target": "entry-status"}
        )
    assert "Ready to save" in response.text
    assert counted[0] == 1


def test_correcting_a_deal_scores_once(
    alice_client: Client, alice: User, players: list[Player]
) -> None:
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    url = f"/sessions/{game.public_id}/"
    alice_client.post(url, {**DEAL, "save": ""})
    fixed = {**DEAL, "revision": "1", "h2-made": "failed", "h2-bid": "2", "save": ""}
    with passes() as counted:
        response = alice_client.post(url + "deals/1/", fixed, follow=True)
    assert "Deal 1 corrected." in response.text
    assert counted[0] == 1


@pytest.mark.parametrize("htmx", [True, False])
def test_tapping_an_event_scores_the_session_once(
    alice_client: Client, alice: User, players: list[Player], htmx: bool
) -> None:
    game = create_adding_session(owner=alice, ruleset="thirty-three", options={}, players=players)
    url = f"/sessions/{game.public_id}/"
    alice_client.get(url)
    tap = {"state": "0.0", "form_key": "tap-1", "tap": "0:hit:33"}
    with passes() as counted:
        if htmx:
            response = alice_client.post(url, tap, headers={**HX, "HX-Target": "table"})
        else:
            response = alice_client.post(url, tap, follow=True)
    assert "Ann: Hit 33." in response.text
    assert RoundEvent.objects.count() == 1
    assert GameSession.objects.get().version == 2
    assert counted[0] == 1


@contextmanager
def entry_reads(stack: ExitStack) -> Iterator[list[int]]:
    """Count the reads of a session's entries from the database (every deal, or every round)."""
    counted = [0]
    for model in ENTRY_MODELS.values():
        real = model.entries_of

        def reading(session: GameSession, real: Any = real) -> Any:
            counted[0] += 1
            return real(session)

        stack.enter_context(mock.patch.object(model, "entries_of", staticmethod(reading)))
    yield counted


@pytest.mark.parametrize("htmx", [True, False])
def test_a_saved_deal_or_tap_reads_the_entries_once_before_the_lock_and_once_under_it(
    alice_client: Client, alice: User, players: list[Player], htmx: bool
) -> None:
    """The request reads them to number the deal (or place the tap), and the write once more
    under the lock (another phone may have saved meanwhile)."""
    trick_game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=players
    )
    adding_game = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=players
    )
    tap = {"state": "0.0", "form_key": "tap-1", "tap": "0:hit:33"}
    headers = {**HX, "HX-Target": "table"} if htmx else {}
    with ExitStack() as stack, entry_reads(stack) as counted:
        alice_client.post(f"/sessions/{trick_game.public_id}/", {**DEAL, "save": ""})
        assert counted[0] <= 2
        saved = counted[0]
        alice_client.post(f"/sessions/{adding_game.public_id}/", tap, headers=headers)
        assert counted[0] - saved <= 2
    assert Deal.objects.count() == 1
    assert RoundEvent.objects.count() == 1


def test_entries_read_before_another_phone_saved_are_read_again_under_the_lock(
    alice: User, players: list[Player]
) -> None:
    """A phone read the session (deal 1 next), then another phone saved deal 1: the first
    phone's deal 1 is refused as entered meanwhile, not stored over it."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    stale = GameSession.objects.with_seats().get(pk=game.pk)
    assert stale.entries() == []
    entry = trick.DealEntry(
        {name: trick.HandEntry(tricks=3, made=True) for name in ("Ann", "Ben", "Cat")}
    )
    fresh = GameSession.objects.with_seats().get(pk=game.pk)
    add_deal(session=fresh, number=1, entry=entry, who=Who(alice, form_key="other-phone"))
    with pytest.raises(Conflict, match="Deal 1 was just entered on another phone"):
        add_deal(session=stale, number=1, entry=entry, who=Who(alice, form_key="this-phone"))
    assert Deal.objects.filter(session=game).count() == 1


def test_a_session_changed_before_the_lock_is_scored_under_it(
    alice: User, players: list[Player]
) -> None:
    """Renamed by another phone between the read and the lock (a new version, the same deals):
    the deal is scored under the lock, with the session as it is then, and saved."""
    game = create_session(owner=alice, ruleset="parlett-jokerless", options={}, players=players)
    read = GameSession.objects.with_seats().get(pk=game.pk)
    entry = trick.DealEntry(
        {name: trick.HandEntry(tricks=3, made=True) for name in ("Ann", "Ben", "Cat")}
    )
    changed = GameSession.objects.with_seats().get(pk=game.pk)
    real_changing = deals_service.changing

    @contextmanager
    def renamed_first(*args: Any, **kwargs: Any) -> Iterator[GameSession]:
        rename_session(session=changed, title="Friday", who=Who(alice))
        with real_changing(*args, **kwargs) as locked:
            yield locked

    with mock.patch.object(deals_service, "changing", renamed_first):
        saved = add_deal(session=read, number=1, entry=entry, who=Who(alice))
    assert saved.session.version == read.version + 2 and saved.session.title == "Friday"
    assert Deal.objects.filter(session=game).count() == 1
