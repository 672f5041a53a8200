"""A small database-backed rate limit: so many attempts per key in a fixed window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db import models, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import salted_hmac


class RateLimit(models.Model):
    """Attempts counted per key (e.g. "login:198.51.100.7") in fixed time windows.

    Kept in the database so that every app server, on SQLite or PostgreSQL, shares it.
    """

    key = models.CharField(max_length=200)
    window_start = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key", "window_start"], name="ratelimit_key_window")
        ]

    def __str__(self) -> str:
        return f"{self.key} since {self.window_start:%H:%M}: {self.count}"


class TooManyGuesses(Exception):
    """Too many requests for links that do not exist came from this address (answered 429 by
    scorekeeper.middleware)."""


class LinkGone(Exception):
    """A watch or scorer link that opens nothing: never made, turned off or replaced
    (answered 404 by scorekeeper.middleware with the app's own page, in development too)."""


def client_address(request: HttpRequest) -> str:
    """The address the limit counts by: REMOTE_ADDR, or behind `TRUSTED_PROXIES` reverse
    proxies, the address the outermost of them saw."""
    return address_of(
        request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", "")
    )


def address_of(remote: str, forwarded_for: str) -> str:
    """The phone's address: the connection's (`remote`), or behind `TRUSTED_PROXIES` reverse
    proxies, the address the outermost of them saw (each appends the address it received from
    to X-Forwarded-For; whatever a client wrote there itself comes before, unused)."""
    proxies: int = settings.TRUSTED_PROXIES
    forwarded = [part.strip() for part in forwarded_for.split(",")]
    if proxies and len(forwarded) >= proxies and forwarded[-proxies]:
        return forwarded[-proxies][:64]
    return remote or "unknown"


def _window(seconds: int) -> datetime:
    now = int(timezone.now().timestamp())
    return datetime.fromtimestamp(now - now % seconds, tz=UTC)


def attempt(key: str, *, limit: int, seconds: int) -> bool:
    """Count one attempt; False once more than `limit` were made in this window."""
    start = _window(seconds)
    with transaction.atomic():
        row, created = RateLimit.objects.get_or_create(
            key=key, window_start=start, defaults={"count": 1}
        )
        if not created:
            RateLimit.objects.filter(pk=row.pk).update(count=F("count") + 1)
            row.count += 1
    return row.count <= limit


def exceeded(key: str, *, limit: int, seconds: int) -> bool:
    """Whether `key` is over its limit in this window, without counting an attempt."""
    row = RateLimit.objects.filter(key=key, window_start=_window(seconds)).first()
    return row is not None and row.count > limit


def forget_old(*, older_than: timedelta = timedelta(days=1)) -> int:
    """Delete finished windows; returns how many rows went."""
    deleted, _ = RateLimit.objects.filter(window_start__lt=timezone.now() - older_than).delete()
    return deleted


def login_name_key(typed: str) -> str:
    """The key that counts log-ins to the account `typed` reaches, however it is spelled.

    The name goes through the log-in form's own field (it strips the name and normalises it
    to NFKC), so every spelling that finds one account finds one key; then it is case-folded,
    as sign-up treats names differing only by case as one. The key is a keyed hash of that
    name: 75 characters whatever was typed (the column holds 200), and what was typed in the
    name field, at times a password, is not kept in the table.
    """
    name = (AuthenticationForm().fields["username"].to_python(typed) or "").casefold()
    digest = salted_hmac("scorekeeper.ratelimit.login", name, algorithm="sha256")
    return "login-user:" + digest.hexdigest()


def login_allowed(request: HttpRequest) -> bool:
    """Count a login attempt, by account name and by address (a wider limit)."""
    limit, seconds = settings.LOGIN_RATE_LIMIT
    name_key = login_name_key(request.POST.get("username", ""))
    by_name = attempt(name_key, limit=limit, seconds=seconds)
    by_address = attempt(f"login:{client_address(request)}", limit=limit * 3, seconds=seconds)
    return by_name and by_address


def password_change_allowed(request: HttpRequest) -> bool:
    """Count an attempt to change the password (it checks the old one), per account."""
    limit, seconds = settings.LOGIN_RATE_LIMIT
    return attempt(f"password:{request.user.pk}", limit=limit, seconds=seconds)


def signup_allowed(request: HttpRequest) -> bool:
    """Count an attempt to sign up, per address: each one tells whether a name is taken."""
    limit, seconds = settings.SIGNUP_RATE_LIMIT
    return attempt(f"signup:{client_address(request)}", limit=limit, seconds=seconds)


def link_miss_allowed(request: HttpRequest) -> bool:
    """Count a request for a link token that does not exist (a guess, or a revoked link)."""
    limit, seconds = settings.LINK_RATE_LIMIT
    return attempt(f"link:{client_address(request)}", limit=limit, seconds=seconds)
