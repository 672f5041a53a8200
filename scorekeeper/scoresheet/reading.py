"""What every scoresheet file has, whatever its game family (FORMAT.md §1): the header, the
top-level fields, and the checks made before a file is parsed at all.

Pure Python, no Django. Each family's module (`trick`, `adding`) reads its own deals or rounds
and hands the rest to `read_sheet()` here.

The problems are said in the page's language (`rules.i18n`); the keys and values they quote
are the file's own, in English (FORMAT.md is a contract).
"""

import copy
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, Self

from scorekeeper.rules.bounds import (
    MAX_DEALS,
    MAX_FILE_BYTES,
    MAX_NESTING,
    MAX_PLAYERS,
    MAX_TITLE_LENGTH,
    number,
    text_problem,
)
from scorekeeper.rules.common import InvalidRules, Problem, is_whole
from scorekeeper.rules.i18n import _, gettext_noop

FORMAT_ID = "ninety-nine-scoresheet"
FORMAT_VERSION = 1
TOP_KEYS = ("ruleset", "options", "title", "played_on", "players", "deals", "rounds")

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

Add = Callable[[str, str], None]


class InvalidScoresheet(ValueError):
    """The file cannot be imported; `problems` lists everything wrong with it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


# Reading


def decode(text: str) -> object:
    """Decode a scoresheet's JSON text; bad JSON is reported as an InvalidScoresheet too.

    The size and the nesting depth are checked before the text is parsed, so that no file can
    make the reader work long or recurse deep (RULES.md §3, Bounds).
    """
    # A UTF-8 file may begin with a byte order mark (some editors on Windows write one): a JSON
    # reader may ignore it (RFC 8259, 8.1), and this one does.
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_FILE_BYTES:
        message = _("The file is too big for a scoresheet (over {megabytes} MB).").format(
            megabytes=MAX_FILE_BYTES // 1_000_000
        )
        raise InvalidScoresheet([Problem("", message)])
    depth = _nesting(text)
    if depth is not None and depth > MAX_NESTING:  # None: the JSON reader says where it fails
        message = _(
            "Values are nested {depth} levels deep; a scoresheet nests at most {most}."
        ).format(depth=depth, most=MAX_NESTING)
        raise InvalidScoresheet([Problem("", message)])
    try:
        data = json.loads(text, object_pairs_hook=_object_without_repeats)
    except json.JSONDecodeError as error:
        # The JSON reader's own words (error.msg) are English: the standard library's.
        message = _("This is not valid JSON (line {line}, column {column}): {error}.").format(
            line=error.lineno, column=error.colno, error=error.msg
        )
        raise InvalidScoresheet([Problem("", message)]) from None
    except _RepeatedKey as error:
        message = _('The key "{key}" appears twice in the same object.').format(key=error.key)
        raise InvalidScoresheet([Problem("", message)]) from None
    except (ValueError, RecursionError) as error:
        message = _("This is not valid JSON: {error}.").format(error=error)
        raise InvalidScoresheet([Problem("", message)]) from None
    return data


# The brackets kept by `_nesting()`, as one kind: the JSON reader tells "[" from "}".
_ONE_KIND = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
# A run of opening brackets and the run of closing ones after it.
_PEAK = re.compile(rb"(\[*+)(\]*+)")


def _nesting(text: str) -> int | None:
    """How deep the text's arrays and objects nest, read without parsing; None if their
    brackets fail to pair up (then it is not JSON at all).

    Each step is one pass of the standard library's C code over the text, so that no text,
    however made, makes the check slow; the loop in Python runs once per peak of what is left
    after the first levels are taken out, at most once for every 24 characters of the text.
    """
    # The escaped backslashes go first, then the escaped quotes (a run of backslashes pairs
    # up from its start, as in a JSON string): every quote left opens or closes a string.
    plain = text.replace("\\\\", "").replace('\\"', "")
    # Outside strings: every other stretch between quotes; a string left open runs to the end.
    outside = "".join(plain.split('"')[::2])
    brackets = outside.encode(errors="surrogatepass").translate(_ONE_KIND, _NOT_BRACKETS)
    # Taking out every "[]" takes out one level (each deepest "[" is closed right after it) and
    # leaves the pairing as it was. Levels are taken out while the peaks left are more than one
    # in 24 characters of the text, so the loop below runs at most that often.
    levels = 0
    while brackets.count(b"[]") > len(text) // 24:
        brackets, levels = brackets.replace(b"[]", b""), levels + 1
    depth = deepest = 0
    for opening, closing in _PEAK.findall(brackets):
        depth += len(opening)
        deepest = max(deepest, depth)
        depth -= len(closing)
        if depth < 0:
            return None
    return None if depth else levels + deepest


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _object_without_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            raise _RepeatedKey(key)
        data[key] = value
    return data


def read_header(data: object, families: Collection[str]) -> dict[object, object]:
    """The file as a dict whose header names one of `families`; raise InvalidScoresheet if it
    cannot be read as a scoresheet at all."""
    if not isinstance(data, dict):
        kind = describe(data)
        if kind in _NOT_AN_OBJECT:
            message = _(_NOT_AN_OBJECT[kind])
        else:  # not from JSON at all: a Python value handed to parse_scoresheet()
            message = _("A scoresheet file holds one JSON object {{…}}, not {kind}.").format(
                kind=kind
            )
        raise InvalidScoresheet([Problem("", message)])
    problems: list[Problem] = []
    if "format" not in data:
        missing = _('missing; a scoresheet has "format": "{format}"').format(format=FORMAT_ID)
        problems.append(Problem("format", missing))
    elif data["format"] != FORMAT_ID:
        problems.append(Problem("format", _('must be "{format}"').format(format=FORMAT_ID)))
    version = data.get("version")
    if is_whole(version) and version > FORMAT_VERSION:
        message = _("this file is version {version}; this app reads version {known}").format(
            version=version, known=FORMAT_VERSION
        )
        problems.append(Problem("version", message))
    elif not (is_whole(version) and version == FORMAT_VERSION):
        problems.append(Problem("version", _("must be {version}").format(version=FORMAT_VERSION)))
    family = data.get("family")
    if not isinstance(family, str) or family not in families:
        problems.append(Problem("family", _('must be "trick" or "adding"')))
    if problems:
        raise InvalidScoresheet(problems)
    return data


@dataclass(frozen=True)
class Top:
    """A file's top-level fields as read (None where a field could not be read)."""

    ruleset: str | None
    options: dict[str, object] | None
    title: str | None
    played_on: date | None
    players: list[str] | None


@dataclass(frozen=True)
class SheetBase:
    """What a sheet of any family holds besides its entries and its rules."""

    ruleset: str
    options: dict[str, object]  # the overrides, as given
    title: str | None
    played_on: date | None
    players: tuple[str, ...]

    # Set by each family's sheet: the family's id, the field that holds its entries, and the
    # family's way to read its rules (resolve_rules).
    family: ClassVar[str]
    entries_field: ClassVar[str]
    resolve_rules: ClassVar[Callable[..., Any]]

    @classmethod
    def build(
        cls,
        *,
        ruleset: str,
        options: Mapping[str, object],
        players: Sequence[str],
        title: str | None = None,
        played_on: date | None = None,
        **entries: Sequence[Any],
    ) -> Self:
        """A sheet with its rules resolved (raises InvalidRules); its entries, given by the
        name of their field (`deals=` or `rounds=`), are not checked."""
        rules = cls.resolve_rules(ruleset, options, players)
        given = entries.pop(cls.entries_field, ())
        if entries:
            raise TypeError(f"A {cls.__name__} has no {', '.join(entries)}.")
        return cls.made(rules, ruleset, options, given, title, played_on)

    @property
    def entries(self) -> tuple[Any, ...]:
        entries: tuple[Any, ...] = getattr(self, self.entries_field)
        return entries

    @classmethod
    def made(
        cls,
        rules: Any,
        ruleset: str,
        options: Mapping[str, object],
        entries: Sequence[object],
        title: str | None = None,
        played_on: date | None = None,
    ) -> Self:
        """The sheet of these rules and entries (a copy of `options`, the overrides)."""
        fields: dict[str, Any] = {cls.entries_field: tuple(entries)}
        return cls(  # type: ignore[call-arg]
            ruleset=ruleset,
            options=copy.deepcopy(dict(options)),
            title=title,
            played_on=played_on,
            players=rules.players,
            rules=rules,
            **fields,
        )


def read_sheet[T: SheetBase](
    sheet_class: type[T],
    data: dict[object, object],
    example: str,
    read_entry: Callable[[object, str, Add], object | None],
    resolve_rules: Callable[..., Any],
    check: Callable[[Any, list[Any]], Sequence[Any]],
) -> T:
    """Read a file of one family whose header was checked: its top-level fields here, its
    deals or rounds with `read_entry`, its rules with `resolve_rules`, and the problems of its
    entries with `check`. Raise InvalidScoresheet with every problem, in the order of the file."""
    problems: list[Problem] = []

    def add(path: str, message: str) -> None:
        problems.append(Problem(path, message))

    top = read_top(data, add, example)
    key = sheet_class.entries_field
    entries = [
        read_entry(entry, f"{key}[{index}]", add)
        for index, entry in enumerate(read_list(data.get(key), key, add))
    ]
    rules = resolve(top, problems, resolve_rules, lambda rules: check(rules, entries))
    assert top.options is not None and top.ruleset is not None
    read = [entry for entry in entries if entry is not None]
    return sheet_class.made(rules, rules.preset.id, top.options, read, top.title, top.played_on)


def read_top(data: dict[object, object], add: Add, example: str) -> Top:
    """Read the fields every family's file has; `example` is a ruleset id to suggest."""
    return Top(
        ruleset=read_ruleset(data.get("ruleset"), add, example),
        options=read_options(data.get("options"), add),
        title=read_title(data.get("title"), add),
        played_on=read_date(data.get("played_on"), add),
        players=read_players(data.get("players"), add),
    )


def resolve(
    top: Top,
    problems: list[Problem],
    resolve_rules: Callable[..., Any],
    check: Callable[[Any], Sequence[Any]],
) -> Any:
    """The file's rules, with the problems of its rules and its entries added to `problems`
    (`check` gives the problems of the entries under the rules); raise InvalidScoresheet,
    every problem in the order of the file, if there are any."""
    rules = None
    if top.ruleset is not None and top.options is not None and top.players is not None:
        try:
            rules = resolve_rules(top.ruleset, top.options, top.players)
        except InvalidRules as error:
            problems += error.problems
    if rules is not None:
        problems += [Problem(problem.path, problem.message) for problem in check(rules)]
    if problems or rules is None or top.options is None:
        raise InvalidScoresheet(sorted(problems, key=_file_order))
    return rules


def read_ruleset(value: object, add: Add, example: str) -> str | None:
    if isinstance(value, str):
        return value
    if value is None:
        add("ruleset", _("missing; give a ruleset id such as {example}").format(example=example))
    else:
        add("ruleset", _("must be text: a ruleset id such as {example}").format(example=example))
    return None


def read_options(value: object, add: Add) -> dict[str, object] | None:
    if value is None:
        return {}
    if not isinstance(value, dict):
        add("options", _("must be an object of option overrides, e.g. {}"))
        return None
    options: dict[str, object] = {}
    for name, option in value.items():
        if not isinstance(name, str):
            add("options", _("option names must be text"))
            return None
        options[name] = copy.deepcopy(option)
    return options


def read_title(value: object, add: Add) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        add("title", _("must be text"))
        return None
    if len(value) > MAX_TITLE_LENGTH:
        longest = _("A title can be at most {longest} characters long.")
        add("title", longest.format(longest=MAX_TITLE_LENGTH))
        return None
    if text_problem(value, "A title", len(value)) is not None:  # the rules' test of characters
        add(
            "title",
            _("A title cannot hold control characters (such as a tab, a new line or NUL)."),
        )
        return None
    return value


def read_date(value: object, add: Add) -> date | None:
    if value is None:
        return None
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    add("played_on", _('must be a date written like "2026-11-20"'))
    return None


def read_players(value: object, add: Add) -> list[str] | None:
    if value is None:
        add("players", _("missing; list the players in seat order"))
        return None
    if not isinstance(value, list):
        add("players", _("must be a list of player names in seat order"))
        return None
    if len(value) > MAX_PLAYERS:
        message = _("at most {most} players sit at a table; this file has {count}")
        add("players", message.format(most=MAX_PLAYERS, count=number(len(value))))
        return None
    players: list[str] = []
    for index, name in enumerate(value):
        if isinstance(name, str):
            players.append(name)
        else:
            add(f"players[{index}]", _("must be text"))
    return players if len(players) == len(value) else None


# What is wrong with a file's list of deals or rounds, by its key: whole sentences, each in
# the words of its own game (FORMAT.md's keys are quoted as they are).
_LIST_PROBLEMS = {
    "deals": {
        "missing": gettext_noop("missing; use [] for a session with no deals yet"),
        "not a list": gettext_noop("must be a list of deals"),
        "too many": gettext_noop("a session has at most {most} deals; this file has {count}"),
    },
    "rounds": {
        "missing": gettext_noop("missing; use [] for a session with no rounds yet"),
        "not a list": gettext_noop("must be a list of rounds"),
        "too many": gettext_noop("a session has at most {most} rounds; this file has {count}"),
    },
}


def too_many(what: str, count: int) -> str:
    """The problem with a file of more deals or rounds than a session may hold."""
    return _(_LIST_PROBLEMS[what]["too many"]).format(most=number(MAX_DEALS), count=number(count))


def read_list(value: object, what: str, add: Add) -> list[object]:
    """A file's list of deals or rounds (`what`); [] with a problem if it is not one, or if it
    holds more than a session may (then its items are counted, not read)."""
    if value is None:
        add(what, _(_LIST_PROBLEMS[what]["missing"]))
        return []
    if not isinstance(value, list):
        add(what, _(_LIST_PROBLEMS[what]["not a list"]))
        return []
    if len(value) > MAX_DEALS:
        add(what, too_many(what, len(value)))
        return []
    return value


_ENTRY_PLACE = re.compile(r"[a-z_]+(?:\[(\d+)\])?(?:\.events\[(\d+)\])?")


def _file_order(problem: Problem) -> tuple[int, ...]:
    """Sort key putting problems in the order of the file: top-level keys, then deal by deal
    (or round by round, event by event)."""
    top = problem.path.partition(".")[0].partition("[")[0]
    found = _ENTRY_PLACE.match(problem.path)
    places = [int(place) for place in found.groups() if place is not None] if found else []
    return (TOP_KEYS.index(top) if top in TOP_KEYS else -1, *places)


def describe(value: object) -> str:
    """What kind of JSON value this is: "list", "boolean", "number", "text" or "null" (or
    the Python type's name for what JSON does not hold)."""
    if isinstance(value, list):
        return "list"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    return "null" if value is None else type(value).__name__


# A file that holds something else than one JSON object, by what it holds (`describe`).
_NOT_AN_OBJECT = {
    "list": gettext_noop("A scoresheet file holds one JSON object {…}, not a list."),
    "boolean": gettext_noop("A scoresheet file holds one JSON object {…}, not true or false."),
    "number": gettext_noop("A scoresheet file holds one JSON object {…}, not a number."),
    "text": gettext_noop("A scoresheet file holds one JSON object {…}, not text."),
    "null": gettext_noop("A scoresheet file holds one JSON object {…}, not null."),
}


def header(family: str, ruleset: str, options: dict[str, object], title: str | None,
           played_on: date | None, players: Sequence[str]) -> dict[str, object]:  # fmt: skip
    """The top of an exported file, keys in the order FORMAT.md gives them."""
    data: dict[str, object] = {
        "format": FORMAT_ID,
        "version": FORMAT_VERSION,
        "family": family,
        "ruleset": ruleset,
        "options": copy.deepcopy(options),
    }
    if title is not None:
        data["title"] = title
    if played_on is not None:
        data["played_on"] = played_on.isoformat()
    data["players"] = list(players)
    return data
