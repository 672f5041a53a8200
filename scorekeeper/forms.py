from __future__ import annotations

import re
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from scorekeeper.models import PLAYER_NAME_MAX, Player
from scorekeeper.scoresheet import InvalidScoresheet, TrickSheet, loads_scoresheet


def tidy_name(value: str) -> str:
    """Trim a name and collapse runs of whitespace to single spaces."""
    return re.sub(r"\s+", " ", value).strip()


class SignupForm(UserCreationForm):
    pass


class PlayerForm(forms.ModelForm):
    """Add or rename a player on the owner's roster."""

    class Meta:
        model = Player
        fields = ["name"]
        error_messages = {
            "name": {
                "required": "Type the player's name.",
                "max_length": f"A name can be at most {PLAYER_NAME_MAX} characters.",
            }
        }

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.fields["name"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Type the player's name.")
        clash = Player.objects.filter(owner=self.owner, name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(f"You already have a player called {clash[0].name}.")
        return name

    def save(self, commit: bool = True) -> Player:
        self.instance.owner = self.owner
        return super().save(commit=commit)


SCORESHEET_MAX_BYTES = 2_000_000


class ScoresheetUploadForm(forms.Form):
    file = forms.FileField(
        label="Scoresheet file (.json)",
        error_messages={"required": "Choose a scoresheet file to upload."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".json,application/json"
        self.sheet: TrickSheet | None = None

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > SCORESHEET_MAX_BYTES:
            raise forms.ValidationError("That file is too big for a scoresheet (over 2 MB).")
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "That file is not text (UTF-8); is it a scoresheet?"
            ) from None
        try:
            self.sheet = loads_scoresheet(text)
        except InvalidScoresheet as error:
            raise forms.ValidationError([f"{problem}" for problem in error.problems]) from None
        return upload
