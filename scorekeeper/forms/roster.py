"""Menus that list an owner's roster: a start form's seats and first dealer, the player who
takes a seat, the sessions list's player filter.

A start form has up to eleven such menus. Django renders every option of every menu through a
template and queries the roster once a menu; here the roster is read and escaped once for the
form, and each menu writes its options from that list, as Django's own select would.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.models import Player


class RosterOptions:
    """The players of `roster` as menu options (value, escaped name), read once."""

    def __init__(self, roster: QuerySet[Player]) -> None:
        self.roster = roster

    @cached_property
    def options(self) -> list[tuple[str, str]]:
        return [
            (str(pk), conditional_escape(name))
            for pk, name in self.roster.values_list("pk", "name")
        ]


class RosterSelect(forms.Select):
    """A <select> of the options `roster` read for the whole form, `empty_label` first."""

    def __init__(
        self, roster: RosterOptions, empty_label: str, attrs: dict[str, Any] | None = None
    ) -> None:
        super().__init__(attrs)
        self.roster = roster
        self.empty_label = empty_label

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: Any = None,
    ) -> SafeString:
        chosen = set(self.format_value(value))
        options = [("", conditional_escape(self.empty_label)), *self.roster.options]
        html = "".join(
            f'<option value="{key}"{" selected" if key in chosen else ""}>{label}</option>'
            for key, label in options
        )
        written = "".join(
            f" {key}" if given is True else f' {key}="{escape(given)}"'
            for key, given in self.build_attrs(self.attrs, attrs).items()
            if given is not False
        )  # as Django's attrs.html writes them
        return mark_safe(f'<select name="{escape(name)}"{written}>{html}</select>')
