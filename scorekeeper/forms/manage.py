"""The forms of the "Manage session" pages: its name, a player's name, the seat order, and who
takes the seat of a player who leaves. Each says what is wrong next to its field."""

from __future__ import annotations

from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth.models import User
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.forms.players import roster_name
from scorekeeper.forms.roster import RosterOptions, RosterSelect
from scorekeeper.forms.text import check_text, tidy_name
from scorekeeper.models import PLAYER_NAME_MAX, GameSession, Player, Seat
from scorekeeper.rules import bounds

TOO_LONG_NAME = format_lazy(
    gettext_lazy("A name can be at most {longest} characters."), longest=PLAYER_NAME_MAX
)


def _helper() -> FormHelper:
    helper = FormHelper()
    helper.form_tag = False
    return helper


class TitleForm(forms.Form):
    """The session's name (may be left empty: it is then called by its rules and day)."""

    title = forms.CharField(
        max_length=bounds.MAX_TITLE_LENGTH,
        required=False,
        label=gettext_lazy("Name of the session"),
        help_text=gettext_lazy(
            "For example “Friday at Sam’s”. Leave it empty to call it by its rules and day."
        ),
        error_messages={
            "max_length": format_lazy(
                gettext_lazy("A name can be at most {longest} characters long."),
                longest=bounds.MAX_TITLE_LENGTH,
            )
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = _helper()

    def clean_title(self) -> str:
        title: str = self.cleaned_data["title"].strip()  # as the start form has it
        check_text(title, bounds.MAX_TITLE_LENGTH)
        return title


class SeatNameForm(forms.Form):
    """A corrected name for the player in one seat (their name on the roster)."""

    name = forms.CharField(
        max_length=PLAYER_NAME_MAX,
        error_messages={
            "required": gettext_lazy("Type the player's name."),
            "max_length": TOO_LONG_NAME,
        },
    )

    def __init__(self, *args: Any, seat: Seat, owner: User, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", f"seat{seat.position + 1}")
        kwargs.setdefault("initial", {"name": seat.player.name})
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.owner = owner
        field = self.fields["name"]
        field.label = _("Name in seat %(number)s") % {"number": seat.position + 1}
        field.widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})
        self.helper = _helper()

    def clean_name(self) -> str:
        name = roster_name(self.cleaned_data["name"], self.owner, self.seat.player_id)
        if name == self.seat.player.name:
            raise forms.ValidationError(
                _("That is already the name in seat %(number)s.") % {"number": self.position}
            )
        return name

    @property
    def position(self) -> int:
        return self.seat.position + 1


class SeatOrderForm(forms.Form):
    """The same players in a new order round the table; the first dealer's seat deals first."""

    def __init__(self, *args: Any, session: GameSession, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seated = [seat.player for seat in session.seats.all()]
        choices = [("", _("— choose —")), *((str(p.pk), p.name) for p in self.seated)]
        for index, player in enumerate(self.seated):
            dealer = index == session.first_dealer
            seat = _("Seat %(number)s (deals first)") if dealer else _("Seat %(number)s")
            self.fields[f"seat_{index}"] = forms.TypedChoiceField(
                choices=choices,
                coerce=int,
                initial=str(player.pk),
                label=seat % {"number": index + 1},
                error_messages={
                    "required": _("Choose who sits in seat %(number)s.") % {"number": index + 1},
                    "invalid_choice": _("Choose one of the players at this table."),
                },
            )
        self.helper = _helper()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        seen: set[int] = set()
        names = {player.pk: player.name for player in self.seated}
        for index in range(len(self.seated)):
            chosen = data.get(f"seat_{index}")
            if chosen is None:
                continue
            if chosen in seen:
                self.add_error(
                    f"seat_{index}", _("%(player)s already has a seat.") % {"player": names[chosen]}
                )
            seen.add(chosen)
        return data

    def players(self) -> list[Player]:
        """The players in the order chosen."""
        by_id = {player.pk: player for player in self.seated}
        return [by_id[self.cleaned_data[f"seat_{i}"]] for i in range(len(self.seated))]


class ReplaceForm(forms.Form):
    """Who takes the seat of a player who leaves: one of the roster, or someone new."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=gettext_lazy("One of your players"),
        empty_label=gettext_lazy("— choose —"),
        error_messages={
            "invalid_choice": gettext_lazy("Choose a player from your roster who is not seated.")
        },
    )
    new_name = forms.CharField(
        max_length=PLAYER_NAME_MAX,
        required=False,
        label=gettext_lazy("Or someone new"),
        help_text=gettext_lazy("Typed here, they are added to your players."),
        error_messages={"max_length": TOO_LONG_NAME},
    )
    # The deals or rounds entered when the page said what the change means.
    played = forms.IntegerField(min_value=0, widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, session: GameSession, seat: Seat, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.owner = session.owner
        self.seated = [other.player_id for other in session.seats.all()]
        player = self.fields["player"]
        assert isinstance(player, forms.ModelChoiceField)
        roster = Player.objects.for_user(session.owner_id).active()
        player.queryset = roster.exclude(pk__in=self.seated)
        player.widget = RosterSelect(RosterOptions(player.queryset), str(player.empty_label))
        self.fields["new_name"].widget.attrs.update(
            {"autocomplete": "off", "autocapitalize": "words"}
        )
        self.helper = _helper()

    def clean_new_name(self) -> str:
        typed: str = self.cleaned_data["new_name"]
        if not typed.strip():
            return ""
        known = Player.objects.filter(owner=self.owner, name_key=bounds.name_key(tidy_name(typed)))
        player = known.first()
        if player is None:
            return roster_name(typed, self.owner)
        named = {"player": player.name}
        if player.pk in self.seated:
            raise forms.ValidationError(_("%(player)s already sits at this table.") % named)
        if player.archived:
            raise forms.ValidationError(
                _(
                    "%(player)s is an archived player of yours: put them back on your roster "
                    "(Players), or type another name."
                )
                % named
            )
        clash = _("You already have a player called %(player)s: choose them above.") % named
        raise forms.ValidationError(clash)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None
        player, name = data.get("player"), data.get("new_name")
        if self.errors:
            return data
        if player is not None and name:
            both = _("Choose %(player)s or type a new name, not both.") % {"player": player.name}
            self.add_error("new_name", both)
        elif player is None and not name:
            self.add_error("player", _("Choose who takes the seat, or type a new name below."))

        return data

    def newcomer(self) -> Player | str:
        """The player taking the seat, or the name of a new one."""
        player: Player | None = self.cleaned_data.get("player")
        return player if player is not None else self.cleaned_data["new_name"]

    def newcomer_name(self) -> str:
        newcomer = self.newcomer()
        return newcomer if isinstance(newcomer, str) else newcomer.name
