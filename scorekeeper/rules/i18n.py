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

import unicodedata
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


# A sentence with a name after « de » has a second wording, under the context "the name
# begins with a vowel sound" (written out at each use: makemessages reads only a literal
# context), for French to elide it (« l’annonce d’Anne », « le classement d’Automne 2026 »,
# but « de Ben »). English has one.


def vowel_sound_first(name: str) -> bool:
    """Whether a name begins with a vowel sound, as French elision asks: a vowel, accented or
    not (Anne, Élodie), a mute h (Hugo, Hélène: first names take it so), or a y before a
    consonant (Yves, but not Yann)."""
    spelled = unicodedata.normalize("NFD", name.strip().lower())
    letters = [c for c in spelled if not unicodedata.combining(c)]
    vowels = "aeiouœæ"
    if not letters:
        return False
    if letters[0] == "y":
        return len(letters) > 1 and letters[1] not in vowels + "y"
    return letters[0] in vowels + "h"
