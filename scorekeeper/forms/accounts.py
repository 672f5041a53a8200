"""The forms of accounts and of a scorer link's name."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.forms.text import check_text, tidy_name
from scorekeeper.rules import bounds


class SignupForm(UserCreationForm):
    def clean_username(self) -> str:
        username = super().clean_username()
        if self.has_error("username"):
            # The name is taken. Creating an account hashes its password once; refusing one
            # does the same work, so that the time of the answer says no more than its words.
            User().set_password(self.data.get("password1") or "")
        return username


class ScorerNameForm(forms.Form):
    """Who is scoring through a scorer link: their name goes into the session's history."""

    name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=bounds.MAX_NAME_LENGTH,
        help_text=gettext_lazy("It is shown in the session's history next to what you enter."),
        error_messages={
            "required": gettext_lazy("Type your name, so the table knows who entered what.")
        },
    )

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Type your name, so the table knows who entered what."))
        check_text(name, bounds.MAX_NAME_LENGTH)
        return name
