"""Who may see or score a session, and how each phone reaches it.

A session's table is reached three ways: by its owner (logged in), by a scorer link (anyone
holding it may enter and correct, under the name they typed), and by a watch link (read-only
live standings). Each view first works out the `Table` for the request (who, what they may do,
and the URL prefix of their links), so the screens themselves are written once for all three.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.crypto import salted_hmac

from scorekeeper.http import AuthedRequest
from scorekeeper.models import (
    GameSession,
    Player,
    SavedRuleset,
)
from scorekeeper.ratelimit import LinkGone, TooManyGuesses, link_miss_allowed
from scorekeeper.reads import session_read, version_or_none
from scorekeeper.services.changes import Who

FORM_KEY = re.compile(r"[A-Za-z0-9_-]*")
SCORER_NAME_KEY = "scorer_names"  # in the browser's session: {scorer token: name typed}


@dataclass(frozen=True)
class Table:
    """A session as one phone may use it."""

    session: GameSession
    base: str  # the URL of this phone's table page; its other pages hang below it
    by_user: User | None  # who is recorded in the history
    by_name: str
    is_owner: bool
    can_score: bool

    def url(self, suffix: str = "") -> str:
        return self.base + suffix

    def who(self, request: HttpRequest) -> Who:
        """Who writes through this phone, and the idempotency key of the form it sent."""
        return Who(self.by_user, self.by_name, form_key(request))

    @property
    def outbox(self) -> str:
        """The name of this phone's outbox for this table (static/js/outbox.js): an entry kept
        while the server is out of reach is sent only from a page of the same account (or
        link, and name typed for it), so it never crosses to another."""
        user = self.by_user.pk if self.by_user is not None else ""
        who = f"{user}|{self.by_name}|{self.base}"
        return salted_hmac("scorekeeper.outbox", who, algorithm="sha256").hexdigest()[:24]

    def now(self, session: GameSession) -> Table:
        """The same phone's table, holding the session as a write left it."""
        return replace(self, session=session)


def ruleset_for_user(request: AuthedRequest, ruleset_id: int) -> SavedRuleset:
    """One of the user's saved rulesets; 404 for anyone else's, or one the rules no longer
    know."""
    saved = get_object_or_404(SavedRuleset.objects.for_user(request.user), pk=ruleset_id)
    if saved.preset is None:
        raise Http404("No such ruleset")
    return saved


def player_for_user(request: AuthedRequest, player_id: int) -> Player:
    """One of the user's players; 404 for anyone else's (the roster's one lookup, as the
    sessions' is `GameSession.objects.for_user`)."""
    return get_object_or_404(Player.objects.for_user(request.user), pk=player_id)


def session_for_user(request: AuthedRequest, public_id: str) -> GameSession:
    """This user's session, with its seats; 404 for anybody else's (nothing confirms it exists)."""
    session = session_read("public_id", public_id, owner=request.user.pk)
    if session is None:
        raise Http404("No such session")
    return session


def owner_table(request: AuthedRequest, public_id: str) -> Table:
    session = session_for_user(request, public_id)
    base = reverse("session", args=[public_id])
    return Table(session, base, request.user, "", is_owner=True, can_score=True)


def scorer_table(request: HttpRequest, token: str) -> Table:
    session = _session_by(request, scorer_token=token)
    name = request.session.get(SCORER_NAME_KEY, {}).get(token, "")
    base = reverse("scorer", args=[token])
    return Table(session, base, None, f"{name} (scorer link)", is_owner=False, can_score=True)


def scorer_session(request: HttpRequest, token: str) -> GameSession:
    """The session a scorer link opens, without its seats: for the page asking the phone's
    name, which shows the session's name alone (a round trip less as each scorer joins)."""
    return _session_by(request, seats=False, scorer_token=token)


def watch_table(request: HttpRequest, token: str) -> Table:
    session = _session_by(request, watch_token=token)
    base = reverse("watch", args=[token])
    return Table(session, base, None, "", is_owner=False, can_score=False)


def scorer_name(request: HttpRequest, token: str) -> str:
    """The name this phone typed for a scorer link, or ""."""
    name: str = request.session.get(SCORER_NAME_KEY, {}).get(token, "")
    return name


def link_missing(request: HttpRequest) -> LinkGone:
    """A link token that opens nothing: counted, and refused for a while after too many."""
    if not link_miss_allowed(request):
        raise TooManyGuesses
    return LinkGone()


def _session_by(request: HttpRequest, *, seats: bool = True, **token: str) -> GameSession:
    ((column, value),) = token.items()
    session = session_read(column, value, seats=seats)
    if session is None:
        raise link_missing(request)
    return session


def owner_version(request: AuthedRequest, public_id: str) -> int:
    """The version of one of the user's sessions (one query, for the owner's polls); 404 for
    anyone else's."""
    version = (
        GameSession.objects.for_user(request.user)
        .filter(public_id=public_id)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        raise Http404("No such session")
    return version


def version_by(request: HttpRequest, **token: str) -> int:
    """The version of the session a link opens (one query, for polls); 404 if none."""
    ((column, value),) = token.items()
    version = version_or_none(column, value)
    if version is None:
        raise link_missing(request)
    return version


def form_key(request: HttpRequest, field: str = "form_key") -> str:
    """The form's idempotency key, as the form made it (letters, digits, - and _), or "";
    `field` names another key the form carries (a tap's `after`)."""
    key = request.POST.get(field, "")
    return key if len(key) <= 40 and FORM_KEY.fullmatch(key) else ""


def whole(value: str) -> int:
    """A number from a form's button or hidden field; 404 if it is not one."""
    try:
        return int(value)
    except ValueError:
        raise Http404("Not a number") from None
