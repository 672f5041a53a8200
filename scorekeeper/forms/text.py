"""Text typed into forms: names and titles, tidied and checked as the rules check them; and
the days a club's records hold."""

from __future__ import annotations

import datetime
import re
import unicodedata

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scorekeeper.rules import bounds


def tidy_name(value: str) -> str:
    """Trim a name, collapse runs of whitespace to single spaces, and store it composed (NFC),
    so that the same letters typed on two phones are the same text."""
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", value).strip())


def check_text(value: str, longest: int) -> None:
    """Refuse a name or title the rules would refuse (too long, control characters), in the
    words of the page's language: the rules say whether it is wrong, the form says how."""
    if len(value) > longest:
        raise forms.ValidationError(
            _("A name can be at most %(longest)s characters long.") % {"longest": longest}
        )
    if bounds.text_problem(value, "A name", len(value)) is not None:
        raise forms.ValidationError(
            _("A name cannot hold control characters (such as a tab, a new line or NUL).")
        )


# The days a club's records hold: a night played, a season's first and last day.
EARLIEST_DAY = datetime.date(1900, 1, 1)
LATEST_DAY = datetime.date(2099, 12, 31)


def check_day(value: datetime.date) -> datetime.date:
    """Refuse a day outside the club's records (year 1 or 9999, typed by mistake, would file a
    night or a season where nobody looks for it)."""
    if not EARLIEST_DAY <= value <= LATEST_DAY:
        raise forms.ValidationError(
            _("Choose a day between %(earliest)s and %(latest)s.")
            % {"earliest": date_format(EARLIEST_DAY), "latest": date_format(LATEST_DAY)}
        )
    return value
