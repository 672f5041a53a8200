"""The scoresheet file of the adding family, 99 and friends (FORMAT.md §1, §3, §4).

Pure Python, no Django. `parse()` reads a file whose header was checked and gives an
AddingSheet, or raises InvalidScoresheet listing every problem as a path into the file
("rounds[2].events[0].target: …", 0-based); `export()` gives the dict to write.
"""

from dataclasses import dataclass

from scorekeeper.rules.adding import (
    ID,
    AddingResult,
    AddingRules,
    Event,
    RoundEntry,
    RoundResult,
    check_rounds,
    resolve_rules,
    score_session,
)
from scorekeeper.rules.bounds import MAX_EVENTS, number
from scorekeeper.rules.common import is_whole
from scorekeeper.rules.i18n import _
from scorekeeper.scoresheet.reading import Add, SheetBase, header, read_sheet

# Keys of a round and of an event; the computed ones (FORMAT.md §4) are ignored on import.
ROUND_KEYS = ("events",)
ROUND_COMPUTED_KEYS = ("number", "dealer", "tokens", "eliminated", "points", "totals", "tally")
EVENT_KEYS = ("player", "event", "target", "tokens")


@dataclass(frozen=True)
class AddingSheet(SheetBase):
    """One session of the adding game, as entered at the table."""

    rounds: tuple[RoundEntry, ...]
    rules: AddingRules

    family = ID
    entries_field = "rounds"

    resolve_rules = staticmethod(resolve_rules)


SHEET = AddingSheet  # the registry finds a family's sheet class here


# Reading


def parse(data: dict[object, object]) -> AddingSheet:
    """Read a file of this family whose header was checked; raise InvalidScoresheet with every
    problem."""
    return read_sheet(AddingSheet, data, "ninety-nine", _read_round, resolve_rules, check_rounds)


def _read_round(value: object, path: str, add: Add) -> RoundEntry | None:
    if not isinstance(value, dict):
        add(path, _('must be an object with "events"'))
        return None
    ok = True
    for key in value:
        if key not in ROUND_KEYS and key not in ROUND_COMPUTED_KEYS:
            add(f"{path}.{key}", _("unknown key"))
            ok = False
    raw = value.get("events")
    if raw is None:
        add(f"{path}.events", _("missing; give the round's events, or [] for a round just dealt"))
        return None
    if not isinstance(raw, list):
        add(f"{path}.events", _("must be a list of events"))
        return None
    if len(raw) > MAX_EVENTS:
        message = _("a round has at most {most} events; this one has {count}")
        add(f"{path}.events", message.format(most=MAX_EVENTS, count=number(len(raw))))
        return None
    events = [_read_event(event, f"{path}.events[{index}]", add) for index, event in enumerate(raw)]
    if not ok or None in events:
        return None
    return RoundEntry(tuple(event for event in events if event is not None))


def _read_event(value: object, path: str, add: Add) -> Event | None:
    if not isinstance(value, dict):
        add(path, _('must be an object such as {"player": "Ann", "event": "bust"}'))
        return None
    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        add(f"{path}.{key}", message)
        ok = False

    for key in value:
        if key not in EVENT_KEYS:
            bad(str(key), _("unknown key"))
    player = value.get("player")
    if player is None:
        bad("player", _("missing; give the player's name"))
    elif not isinstance(player, str):
        bad("player", _("must be text"))
    kind = value.get("event")
    if kind is None:
        bad("event", _('missing; give the event, such as "bust"'))
    elif not isinstance(kind, str):
        bad("event", _("must be text"))
    target = value.get("target")
    if target is not None and not is_whole(target):
        bad("target", _("must be a whole number such as 33"))
    tokens = value.get("tokens")
    if tokens is not None and not is_whole(tokens):
        bad("tokens", _("must be a whole number such as 1 or -1"))
    if not ok or not isinstance(player, str) or not isinstance(kind, str):
        return None
    return Event(
        player,
        kind,
        target=target if is_whole(target) else None,
        tokens=tokens if is_whole(tokens) else None,
    )


# Writing


def export(sheet: AddingSheet, result: AddingResult | None = None) -> dict[str, object]:
    """The file's content: the input fields as entered, then the computed fields (FORMAT.md §4).

    Keys come in a fixed order (in a round: number, dealer, events, tokens, eliminated, then
    points and totals for Wilson or the tally for the 98 presets), so exporting, importing and
    exporting again gives the same text. A round has "tokens" where the preset uses tokens
    (not in Wilson or the 98 presets), as the standings do.
    """
    rules = sheet.rules
    if result is None:
        result = score_session(rules, sheet.rounds)
    data = header(ID, sheet.ruleset, sheet.options, sheet.title, sheet.played_on, sheet.players)
    data["rounds"] = [
        _export_round(entry, played)
        for entry, played in zip(sheet.rounds, result.rounds, strict=True)
    ]
    if rules.uses_tokens:
        data["standings"] = [
            {
                "player": standing.player,
                "tokens": standing.tokens,
                "out": standing.out,
                "rank": standing.rank,
            }
            for standing in result.standings
        ]
    else:
        data["standings"] = [
            {"player": standing.player, "total": standing.total, "rank": standing.rank}
            for standing in result.standings
        ]
    coming = result.next
    data["next"] = None if coming is None else {"number": coming.number, "dealer": coming.dealer}
    data["finished"] = result.finished
    data["winners"] = list(result.winners)
    return data


def _export_round(entry: RoundEntry, played: RoundResult) -> dict[str, object]:
    data: dict[str, object] = {"number": played.number, "dealer": played.dealer}
    data |= round_data(entry)
    if played.tokens is not None:
        data["tokens"] = dict(played.tokens)
    data["eliminated"] = list(played.eliminated)
    if played.points is not None:
        data["points"] = dict(played.points)
    if played.totals is not None:
        data["totals"] = dict(played.totals)
    if played.tally is not None:
        data["tally"] = dict(played.tally)
    return data


def round_data(entry: RoundEntry) -> dict[str, object]:
    """A round's input fields as the file writes them (FORMAT.md §3), e.g. for a history."""
    return {"events": [event_data(event) for event in entry.events]}


entry_data = round_data  # the registry writes an entry's input fields with this


def read_change(data: object) -> tuple[Event, ...] | None:
    """The events of a round or of one event that `round_data()` or `event_data()` wrote (a
    history's before or after), or None if it reads as neither."""
    if isinstance(data, dict) and "events" in data:
        entry = _read_round(data, "round", _ignore)
        return None if entry is None else entry.events
    event = _read_event(data, "event", _ignore)
    return None if event is None else (event,)


def _ignore(path: str, message: str) -> None:
    """An `Add` for reading data this app wrote itself: a problem just means "not a round"."""


def event_data(event: Event) -> dict[str, object]:
    """Only the fields that were entered."""
    data: dict[str, object] = {"player": event.player, "event": event.event}
    if event.target is not None:
        data["target"] = event.target
    if event.tokens is not None:
        data["tokens"] = event.tokens
    return data
