"""New players on an owner's roster, made wherever a form names them (a night's players, a late
arrival, a newcomer taking a seat).

The owner's row is locked first (`limits.make_room`), so that two phones naming players at once
are taken one after the other: the account never passes its limit, however many names one
form brings, and a name the other phone has just added is refused with a message, not a
database error.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from scorekeeper.models import Player
from scorekeeper.rules.bounds import name_key
from scorekeeper.services.changes import Rejected
from scorekeeper.services.limits import PLAYERS, make_room


def new_players(owner: User | int, names: Sequence[str], *, why: str = "") -> list[Player]:
    """Inside a transaction: a new player of `owner`'s for each of `names` (tidied and
    checked as a form checks a name), all or none. AccountFull (`why` first) unless all of
    them fit on the roster; Rejected, naming each as typed, if the roster has one already."""
    if not names:
        return []
    owner_id = owner if isinstance(owner, int) else owner.pk
    make_room(owner_id, PLAYERS, len(names), why=why)
    keys = {name: name_key(name) for name in names}
    roster = Player.objects.filter(owner_id=owner_id, name_key__in=keys.values())
    taken = set(roster.values_list("name_key", flat=True))
    if taken:
        clash = _("You already have a player called %(player)s.")
        raise Rejected([clash % {"player": name} for name in names if keys[name] in taken])
    return [Player.objects.create(owner_id=owner_id, name=name) for name in names]
