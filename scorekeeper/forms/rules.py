"""The rule sheets' options form: a GET form whose query string names options (RULES.md §3).

`?first_trump=none&match=deals&match_number=18&players=4` reads as the rules read options (the
short `match=deals:18` and the JSON of RULES.md §3 work too); an option the rules refuse is said
in words, naming its field, and the preset's own value is shown for it, while every other option
chosen is kept. The fields of the form (selects, number fields) are built from the rules' own
description of the options (`rules.options`), the one home of their words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from scorekeeper.rules import trick
from scorekeeper.rules.bounds import number, player_range
from scorekeeper.rules.common import InvalidRules, Problem, seat_names
from scorekeeper.rules.options import (
    CHOICE,
    FLAG,
    MATCH,
    NO_SUBSET,
    NUMBER,
    NUMBERS,
    SUBSET,
    Option,
)
from scorekeeper.rules.registry import Family

PLAYERS_PARAM = "players"  # ?players=N: the number of players, where the preset allows several
MATCH_NUMBER_PARAM = "match_number"  # the number a match type takes (deals, target, games)
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def problem_text(family: Family, problem: Problem) -> str:
    """'First trump: Choose one of: diamonds, none.' for a problem with an option: the field's
    name as the sheet shows it, then what the rules say is wrong."""
    option = _problem_option(family, problem)
    if option is None:
        return str(problem) if problem.path not in ("ruleset", "") else problem.message
    return _field_problem(_(option.short), problem.message)


@dataclass(frozen=True)
class StoredProblem:
    """What a stored session holds that the rules no longer accept, in words: the option as a
    rule sheet names it ("Match"; "" for a problem that is not an option's), the value stored
    there ("5,000"; "" where there is none to show) and what the rules say of it."""

    field: str
    stored: str
    message: str


SHOWN_VALUE = 80  # the longest a stored value is shown; a longer one is cut with "…"
HUGE = 10**18  # a stored number this large is shown as "more than" it


def stored_problems(
    family: Family, options: Mapping[str, object], problems: Sequence[Problem]
) -> list[StoredProblem]:
    """The problems of a stored session's rules (InvalidRules), each with the value stored where
    it points ("options.match.deals" → 5,000), for a page that says what is wrong and where."""
    found = []
    for problem in problems:
        option = _problem_option(family, problem)
        if option is None:
            found.append(StoredProblem("", "", problem_text(family, problem)))
            continue
        value = _stored_at(options, problem.path.removeprefix("options.").split("."))
        found.append(StoredProblem(_(option.short), value, problem.message))
    return found


def _stored_at(options: Mapping[str, object], keys: Sequence[str]) -> str:
    """The value stored at `keys` in the options, as text, or "" if there is none there."""
    value: object = options
    for key in keys:
        if not isinstance(value, Mapping) or key not in value:
            return ""
        value = value[key]
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) < HUGE:
            return number(value)
        return _("more than {number}").format(number=number(HUGE))
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError):  # nested too deep, or a number too long to write
        return "…"
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


def _field_problem(field: str, message: str) -> str:
    """'First trump: Choose one of: diamonds, none.', punctuated as the language writes it."""
    return _("%(field)s: %(problem)s") % {"field": field, "problem": message}


def _problem_option(family: Family, problem: Problem) -> Option | None:
    """The option a problem is about ("options.match.deals" → match), or None."""
    if not problem.path.startswith("options."):
        return None
    name = problem.path.removeprefix("options.").split(".")[0]
    return _options_by_name(family).get(name)


def _problem_field(family: Family, problem: Problem) -> str:
    """The form field a problem belongs beside: an option's, the match's number, or "" (none)."""
    option = _problem_option(family, problem)
    if option is None:
        return ""
    if option.kind == MATCH and problem.path.split(".")[-1] in trick.MATCH_SETTINGS.values():
        return MATCH_NUMBER_PARAM
    return option.name


def _query_value(option: Option | None, text: str, number: str = "") -> object:
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
        if text.lower() == NO_SUBSET:
            return []
        return [part.strip() for part in text.split(",") if part.strip()]
    if kind == MATCH:
        return _match_value(text, number)
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


def _match_value(text: str, number: str = "") -> object:
    """The match from the form's two fields: its type ('deals') and the number it takes
    (`number`, '18'); or from the short form 'deals:18', 'rubber', 'long:2'; or the JSON of
    RULES.md §3. A number is ignored for a type that takes none, unless written after ':'."""
    if text.startswith("{"):
        return _json_or_text(text)
    kind, _, inline = text.partition(":")
    kind, inline = kind.strip(), inline.strip()
    setting = trick.MATCH_SETTINGS.get(kind)
    data: dict[str, object] = {"type": kind}
    count = inline or number.strip()
    if setting is not None and count:
        data[setting] = _number_or_text(count)
    elif inline:
        data["number"] = inline  # the rules say this match type has no number
    return data


def _match_parts(match: trick.Match) -> tuple[str, str]:
    """The form's two fields for a match: ('deals', '9'), ('rubber', '')."""
    setting = trick.MATCH_SETTINGS.get(match.type)
    return match.type, "" if setting is None else str(getattr(match, setting))


def _typed_match(text: str, number: str) -> tuple[str, str]:
    """The match's type and number as they were typed, to show them again."""
    value = _match_value(text, number)
    if not isinstance(value, Mapping):
        return "", ""
    kind = value.get("type")
    setting = trick.MATCH_SETTINGS.get(kind) if isinstance(kind, str) else None
    count = value.get(setting) if setting is not None else None
    return (kind if isinstance(kind, str) else ""), "" if count is None else str(count)


def _option_text(option: Option, value: object) -> str:
    """An option's value as the query string writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if option.kind == MATCH and isinstance(value, Mapping):
        kind, number = _match_parts(trick.Match.from_data(value))
        return f"{kind}:{number}" if number else kind
    if option.kind == SUBSET and isinstance(value, list | tuple):
        return option.subset_text(value)
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "" if value is None else str(value)


def _options_by_name(family: Family) -> dict[str, Option]:
    return {option.name: option for option in family.OPTIONS}


def _query_options(family: Family, query: QueryDict) -> dict[str, object]:
    """Every parameter but ?players (and the match's number) is an option; unknown names are
    left to the rules to reject. An empty value (a blank form field) leaves the option at the
    preset's value."""
    options = _options_by_name(family)
    number = query.get(MATCH_NUMBER_PARAM, "")
    return {
        name: _query_value(options.get(name), values[-1], number)
        for name, values in query.lists()
        if name not in (PLAYERS_PARAM, MATCH_NUMBER_PARAM) and values[-1].strip()
    }


def resolve_keeping(
    family: Family, preset_id: str, options: Mapping[str, object], names: Sequence[str]
) -> tuple[Any, list[Problem]]:
    """The rules with every option the rules accept, and the problems of those they refuse
    (left at the preset's own value): one refused option does not throw away the others."""
    kept, problems = dict(options), list[Problem]()
    while True:
        try:
            return family.resolve_rules(preset_id, kept, names), problems
        except InvalidRules as error:
            problems += [problem for problem in error.problems if problem not in problems]
            refused = {
                problem.path.removeprefix("options.").split(".")[0]
                for problem in error.problems
                if problem.path.startswith("options.")
            }
            if not refused & kept.keys():
                return family.resolve_rules(preset_id, {}, names), problems
            kept = {name: value for name, value in kept.items() if name not in refused}


def _player_count(family: Family, preset: Any, query: QueryDict) -> tuple[int, str]:
    """The number of players asked for, and what is wrong with it ("" when nothing)."""
    counts = preset.players
    default = family.SHEET_PLAYERS if family.SHEET_PLAYERS in counts else counts[0]
    text = query.get(PLAYERS_PARAM, "").strip()
    if not text:
        return default, ""
    count = _whole(text)
    if count is not None and count in counts:
        return count, ""
    message = _('%(preset)s is for %(counts)s players, not "%(typed)s".') % {
        "preset": _(preset.name),
        "counts": player_range(counts),
        "typed": text,
    }
    return default, message


@dataclass(frozen=True)
class Field:
    """One open option of the preset (or the number of players, or the match's number), as a
    field of the options form: a select when it has choices, else a number or a text field."""

    name: str
    label: str
    value: str
    choices: tuple[tuple[str, str], ...] = ()  # empty: a number or a text field
    help: str = ""
    error: str = ""  # what was wrong with the value typed (which is shown again)
    least: int | None = None  # a number field's bounds (None: a text field)
    most: int | None = None

    @property
    def is_number(self) -> bool:
        return not self.choices and self.least is not None


class RulesQuery:
    """The rules a rule sheet's query string asks for (`rules`: every option the rules accept;
    the preset's own value for those they refuse), what was wrong in words (`problems`, and
    each beside its field in `fields()`), the query parameters that give these rules (`params`,
    for the links to the sheet and the pad) and the options form (`fields`)."""

    def __init__(self, family: Family, preset: Any, query: QueryDict) -> None:
        self.family, self.preset, self.query = family, preset, query
        count, wrong_count = _player_count(family, preset, query)
        self.errors: dict[str, str] = {}
        self.problems: list[str] = []
        if wrong_count:
            self.errors[PLAYERS_PARAM] = wrong_count
            self.problems.append(_field_problem(_("Players"), wrong_count))
        self.rules, refused = resolve_keeping(
            family, preset.id, _query_options(family, query), seat_names(count)
        )
        for problem in refused:
            self.errors.setdefault(_problem_field(family, problem), problem.message)
        self.problems += [problem_text(family, problem) for problem in refused]
        self.params = rules_params(family, self.rules)

    def _shown(self, name: str, value: str) -> str:
        """A field's value: as typed when it was refused (nothing typed is lost), else as the
        rules read it."""
        typed = self.query.get(name, "").strip()
        return typed if name in self.errors and typed else value

    def fields(self) -> list[Field]:
        preset, rules = self.preset, self.rules
        fields: list[Field] = []
        if len(preset.players) > 1:
            counts = tuple((str(n), str(n)) for n in preset.players)
            players = Field(PLAYERS_PARAM, _("Players"), str(len(rules.players)), counts)
            fields.append(self._checked(players))
        values = rules.options_data()
        for option in self.family.applicable_options(preset):
            fields += [self._checked(field) for field in self._fields(option, values[option.name])]
        return fields

    def _checked(self, field: Field) -> Field:
        """The field with its problem beside it, showing what was typed where it was refused
        (a select shows it only if it is one of its choices)."""
        error = self.errors.get(field.name, "")
        if not error:
            return field
        value = self._shown(field.name, field.value)
        if field.choices and value not in dict(field.choices):
            value = field.value
        return replace(field, value=value, error=error)

    def _fields(self, option: Option, value: object) -> list[Field]:
        name, label, text = option.name, _(option.short), _option_text(option, value)
        if option.kind == FLAG:
            return [Field(name, label, text, (("true", _("Yes")), ("false", _("No"))))]
        if option.kind == SUBSET:
            return [Field(name, label, text, shown_choices(option.subsets()))]
        if option.kind == CHOICE:
            briefs = tuple((c.value, shown(c.brief)) for c in option.choices)
            return [Field(name, label, text, briefs)]
        if option.kind == MATCH:
            return self._match_fields(option, trick.Match.from_data(value))
        help_text = shown(option.sheet_help)
        if option.kind == NUMBER:
            return [Field(name, label, text, (), help_text, "", option.least, option.most)]
        return [Field(name, label, text, (), help_text)]

    def _match_fields(self, option: Option, match: trick.Match) -> list[Field]:
        """A select of the preset's match types, and the number the type takes."""
        kind, number = _match_parts(match)
        if option.name in self.errors or MATCH_NUMBER_PARAM in self.errors:
            typed_kind, typed_number = _typed_match(
                self.query.get(option.name, "").strip(), self.query.get(MATCH_NUMBER_PARAM, "")
            )
            kind = typed_kind if typed_kind in self.preset.match_types else kind
            number = typed_number or self.query.get(MATCH_NUMBER_PARAM, "").strip() or number
        types = tuple(
            (choice.value, shown(choice.label))
            for choice in option.choices
            if choice.value in self.preset.match_types
        )
        error = self.errors.get(option.name, "")
        return [
            Field(option.name, _(option.short), kind, types, error=error),
            Field(
                MATCH_NUMBER_PARAM,
                _(trick.MATCH_NUMBER_LABEL),
                number,
                help=shown(option.help),
                error=self.errors.get(MATCH_NUMBER_PARAM, ""),
                least=option.least,
                most=option.most,
            ),
        ]


def shown(text: str) -> str:
    """Words of the rules (an option's label, help or choice) in the page's language; they
    are marked for translation where the rules hold them. Empty stays empty."""
    return _(text) if text else text


def shown_choices(choices: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Choices (value, words) with their words in the page's language; the values unchanged."""
    return tuple((value, shown(words)) for value, words in choices)


def rules_params(family: Family, rules: Any) -> dict[str, str]:
    """The query parameters that give these rules: the options changed (the match in its
    short form, 'deals:18'), and the players."""
    options = _options_by_name(family)
    params = {
        name: _option_text(options[name], value) for name, value in rules.overrides_data().items()
    }
    if len(rules.preset.players) > 1:
        params[PLAYERS_PARAM] = str(len(rules.players))
    return params
