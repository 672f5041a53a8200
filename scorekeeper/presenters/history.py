"""A session's history of changes in words: each change with a heading and its before and after.

A change to a deal or round is put in words by the session's family presenter
(`change_label`, `change_words`); a change to the session as a whole (models.SESSION_ACTIONS:
its name, names, seats, a player replaced, abandoned, deleted, a rematch) is the same for both
families and is put in words here.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.models import SESSION_ACTIONS, Change, ChangeAction, GameSession
from scorekeeper.presenters import presenter

HistoryRow = tuple[Change, str, list[str], list[str]]


def history(session: GameSession) -> list[HistoryRow]:
    """Every change to the session, newest first: (change, heading, before, after)."""
    shown = presenter(session)
    rules = session.rules()
    rows: list[HistoryRow] = []
    for change in session.changes.select_related("by_user"):
        if change.action in SESSION_ACTIONS:
            rows.append((change, *session_change_words(change, session.unit)))
        else:
            rows.append((change, shown.change_label(change), *shown.change_words(change, rules)))
    return rows


def session_change_words(change: Change, unit: str) -> tuple[str, list[str], list[str]]:
    """A change to the session as a whole: its heading, and its before and after in words."""
    before, after = _data(change.before), _data(change.after)
    action = change.action
    if action == ChangeAction.TITLED:
        return change.get_action_display(), [_title(before)], [_title(after)]
    if action == ChangeAction.NAMED:
        return (
            change.get_action_display(),
            [f"Seat {before.get('seat')}: {before.get('player')}"],
            [f"Seat {after.get('seat')}: {after.get('player')}"],
        )
    if action == ChangeAction.SEATED:
        return change.get_action_display(), _seats(before), _seats(after)
    if action == ChangeAction.REPLACED:
        newcomer, left = after.get("player"), before.get("player")
        played = after.get("after") or 0
        when = f"after {unit} {played}" if played else f"before the first {unit}"
        lines = [f"Seat {after.get('seat')}: {newcomer}, {when}"]
        if after.get("statement"):
            lines.append(str(after["statement"]))
        return f"{newcomer} took {left}'s seat", [f"Seat {before.get('seat')}: {left}"], lines
    if action == ChangeAction.ABANDONED:
        played = after.get("played") or 0
        where = f"after {unit} {played}" if played else f"before the first {unit}"
        return change.get_action_display(), [], [f"Stopped {where}"]
    if action == ChangeAction.RESUMED and after.get("entered"):
        entered = f"{unit.capitalize()} {after['entered']} was entered"
        return change.get_action_display(), [], [entered]
    if action == ChangeAction.REMATCH:
        seats = [str(name) for name in after.get("seats") or []]
        lines = [f"Seats: {', '.join(seats)}", f"{seats[0]} deals first"] if seats else []
        return change.get_action_display(), [], lines
    return change.get_action_display(), [], []


def _data(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _title(data: dict[str, Any]) -> str:
    title = data.get("title")
    return f"Name: {title}" if title else "No name"


def _seats(data: dict[str, Any]) -> list[str]:
    return [f"Seat {number}: {name}" for number, name in enumerate(data.get("seats") or [], 1)]
