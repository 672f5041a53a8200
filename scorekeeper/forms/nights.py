"""The forms of a club night: the night itself, a player arriving late, a table closed early."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorekeeper.forms.players import roster_name
from scorekeeper.forms.text import check_day, check_text
from scorekeeper.models import Player
from scorekeeper.rules import night as rules
from scorekeeper.rules.bounds import MAX_DEALS, MAX_TITLE_LENGTH
from scorekeeper.services import limits

MOST_ROUNDS = 20
MOST_NEW = 60  # new names at once


class NightForm(forms.Form):
    """A new night under a preset (or saved ruleset) of `game`: its name and day, the tables'
    size (what the preset seats), a round's length, the rounds, the ranking method, and who
    plays: players of the roster ticked, and new names typed, one a line."""

    name = forms.CharField(label=gettext_lazy("Name of the night"), max_length=MAX_TITLE_LENGTH)
    played_on = forms.DateField(
        label=gettext_lazy("Date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    least = forms.TypedChoiceField(label=gettext_lazy("Players at a table, at least"), coerce=int)
    most = forms.TypedChoiceField(label=gettext_lazy("Players at a table, at most"), coerce=int)
    deals = forms.IntegerField(
        label=gettext_lazy("Deals at each table in a round"), min_value=1, max_value=MAX_DEALS
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"), min_value=1, max_value=MOST_ROUNDS, initial=4
    )
    method = forms.ChoiceField(label=gettext_lazy("Ranking"), widget=forms.RadioSelect)
    swiss_from = forms.IntegerField(
        label=gettext_lazy("Seat by the standings from round"),
        help_text=gettext_lazy("Leave empty to keep moving everyone to meet everyone."),
        required=False,
        min_value=2,
        max_value=MOST_ROUNDS,
    )
    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Players from your list"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    new_players = forms.CharField(
        label=gettext_lazy("New players, one a line"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    prizes = forms.CharField(
        label=gettext_lazy("Prizes, one a line, the winner's first"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
    )

    def __init__(
        self,
        *args: Any,
        owner: User,
        sizes: tuple[int, ...],
        counts_deals: bool,
        methods: tuple[rules.Method, ...],
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("played_on", timezone.localdate())
        kwargs["initial"].setdefault("least", sizes[0])
        kwargs["initial"].setdefault("most", sizes[-1])
        kwargs["initial"].setdefault("method", methods[0].id)
        super().__init__(*args, **kwargs)
        self.owner = owner
        size_choices = [(size, str(size)) for size in sizes]
        self.fields["least"].choices = size_choices  # type: ignore[attr-defined]
        self.fields["most"].choices = size_choices  # type: ignore[attr-defined]
        if len(sizes) == 1:
            self.fields["least"].widget = forms.HiddenInput()
            self.fields["most"].widget = forms.HiddenInput()
        if not counts_deals:
            del self.fields["deals"]
        self.fields["method"].choices = [  # type: ignore[attr-defined]
            (method.id, f"{method.shown_name}: {method.shown_explanation}") for method in methods
        ]
        roster: QuerySet[Player] = Player.objects.for_user(owner).active()
        self.fields["players"].queryset = roster  # type: ignore[attr-defined]
        self.new_names: list[str] = []

    def clean_name(self) -> str:
        return night_name(self.cleaned_data["name"])

    def clean_played_on(self) -> Any:
        return check_day(self.cleaned_data["played_on"])

    def clean_new_players(self) -> str:
        text: str = self.cleaned_data["new_players"]
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > MOST_NEW:
            raise forms.ValidationError(
                _("Add at most %(count)s new players at once.") % {"count": MOST_NEW}
            )
        names: list[str] = []
        problems: list[str] = []
        for number, line in enumerate(lines, start=1):
            try:
                name = roster_name(line, self.owner)
            except forms.ValidationError as error:
                problems += [
                    _("Line %(number)s: %(problem)s") % {"number": number, "problem": message}
                    for message in error.messages
                ]
                continue
            if name.casefold() in (known.casefold() for known in names):
                problems.append(
                    _("Line %(number)s: %(name)s is there twice.")
                    % {"number": number, "name": name}
                )
            names.append(name)
        if problems:
            raise forms.ValidationError(problems)
        full = limits.refusal(self.owner, limits.PLAYERS, len(names))
        if full is not None:
            adds = ngettext(
                "These lines add %(count)s player to your roster, which has no room for them.",
                "These lines add %(count)s players to your roster, which has no room for them.",
                len(names),
            )
            raise forms.ValidationError([adds % {"count": len(names)}, full])
        self.new_names = names
        return text

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        least, most = data.get("least"), data.get("most")
        if least is not None and most is not None and least > most:
            self.add_error("most", _("At most can't be fewer than at least."))
        rounds, swiss = data.get("rounds"), data.get("swiss_from")
        if rounds is not None and swiss is not None and swiss > rounds:
            self.add_error("swiss_from", _("The night has %(count)s rounds.") % {"count": rounds})
        chosen = len(data.get("players") or []) + len(self.new_names)
        if least is not None and chosen < least and "new_players" not in self.errors:
            self.add_error(
                "players",
                _("Choose at least %(count)s players: a table seats %(count)s.") % {"count": least},
            )
        return data


def night_name(typed: str) -> str:
    name = typed.strip()
    check_text(name, MAX_TITLE_LENGTH)
    return name


class NightNameForm(forms.Form):
    """A night's new name (its tables carry it too)."""

    name = forms.CharField(label=gettext_lazy("Name of the night"), max_length=MAX_TITLE_LENGTH)

    def clean_name(self) -> str:
        return night_name(self.cleaned_data["name"])


class EndNightForm(forms.Form):
    """A night ended before its last round, and why (kept in the history of each table still
    playing, which closes where it stands)."""

    reason = forms.CharField(
        label=gettext_lazy("Why the night ends now"), max_length=200, required=True
    )


class LatePlayerForm(forms.Form):
    """Someone arriving between rounds: a player of the roster not playing yet, or a new name."""

    player = forms.ModelChoiceField(
        label=gettext_lazy("From your list"), queryset=Player.objects.none(), required=False
    )
    name = forms.CharField(label=gettext_lazy("Or a new player"), required=False)

    def __init__(self, *args: Any, owner: User, playing: set[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        roster = Player.objects.for_user(owner).active().exclude(pk__in=playing)
        self.fields["player"].queryset = roster  # type: ignore[attr-defined]

    def clean_name(self) -> str:
        typed: str = self.cleaned_data["name"]
        return roster_name(typed, self.owner) if typed.strip() else ""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        if not data.get("player") and not data.get("name") and not self.errors:
            raise forms.ValidationError(_("Choose a player, or type a new one's name."))
        return data


class CloseTableForm(forms.Form):
    """A table ended before its round's end, and why (kept in its history)."""

    reason = forms.CharField(label=gettext_lazy("Why it ends now"), max_length=200, required=True)
