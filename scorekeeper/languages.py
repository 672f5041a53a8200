"""The reader's language: chosen by the browser (Accept-Language, through LocaleMiddleware),
in the footer (a cookie kept on that phone for a year), and, for a logged-in user, on their
account, so that logging in on any phone brings it back."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from scorekeeper.models import AccountLanguage


def known(code: str | None) -> str | None:
    """`code` if it is one of settings.LANGUAGES, exactly; else None."""
    return code if code in dict(settings.LANGUAGES) else None


def stored(user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The language `user` chose while logged in, if any (and still offered)."""
    if not isinstance(user, User):
        return None
    row = AccountLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    return known(row)


def stored_info(user: AbstractBaseUser | AnonymousUser) -> dict[str, str] | None:
    """Django's description of the stored language (`code`, `name_local` …), or None."""
    code = stored(user)
    return translation.get_language_info(code) if code is not None else None


def adopt_chosen(request: HttpRequest, user: AbstractBaseUser) -> None:
    """At sign-up: a language chosen in the footer before (the cookie) becomes the account's."""
    chosen = known(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if chosen is not None:
        store(user, chosen)


def store(user: AbstractBaseUser | AnonymousUser, code: str) -> None:
    """Keep `code` on `user`'s account (nothing for an anonymous visitor)."""
    if isinstance(user, User):
        AccountLanguage.objects.update_or_create(user=user, defaults={"language": code})


def remember(response: HttpResponse, code: str) -> None:
    """Set the language cookie that LocaleMiddleware reads, as the settings say."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
    )


def restore(user: AbstractBaseUser | AnonymousUser, response: HttpResponse) -> None:
    """At log-in: the account's language, for this response and on this phone from now on."""
    code = stored(user)
    if code is not None:
        translation.activate(code)
        remember(response, code)
