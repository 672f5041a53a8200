"""The forms of the sessions list and of starting or importing a session.

A session is started with a `StartForm` of its family (`START_FORMS`): the seats and the
first dealer, which both families share, and the preset's options, whose fields are built from
the rules' own description of them (`rules.options`), so their words have one home.
"""

from __future__ import annotations

import re
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate

from scorekeeper.forms.text import check_text
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding, bounds, trick
from scorekeeper.rules.common import InvalidRules
from scorekeeper.rules.options import CHOICE, FLAG, MATCH, NUMBER, NUMBERS, SUBSET, Option
from scorekeeper.rules.registry import FAMILIES, Family
from scorekeeper.scoresheet import InvalidScoresheet, Sheet, loads_scoresheet

TOO_BIG = f"That file is too big for a scoresheet (over {bounds.MAX_FILE_BYTES // 1_000_000} MB)."


class ScoresheetUploadForm(forms.Form):
    file = forms.FileField(
        label="Scoresheet file (.json)",
        error_messages={"required": "Choose a scoresheet file to upload."},
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
                "That file is not text (UTF-8); is it a scoresheet?"
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
        label="Name (optional)",
        help_text="For example “Friday at Sam’s”.",
    )

    def __init__(
        self, *args: Any, owner: User, name: str, allowed: tuple[int, ...], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.ruleset_name = name
        self.allowed = allowed
        roster = Player.objects.for_user(owner).active()
        self.seat_count = max(allowed)
        for index in range(self.seat_count):
            self.fields[f"seat_{index}"] = forms.ModelChoiceField(
                queryset=roster,
                required=index < min(allowed),
                label=f"Seat {index + 1}",
                empty_label="— nobody —" if index >= min(allowed) else "— choose —",
                error_messages={
                    "required": f"Choose who sits in seat {index + 1}.",
                    "invalid_choice": "Choose a player from your roster.",
                },
            )
        self.fields["first_dealer"] = forms.ModelChoiceField(
            queryset=roster,
            required=False,
            label="First dealer",
            empty_label="Seat 1",
            help_text="The deal then passes to the left, seat by seat.",
        )
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_title(self) -> str:
        title: str = self.cleaned_data["title"].strip()
        check_text(title, "A name", bounds.MAX_TITLE_LENGTH)
        return title

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{index}"] for index in range(self.seat_count)]

    def option_fields(self) -> list[forms.BoundField]:
        skip = {"title", "first_dealer", *(f"seat_{i}" for i in range(self.seat_count))}
        return [self[name] for name in self.fields if name not in skip]

    def players(self) -> list[Player]:
        """The seated players in seat order, the first dealer first."""
        seated = [self.cleaned_data.get(f"seat_{i}") for i in range(self.seat_count)]
        players = [player for player in seated if player is not None]
        dealer = self.cleaned_data.get("first_dealer")
        if dealer in players:
            start = players.index(dealer)
            players = players[start:] + players[:start]
        return players

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        seated = [data.get(f"seat_{i}") for i in range(self.seat_count)]
        players = [player for player in seated if player is not None]
        seen: set[int] = set()
        for index, player in enumerate(seated):
            if player is not None and player.pk in seen:
                self.add_error(f"seat_{index}", f"{player.name} already has a seat.")
            elif player is not None:
                seen.add(player.pk)
        if len(players) not in self.allowed and not self.errors:
            counts = bounds.player_range(sorted(self.allowed))
            self.add_error(None, f"{self.ruleset_name} needs {counts} players.")
        dealer = data.get("first_dealer")
        if dealer is not None and dealer not in players:
            self.add_error("first_dealer", f"{dealer.name} is not sitting at this table.")
        return data

    def add_rules_problems(self, error: InvalidRules, fields: dict[str, str]) -> None:
        for problem in error.problems:
            option = problem.path.split(".")[1] if problem.path.startswith("options.") else ""
            field = fields.get(option)
            self.add_error(field if field in self.fields else None, problem.message)


class StartForm(SeatingForm):
    """Start a session: the seats, the first dealer, and the preset's open options.

    Each open option of the family's rules (`rules.options`) becomes a field, in the words
    the rules give it; `options()` gives back the overrides as the rules read them.
    """

    choices_required = True  # whether a choice must be made (else: the preset's own value)
    match_field = "match_type"  # the field of the match option's kind; its number is below

    def __init__(self, *args: Any, owner: User, family: Family, preset: Any, **kwargs: Any) -> None:
        super().__init__(*args, owner=owner, name=preset.name, allowed=preset.players, **kwargs)
        self.family = family
        self.preset = preset
        self.rules: Any = None
        self.defaults = family.default_options(preset, min(preset.players))
        opened = [option for option in family.OPTIONS if option.name in preset.open_options]
        for option in sorted(opened, key=lambda option: option.kind != MATCH):
            self._add_field(option, self.defaults[option.name])

    def _add_field(self, option: Option, default: object) -> None:
        name = option.name
        if option.kind == MATCH:
            match = trick.Match.from_data(default)
            self.fields[self.match_field] = forms.ChoiceField(
                label=option.label,
                choices=[
                    (c.value, c.label) for c in option.choices if c.value in self.preset.match_types
                ],
                initial=match.type,
            )
            self.fields["match_number"] = forms.IntegerField(
                label=trick.MATCH_NUMBER_LABEL,
                help_text=option.help,
                min_value=option.least,
                max_value=option.most,
                required=False,
                initial=match.deals or match.target or match.games,
            )
        elif option.kind == CHOICE:
            values = self._choice_values(option)
            self.fields[name] = forms.ChoiceField(
                label=option.label,
                choices=[(c.value, c.label) for c in option.choices if c.value in values],
                initial=default,
                required=self.choices_required,
                widget=forms.RadioSelect if len(values) <= 3 else forms.Select,
            )
        elif option.kind == NUMBERS:
            assert isinstance(default, list)
            self.fields[name] = forms.CharField(
                label=option.label,
                help_text=option.help,
                required=False,
                initial=", ".join(str(number) for number in default),
            )
        elif option.kind == SUBSET:
            self.fields[name] = forms.MultipleChoiceField(
                label=option.label,
                choices=[(c.value, c.label) for c in option.choices],
                required=False,
                initial=default,
                widget=forms.CheckboxSelectMultiple,
            )
        elif option.kind == FLAG:
            self.fields[name] = forms.BooleanField(
                label=option.label, required=False, initial=default
            )
        elif option.kind == NUMBER:
            self.fields[name] = forms.IntegerField(
                label=option.label,
                help_text=self.number_help(option),
                min_value=option.least,
                max_value=option.most,
                required=False,
            )

    def _choice_values(self, option: Option) -> list[str]:
        """The values a choice offers with this preset (the card tables it lets you pick)."""
        if option.name == "card_table":
            return list(self.preset.card_tables)
        return [choice.value for choice in option.choices]

    def number_help(self, option: Option) -> str:
        return option.help

    def options(self) -> dict[str, object]:
        """The option overrides chosen, as the rules read them; left out: the preset's own."""
        data = self.cleaned_data
        options: dict[str, object] = {}
        for option in self.family.OPTIONS:
            name = option.name
            if option.kind == MATCH and self.match_field in data:
                kind = data[self.match_field]
                match: dict[str, object] = {"type": kind}
                if kind in trick.MATCH_SETTINGS:
                    match[trick.MATCH_SETTINGS[kind]] = data.get("match_number")
                options[name] = match
            elif name not in data:
                continue
            elif option.kind == FLAG:
                options[name] = bool(data[name])
            elif option.kind == SUBSET or data[name] not in ("", None):
                options[name] = data[name]
        return options

    def clean_bonus(self) -> list[int] | None:
        text = self.cleaned_data["bonus"].strip()
        if not text:
            return None
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        if not all(part.isdecimal() and len(part) <= 5 for part in parts):
            raise forms.ValidationError(
                "Type whole numbers separated by commas, such as 30, 20, 10, 0."
            )
        row = [int(part) for part in parts]
        if not row:
            return None
        if len(row) > bounds.MAX_PLAYERS or max(row) > bounds.MAX_BONUS:
            raise forms.ValidationError(
                f"Type at most {bounds.MAX_PLAYERS} bonuses, each from 0 to "
                f"{bounds.number(bounds.MAX_BONUS)}."
            )
        return row

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get(self.match_field)
        if kind in trick.MATCH_SETTINGS and data.get("match_number") is None:
            label = dict(self.fields[self.match_field].choices)[kind]  # type: ignore[attr-defined]
            self.add_error("match_number", f"Say how many for “{label}”.")
        if self.errors:
            return data
        try:
            self.rules = self.family.resolve_rules(
                self.preset.id, self.options(), [p.name for p in self.players()]
            )
        except InvalidRules as error:
            fields = {option.name: option.name for option in self.family.OPTIONS}
            self.add_rules_problems(error, fields | {"match": self.match_field})
        return data


class TrickStartForm(StartForm):
    """Start a trick-game session: each open option is asked for."""


class AddingStartForm(StartForm):
    """Start an adding-game session: an option left alone keeps the preset's value."""

    choices_required = False

    def number_help(self, option: Option) -> str:
        return adding.prose.usual_tokens(self.preset)


# Each family's start form, by the family's id.
START_FORMS: dict[str, type[StartForm]] = {trick.ID: TrickStartForm, adding.ID: AddingStartForm}


class SessionFilterForm(forms.Form):
    """Filters of the past sessions list; every field is optional."""

    q = forms.CharField(label="Search title or player", required=False, max_length=100)
    family = forms.ChoiceField(
        label="Game",
        required=False,
        choices=[
            ("", "Both games"),
            *((family.ID, family.SHORT_NAME) for family in FAMILIES.values()),
        ],
    )
    ruleset = forms.ChoiceField(label="Rules", required=False)
    player = forms.ModelChoiceField(
        label="Player", required=False, queryset=Player.objects.none(), empty_label="Any player"
    )
    status = forms.ChoiceField(
        label="Status",
        required=False,
        choices=[
            ("", "Any"),
            ("playing", "In progress"),
            ("finished", "Finished"),
            ("abandoned", "Abandoned"),
        ],
    )
    since = forms.DateField(
        label="From", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label="To", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        ruleset = self.fields["ruleset"]
        assert isinstance(player, forms.ModelChoiceField)
        assert isinstance(ruleset, forms.ChoiceField)
        player.queryset = Player.objects.for_user(owner)
        ruleset.choices = [
            ("", "Any rules"),
            *(
                (f"{family.ID}:{preset.id}", f"{preset.name} ({family.SHORT_NAME})")
                for family in FAMILIES.values()
                for preset in family.PRESETS.values()
            ),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "The end date is before the start date.")
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
            family, ruleset = data["ruleset"].split(":", 1)
            sessions = sessions.filter(family=family, ruleset=ruleset)
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
