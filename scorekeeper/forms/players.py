"""The form that adds a player to a roster or renames one."""

from __future__ import annotations

from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.forms.text import check_text, tidy_name
from scorekeeper.models import PLAYER_NAME_MAX, Player
from scorekeeper.rules import bounds
from scorekeeper.services import limits


def roster_name(typed: str, owner: User, player_id: int | None = None) -> str:
    """A name for a player of `owner`'s roster, tidied; ValidationError if it is blank, too
    long, unprintable, or the name of another of their players (`player_id` is the one being
    renamed), or, for a new player, if the roster is full."""
    name = tidy_name(typed)
    if not name:
        raise forms.ValidationError(_("Type the player's name."))
    check_text(name, PLAYER_NAME_MAX)
    full = None if player_id else limits.refusal(owner, limits.PLAYERS)
    if full is not None:
        raise forms.ValidationError(full)
    clash = Player.objects.filter(owner=owner, name_key=bounds.name_key(name))
    if player_id:
        clash = clash.exclude(pk=player_id)
    if clash.exists():
        raise forms.ValidationError(
            _("You already have a player called %(player)s.") % {"player": clash[0].name}
        )
    return name


class PlayerForm(forms.ModelForm):
    """Add or rename a player on the owner's roster."""

    class Meta:
        model = Player
        fields = ["name"]
        labels = {"name": gettext_lazy("Name")}

        error_messages = {
            "name": {
                "required": gettext_lazy("Type the player's name."),
                "max_length": format_lazy(
                    gettext_lazy("A name can be at most {longest} characters."),
                    longest=PLAYER_NAME_MAX,
                ),
            }
        }

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.fields["name"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_name(self) -> str:
        return roster_name(self.cleaned_data["name"], self.owner, self.instance.pk)

    def save(self, commit: bool = True) -> Player:
        """Save the player (AccountFull if a new one no longer fits: another phone added
        one since the form was checked)."""
        self.instance.owner = self.owner
        if not commit or self.instance.pk is not None:
            return super().save(commit=commit)
        with transaction.atomic():
            limits.make_room(self.owner, limits.PLAYERS)
            return super().save()
