"""The roster: the people an owner plays with, their names and their records."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper.forms.players import PlayerForm
from scorekeeper.http import AuthedRequest
from scorekeeper.models import Player
from scorekeeper.presenters.ratings import player_ratings
from scorekeeper.presenters.records import player_record
from scorekeeper.services import Rejected, rename_player
from scorekeeper.services.limits import AccountFull
from scorekeeper.views.access import player_for_user


def post_data(request: HttpRequest) -> QueryDict | None:
    """Form data for a POST (even an empty one, so it is validated), None otherwise."""
    return request.POST if request.method == "POST" else None


@login_required
@require_http_methods(["GET", "POST"])
def players(request: AuthedRequest) -> HttpResponse:
    roster = Player.objects.for_user(request.user)
    form = PlayerForm(post_data(request), owner=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                with transaction.atomic():
                    player = form.save()
            except IntegrityError:
                # Two phones added the same name at the same moment.
                form.add_error("name", _("You already have a player with that name."))
            except AccountFull as full:
                form.add_error("name", full.lines)  # another phone filled the roster
            else:
                messages.success(request, _("Added %(name)s.") % {"name": player.name})
                if request.htmx:
                    form = PlayerForm(owner=request.user)
                else:
                    return redirect("players")
        if request.htmx:
            # The form is swapped in anew: keep the thumb (and the screen reader) on the name.
            form.fields["name"].widget.attrs["autofocus"] = True
            ctx = {
                "form": form,
                "active": roster.active(),
                "archived": roster.filter(archived=True),
            }
            return render(request, "scorekeeper/players.html#roster", ctx)
    ctx = {"form": form, "active": roster.active(), "archived": roster.filter(archived=True)}
    return render(request, "scorekeeper/players.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def player(request: AuthedRequest, player_id: int) -> HttpResponse:
    player = player_for_user(request, player_id)
    form = PlayerForm(instance=player, owner=request.user)
    if request.method == "POST":
        if "archive" in request.POST or "restore" in request.POST:
            player.archived = "archive" in request.POST
            player.save(update_fields=["archived"])
            if player.archived:
                messages.success(
                    request,
                    _("Archived %(name)s. Their past games are kept.") % {"name": player.name},
                )
            else:
                messages.success(
                    request, _("%(name)s is back on your roster.") % {"name": player.name}
                )
            return redirect("players")
        old_name = player.name
        form = PlayerForm(request.POST, instance=player, owner=request.user)
        if form.is_valid():
            try:
                if form.cleaned_data["name"] != old_name:
                    rename_player(player, form.cleaned_data["name"])
            except IntegrityError:
                form.add_error("name", _("You already have a player with that name."))
            except Rejected as refused:
                for problem in refused.problems:
                    form.add_error("name", str(problem))
            else:
                if old_name != player.name:
                    messages.success(
                        request,
                        _("Renamed %(old)s to %(name)s.") % {"old": old_name, "name": player.name},
                    )
                return redirect("players")
        # Keep the name shown in the heading as stored, not as mistyped.
        player.name = old_name
    ctx = {
        "player": player,
        "form": form,
        "record": player_record(player),
        "ratings": player_ratings(player),
    }
    return render(request, "scorekeeper/player.html", ctx)
