"""The table-side screens of a session, for everyone who may see or score it.

A session's table is reached three ways: by its owner (logged in), by a scorer link
(anyone holding it may enter and correct, under the name they typed), and by a watch
link (read-only live standings). Each view below first works out the `Table` for the
request (who, what they may do, and the URL prefix of their links), so the screens
themselves are written once for all three.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.display import (
    adding_context,
    csv_rows,
    deal_rows,
    deal_saved_message,
    describe_changes,
    describe_round_changes,
    entry_initial,
    event_label,
    grid_page,
    hand_columns,
    last_tap_message,
    round_rows,
    session_context,
    spreadsheet_safe,
    trump_label,
)
from scorekeeper.forms import (
    AdjustForm,
    DealForm,
    RoundEventForm,
    ScorerNameForm,
    apply_taps,
)
from scorekeeper.http import AuthedRequest, HtmxHttpRequest
from scorekeeper.models import Change, Family, GameSession, new_link_token
from scorekeeper.ratelimit import link_miss_allowed
from scorekeeper.rules import adding
from scorekeeper.scoresheet import deal_data, dumps_scoresheet
from scorekeeper.services import (
    AlreadyDone,
    Conflict,
    KeyReused,
    Rejected,
    add_deal,
    adding_rules,
    compute,
    compute_adding,
    deal_entries,
    delete_last_deal,
    edit_deal,
    edit_round,
    extend_session,
    extension,
    player_names,
    record_event,
    replayed,
    round_entries,
    scoresheet_for,
    table_state,
    trick_rules,
    undo_event,
    with_entries,
)

FORM_KEY = re.compile(r"[A-Za-z0-9_-]*")
SCORER_NAME_KEY = "scorer_names"  # in the browser's session: {scorer token: name typed}
POLL_SECONDS = 3


@dataclass(frozen=True)
class Table:
    """A session as one phone may use it."""

    game: GameSession
    base: str  # the URL of this phone's table page; its other pages hang below it
    by_user: User | None  # who is recorded in the history
    by_name: str
    is_owner: bool
    can_score: bool

    def url(self, suffix: str = "") -> str:
        return self.base + suffix


class Who(TypedDict):
    """Who makes a change, for the history, and the idempotency key of their form."""

    by_user: User | None
    by_name: str
    form_key: str


def _who(request: HttpRequest, table: Table) -> Who:
    return {"by_user": table.by_user, "by_name": table.by_name, "form_key": _form_key(request)}


def _owner_table(request: AuthedRequest, public_id: str) -> Table:
    sessions = with_entries(GameSession.objects.for_user(request.user))
    game = get_object_or_404(sessions, public_id=public_id)
    base = reverse("session", args=[public_id])
    return Table(game, base, request.user, "", is_owner=True, can_score=True)


def _link_missing(request: HttpRequest) -> Http404:
    """A link token that opens nothing: counted, and refused for a while after too many."""
    if not link_miss_allowed(request):
        raise TooManyGuesses
    return Http404("No such link")


class TooManyGuesses(Exception):
    """Too many requests for links that do not exist came from this address."""


def _session_by(request: HttpRequest, **token: str) -> GameSession:
    game = with_entries(GameSession.objects.filter(**token)).first()
    if game is None:
        raise _link_missing(request)
    return game


def _version_by(request: HttpRequest, **token: str) -> int:
    version = GameSession.objects.filter(**token).values_list("version", flat=True).first()
    if version is None:
        raise _link_missing(request)
    return version


def _scorer_table(request: HttpRequest, token: str) -> Table:
    game = _session_by(request, scorer_token=token)
    name = request.session.get(SCORER_NAME_KEY, {}).get(token, "")
    base = reverse("scorer", args=[token])
    return Table(game, base, None, f"{name} (scorer link)", is_owner=False, can_score=True)


def _watch_table(request: HttpRequest, token: str) -> Table:
    game = _session_by(request, watch_token=token)
    base = reverse("watch", args=[token])
    return Table(game, base, None, "", is_owner=False, can_score=False)


def _form_key(request: HttpRequest) -> str:
    """The form's idempotency key, as the form made it (letters, digits, - and _), or ""."""
    key = request.POST.get("form_key", "")
    return key if len(key) <= 40 and FORM_KEY.fullmatch(key) else ""


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise Http404("Not a number") from None


# The table page


def _table_page(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    if table.game.family == Family.ADDING:
        return _adding_page(request, table)
    return _trick_page(request, table)


def _deal_form(
    game: GameSession,
    data: QueryDict | None,
    *,
    number: int,
    initial: dict[str, object] | None = None,
) -> DealForm:
    rules = trick_rules(game)
    return DealForm(
        data,
        rules=rules,
        previous=deal_entries(game)[: number - 1],
        trump_entered=rules.trump in ("turn-up", "declared"),
        initial={"number": number, "form_key": new_link_token(), **(initial or {})},
    )


def _live_context(table: Table) -> dict[str, object]:
    """What every live region needs: where to poll, and the version it shows."""
    return {
        "table": table,
        "game": table.game,
        "base": table.base,
        "live_url": table.url("live/"),
        "etag": _etag(table.game.version),
        "poll_seconds": POLL_SECONDS,
    }


def _render_trick(
    request: HtmxHttpRequest, table: Table, form: DealForm | None, attempted: bool = False
) -> HttpResponse:
    game = table.game
    result = compute(game)
    if form is None and not result.finished and table.can_score:
        form = _deal_form(game, None, number=len(result.deals) + 1)
    ctx = {
        "form": form,
        "attempted": attempted,
        "action": table.base,
        "extension": extension(result.rules) if result.finished else None,
        **_live_context(table),
        **session_context(result),
    }
    if result.next:
        ctx |= {
            "dealer": result.next.dealer,
            "leader": result.next.leader,
            "save_label": f"Save deal {result.next.number}",
        }
    if request.htmx and request.htmx.target == "entry-status":
        return render(request, "scorekeeper/deal_form.html#entry-status", ctx)
    return render(request, "scorekeeper/session.html", ctx)


def _trick_page(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    game = table.game
    if request.method == "GET":
        return _render_trick(request, table, None)
    who = _who(request, table)
    try:
        if "undo" in request.POST:
            number = _int(request.POST["undo"])
            delete_last_deal(session=game, number=number, **who)
            messages.success(request, f"Deal {number} undone. It is kept in the history.")
            return redirect(table.base)
        if "extend" in request.POST:
            more = _int(request.POST["extend"])
            extend_session(session=game, deals=more, **who)
            messages.success(request, f"{more} more deals to play.")
            return redirect(table.base)
    except AlreadyDone as done:
        messages.info(request, str(done))
        return redirect(table.base)
    except (Conflict, Rejected) as error:
        messages.error(request, str(error))
        return redirect(table.base)

    entries = deal_entries(game)
    form = _deal_form(game, apply_taps(request.POST), number=len(entries) + 1)
    if not form.is_valid():
        return _render_trick(request, table, form, attempted="save" in request.POST)
    number = form.cleaned_data["number"]
    assert form.entry is not None
    earlier = replayed(game, _form_key(request)) if "save" in request.POST else None
    if earlier is not None:
        if earlier.after == deal_data(form.entry):
            messages.info(request, f"Deal {number} was already saved.")
            return redirect(table.base)
        return _offer_again(request, table, earlier.number, len(entries) + 1)
    if game.finished:
        messages.error(request, f"The session ended after deal {len(entries)}.")
        return redirect(table.base)
    if number != len(entries) + 1:
        messages.error(request, _stale_deal_message(number, len(entries)))
        return redirect(table.base)
    ok = form.check([*entries, form.entry])
    if "save" not in request.POST or not ok:
        return _render_trick(request, table, form, attempted="save" in request.POST)
    try:
        result = add_deal(session=game, number=number, entry=form.entry, **who)
    except AlreadyDone:
        messages.info(request, f"Deal {number} was already saved.")
        return redirect(table.base)
    except KeyReused as reused:
        return _offer_again(request, table, reused.change.number, number)
    except (Conflict, IntegrityError):
        messages.error(request, _stale_deal_message(number, number))
        return redirect(table.base)
    except Rejected as error:
        messages.error(request, str(error))
        return redirect(table.base)
    messages.success(request, deal_saved_message(result.deals[-1]))
    return redirect(table.base)


def _offer_again(
    request: HtmxHttpRequest, table: Table, saved: int | None, number: int
) -> HttpResponse:
    """A deal form sent again with other content: say that it was not saved, and show what
    was typed as the next deal, under a fresh idempotency key, to check and save."""
    messages.error(
        request,
        f"This form was already used to save deal {saved}. What you sent this time is "
        f"different, so it was not saved: it is below, to save as deal {number}.",
    )
    data = apply_taps(request.POST)
    data["number"], data["form_key"] = str(number), new_link_token()
    form = _deal_form(table.game, data, number=number)
    if form.is_valid():
        assert form.entry is not None
        form.check([*deal_entries(table.game), form.entry])
    return _render_trick(request, table, form, attempted=True)


def _stale_deal_message(number: int, entered: int) -> str:
    if entered >= number:
        return f"Deal {number} was just entered on another phone. Here is the table as it is now."
    return "The session changed on another phone. Here is the table as it is now."


def _adding_page(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The adding-game table: every tap is stored at once, with its effect shown."""
    game = table.game
    if request.method == "GET":
        return _render_adding(request, table)
    state = request.POST.get("state", "")
    who = _who(request, table)
    try:
        if "undo_tap" in request.POST:
            undo_event(session=game, state=state, **who)
            messages.success(request, "Last tap undone. It is kept in the history.")
        elif "tap" in request.POST:
            event = _tapped_event(game, request.POST["tap"])
            try:
                result = record_event(session=game, state=state, event=event, **who)
            except KeyReused as reused:
                messages.error(request, _tap_again_message(game, reused.change, event))
            else:
                messages.success(request, last_tap_message(result))
        else:
            adjust_form = AdjustForm(request.POST, players=player_names(game))
            if not adjust_form.is_valid():
                return _render_adding(request, table, adjust_form)
            event = adding.Event(
                player=player_names(game)[int(adjust_form.cleaned_data["player"])],
                event="adjust",
                tokens=adjust_form.cleaned_data["tokens"],
            )
            result = record_event(session=game, state=state, event=event, **who)
            messages.success(request, last_tap_message(result))
    except AlreadyDone as done:
        messages.info(request, str(done))
    except (Conflict, Rejected) as error:
        messages.error(request, str(error))
    if request.htmx:
        # Show the table as it is now in place: tokens, buttons and the message, no reload.
        fresh = with_entries(GameSession.objects.all()).get(pk=game.pk)
        return _render_adding(request, Table(**{**table.__dict__, "game": fresh}))
    return redirect(table.base)


def _render_adding(
    request: HtmxHttpRequest, table: Table, adjust_form: AdjustForm | None = None
) -> HttpResponse:
    game = table.game
    rounds = round_entries(game)
    result = adding.score_session(adding_rules(game), rounds)
    ctx = {
        "state": table_state(rounds),
        "form_key": new_link_token(),
        "adjust_form": adjust_form or AdjustForm(players=player_names(game)),
        **_live_context(table),
        **adding_context(result, rounds),
    }
    template = "scorekeeper/session_adding.html"
    if request.htmx and request.htmx.target == "table":
        template += "#table"
    return render(request, template, ctx)


def _tap_again_message(game: GameSession, change: Change, event: adding.Event) -> str:
    rules = adding_rules(game)
    stored = change.after if isinstance(change.after, dict) else {}
    earlier = adding.Event(
        player=str(stored.get("player")),
        event=str(stored.get("event")),
        target=stored.get("target"),
        tokens=stored.get("tokens"),
    )
    return (
        f"That page's tap was already recorded ({earlier.player}: {event_label(rules, earlier)}). "
        f"{event.player}: {event_label(rules, event)} was not recorded: tap it again to record it."
    )


def _tapped_event(game: GameSession, value: str) -> adding.Event:
    """Read an event button's value, "seat:event:target", e.g. "1:hit:33"."""
    try:
        index, kind, target = value.split(":")
        player = player_names(game)[int(index)]
    except (ValueError, IndexError):
        raise Rejected(["That button is not one of this table's."]) from None
    return adding.Event(player=player, event=kind, target=int(target) if target else None)


# Every deal or round, a page at a time


def _grid_page(request: HttpRequest, table: Table, unit: str) -> HttpResponse:
    game = table.game
    ctx: dict[str, object] = {"table": table, "game": game, "base": table.base, "unit": unit}
    if game.family == Family.ADDING and unit == "round":
        result = compute_adding(game)
        page = grid_page(result.rounds, request.GET.get("page"))
        ctx |= {
            "result": result,
            "round_rows": round_rows(result.rules, list(page.object_list)),
            "grid_template": "scorekeeper/round_grid.html",
        }
    elif game.family == Family.TRICK and unit == "deal":
        trick_result = compute(game)
        page = grid_page(trick_result.deals, request.GET.get("page"))
        ctx |= {
            "result": trick_result,
            "rows": deal_rows(list(page.object_list)),
            "columns": hand_columns(trick_result),
            "grid_template": "scorekeeper/deal_grid.html",
        }
    else:
        raise Http404("No such grid")
    ctx |= {"page": page, "row_count": page.paginator.count}
    return render(request, "scorekeeper/grid_page.html", ctx)


# Corrections


def _deal_edit_page(request: HtmxHttpRequest, table: Table, number: int) -> HttpResponse:
    game = table.game
    deals = list(game.deals.all())
    if game.family != Family.TRICK or not 1 <= number <= len(deals):
        raise Http404("No such deal")
    entries = deal_entries(game)
    if request.method == "GET":
        initial = {
            "revision": deals[number - 1].revision,
            **entry_initial(trick_rules(game), entries[number - 1]),
        }
        form = _deal_form(game, None, number=number, initial=initial)
        return _render_edit(request, table, form, number)
    data = apply_taps(request.POST)
    data["number"] = str(number)  # the deal being corrected is the one in the URL
    form = _deal_form(game, data, number=number)
    if not form.is_valid():
        return _render_edit(request, table, form, number, attempted="save" in request.POST)
    assert form.entry is not None
    changed = [*entries[: number - 1], form.entry, *entries[number:]]
    ok = form.check(changed)
    if "save" not in request.POST or not ok:
        return _render_edit(request, table, form, number, attempted="save" in request.POST)
    here = table.url(f"deals/{number}/")
    try:
        before, after = edit_deal(
            session=game,
            number=number,
            revision=form.cleaned_data["revision"] or 0,
            entry=form.entry,
            by_user=table.by_user,
            by_name=table.by_name,
            form_key=_form_key(request),
        )
    except AlreadyDone as done:
        messages.info(request, str(done))
        return redirect(table.base)
    except Conflict as error:
        messages.error(request, f"{error} Here it is as it is now; make your correction again.")
        return redirect(here)
    except Rejected as error:
        messages.error(request, str(error))
        return redirect(here)
    for line in describe_changes(before, after, number):
        messages.success(request, line)
    return redirect(table.base)


def _render_edit(
    request: HtmxHttpRequest, table: Table, form: DealForm, number: int, attempted: bool = False
) -> HttpResponse:
    deal = compute(table.game).deals[number - 1]
    ctx = {
        "table": table,
        "game": table.game,
        "base": table.base,
        "form": form,
        "number": number,
        "attempted": attempted,
        "deal": deal,
        "trump_label": trump_label(deal.trump),
        "dealer": deal.dealer,
        "leader": deal.leader,
        "action": table.url(f"deals/{number}/"),
        "save_label": f"Save the correction of deal {number}",
    }
    if request.htmx and request.htmx.target == "entry-status":
        return render(request, "scorekeeper/deal_form.html#entry-status", ctx)
    return render(request, "scorekeeper/deal_edit.html", ctx)


def _round_edit_page(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    game = table.game
    stored = list(game.rounds.all())
    if game.family != Family.ADDING or not 1 <= number <= len(stored):
        raise Http404("No such round")
    rules = adding_rules(game)
    events = round_entries(game)[number - 1].events
    form = RoundEventForm(rules=rules)
    if request.method == "POST":
        revision = _int(request.POST.get("revision", ""))
        changed: tuple[adding.Event, ...] | None = None
        if "remove" in request.POST:
            position = _int(request.POST["remove"])
            changed = tuple(e for i, e in enumerate(events) if i != position)
        else:
            form = RoundEventForm(request.POST, rules=rules)
            if form.is_valid():
                changed = (*events, form.entered_event())
        if changed is not None:
            try:
                before, after = edit_round(
                    session=game,
                    number=number,
                    revision=revision,
                    events=changed,
                    by_user=table.by_user,
                    by_name=table.by_name,
                    form_key=_form_key(request),
                )
            except AlreadyDone as done:
                messages.info(request, str(done))
            except (Conflict, Rejected) as error:
                messages.error(request, str(error))
            else:
                for line in describe_round_changes(before, after, number):
                    messages.success(request, line)
            return redirect(table.url(f"rounds/{number}/"))
    result = adding.score_session(rules, round_entries(game))
    ctx = {
        "table": table,
        "game": game,
        "base": table.base,
        "number": number,
        "revision": stored[number - 1].revision,
        "form_key": new_link_token(),
        "played": result.rounds[number - 1],
        "labels": [
            f"{effect.event.player}: {event_label(rules, effect.event)}"
            for effect in result.rounds[number - 1].events
        ],
        "form": form,
    }
    return render(request, "scorekeeper/round_edit.html", ctx)


# Live updates


def _etag(version: int) -> str:
    return f'"v{version}"'


def _live(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The live region: standings, grid and next-deal banner, as one fragment."""
    game = table.game
    if game.family == Family.ADDING:
        rounds = round_entries(game)
        ctx = adding_context(adding.score_session(adding_rules(game), rounds), rounds)
    else:
        ctx = session_context(compute(game))
    since = request.GET.get("since", "")
    ctx |= {"since": since, "stale": table.can_score and since not in ("", str(game.version))}
    response = render(request, "scorekeeper/live.html", {**_live_context(table), **ctx})
    return _live_headers(response, game.version)


def _live_headers(response: HttpResponse, version: int) -> HttpResponse:
    response["ETag"] = _etag(version)
    # Phones must ask again every time; the ETag makes asking cheap.
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _not_modified(request: HttpRequest, version: int) -> HttpResponse | None:
    """304 with no body when the phone already shows this version (checked before any
    template is rendered or the session is loaded)."""
    # Weak comparison (RFC 9110): gzip turns the ETag into W/"v…" on the way out.
    asked = request.headers.get("If-None-Match", "").split(",")
    if _etag(version) in (tag.strip().removeprefix("W/") for tag in asked):
        return _live_headers(HttpResponseNotModified(), version)
    return None


# Owner views


@login_required
@require_http_methods(["GET", "POST"])
def session(request: AuthedRequest, public_id: str) -> HttpResponse:
    return _table_page(request, _owner_table(request, public_id))


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit(request: AuthedRequest, public_id: str, number: int) -> HttpResponse:
    return _deal_edit_page(request, _owner_table(request, public_id), number)


@login_required
@require_http_methods(["GET", "POST"])
def round_edit(request: AuthedRequest, public_id: str, number: int) -> HttpResponse:
    return _round_edit_page(request, _owner_table(request, public_id), number)


@login_required
@require_GET
def session_live(request: AuthedRequest, public_id: str) -> HttpResponse:
    version = (
        GameSession.objects.for_user(request.user)
        .filter(public_id=public_id)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        raise Http404("No such session")
    return _not_modified(request, version) or _live(request, _owner_table(request, public_id))


@login_required
@require_GET
def session_grid(request: AuthedRequest, public_id: str, unit: str) -> HttpResponse:
    return _grid_page(request, _owner_table(request, public_id), unit)


@login_required
@require_GET
def session_history(request: AuthedRequest, public_id: str) -> HttpResponse:
    table = _owner_table(request, public_id)
    changes = table.game.changes.select_related("by_user")
    ctx = {"game": table.game, "base": table.base, "changes": changes}
    return render(request, "scorekeeper/session_history.html", ctx)


@login_required
@require_GET
@never_cache
def session_scoresheet(request: AuthedRequest, public_id: str) -> HttpResponse:
    game = _owner_table(request, public_id).game
    response = HttpResponse(
        dumps_scoresheet(scoresheet_for(game)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="scoresheet-{game.public_id}.json"'
    return response


@login_required
@require_GET
@never_cache
def session_csv(request: AuthedRequest, public_id: str) -> HttpResponse:
    game = _owner_table(request, public_id).game
    result = compute_adding(game) if game.family == Family.ADDING else compute(game)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="session-{game.public_id}.csv"'
    csv.writer(response).writerows(spreadsheet_safe(csv_rows(result)))
    return response


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def session_share(request: AuthedRequest, public_id: str) -> HttpResponse:
    """Turn the watch and scorer links on, replace them, or turn them off."""
    table = _owner_table(request, public_id)
    game = table.game
    if request.method == "POST":
        for kind, field in [("watch", "watch_token"), ("scorer", "scorer_token")]:
            action = request.POST.get(kind)
            if action in ("on", "replace"):
                setattr(game, field, new_link_token())
            elif action == "off":
                setattr(game, field, None)
            else:
                continue
            game.save(update_fields=[field])
            messages.success(request, _share_message(kind, action))
        return redirect("session_share", public_id)
    links = {}
    for kind, token, name in [
        ("watch", game.watch_token, "watch"),
        ("scorer", game.scorer_token, "scorer"),
    ]:
        if token:
            url = request.build_absolute_uri(reverse(name, args=[token]))
            links[kind] = {"url": url, "qr": _qr_svg(url)}
    return render(
        request, "scorekeeper/session_share.html", {"game": game, "base": table.base, **links}
    )


def _share_message(kind: str, action: str) -> str:
    what = "watch link" if kind == "watch" else "scorer link"
    if action == "off":
        return f"The {what} is off: it opens nothing now."
    if action == "replace":
        return f"New {what} made; the old one opens nothing now."
    return f"The {what} is on."


def _qr_svg(url: str) -> str:
    import segno

    code = segno.make(url, error="m")
    svg: str = code.svg_inline(scale=5, dark="#000", light="#fff", omitsize=True)
    return svg


# Watch link: read-only live standings, no account


@require_GET
@never_cache
def watch(request: HtmxHttpRequest, token: str) -> HttpResponse:
    table = _watch_table(request, token)
    game = table.game
    if game.family == Family.ADDING:
        rounds = round_entries(game)
        ctx = adding_context(adding.score_session(adding_rules(game), rounds), rounds)
    else:
        ctx = session_context(compute(game))
    response = render(request, "scorekeeper/watch.html", {**_live_context(table), **ctx})
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
@never_cache
def watch_grid(request: HtmxHttpRequest, token: str, unit: str) -> HttpResponse:
    return _grid_page(request, _watch_table(request, token), unit)


@require_GET
@never_cache
def watch_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    version = _version_by(request, watch_token=token)
    return _not_modified(request, version) or _live(request, _watch_table(request, token))


# Scorer link: enter and correct without an account, under a name


def _scorer_or_name(request: HtmxHttpRequest, token: str) -> Table | HttpResponse:
    table = _scorer_table(request, token)
    if not request.session.get(SCORER_NAME_KEY, {}).get(token):
        return redirect("scorer_name", token)
    return table


@require_http_methods(["GET", "POST"])
@never_cache
def scorer(request: HtmxHttpRequest, token: str) -> HttpResponse:
    table = _scorer_or_name(request, token)
    return table if isinstance(table, HttpResponse) else _table_page(request, table)


@require_http_methods(["GET", "POST"])
@never_cache
def scorer_deal_edit(request: HtmxHttpRequest, token: str, number: int) -> HttpResponse:
    table = _scorer_or_name(request, token)
    if isinstance(table, HttpResponse):
        return table
    return _deal_edit_page(request, table, number)


@require_http_methods(["GET", "POST"])
@never_cache
def scorer_round_edit(request: HtmxHttpRequest, token: str, number: int) -> HttpResponse:
    table = _scorer_or_name(request, token)
    if isinstance(table, HttpResponse):
        return table
    return _round_edit_page(request, table, number)


@require_GET
@never_cache
def scorer_grid(request: HtmxHttpRequest, token: str, unit: str) -> HttpResponse:
    table = _scorer_or_name(request, token)
    return table if isinstance(table, HttpResponse) else _grid_page(request, table, unit)


@require_GET
@never_cache
def scorer_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    version = _version_by(request, scorer_token=token)
    return _not_modified(request, version) or _live(request, _scorer_table(request, token))


@require_http_methods(["GET", "POST"])
@never_cache
def scorer_name(request: HtmxHttpRequest, token: str) -> HttpResponse:
    table = _scorer_table(request, token)
    form = ScorerNameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        names = dict(request.session.get(SCORER_NAME_KEY, {}))
        names[token] = form.cleaned_data["name"]
        request.session[SCORER_NAME_KEY] = names
        return redirect("scorer", token)
    return render(
        request, "scorekeeper/scorer_name.html", {"game": table.game, "form": form, "token": token}
    )


@require_POST
def scorer_forget(request: HttpRequest, token: str) -> HttpResponse:
    _version_by(request, scorer_token=token)  # a link that opens nothing is a 404 here too
    names = dict(request.session.get(SCORER_NAME_KEY, {}))
    names.pop(token, None)
    request.session[SCORER_NAME_KEY] = names
    return redirect("scorer_name", token)
