"""What tests start from, made by plain functions: players, a session of each family, deals
played, RULES.md §1.3's worked deal, a scoresheet to upload.

The shared fixtures (tests/conftest.py: `roster`, `game`, `adding_game`) call these; a test that
needs another table calls them itself with its own names, preset or title.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.night_models import Night
from scorekeeper.rules import trick
from scorekeeper.services import Who, add_deal, create_adding_session, create_session
from scorekeeper.services.nights import create_night

ANN_BEN_CAT = ("Ann", "Ben", "Cat")
ONE_DEAL = {"match": {"type": "deals", "deals": 1}}  # a trick-game session that one deal ends


# Players and sessions


def new_players(owner: User, names: Sequence[str] = ANN_BEN_CAT) -> list[Player]:
    """Players of `owner`'s, in the order given (the seat order when a session seats them)."""
    return [Player.objects.create(owner=owner, name=name) for name in names]


def trick_session(
    owner: User, players: Sequence[Player], *, ruleset: str = "parlett-jokerless", **details: Any
) -> GameSession:
    """A trick-game session of these players in seat order, seat 1 dealing first (`details`:
    its options and title)."""
    return _session(create_session, owner, players, ruleset, **details)


def adding_session(
    owner: User, players: Sequence[Player], *, ruleset: str = "thirty-three", **details: Any
) -> GameSession:
    """An adding-game session of these players in seat order, seat 1 dealing first (`details`:
    its options and title)."""
    return _session(create_adding_session, owner, players, ruleset, **details)


def _session(
    create: Callable[..., GameSession],
    owner: User,
    players: Sequence[Player],
    ruleset: str,
    *,
    options: dict[str, object] | None = None,
    title: str = "",
) -> GameSession:
    return create(owner=owner, ruleset=ruleset, options=options or {}, players=players, title=title)


def finished_session(owner: User, players: Sequence[Player], *, title: str = "") -> GameSession:
    """A trick-game session that its one deal finished (Ann 4, Ben 5, Cat 0, all made)."""
    session = trick_session(owner, players, options=ONE_DEAL, title=title)
    play(session, owner, (4, 5, 0))
    return session


def with_links(session: GameSession, *, watch: str = "", scorer: str = "") -> GameSession:
    """The session with these watch and scorer link tokens (a token left empty: no link)."""
    session.watch_token, session.scorer_token = watch or None, scorer or None
    session.save(update_fields=["watch_token", "scorer_token"])
    return session


# Deals


def made_deal(tricks: tuple[int, ...], names: tuple[str, ...] = ANN_BEN_CAT) -> trick.DealEntry:
    """A deal in which each player, in seat order, won these tricks and made their bid."""
    won = zip(names, tricks, strict=True)
    return trick.DealEntry(hands={name: trick.HandEntry(tricks=n, made=True) for name, n in won})


def play(game: GameSession, user: User, *deals: tuple[int, ...]) -> None:
    """Enter these deals next, for the players seated now."""
    session = GameSession.objects.with_seats().get(pk=game.pk)
    names, start = tuple(session.player_names()), len(session.entries())
    for number, tricks in enumerate(deals, start=start + 1):
        add_deal(session=game, number=number, entry=made_deal(tricks, names), who=Who(user))


def worked_deal_form(number: int = 1, **overrides: str) -> dict[str, str]:
    """RULES.md §1.3's worked example as the deal form posts it: Ann 4 with a bid of 4,
    revealing; Ben 5, failed with his bid kept hidden; Cat 0 on the bid-cards ♦♦♦."""
    data = {
        "number": str(number),
        "h0-tricks": "4",
        "h0-bid": "4",
        "h0-premium": "reveal",
        "h1-tricks": "5",
        "h1-made": "failed",
        "h2-tricks": "0",
        "h2-cards": "DDD",
        "save": "",
    }
    return data | overrides


# Scoresheets

# A trick-game scoresheet (FORMAT.md) with its players and no deal yet.
EMPTY_SHEET: dict[str, Any] = {
    "format": "ninety-nine-scoresheet",
    "version": 1,
    "family": "trick",
    "ruleset": "parlett-jokerless",
    "players": list(ANN_BEN_CAT),
    "deals": [],
}


def scoresheet_file(data: object, name: str = "sheet.json") -> SimpleUploadedFile:
    """A scoresheet as a phone uploads it: `data` as JSON, or these bytes as they are."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile(name, raw, content_type="application/json")


def post_scoresheet(client: Client, data: object, **request: Any) -> Any:
    """The import page's answer to this scoresheet (`request`: the client's other arguments,
    e.g. headers)."""
    return client.post("/sessions/import/", {"file": scoresheet_file(data)}, **request)


def club_night(owner: User, players: Sequence[Player], **details: Any) -> Night:
    """A club night of `owner`'s, not yet seated: Parlett Jokerless at tables of three, one
    deal a round, four rounds, placement points, on 26 November 2026 (`details` change any)."""
    settings: dict[str, Any] = {
        "name": "Club",
        "played_on": datetime.date(2026, 11, 26),
        "family": "trick",
        "ruleset": "parlett-jokerless",
        "options": {},
        "least": 3,
        "most": 3,
        "deals": 1,
        "rounds": 4,
        "method": "placement",
        **details,
    }
    return create_night(owner=owner, players=list(players), **settings)
