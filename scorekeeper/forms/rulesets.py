"""The form of a saved ruleset ("Our Friday rules"): its name, and the preset's options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.models import User
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.forms.sessions import OptionsForm
from scorekeeper.forms.text import check_text, tidy_name
from scorekeeper.models import RULESET_NAME_MAX, SavedRuleset
from scorekeeper.rules import bounds
from scorekeeper.rules.common import seat_names
from scorekeeper.rules.registry import Family


def ruleset_form(
    *args: Any,
    owner: User,
    family: Family,
    preset: Any,
    chosen: Mapping[str, object] | None = None,
    ruleset: SavedRuleset | None = None,
) -> RulesetForm:
    """The form for the family: the option fields as its start form asks for them."""
    return RulesetForm(
        *args, owner=owner, family=family, preset=preset, chosen=chosen, ruleset=ruleset
    )


class RulesetForm(OptionsForm):
    """A name of the owner's (unique for them, ignoring case) and every option of the preset,
    set as it plays unless changed (the house rules)."""

    name = forms.CharField(
        label=gettext_lazy("Name of these rules"),
        max_length=RULESET_NAME_MAX,
        help_text=gettext_lazy("For example “Our Friday rules”."),
        error_messages={
            "required": gettext_lazy("Give these rules a name."),
            "max_length": format_lazy(
                gettext_lazy("A name can be at most {longest} characters."),
                longest=RULESET_NAME_MAX,
            ),
        },
    )

    def __init__(
        self,
        *args: Any,
        owner: User,
        family: Family,
        preset: Any,
        chosen: Mapping[str, object] | None,
        ruleset: SavedRuleset | None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.ruleset = ruleset
        self.fields["name"].widget.attrs.update({"autocomplete": "off"})
        if ruleset is not None:
            self.fields["name"].initial = ruleset.name
        self.add_option_fields(family, preset, chosen)
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give these rules a name."))
        check_text(name, RULESET_NAME_MAX)
        clash = SavedRuleset.objects.for_user(self.owner).filter(name_key=bounds.name_key(name))
        if self.ruleset is not None:
            clash = clash.exclude(pk=self.ruleset.pk)
        if clash.exists():
            raise forms.ValidationError(
                _("You already have rules called “%(name)s”.") % {"name": clash[0].name}
            )

        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        self.check_match_number(data)
        if not self.errors:
            self.resolve(self.seat_names())
        return data

    def seat_names(self) -> list[str]:
        """Stand-in players for reading the options (the fewest the preset seats)."""
        return seat_names(min(self.preset.players))
