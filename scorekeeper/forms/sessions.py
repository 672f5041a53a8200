"""The forms of the sessions list and of starting or importing a session.

A session is started with a `StartForm` of its family (`START_FORMS`): the seats and the
first dealer, which both families share, and the preset's options, whose fields are built from
the rules' own description of them (`rules.options`), so their words have one home.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.utils.formats import number_format
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorekeeper.forms.roster import RosterOptions, RosterSelect
from scorekeeper.forms.rules import shown, shown_choices
from scorekeeper.forms.text import check_text
from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.rules import bounds, trick
from scorekeeper.rules.common import InvalidRules
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
from scorekeeper.rules.registry import FAMILIES, Family
from scorekeeper.scoresheet import InvalidScoresheet, Sheet, loads_scoresheet

TOO_BIG = format_lazy(
    gettext_lazy("That file is too big for a scoresheet (over {megabytes} MB)."),
    megabytes=bounds.MAX_FILE_BYTES // 1_000_000,
)


class ScoresheetUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Scoresheet file (.json)"),
        error_messages={"required": gettext_lazy("Choose a scoresheet file to upload.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".json,application/json"
        self.sheet: Sheet | None = None

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > bounds.MAX_FILE_BYTES:
            raise forms.ValidationError(TOO_BIG)
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                _("That file is not text (UTF-8); is it a scoresheet?")
            ) from None
        try:
            self.sheet = loads_scoresheet(text)
        except InvalidScoresheet as error:
            raise forms.ValidationError(bounds.shown_problems(error.problems)) from None
        return upload


class SeatingForm(forms.Form):
    """The part of starting a session that both families share: the seats, the first
    dealer and a name. `allowed` are the numbers of players the ruleset takes."""

    title = forms.CharField(
        max_length=bounds.MAX_TITLE_LENGTH,
        required=False,
        label=gettext_lazy("Name (optional)"),
        help_text=gettext_lazy("For example “Friday at Sam’s”."),
    )

    def __init__(
        self, *args: Any, owner: User, name: str, allowed: tuple[int, ...], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.ruleset_name = name
        self.allowed = allowed
        roster = Player.objects.for_user(owner).active()
        menu = RosterOptions(roster)  # every seat's menu: the roster read once
        self.seat_count = max(allowed)
        for index in range(self.seat_count):
            empty = _("— nobody —") if index >= min(allowed) else _("— choose —")
            self.fields[f"seat_{index}"] = forms.ModelChoiceField(
                queryset=roster,
                required=index < min(allowed),
                label=_("Seat %(number)s") % {"number": index + 1},
                empty_label=empty,
                widget=RosterSelect(menu, empty),
                error_messages={
                    "required": _("Choose who sits in seat %(number)s.") % {"number": index + 1},
                    "invalid_choice": _("Choose a player from your roster."),
                },
            )
        # Who deals first is a seat, chosen beside it: the list offers only seats, and the
        # seats stay in the order the table sits.
        self.fields["first_dealer"] = forms.TypedChoiceField(
            choices=[
                (index, _("Seat %(number)s deals first") % {"number": index + 1})
                for index in range(self.seat_count)
            ],
            coerce=int,
            required=False,
            initial=0,
            label=_("First dealer"),
            widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
            help_text=_("The deal then passes to the left, seat by seat."),
            error_messages={"invalid_choice": _("Choose the seat that deals first.")},
        )
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_title(self) -> str:
        title: str = self.cleaned_data["title"].strip()
        check_text(title, bounds.MAX_TITLE_LENGTH)
        return title

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{index}"] for index in range(self.seat_count)]

    def seat_rows(self) -> list[tuple[forms.BoundField, Any]]:
        """Each seat's field, and its choice of the first dealer beside it."""
        dealers = self["first_dealer"].subwidgets
        return list(zip(self.seat_fields(), dealers, strict=True))

    def players(self) -> list[Player]:
        """The seated players in seat order, as the table sits."""
        seated = [self.cleaned_data.get(f"seat_{i}") for i in range(self.seat_count)]
        return [player for player in seated if player is not None]

    def first_dealer(self) -> int:
        """The first dealer's place among `players()` (seats left empty do not count)."""
        chosen = self.cleaned_data.get("first_dealer") or 0
        seated = [self.cleaned_data.get(f"seat_{i}") for i in range(self.seat_count)]
        return sum(player is not None for player in seated[:chosen])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        seated = [data.get(f"seat_{i}") for i in range(self.seat_count)]
        players = [player for player in seated if player is not None]
        seen: set[int] = set()
        for index, player in enumerate(seated):
            if player is not None and player.pk in seen:
                self.add_error(
                    f"seat_{index}", _("%(player)s already has a seat.") % {"player": player.name}
                )
            elif player is not None:
                seen.add(player.pk)
        if len(players) not in self.allowed and not self.errors:
            counts = bounds.player_range(sorted(self.allowed))
            needs = _("%(rules)s needs %(counts)s players.")
            self.add_error(None, needs % {"rules": _(self.ruleset_name), "counts": counts})
        dealer = data.get("first_dealer") or 0
        if dealer < len(seated) and seated[dealer] is None and "first_dealer" not in self.errors:
            empty = _("Seat %(number)s is empty: choose a seat with a player to deal first.")
            self.add_error("first_dealer", empty % {"number": dealer + 1})
        return data


class OptionsForm(forms.Form):
    """Every option a preset lets a table change (RULES.md §3: house rules on any preset), as
    fields in the words the rules give them (`rules.options`), each showing the preset's own
    value unless `chosen` says otherwise. A field left out keeps the preset's own value.
    `options()` gives back the overrides as the rules read them, and `option_rows()` says
    which fields hold a house rule."""

    match_field = "match_type"  # the field of the match option's kind; its number is below

    def add_option_fields(
        self, family: Family, preset: Any, chosen: Mapping[str, object] | None = None
    ) -> None:
        self.family = family
        self.preset = preset
        self.rules: Any = None
        self.defaults = family.default_options(preset, min(preset.players))
        self.option_names: list[str] = []
        self.preset_values: dict[str, str] = {}  # each field's preset's own value, as it writes it
        values = self.defaults | dict(chosen or {})
        for option in sorted(family.applicable_options(preset), key=lambda o: o.kind != MATCH):
            self._add_field(option, values[option.name], option.name in (chosen or {}))

    def _add_field(self, option: Option, value: object, chosen: bool) -> None:
        name = option.name
        own = self.defaults[name]
        if option.kind == MATCH:
            match, preset_match = trick.Match.from_data(value), trick.Match.from_data(own)
            self.fields[self.match_field] = forms.ChoiceField(
                label=shown(option.label),
                choices=[
                    (c.value, shown(c.label))
                    for c in option.choices
                    if c.value in self.preset.match_types
                ],
                initial=match.type,
                required=False,
            )
            self.fields["match_number"] = forms.IntegerField(
                label=_(trick.MATCH_NUMBER_LABEL),
                help_text=shown(option.help),
                min_value=option.least,
                max_value=option.most,
                required=False,
                initial=_match_number(match),
            )
            self.preset_values[self.match_field] = preset_match.type
            self.preset_values["match_number"] = str(_match_number(preset_match) or "")
            self.option_names += [self.match_field, "match_number"]
            return
        self.option_names.append(name)
        self.preset_values[name] = _field_text(option, own)
        if option.kind == CHOICE:
            radio = len(option.choices) <= 3  # else a select, in the shorter words that fit it
            self.fields[name] = forms.ChoiceField(
                label=shown(option.label),
                help_text=shown(option.help),
                choices=[(c.value, shown(c.label if radio else c.brief)) for c in option.choices],
                initial=value,
                required=False,
                widget=forms.RadioSelect if radio else forms.Select,
            )
        elif option.kind == FLAG:
            self.fields[name] = forms.ChoiceField(
                label=shown(option.label),
                choices=[("true", _("Yes")), ("false", _("No"))],
                initial=_field_text(option, value),
                required=False,
                widget=forms.RadioSelect,
            )
        elif option.kind == SUBSET:
            self.fields[name] = forms.ChoiceField(
                label=shown(option.label),
                choices=shown_choices(option.subsets()),
                initial=_field_text(option, value),
                required=False,
            )
        elif option.kind == NUMBERS:
            self.fields[name] = forms.CharField(
                label=shown(option.label),
                help_text=shown(option.help),
                required=False,
                initial=_field_text(option, value),
            )
        elif option.kind == NUMBER:
            usual = self.number_help(option)  # where the preset's own number varies, it says so
            if usual and not chosen:
                self.preset_values[name] = ""
            self.fields[name] = forms.IntegerField(
                label=shown(option.label),
                help_text=usual or shown(option.help),
                min_value=option.least,
                max_value=option.most,
                required=False,
                initial=value if chosen or not usual else None,
            )

    def number_help(self, option: Option) -> str:
        """The hint where a number left empty is the preset's own ("the usual 5 …")."""
        text: str = self.family.prose.number_help(self.preset, option.name)
        return text

    def option_rows(self) -> list[dict[str, Any]]:
        """Each option field, the preset's own value as the field writes it, and whether the
        value shown differs from it: a house rule (house-rules.js keeps this up to date)."""
        rows = []
        for name in self.option_names:
            field = self[name]
            shown, own = str(field.value() or ""), self.preset_values[name]
            if isinstance(self.fields[name], forms.CharField) and field.widget_type == "text":
                shown, own = _numbers_text(shown), _numbers_text(own)
            # A field left empty keeps the preset's own value.
            rows.append({"field": field, "preset_value": own, "changed": shown not in ("", own)})
        return rows

    def options(self) -> dict[str, object]:
        """The option overrides chosen, as the rules read them; left out: the preset's own."""
        data = self.cleaned_data
        options: dict[str, object] = {}
        for option in self.family.OPTIONS:
            name = option.name
            if option.kind == MATCH and data.get(self.match_field):
                kind = data[self.match_field]
                match: dict[str, object] = {"type": kind}
                if kind in trick.MATCH_SETTINGS:
                    match[trick.MATCH_SETTINGS[kind]] = data.get("match_number")
                options[name] = match
            elif data.get(name) in ("", None):
                continue  # left out: the preset's own
            elif option.kind == FLAG:
                options[name] = data[name] == "true"
            elif option.kind == SUBSET:
                options[name] = [] if data[name] == NO_SUBSET else data[name].split(",")
            else:
                options[name] = data[name]
        return options

    def clean_bonus(self) -> list[int] | None:
        text = self.cleaned_data["bonus"].strip()
        if not text:
            return None
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        if not all(part.isdecimal() and len(part) <= 5 for part in parts):
            raise forms.ValidationError(
                _("Type whole numbers separated by commas, such as 30, 20, 10, 0.")
            )
        row = [int(part) for part in parts]
        if not row:
            return None
        if len(row) > bounds.MAX_PLAYERS or max(row) > bounds.MAX_BONUS:
            raise forms.ValidationError(
                ngettext(
                    "Type at most %(count)s bonus, each from 0 to %(most)s.",
                    "Type at most %(count)s bonuses, each from 0 to %(most)s.",
                    bounds.MAX_PLAYERS,
                )
                % {
                    "count": bounds.MAX_PLAYERS,
                    "most": number_format(bounds.MAX_BONUS, force_grouping=True),
                }
            )
        return row

    def check_match_number(self, data: Mapping[str, Any]) -> None:
        kind = data.get(self.match_field)
        if kind in trick.MATCH_SETTINGS and data.get("match_number") is None:
            label = dict(self.fields[self.match_field].choices)[kind]  # type: ignore[attr-defined]
            self.add_error("match_number", _("Say how many for “%(match)s”.") % {"match": label})

    def resolve(self, players: list[str], first_dealer: int = 0) -> None:
        """Read the options for these players, saying each refused one beside its field."""
        try:
            self.rules = self.family.resolve_rules(
                self.preset.id, self.options(), players, first_dealer
            )
        except InvalidRules as error:
            fields = {option.name: option.name for option in self.family.OPTIONS}
            fields["match"] = self.match_field
            for problem in error.problems:
                option = problem.path.split(".")[1] if problem.path.startswith("options.") else ""
                field = fields.get(option)
                self.add_error(field if field in self.fields else None, problem.message)


def _match_number(match: trick.Match) -> int | None:
    return match.deals or match.target or match.games


def _field_text(option: Option, value: object) -> str:
    """An option's value as its field writes it (and house-rules.js compares it)."""
    if option.kind == FLAG:
        return "true" if value else "false"
    if option.kind == SUBSET:
        assert isinstance(value, list | tuple)
        return option.subset_text(value)
    if option.kind == NUMBERS:
        assert isinstance(value, list | tuple)
        return ", ".join(str(number) for number in value)
    return "" if value is None else str(value)


def _numbers_text(text: str) -> str:
    """A typed row of numbers as the page compares it: "30, 20,10" reads "30,20,10"."""
    return ",".join(re.findall(r"\d+", text))


class StartForm(SeatingForm, OptionsForm):
    """Start a session: the seats, the first dealer, and the preset's options (those of a saved
    ruleset where one is given: `chosen`)."""

    def __init__(
        self,
        *args: Any,
        owner: User,
        family: Family,
        preset: Any,
        chosen: Mapping[str, object] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, owner=owner, name=preset.name, allowed=preset.players, **kwargs)
        self.add_option_fields(family, preset, chosen)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.check_match_number(data)
        if not self.errors:
            self.resolve([p.name for p in self.players()], self.first_dealer())
        return data


SAVED = "saved"  # the sessions filter's rules "saved:<id>": started from a saved ruleset


class SessionFilterForm(forms.Form):
    """Filters of the past sessions list; every field is optional."""

    q = forms.CharField(
        label=gettext_lazy("Search title or player"), required=False, max_length=100
    )
    family = forms.ChoiceField(
        label=gettext_lazy("Game"),
        required=False,
        choices=[
            ("", gettext_lazy("Both games")),
            *((family.ID, gettext_lazy(family.SHORT_NAME)) for family in FAMILIES.values()),
        ],
    )
    ruleset = forms.ChoiceField(label=gettext_lazy("Rules"), required=False)
    player = forms.ModelChoiceField(
        label=gettext_lazy("Player"),
        required=False,
        queryset=Player.objects.none(),
        empty_label=gettext_lazy("Any player"),
    )
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[
            ("", gettext_lazy("Any")),
            ("playing", gettext_lazy("In progress")),
            ("finished", gettext_lazy("Finished")),
            ("abandoned", gettext_lazy("Abandoned")),
        ],
    )
    since = forms.DateField(
        label=gettext_lazy("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=gettext_lazy("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        ruleset = self.fields["ruleset"]
        assert isinstance(player, forms.ModelChoiceField)
        assert isinstance(ruleset, forms.ChoiceField)
        player.queryset = Player.objects.for_user(owner)
        player.widget = RosterSelect(RosterOptions(player.queryset), str(player.empty_label))
        ruleset.choices = [
            ("", _("Any rules")),
            *(
                (f"{SAVED}:{saved.pk}", _("%(name)s (your rules)") % {"name": saved.name})
                for saved in SavedRuleset.objects.for_user(owner)
            ),
            *(
                (
                    f"{family.ID}:{preset.id}",
                    _("%(preset)s (%(game)s)")
                    % {"preset": _(preset.name), "game": _(family.SHORT_NAME)},
                )
                for family in FAMILIES.values()
                for preset in family.PRESETS.values()
            ),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end date is before the start date."))

        return data

    def apply(self, sessions: QuerySet[GameSession]) -> QuerySet[GameSession]:
        data = self.cleaned_data
        if data.get("q"):
            words = data["q"]
            sessions = sessions.filter(
                Q(title__icontains=words)
                | Q(seats__player__name__icontains=words)
                | Q(seats__former__player__name__icontains=words)
            ).distinct()
        if data.get("family"):
            sessions = sessions.filter(family=data["family"])
        if data.get("ruleset"):
            # "<family id>:<preset id>", or "saved:<id>" for one of the user's saved rulesets
            where, ruleset = data["ruleset"].split(":", 1)
            if where == SAVED:
                sessions = sessions.filter(saved_ruleset_id=int(ruleset))
            else:
                sessions = sessions.filter(family=where, ruleset=ruleset)
        if data.get("player"):  # seated, or seated until someone took the seat over
            player = data["player"]
            sessions = sessions.filter(
                Q(seats__player=player) | Q(seats__former__player=player)
            ).distinct()
        status = data.get("status")
        if status == "playing":
            sessions = sessions.filter(finished=False, abandoned__isnull=True)
        elif status == "finished":
            sessions = sessions.filter(finished=True)
        elif status == "abandoned":
            sessions = sessions.filter(finished=False, abandoned__isnull=False)
        played = Coalesce("played_on", TruncDate("created"))
        if data.get("since"):
            sessions = sessions.alias(day=played).filter(day__gte=data["since"])
        if data.get("until"):
            sessions = sessions.alias(day=played).filter(day__lte=data["until"])
        return sessions
