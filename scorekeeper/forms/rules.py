"""The rule sheets' options form: a GET form whose query string names options (RULES.md §3).

`?first_trump=none&match=deals:18&players=4` reads as the rules read options; whatever the
rules refuse is said in words and the preset's own rules are shown instead. The fields of the
form are built from the rules' own description of the options (`rules.options`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from scorekeeper.rules import trick
from scorekeeper.rules.common import InvalidRules, Problem
from scorekeeper.rules.options import CHOICE, FLAG, MATCH, NUMBER, NUMBERS, SUBSET, Option
from scorekeeper.rules.registry import Family
from scorekeeper.rules.trick.prose import seat_names

PLAYERS_PARAM = "players"  # ?players=N: the number of players, where the preset allows several
ADDING_PLAYERS = 4  # the sheet and pad of an adding game show this many players unless told
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_NO_PREMIUMS = "none"


def problem_text(family: Family, problem: Problem) -> str:
    """'First trump (first_trump): Choose one of: diamonds, none.' for a problem with an
    option, in the words of the rules."""
    path = problem.path.removeprefix("options.")
    name = path.split(".")[0]
    option = next((option for option in family.OPTIONS if option.name == name), None)
    if option is None:
        return str(problem) if problem.path != "ruleset" else problem.message
    return f"{option.short} ({path}): {problem.message}"


def _query_value(option: Option | None, text: str) -> object:
    """An option's value as the rules read it, from its text in the query string.

    Text that cannot be read is passed on as it is, so that `resolve_rules()` says what is
    wrong with it in its own words.
    """
    text = text.strip()
    kind = option.kind if option is not None else ""
    if kind == FLAG:
        lowered = text.lower()
        return True if lowered in _TRUE else False if lowered in _FALSE else text
    if kind == NUMBER:
        return _number_or_text(text)
    if kind == NUMBERS:
        if text.startswith("["):
            return _json_or_text(text)
        numbers = [_whole(part.strip()) for part in text.split(",") if part.strip()]
        return numbers if None not in numbers else text
    if kind == SUBSET:
        if text.startswith("["):
            return _json_or_text(text)
        if text.lower() == _NO_PREMIUMS:
            return []
        return [part.strip() for part in text.split(",") if part.strip()]
    if kind == MATCH:
        return _match_value(text)
    return text


def _whole(text: str) -> int | None:
    """A whole number 0 or more written in digits (not too many of them), else None."""
    return int(text) if text.isdecimal() and len(text) <= 9 else None


def _number_or_text(text: str) -> int | str:
    number = _whole(text)
    return text if number is None else number


def _json_or_text(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _match_value(text: str) -> object:
    """'deals:9', 'target:300', 'rubber', 'game-bonus', 'long:2' (or the JSON of RULES.md §3)."""
    if text.startswith("{"):
        return _json_or_text(text)
    kind, _, number = text.partition(":")
    kind = kind.strip()
    setting = trick.MATCH_SETTINGS.get(kind)
    data: dict[str, object] = {"type": kind}
    if setting is not None and number.strip():
        data[setting] = _number_or_text(number.strip())
    elif number.strip():
        data["number"] = number.strip()  # the rules say this match type has no number
    return data


def _match_text(match: trick.Match) -> str:
    """The inverse of _match_value: 'deals:9'."""
    setting = trick.MATCH_SETTINGS.get(match.type)
    return match.type if setting is None else f"{match.type}:{getattr(match, setting)}"


def _option_text(option: Option, value: object) -> str:
    """An option's value as the query string writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if option.kind == MATCH and isinstance(value, Mapping):
        return _match_text(trick.Match.from_data(value))
    if option.kind == SUBSET and isinstance(value, list | tuple):
        return ",".join(map(str, value)) or _NO_PREMIUMS
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "" if value is None else str(value)


def _options_by_name(family: Family) -> dict[str, Option]:
    return {option.name: option for option in family.OPTIONS}


def _query_options(family: Family, query: QueryDict) -> dict[str, object]:
    """Every parameter but ?players is an option; unknown names are left to the rules to
    reject. An empty value (a blank form field) leaves the option at the preset's value."""
    options = _options_by_name(family)
    return {
        name: _query_value(options.get(name), values[-1])
        for name, values in query.lists()
        if name != PLAYERS_PARAM and values[-1].strip()
    }


def _player_count(family: Family, preset: Any, query: QueryDict) -> tuple[int, list[Problem]]:
    counts = preset.players
    default = family.SHEET_PLAYERS if family.SHEET_PLAYERS in counts else counts[0]
    text = query.get(PLAYERS_PARAM, "").strip()
    if not text:
        return default, []
    count = _whole(text)
    if count is not None and count in counts:
        return count, []
    allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    message = f'Players: {preset.name} is for {allowed} players, not "{text}".'
    return default, [Problem("", message)]


@dataclass(frozen=True)
class Field:
    """One open option of the preset, as a field of the options form."""

    name: str
    label: str
    value: str
    choices: tuple[tuple[str, str], ...]  # empty: a text field
    help: str = ""


class RulesQuery:
    """The rules a rule sheet's query string asks for (`rules`), what was wrong with it in
    words (`problems`; then the preset's own rules are shown), the query parameters that give
    these rules (`params`, for the links to the sheet and the pad) and the options form
    (`fields`)."""

    def __init__(self, family: Family, preset: Any, query: QueryDict) -> None:
        self.family, self.preset = family, preset
        count, problems = _player_count(family, preset, query)
        names = seat_names(count)
        try:
            self.rules = family.resolve_rules(preset.id, _query_options(family, query), names)
        except InvalidRules as error:
            problems += error.problems
            self.rules = family.resolve_rules(preset.id, {}, names)
        self.problems = [problem_text(family, problem) for problem in problems]
        self.params = {} if problems else rules_params(family, self.rules)

    def fields(self) -> list[Field]:
        preset, rules = self.preset, self.rules
        fields: list[Field] = []
        if len(preset.players) > 1:
            counts = tuple((str(n), str(n)) for n in preset.players)
            fields.append(Field(PLAYERS_PARAM, "Players", str(len(rules.players)), counts))
        values = rules.options_data()
        options = _options_by_name(self.family)
        for name in self.family.OPTION_NAMES:
            if name in preset.open_options:
                fields.append(self._field(options[name], values[name]))
        return fields

    def _field(self, option: Option, value: object) -> Field:
        name, label, text = option.name, option.short, _option_text(option, value)
        if option.kind == FLAG:
            return Field(name, label, text, (("true", "Yes"), ("false", "No")))
        if option.kind == SUBSET:
            both = ",".join(choice.value for choice in option.choices)
            combinations = (
                (both, "Declare and reveal"),
                ("declare", "Declare only"),
                ("reveal", "Reveal only"),
                (_NO_PREMIUMS, "None"),
            )
            return Field(name, label, text, combinations)
        if option.kind == CHOICE:
            offered = getattr(self.preset, "card_tables", ()) if name == "card_table" else ()
            choices = [c for c in option.choices if not offered or c.value in offered]
            return Field(name, label, text, tuple((c.value, c.brief) for c in choices))
        if option.kind == MATCH:
            kinds = self.preset.match_types
            return Field(name, label, text, (), ", ".join(_MATCH_HELP[kind] for kind in kinds))
        return Field(name, label, text, (), option.sheet_help)


def rules_params(family: Family, rules: Any) -> dict[str, str]:
    """The query parameters that give these rules: the options changed, and the players."""
    options = _options_by_name(family)
    params = {
        name: _option_text(options[name], value) for name, value in rules.overrides_data().items()
    }
    if len(rules.preset.players) > 1:
        params[PLAYERS_PARAM] = str(len(rules.players))
    return params


_MATCH_HELP = {
    "deals": "deals:N",
    "target": "target:N",
    "rubber": "rubber",
    "game-bonus": "game-bonus",
    "long": "long:N (games to win)",
}
