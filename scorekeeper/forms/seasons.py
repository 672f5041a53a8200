"""The form of a season: its name, game, days, and which nights count."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.forms.text import check_day, check_text
from scorekeeper.night_models import Season
from scorekeeper.rules.bounds import MAX_TITLE_LENGTH


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "family", "starts", "ends", "best_of", "with_sessions"]
        labels = {
            "name": gettext_lazy("Name of the season"),
            "family": gettext_lazy("Game"),
            "starts": gettext_lazy("From"),
            "ends": gettext_lazy("To"),
            "best_of": gettext_lazy("Nights that count for each player"),
            "with_sessions": gettext_lazy("Ordinary sessions count as nights too"),
        }
        help_texts = {
            "best_of": gettext_lazy(
                "Each player's best nights count: leave empty to count every night."
            ),
        }
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}),
            "ends": forms.DateInput(attrs={"type": "date"}),
        }

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        check_text(name, MAX_TITLE_LENGTH)
        return name

    def clean_starts(self) -> Any:
        return check_day(self.cleaned_data["starts"])

    def clean_ends(self) -> Any:
        return check_day(self.cleaned_data["ends"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The season ends before it starts."))
        best = data.get("best_of")
        if best is not None and best < 1:
            self.add_error("best_of", _("At least one night counts."))
        return data
