"""Django's database sessions, except that a database out of reach stays that error, a new
session's key is not looked up before it is stored, and a session read keeps when it ends
(`stored_until`, for the page's `owner.seconds_left`).

Django's store turns any DatabaseError of an update into UpdateError, which its
middleware reports as a 400 ("the session was deleted"). When the database only
restarted, the phone should hear "try again" instead: scorekeeper.views.site.server_error
answers 503 for OperationalError and InterfaceError.
"""

from datetime import datetime

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS, UpdateError
from django.contrib.sessions.models import Session
from django.db import InterfaceError, OperationalError
from django.utils.crypto import get_random_string


class SessionStore(db.SessionStore):
    # When the stored session ends (its row's expiry, which its cookie shares), once read.
    stored_until: datetime | None = None

    def _get_session_from_db(self) -> Session | None:
        """The stored session of this key unless it has expired (Django's own read, which
        forgets a key that finds none), with the moment it ends kept."""
        found: Session | None = super()._get_session_from_db()  # type: ignore[misc]  # not in the stubs
        if found is not None:
            self.stored_until = found.expire_date
        return found

    def save(self, must_create: bool = False) -> None:
        try:
            super().save(must_create)
        except UpdateError as error:
            if isinstance(error.__context__, (OperationalError, InterfaceError)):
                raise error.__context__ from None
            raise

    def _get_new_session_key(self) -> str:
        """A new random key (32 characters of 36), without Django's query asking whether it is
        taken: `create()` inserts it as new and draws another should the insert find it taken
        (CreateError), so that query was a round trip for nothing on every scorer's first name
        and every login."""
        return get_random_string(32, VALID_KEY_CHARS)
