"""Text typed into forms: names and titles, tidied and checked as the rules check them."""

from __future__ import annotations

import re
import unicodedata

from django import forms

from scorekeeper.rules import bounds


def tidy_name(value: str) -> str:
    """Trim a name, collapse runs of whitespace to single spaces, and store it composed (NFC),
    so that the same letters typed on two phones are the same text."""
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", value).strip())


def check_text(value: str, what: str, longest: int) -> None:
    """Refuse a name or title the rules would refuse (too long, control characters)."""
    wrong = bounds.text_problem(value, what, longest)
    if wrong is not None:
        raise forms.ValidationError(wrong)
