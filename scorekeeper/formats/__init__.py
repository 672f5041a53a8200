"""Dates and numbers as each language writes them (settings.FORMAT_MODULE_PATH). Only what
differs from Django's own formats for the language is here; templates name the formats
(`|date:"DATE_FORMAT"`), never spell them."""
