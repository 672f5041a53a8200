"""A session's history of changes in words: each change with a heading and its before and after.

A change to a deal or round is put in words by the session's family presenter
(`change_label`, `change_words`); a change to the session as a whole (models.SESSION_ACTIONS:
its name, names, seats, a player replaced, abandoned, deleted, a rematch) is the same for both
families and is put in words here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scorekeeper.models import SESSION_ACTIONS, Change, ChangeAction, GameSession
from scorekeeper.presenters.registry import presenter


@dataclass(frozen=True)
class Line:
    """One line of a change's before or after. `changed` says whether the other side lacks
    it, where there is another side to compare with (a correction); None where there is not
    (a deal entered or undone)."""

    text: str
    changed: bool | None = None


HistoryRow = tuple[Change, str, list[Line], list[Line]]


def history(session: GameSession) -> list[HistoryRow]:
    """Every change to the session, newest first: (change, heading, before, after), the
    lines that differ between before and after marked."""
    shown = presenter(session.family)
    rules = session.rules()
    rows: list[HistoryRow] = []
    for change in session.changes.select_related("by_user"):
        if change.action in SESSION_ACTIONS:
            heading, before, after = session_change_words(change, session.unit)
        else:
            heading = shown.change_label(change)
            before, after = shown.change_words(change, rules)
        rows.append((change, heading, *compared(before, after)))
    return rows


def compared(before: Sequence[str], after: Sequence[str]) -> tuple[list[Line], list[Line]]:
    """Both sides' lines, each marked changed unless the other side has the same line (as
    many times): a correction shows at a glance which hands or events it touched."""
    if not before or not after:
        return [Line(text) for text in before], [Line(text) for text in after]
    return _marked(before, after), _marked(after, before)


def _marked(lines: Sequence[str], other: Sequence[str]) -> list[Line]:
    left = Counter(other)
    marked = []
    for text in lines:
        marked.append(Line(text, changed=left[text] == 0))
        left[text] -= 1
    return marked


def session_change_words(change: Change, unit: str) -> tuple[str, list[str], list[str]]:
    """A change to the session as a whole: its heading, and its before and after in words."""
    before, after = _data(change.before), _data(change.after)
    action = change.action
    if action == ChangeAction.TITLED:
        return change.get_action_display(), [_title(before)], [_title(after)]
    if action == ChangeAction.NAMED:
        return change.get_action_display(), [_seat(before)], [_seat(after)]
    if action == ChangeAction.SEATED:
        return change.get_action_display(), _seats(before), _seats(after)
    if action == ChangeAction.REPLACED:
        newcomer, left = after.get("player"), before.get("player")
        played = after.get("after") or 0
        lines = [_seat_since(after.get("seat"), newcomer, unit, played)]
        if after.get("statement"):
            lines.append(str(after["statement"]))
        heading = _("%(newcomer)s took %(left)s's seat") % {"newcomer": newcomer, "left": left}
        return heading, [_seat(before)], lines
    if action == ChangeAction.ABANDONED:
        played = after.get("played") or 0
        stopped = [_stopped(unit, played)]
        if after.get("reason"):
            stopped.append(_("Why: %(reason)s") % {"reason": after["reason"]})
        return change.get_action_display(), [], stopped
    if action == ChangeAction.RESUMED and after.get("entered"):
        if unit == "deal":
            entered = _("Deal %(number)s was entered") % {"number": after["entered"]}
        else:
            entered = _("Round %(number)s was entered") % {"number": after["entered"]}
        return change.get_action_display(), [], [entered]
    if action == ChangeAction.REMATCH:
        seats = [str(name) for name in after.get("seats") or []]
        lines = (
            [
                _("Seats: %(names)s") % {"names": ", ".join(seats)},
                _("%(player)s deals first") % {"player": after.get("dealer") or seats[0]},
            ]
            if seats
            else []
        )
        return change.get_action_display(), [], lines
    return change.get_action_display(), [], []


def _seat(data: dict[str, Any]) -> str:
    """'Seat 2: Ben'."""
    return _("Seat %(number)s: %(player)s") % {
        "number": data.get("seat"),
        "player": data.get("player"),
    }


def _seat_since(seat: object, player: object, unit: str, played: int) -> str:
    """'Seat 2: Dan, after deal 4', or 'Seat 2: Dan, before the first deal'."""
    words = {"number": seat, "player": player, "played": played}
    if unit == "deal":
        if played:
            return _("Seat %(number)s: %(player)s, after deal %(played)s") % words
        return _("Seat %(number)s: %(player)s, before the first deal") % words
    if played:
        return _("Seat %(number)s: %(player)s, after round %(played)s") % words
    return _("Seat %(number)s: %(player)s, before the first round") % words


def _stopped(unit: str, played: int) -> str:
    """'Stopped after deal 4', or 'Stopped before the first deal'."""
    if unit == "deal":
        if played:
            return _("Stopped after deal %(played)s") % {"played": played}
        return _("Stopped before the first deal")
    if played:
        return _("Stopped after round %(played)s") % {"played": played}
    return _("Stopped before the first round")


def _data(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _title(data: dict[str, Any]) -> str:
    title = data.get("title")
    return _("Name: %(title)s") % {"title": title} if title else _("No name")


def _seats(data: dict[str, Any]) -> list[str]:
    return [
        _("Seat %(number)s: %(player)s") % {"number": number, "player": name}
        for number, name in enumerate(data.get("seats") or [], 1)
    ]
