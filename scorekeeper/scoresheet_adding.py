"""The scoresheet file of the adding family, 99 and friends (FORMAT.md §1, §3, §4).

Pure Python, no Django. `scorekeeper.scoresheet` reads the header of every file and hands a
`"family": "adding"` file to `parse_adding_sheet()`, and an `AddingSheet` to
`export_adding_sheet()`; this module reads the top-level fields with that module's readers.
Problems are paths into the file, 0-based: "rounds[2].events[0].target: …".
"""

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from scorekeeper.rules.adding import (
    AddingRules,
    Event,
    RoundEntry,
    RoundResult,
    check_rounds,
    resolve_rules,
    score_session,
)
from scorekeeper.rules.bounds import MAX_DEALS, MAX_EVENTS
from scorekeeper.rules.common import InvalidRules, Problem, is_whole
from scorekeeper.scoresheet import (
    FORMAT_ID,
    FORMAT_VERSION,
    InvalidScoresheet,
    _read_date,
    _read_options,
    _read_players,
    _read_title,
    too_many,
)

# Keys of a round and of an event; the computed ones (FORMAT.md §4) are ignored on import.
ROUND_KEYS = ("events",)
ROUND_COMPUTED_KEYS = ("number", "dealer", "tokens", "eliminated", "points", "totals", "tally")
EVENT_KEYS = ("player", "event", "target", "tokens")

_TOP_KEYS = ("ruleset", "options", "title", "played_on", "players", "rounds")

_Add = Callable[[str, str], None]


@dataclass(frozen=True)
class AddingSheet:
    """One session of the adding game, as entered at the table."""

    ruleset: str
    options: dict[str, object]  # the overrides, as given
    title: str | None
    played_on: date | None
    players: tuple[str, ...]
    rounds: tuple[RoundEntry, ...]
    rules: AddingRules

    @classmethod
    def build(
        cls,
        *,
        ruleset: str,
        options: Mapping[str, object],
        players: Sequence[str],
        rounds: Sequence[RoundEntry] = (),
        title: str | None = None,
        played_on: date | None = None,
    ) -> "AddingSheet":
        """A sheet with its rules resolved (raises InvalidRules); the rounds are not checked."""
        rules = resolve_rules(ruleset, options, players)
        overrides = copy.deepcopy(dict(options))
        return cls(ruleset, overrides, title, played_on, rules.players, tuple(rounds), rules)


# Reading


def parse_adding_sheet(data: dict[object, object]) -> AddingSheet:
    """Read an adding-family file whose header was checked; raise InvalidScoresheet with every
    problem."""
    problems: list[Problem] = []

    def add(path: str, message: str) -> None:
        problems.append(Problem(path, message))

    ruleset = data.get("ruleset")
    if ruleset is None:
        add("ruleset", "missing; give a ruleset id such as ninety-nine")
    elif not isinstance(ruleset, str):
        add("ruleset", "must be text: a ruleset id such as ninety-nine")
    options = _read_options(data.get("options"), add)
    title = _read_title(data.get("title"), add)
    played_on = _read_date(data.get("played_on"), add)
    players = _read_players(data.get("players"), add)
    rounds = _read_rounds(data.get("rounds"), add)

    rules = None
    if isinstance(ruleset, str) and options is not None and players is not None:
        try:
            rules = resolve_rules(ruleset, options, players)
        except InvalidRules as error:
            problems += error.problems
    if rules is not None:
        problems += [
            Problem(problem.path, problem.message) for problem in check_rounds(rules, rounds)
        ]
    if problems or rules is None or options is None:
        raise InvalidScoresheet(sorted(problems, key=_file_order))
    return AddingSheet(
        ruleset=rules.preset.id,
        options=options,
        title=title,
        played_on=played_on,
        players=rules.players,
        rounds=tuple(entry for entry in rounds if entry is not None),
        rules=rules,
    )


def _read_rounds(value: object, add: _Add) -> list[RoundEntry | None]:
    """The rounds; None for a round that cannot be read (its problems are added)."""
    if value is None:
        add("rounds", "missing; use [] for a session with no rounds yet")
        return []
    if not isinstance(value, list):
        add("rounds", "must be a list of rounds")
        return []
    if len(value) > MAX_DEALS:
        add("rounds", too_many("rounds", len(value)))
        return []
    return [_read_round(entry, f"rounds[{index}]", add) for index, entry in enumerate(value)]


def _read_round(value: object, path: str, add: _Add) -> RoundEntry | None:
    if not isinstance(value, dict):
        add(path, 'must be an object with "events"')
        return None
    ok = True
    for key in value:
        if key not in ROUND_KEYS and key not in ROUND_COMPUTED_KEYS:
            add(f"{path}.{key}", "unknown key")
            ok = False
    raw = value.get("events")
    if raw is None:
        add(f"{path}.events", "missing; give the round's events, or [] for a round just dealt")
        return None
    if not isinstance(raw, list):
        add(f"{path}.events", "must be a list of events")
        return None
    if len(raw) > MAX_EVENTS:
        add(f"{path}.events", f"a round has at most {MAX_EVENTS} events; this one has {len(raw):,}")
        return None
    events = [_read_event(event, f"{path}.events[{index}]", add) for index, event in enumerate(raw)]
    if not ok or None in events:
        return None
    return RoundEntry(tuple(event for event in events if event is not None))


def _read_event(value: object, path: str, add: _Add) -> Event | None:
    if not isinstance(value, dict):
        add(path, 'must be an object such as {"player": "Ann", "event": "bust"}')
        return None
    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        add(f"{path}.{key}", message)
        ok = False

    for key in value:
        if key not in EVENT_KEYS:
            bad(str(key), "unknown key")
    player = value.get("player")
    if player is None:
        bad("player", "missing; give the player's name")
    elif not isinstance(player, str):
        bad("player", "must be text")
    kind = value.get("event")
    if kind is None:
        bad("event", 'missing; give the event, such as "bust"')
    elif not isinstance(kind, str):
        bad("event", "must be text")
    target = value.get("target")
    if target is not None and not is_whole(target):
        bad("target", "must be a whole number such as 33")
    tokens = value.get("tokens")
    if tokens is not None and not is_whole(tokens):
        bad("tokens", "must be a whole number such as 1 or -1")
    if not ok or not isinstance(player, str) or not isinstance(kind, str):
        return None
    return Event(
        player,
        kind,
        target=target if is_whole(target) else None,
        tokens=tokens if is_whole(tokens) else None,
    )


def _file_order(problem: Problem) -> tuple[int, int, int]:
    """Sort key putting problems in the order of the file: top-level keys, then round by round,
    event by event."""
    top = problem.path.partition(".")[0].partition("[")[0]
    found = re.match(r"rounds\[(\d+)\](?:\.events\[(\d+)\])?", problem.path)
    round_index = int(found.group(1)) if found else -1
    event_index = int(found.group(2)) if found and found.group(2) else -1
    return _TOP_KEYS.index(top), round_index, event_index


# Writing


def export_adding_sheet(sheet: AddingSheet) -> dict[str, object]:
    """The file's content: the input fields as entered, then the computed fields (FORMAT.md §4).

    Keys come in a fixed order (in a round: number, dealer, events, tokens, eliminated, then
    points and totals for Wilson or the tally for the 98 presets), so exporting, importing and
    exporting again gives the same text. A round has "tokens" where the preset uses tokens
    (not in Wilson or the 98 presets), as the standings do.
    """
    rules = sheet.rules
    result = score_session(rules, sheet.rounds)
    data: dict[str, object] = {
        "format": FORMAT_ID,
        "version": FORMAT_VERSION,
        "family": "adding",
        "ruleset": sheet.ruleset,
        "options": copy.deepcopy(sheet.options),
    }
    if sheet.title is not None:
        data["title"] = sheet.title
    if sheet.played_on is not None:
        data["played_on"] = sheet.played_on.isoformat()
    data["players"] = list(sheet.players)
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


def event_data(event: Event) -> dict[str, object]:
    """Only the fields that were entered."""
    data: dict[str, object] = {"player": event.player, "event": event.event}
    if event.target is not None:
        data["target"] = event.target
    if event.tokens is not None:
        data["tokens"] = event.tokens
    return data
