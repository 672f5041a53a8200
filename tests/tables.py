"""A small table for tests of a session as a whole: deals where everyone made their bid."""

from __future__ import annotations

from django.contrib.auth.models import User

from scorekeeper.models import GameSession
from scorekeeper.rules import trick
from scorekeeper.services import add_deal

ONE_DEAL = {"match": {"type": "deals", "deals": 1}}  # a trick-game session that one deal ends


def made_deal(
    tricks: tuple[int, ...], names: tuple[str, ...] = ("Ann", "Ben", "Cat")
) -> trick.DealEntry:
    """A deal in which each player, in seat order, won these tricks and made their bid."""
    won = zip(names, tricks, strict=True)
    return trick.DealEntry(hands={name: trick.HandEntry(tricks=n, made=True) for name, n in won})


def play(game: GameSession, user: User, *deals: tuple[int, ...]) -> None:
    """Enter these deals next, for the players seated now."""
    session = GameSession.objects.with_seats().get(pk=game.pk)
    names, start = tuple(session.player_names()), len(session.entries())
    for number, tricks in enumerate(deals, start=start + 1):
        add_deal(session=game, number=number, entry=made_deal(tricks, names), by_user=user)
