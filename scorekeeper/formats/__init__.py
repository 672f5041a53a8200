"""Dates and numbers as each language writes them (settings.FORMAT_MODULE_PATH). Only what
differs from Django's own formats for the language is here; templates name the formats
(`|date:"DATE_FORMAT"`), never spell them."""

from datetime import date

from django.utils import formats


def date_text(value: date) -> str:
    """A day as the active language writes it (DATE_FORMAT): "2 Nov 2026", « 2 nov. 2026 »."""
    return formats.date_format(value, "DATE_FORMAT")
