"""What one account may keep: players, saved rulesets, sessions, club nights and seasons.

These are not game rules (those are RULES.md §3, in `rules/bounds.py`): they bound what one
account stores, so that every page listing an account's players, rulesets or sessions stays
small, whatever the account does. The numbers are settings (`ACCOUNT_MAX_PLAYERS`,
`ACCOUNT_MAX_RULESETS`, `ACCOUNT_MAX_SESSIONS`, `ACCOUNT_MAX_NIGHTS`, `ACCOUNT_MAX_SEASONS`),
so a server's host can raise them.

Every service that creates one calls `make_room()` in its transaction, and each page shows its
refusal on the form that asked. A form that names a new player calls `refusal()` as it checks
the name, so that the roster being full is said next to it before anything is tried.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.formats import number_format
from django.utils.translation import ngettext

from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.night_models import Night, Season
from scorekeeper.services.changes import Rejected

PLAYERS, RULESETS, SESSIONS = "players", "rulesets", "sessions"
NIGHTS, SEASONS = "nights", "seasons"


class AccountFull(Rejected):
    """The account keeps as many of a kind as it may: nothing was created."""


def most(kind: str) -> int:
    """How many of `kind` one account may keep."""
    limit: int = {
        PLAYERS: settings.ACCOUNT_MAX_PLAYERS,
        RULESETS: settings.ACCOUNT_MAX_RULESETS,
        SESSIONS: settings.ACCOUNT_MAX_SESSIONS,
        NIGHTS: settings.ACCOUNT_MAX_NIGHTS,
        SEASONS: settings.ACCOUNT_MAX_SEASONS,
    }[kind]
    return limit


def held(owner: User | int, kind: str) -> int:
    """How many of `kind` the account keeps: archived players and deleted sessions count,
    as they are kept (and listed) until the owner deletes them for good."""
    kept = {
        PLAYERS: Player.objects.all(),
        RULESETS: SavedRuleset.objects.all(),
        SESSIONS: GameSession.objects.all(),
        NIGHTS: Night.objects.all(),
        SEASONS: Season.objects.all(),
    }[kind]
    return kept.filter(owner=owner).count()


def refusal(owner: User | int, kind: str, adding: int = 1) -> str | None:
    """What to tell the owner if `adding` more of `kind` would not fit; None if they fit."""
    have, limit = held(owner, kind), most(kind)
    if have + adding <= limit:
        return None
    numbers = {
        "most": number_format(limit, force_grouping=True),
        "have": number_format(have, force_grouping=True),
    }
    if kind == PLAYERS:
        sentence = ngettext(
            "An account keeps at most %(most)s player, archived ones included, and yours has "
            "%(have)s. The host of this server can raise the limit.",
            "An account keeps at most %(most)s players, archived ones included, and yours has "
            "%(have)s. The host of this server can raise the limit.",
            limit,
        )
    elif kind == RULESETS:
        sentence = ngettext(
            "An account keeps at most %(most)s saved ruleset, and yours has %(have)s: delete "
            "one you no longer use to save another.",
            "An account keeps at most %(most)s saved rulesets, and yours has %(have)s: delete "
            "one you no longer use to save another.",
            limit,
        )
    elif kind == NIGHTS:
        sentence = ngettext(
            "An account keeps at most %(most)s club night, and yours has %(have)s: delete one "
            "you no longer need to plan another.",
            "An account keeps at most %(most)s club nights, and yours has %(have)s: delete one "
            "you no longer need to plan another.",
            limit,
        )
    elif kind == SEASONS:
        sentence = ngettext(
            "An account keeps at most %(most)s season, and yours has %(have)s: delete one you "
            "no longer need to make another.",
            "An account keeps at most %(most)s seasons, and yours has %(have)s: delete one you "
            "no longer need to make another.",
            limit,
        )
    else:
        sentence = ngettext(
            "An account keeps at most %(most)s session, deleted ones included until they are "
            "deleted for good, and yours has %(have)s: delete some for good to make room.",
            "An account keeps at most %(most)s sessions, deleted ones included until they are "
            "deleted for good, and yours has %(have)s: delete some for good to make room.",
            limit,
        )
    return sentence % numbers


def make_room(owner: User | int, kind: str, adding: int = 1, *, why: str = "") -> None:
    """Inside a transaction: AccountFull (`why` first, if given) unless `adding` more of
    `kind` fit on the account.

    The owner's row is locked first, so that two phones creating at once are counted one
    after the other and the account never passes its limit.
    """
    owner_id = owner if isinstance(owner, int) else owner.pk
    list(User.objects.select_for_update().filter(pk=owner_id).values_list("pk", flat=True))
    refused = refusal(owner_id, kind, adding)
    if refused is not None:
        raise AccountFull([why, refused] if why else [refused])
