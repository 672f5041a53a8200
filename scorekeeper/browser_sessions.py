"""Django's database sessions, except that a database out of reach stays that error.

Django's store turns any DatabaseError of an update into UpdateError, which its
middleware reports as a 400 ("the session was deleted"). When the database only
restarted, the phone should hear "try again" instead: scorekeeper.views.site.server_error
answers 503 for OperationalError and InterfaceError.
"""

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import UpdateError
from django.db import InterfaceError, OperationalError


class SessionStore(db.SessionStore):
    def save(self, must_create: bool = False) -> None:
        try:
            super().save(must_create)
        except UpdateError as error:
            if isinstance(error.__context__, (OperationalError, InterfaceError)):
                raise error.__context__ from None
            raise
