"""Words people read, translatable without Django: the rules call `_()` and `ngettext()`, and
the Django side installs its own translation functions once at start (`install`).

Why this way: the rules package stays pure (standard library only, no I/O, no Django), yet its
messages use the same catalogue, the same extraction (`makemessages` finds `_()`,
`ngettext()` and `gettext_noop()` calls here as anywhere) and Django's active language of the
request. A message reads naturally in each language because the whole sentence, with named
fields, is the message id:

    _("Tricks add up to {total}; a deal has {tricks}.").format(total=8, tricks=9)

Outside Django (unit tests, scripts) nothing is installed and the English text is used as is.
Data read at import time (labels, names) is marked with `gettext_noop()` and translated where
it is shown, with `_()` on the rules side or `gettext()` on the Django side: the same id.
Anything cached that holds translated words must key its cache on `language()`.
"""

from collections.abc import Callable


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def _no_language() -> str | None:
    return None


_gettext: Callable[[str], str] = str
_ngettext: Callable[[str, str, int], str] = _english_plural
_language: Callable[[], str | None] = _no_language


def install(
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    language: Callable[[], str | None],
) -> None:
    """Translate with these from now on (the Django side calls it once, at start)."""
    global _gettext, _ngettext, _language
    _gettext, _ngettext, _language = gettext, ngettext, language


def _(message: str) -> str:
    """`message` in the active language."""
    return _gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` ("1 trick" / "2 tricks") in the active language; format it after."""
    return _ngettext(singular, plural, count)


def gettext_noop(message: str) -> str:
    """Marks `message` for translation where it is shown; returns it unchanged."""
    return message


def language() -> str:
    """The active language's code ("en" outside Django): a key for caches of translated words."""
    return _language() or "en"
