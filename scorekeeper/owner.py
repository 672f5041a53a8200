"""Whose a page is: the owner mark that every page carries, so that what a phone keeps of it
(the service worker's copies, the outbox's entries) stays with whoever was looking.

The mark names the phone's login state, not the person: ANONYMOUS when no account is logged
in, else a keyed hash (SECRET_KEY) of the account and its session hash, which changes with the
password, so that a password changed on another phone ends this phone's marks too. Nobody but
the server can tell whose account a mark is, or link two accounts' marks.

A page also says how long its account's browser session has left: a phone offline cannot ask
whether the session still holds, so it keeps what that session saw only until then.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import salted_hmac

ANONYMOUS = "anonymous"
MARK_HEADER = "X-Owner-Mark"
ENDS_HEADER = "X-Owner-Ends"  # seconds until the account's browser session ends


def account(request: HttpRequest) -> AbstractBaseUser | None:
    """The account logged in, if any. A phone without a browser session has none, and its user
    is not looked up for the answer (a watch link's phones mostly have none); nor has a page
    rendered for no browser (an error page before the session middleware)."""
    session = getattr(request, "session", None)
    if session is None or (session.session_key is None and not session.modified):
        return None
    user = request.user
    return user if user.is_authenticated else None


def owner_mark(request: HttpRequest) -> str:
    """The mark of whoever is looking through this request's phone."""
    user = account(request)
    if user is None:
        return ANONYMOUS
    who = f"{user.pk}|{user.get_session_auth_hash()}"
    return salted_hmac("scorekeeper.owner", who, algorithm="sha256").hexdigest()[:32]


def seconds_left(request: HttpRequest) -> int | None:
    """How many seconds the account's browser session (and its cookie) has left; None when no
    account is logged in. A session this request changes is stored again, and its cookie with
    it, for the whole age from now."""
    if account(request) is None:
        return None
    session = request.session
    until = getattr(session, "stored_until", None)
    if until is None or session.modified:
        until = session.get_expiry_date()
    return max(0, int((until - timezone.now()).total_seconds()))
