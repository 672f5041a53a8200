"""A session as a file to download: its scoresheet file (FORMAT.md) and the file's name."""

from __future__ import annotations

from typing import Any

from django.utils.text import slugify

from scorekeeper.models import GameSession
from scorekeeper.rules.registry import Result
from scorekeeper.scoresheet import build_sheet, dumps_scoresheet, stored_scoresheet


def file_name(session: GameSession) -> str:
    """A name for the session's downloads, the same in every language: its title (or saved
    rules' name, or ruleset) and its day, 'friday-at-sams-2026-11-20'."""
    day = session.played_on or session.created.date()
    preset = session.preset
    name = session.title or session.ruleset_name or (preset.name if preset else session.ruleset)
    return f"{slugify(name) or 'session'}-{day}"


def scoresheet(session: GameSession, result: Result) -> str:
    """The session as its scoresheet file: what was entered, then `result`, the session's at
    its version (UnreadableRules if its stored rules are no longer accepted: see
    `stored_file`)."""
    session.rules()
    return dumps_scoresheet(build_sheet(session.family, **_sheet_fields(session)), result)


def stored_file(session: GameSession) -> str:
    """The session's scoresheet file as stored, without reading its rules: what was entered,
    without the computed fields (FORMAT.md §4), which need the rules. For a session whose
    stored rules are no longer accepted (UnreadableRules), so that nothing entered is lost."""
    return stored_scoresheet(session.family, **_sheet_fields(session))


def _sheet_fields(session: GameSession) -> dict[str, Any]:
    """What a scoresheet file of the session is written from: its rules as stored, its
    players, what was entered, its title and day."""
    return {
        "ruleset": session.ruleset,
        "options": session.options,
        # The file has no first dealer: its seat order starts with them.
        "players": _dealing_order(session),
        "entries": session.entries(),
        "title": session.title or None,
        "played_on": session.played_on,
    }


def _dealing_order(session: GameSession) -> list[str]:
    """The players in seat order from the first dealer: the seat order of the scoresheet
    file, where the first deals first (FORMAT.md)."""
    names = session.player_names()
    first = session.first_dealer % len(names) if names else 0
    return [*names[first:], *names[:first]]
