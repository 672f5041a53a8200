"""The forms of the adding game: a correction agreed at the table, an event added to a round."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.rules import adding, bounds


class AdjustForm(forms.Form):
    """A correction agreed at the table: so many tokens (or points) up or down for a player."""

    player = forms.ChoiceField(label=gettext_lazy("Who"))
    tokens = forms.IntegerField(
        label=gettext_lazy("By how many (+ gives, − takes)"),
        min_value=-bounds.MAX_ADJUST,
        max_value=bounds.MAX_ADJUST,
        error_messages={
            "required": gettext_lazy("Say by how many."),
            "invalid": gettext_lazy("A whole number, such as -1."),
        },
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(str(i), name) for i, name in enumerate(players)]

    def clean_tokens(self) -> int:
        tokens: int = self.cleaned_data["tokens"]
        if tokens == 0:
            raise forms.ValidationError(
                _("An adjustment of 0 changes nothing; give + or − a number.")
            )
        return tokens


class RoundEventForm(forms.Form):
    """An event of a past round while correcting it: one added (where in the round: before
    which event, or at its end, when `places` lists the round's events), or one changed
    (`event` fills it in as it is)."""

    player = forms.ChoiceField(label=gettext_lazy("Who"))
    event = forms.ChoiceField(label=gettext_lazy("What happened"))
    tokens = forms.IntegerField(
        label=gettext_lazy("For an adjustment: by how many (+ gives, − takes)"),
        required=False,
        min_value=-bounds.MAX_ADJUST,
        max_value=bounds.MAX_ADJUST,
    )
    where = forms.TypedChoiceField(
        label=gettext_lazy("Where in the round"), coerce=int, required=False, empty_value=None
    )

    def __init__(
        self,
        *args: Any,
        rules: adding.AddingRules,
        places: list[str] | None = None,
        event: adding.Event | None = None,
        **kwargs: Any,
    ) -> None:
        if event is not None:
            kwargs.setdefault("initial", {}).update(_shown(rules, event))
        super().__init__(*args, **kwargs)
        self.rules = rules
        player = self.fields["player"]
        kind = self.fields["event"]
        assert isinstance(player, forms.ChoiceField) and isinstance(kind, forms.ChoiceField)
        player.choices = [(str(i), name) for i, name in enumerate(rules.players)]
        kind.choices = [
            (f"{rule.event}:{rule.target or ''}", _(rule.label))
            for rule in adding.events_for(rules)
        ]
        where = self.fields["where"]
        assert isinstance(where, forms.TypedChoiceField)
        if places is None:
            del self.fields["where"]
        else:
            where.choices = [
                *(
                    (
                        str(i),
                        _("Before event %(number)s: %(event)s") % {"number": i + 1, "event": label},
                    )
                    for i, label in enumerate(places)
                ),
                (str(len(places)), _("At the end")),
            ]
            where.initial = str(len(places))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        if data.get("event", "").startswith("adjust:") and not data.get("tokens"):
            self.add_error("tokens", _("Say by how many (not 0)."))

        return data

    def place(self) -> int | None:
        """Where in the round the event goes (0-based), or None: at its end."""
        where = self.cleaned_data.get("where")
        return where if isinstance(where, int) else None

    def entered_event(self) -> adding.Event:
        kind, target = self.cleaned_data["event"].split(":")
        return adding.Event(
            player=self.rules.players[int(self.cleaned_data["player"])],
            event=kind,
            target=int(target) if target else None,
            tokens=self.cleaned_data.get("tokens") if kind == "adjust" else None,
        )


def _shown(rules: adding.AddingRules, event: adding.Event) -> dict[str, object]:
    """An event as the form's fields hold it."""
    player = rules.players.index(event.player) if event.player in rules.players else 0
    return {
        "player": str(player),
        "event": f"{event.event}:{event.target or ''}",
        "tokens": event.tokens if event.event == "adjust" else None,
    }
