"""Fuzz the forms that came after tests/views/test_fuzz.py: saved rulesets, Manage session, the
count assistant's taps, the language switch and the theme.

Each field gets the values at the bounds of RULES.md §3 (scorekeeper.rules.bounds) and just
past them, huge and negative integers, control characters, NUL bytes, very long strings, other
types than the field takes, and missing fields. Whatever comes back must be below 500 and take
less than the page budget, and a refused request (anything but a redirect) must have stored
nothing. Unlike test_fuzz.py's row counts, "nothing" here is the stored content as well (names,
titles, options, seats, the count), because these forms change rows rather than add them.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from scorekeeper.models import (
    AccountLanguage,
    Change,
    Deal,
    FormerSeat,
    GameSession,
    Hand,
    Player,
    Round,
    RoundEvent,
    SavedRuleset,
    Seat,
)
from scorekeeper.rules import adding, bounds
from scorekeeper.services import create_adding_session, create_session, save_ruleset

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))  # FUZZ_EXAMPLES=300 for a deeper run
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
BUDGET = 2  # seconds of CPU a page may take: a guard against a request that hangs the worker


def _around(*limits: int) -> list[str]:
    return sorted({str(n) for limit in limits for n in (limit - 1, limit, limit + 1)}, key=len)


# Every number of bounds.py at, just under and just past its bound, then what no form expects.
NUMBERS = _around(
    0, 1, bounds.MIN_PLAYERS, bounds.MAX_PLAYERS, bounds.MAX_TOKENS, bounds.MAX_BONUS,
    bounds.MAX_MATCH_DEALS, bounds.MAX_TARGET, bounds.MAX_GAMES, bounds.MAX_ADJUST,
    -bounds.MAX_ADJUST, bounds.MAX_DEALS, bounds.MAX_EVENTS,
) + [str(2**31), str(2**63), str(2**63 - 1), str(2**70), "-" + str(2**70), str(10**400),
     "1e3", "1.5", "-0", "٣", "0x10", " 7 ", "NaN", "inf"]  # fmt: skip
TEXTS = [
    "", " ", "Ann", "ANN", "ａｎｎ", "éva", "Éva",
    "a" * bounds.MAX_NAME_LENGTH, "a" * (bounds.MAX_NAME_LENGTH + 1),
    "t" * bounds.MAX_TITLE_LENGTH, "t" * (bounds.MAX_TITLE_LENGTH + 1), "x" * 100_000,
    "a\x00b", "\x00", "Ann\t", "Ann\n", "\u202eAnn", "Ann\u2028", "\ud7ff", "=1+1", "<b>x</b>",
]  # fmt: skip
values = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(TEXTS),
    st.text(max_size=12),
    st.text(st.characters(categories=("Cc", "Cf", "Zl", "Zp", "Co")), min_size=1, max_size=4),
    # another type than the field takes: the same field sent several times
    st.lists(st.sampled_from(["1", "2", "", "x"]), min_size=2, max_size=3),
)


def form(fields: list[str], base: dict[str, str]) -> st.SearchStrategy[dict[str, Any]]:
    """The base (a valid form) with some fields changed, some dropped, some invented."""
    changed = st.dictionaries(st.sampled_from(fields) | st.text(max_size=6), values, max_size=4)
    dropped = st.lists(st.sampled_from(fields), max_size=3)
    return st.builds(
        lambda change, drop: {k: v for k, v in base.items() if k not in drop} | change,
        changed,
        dropped,
    )


def stored() -> tuple[object, ...]:
    """What the forms may change: every table's rows and the content of those they edit."""
    counts = tuple(
        model.objects.count()
        for model in (Deal, Hand, Round, RoundEvent, Change, FormerSeat, AccountLanguage)
    )
    content = (
        list(Player.objects.order_by("pk").values_list("pk", "name", "name_key", "archived")),
        list(SavedRuleset.objects.order_by("pk").values_list("pk", "name", "family", "options")),
        list(
            GameSession.objects.order_by("pk").values_list(
                "pk", "title", "options", "version", "counter", "abandoned", "deleted"
            )
        ),
        list(Seat.objects.order_by("pk").values_list("pk", "session", "position", "player")),
    )
    return counts, content


def _section(url: str) -> str:
    first = url.strip("/").split("/")[0]
    return first if first in {"sessions", "rulesets", "rules", "language", "theme"} else "other"


def timed(client: Client, method: str, url: str, data: Any = None, **extra: Any) -> HttpResponse:
    started = time.process_time()
    response = getattr(client, method)(url, data, **extra)
    assert time.process_time() - started < BUDGET, (method, url, data)
    assert response.status_code < 500, (method, url, data, response.status_code)
    if currently_in_test_context():
        event(f"{method} {_section(url)}: {response.status_code}")
    return response


def post(client: Client, url: str, data: dict[str, Any], **extra: Any) -> HttpResponse:
    """Send the form; a refusal stores nothing, and the page it leads to still answers."""
    before = stored()
    response = timed(client, "post", url, data, **extra)
    if response.status_code != 302:
        assert stored() == before, (url, data)
    else:
        timed(client, "get", response["Location"].split("#")[0])
    return response


@pytest.fixture
def roster_names() -> list[str]:
    """Five players: enough for every seat count a start form offers here."""
    return ["Ann", "Ben", "Cat", "Dan", "Eve"]


# Saved rulesets: create, change or rename, delete

RULESET_FIELDS = {
    ("trick", "custom"): ["name", "match_type", "match_number", "trump", "first_trump", "bonus",
                          "premiums", "trick_points", "zero_all_tricks"],
    ("trick", "two-dummy"): ["name", "match_type", "match_number", "bonus",
                             "dummy_exact_declarer"],
    ("adding", "custom"): ["name", "tokens", "out", "on_69", "display", "bust", "card_table"],
    ("adding", "wilson"): ["name", "on_69", "card_table"],
}  # fmt: skip
RULESET_BASE = {"name": "Friday", "match_type": "target", "match_number": "100", "tokens": "3"}


@FUZZ
@given(
    preset=st.sampled_from(sorted(RULESET_FIELDS)),
    data=st.data(),
)
def test_saved_ruleset_forms(
    alice_client: Client, alice: User, preset: tuple[str, str], data: st.DataObject
) -> None:
    family, preset_id = preset
    fields = RULESET_FIELDS[preset]
    sent = data.draw(form(fields, RULESET_BASE))
    post(alice_client, f"/rulesets/new/{family}/{preset_id}/", sent)
    saved = SavedRuleset.objects.filter(owner=alice).first() or save_ruleset(
        owner=alice, name="Sunday", family=family, ruleset=preset_id, options={}
    )
    post(alice_client, f"/rulesets/{saved.pk}/change/", data.draw(form(fields, RULESET_BASE)))
    timed(alice_client, "get", f"/rulesets/{saved.pk}/")
    timed(alice_client, "get", f"/rules/saved/{saved.pk}/pad/")
    post(alice_client, f"/rulesets/{saved.pk}/delete/", data.draw(form(["delete"], {})))


@FUZZ
@given(ruleset_id=st.sampled_from(NUMBERS[:8] + [str(2**63), str(2**70), str(10**400)]))
def test_ruleset_pages_at_any_number(alice_client: Client, ruleset_id: str) -> None:
    for url in ("/rulesets/{}/", "/rulesets/{}/change/", "/rulesets/{}/delete/",
                "/rules/saved/{}/", "/sessions/new/saved/{}/"):  # fmt: skip
        timed(alice_client, "get", url.format(ruleset_id))
        post(alice_client, url.format(ruleset_id), {"name": "Friday", "delete": ""})


# Manage session: rename, fix a name, reseat, abandon and resume, replace, delete and restore


@pytest.fixture
def sessions(alice: User, roster: list[Player]) -> dict[str, GameSession]:
    return {
        "trick": create_session(
            owner=alice, ruleset="parlett-jokerless", options={}, players=roster[:3]
        ),
        "adding": create_adding_session(
            owner=alice, ruleset="thirty-three", options={}, players=roster[:3]
        ),
    }


def _seat_fields(seats: int) -> list[str]:
    return [f"seat_{i}" for i in range(seats)] + [f"seat{i}-name" for i in range(1, seats + 1)]


MANAGE_ACTIONS = ["rename", "fix_name", "reseat", "abandon", "resume"]
MANAGE_FIELDS = [*MANAGE_ACTIONS, "title", "form_key", *_seat_fields(3), "seat_3", "seat4-name"]


@FUZZ
@given(
    kind=st.sampled_from(["trick", "adding"]),
    action=st.sampled_from(MANAGE_ACTIONS),
    data=st.data(),
)
def test_the_manage_page(
    alice_client: Client,
    roster: list[Player],
    sessions: dict[str, GameSession],
    kind: str,
    action: str,
    data: st.DataObject,
) -> None:
    session = sessions[kind]
    seated = [str(player.pk) for player in roster[:3]]
    base = {action: "2" if action == "fix_name" else "", "title": "Friday", "seat2-name": "Bea",
            "seat_0": seated[2], "seat_1": seated[0], "seat_2": seated[1],
            "form_key": "k1"}  # fmt: skip
    post(
        alice_client, f"/sessions/{session.public_id}/manage/", data.draw(form(MANAGE_FIELDS, base))
    )
    timed(alice_client, "get", f"/sessions/{session.public_id}/")


@FUZZ
@given(
    seat=st.sampled_from(["1", "2", "3", "4", "0", str(bounds.MAX_PLAYERS + 1), str(2**63)]),
    data=st.data(),
)
def test_replacing_a_player(
    alice_client: Client,
    roster: list[Player],
    sessions: dict[str, GameSession],
    seat: str,
    data: st.DataObject,
) -> None:
    session = sessions["trick"]
    base = {"player": str(roster[3].pk), "played": "0", "confirm": "", "form_key": "k2"}
    fields = ["player", "new_name", "played", "confirm", "edit", "form_key"]
    url = f"/sessions/{session.public_id}/manage/seats/{seat}/"
    post(alice_client, url, data.draw(form(fields, base)))
    post(alice_client, url, data.draw(form(fields, {"new_name": "Fay", "confirm": ""})))
    timed(alice_client, "get", f"/sessions/{session.public_id}/manage/")


@FUZZ
@given(data=st.data())
def test_deleting_and_restoring(
    alice_client: Client, sessions: dict[str, GameSession], data: st.DataObject
) -> None:
    public_id = sessions["adding"].public_id
    fields = ["delete", "restore", "delete_for_good", "form_key"]
    post(alice_client, f"/sessions/{public_id}/manage/delete/", data.draw(form(fields, {})))
    post(alice_client, f"/sessions/deleted/{public_id}/", data.draw(form(fields, {})))
    timed(alice_client, "get", "/sessions/deleted/", {"page": data.draw(values)})


# The count assistant's taps

CARDS = sorted({card.rank for table in adding.CARD_TABLES.values() for card in table.cards})
CHOICES = ["1", "11", "-10", "10", "0", "−10", "Ann", "Ben", "Zed", *NUMBERS]
cards = st.one_of(
    st.sampled_from(CARDS),
    st.builds("{}|{}".format, st.sampled_from(CARDS), st.sampled_from(CHOICES) | values),
    values,
)
# A tap: mostly cards, so that proposals come up for the other buttons to record or dismiss.
taps = st.one_of(
    st.tuples(st.just("card"), cards),
    st.tuples(st.sampled_from(["confirm", "dismiss"]), st.sampled_from(["0", "1"]) | values),
    st.tuples(st.sampled_from(["count_undo", "counter"]), st.sampled_from(["show", ""]) | values),
)


def _panel(client: Client, base: str) -> dict[str, str]:
    """The counter form's hidden fields as the table page shows them now (within budget)."""
    page = timed(client, "get", base).text
    panel = page[page.find('id="counter"') :] if 'id="counter"' in page else ""
    found = {}
    for name in ("version", "state", "form_key"):
        match = re.search(rf'name="{name}" value="([^"]*)"', panel)
        if match:
            found[name] = match.group(1)
    return found


@settings(FUZZ, max_examples=max(1, EXAMPLES // 3))  # each example taps up to 15 times
@given(
    kind=st.sampled_from(["thirty-three", "thirty-three", "ninety-nine", "one-hundred", "wilson"]),
    tapped=st.lists(
        st.tuples(
            taps,
            st.sampled_from([False, False, False, True]),  # sent from a page gone stale
            st.none() | values,
        ),
        min_size=1,
        max_size=8,
    ),
    htmx=st.booleans(),
    # Cards played first, so that the taps find proposals to record or dismiss (in
    # thirty-three: a hit of 33; then a cross of 66 and a bust).
    lead=st.sampled_from(
        [(), ("K", "K", "K", "3"), ("K", "K", "K", "3"), ("K", "K", "K", "K", "K", "3", "2")]
    ),
)
def test_the_count_assistant(
    alice_client: Client,
    alice: User,
    roster: list[Player],
    kind: str,
    tapped: list[tuple[tuple[str, Any], bool, Any]],
    htmx: bool,
    lead: tuple[str, ...],
) -> None:
    session = create_adding_session(owner=alice, ruleset=kind, options={}, players=roster[:3])
    base = f"/sessions/{session.public_id}/"
    assert alice_client.post(base, {"counter": "show"}).status_code == 302
    for card in lead:
        alice_client.post(base, {**_panel(alice_client, base), "card": card})
    extra = {"headers": {"HX-Request": "true", "HX-Target": "table"}} if htmx else {}
    for (field, value), stale, version in tapped:
        sent: dict[str, Any] = {**_panel(alice_client, base), field: value}
        if stale:
            sent["version"] = version if version is not None else "0"
        before_version = GameSession.objects.get(pk=session.pk).version
        before = stored()
        response = timed(alice_client, "post", base, sent, **extra)
        after = GameSession.objects.get(pk=session.pk)
        event(f"{field}: {'stored' if after.version != before_version else 'nothing stored'}")
        if after.version == before_version:
            # Refused, asked for the card's choice, or only shown or hidden: nothing stored.
            assert stored() == before, sent
        if response.status_code == 302:
            timed(alice_client, "get", response["Location"].split("#")[0])
    timed(alice_client, "get", f"{base}rounds/")


# The language switch and the theme

LANGUAGES = ["en", "fr", "EN", "fr-fr", "de", "", "en\x00", "x" * 10_000]
NEXTS = ["/", "/sessions/", "//evil.example/", "https://evil.example/", "/a\nb", "/a\x00b",
         "/\x7f", "javascript:alert(1)", "/" + "x" * 10_000, "\\\\evil"]  # fmt: skip


@FUZZ
@given(
    language=st.sampled_from(LANGUAGES) | values,
    theme=st.sampled_from(["auto", "light", "dark", "DARK", "", "\x00"]) | values,
    after=st.sampled_from(NEXTS) | values,
    logged_in=st.booleans(),
    missing=st.sets(st.sampled_from(["language", "theme", "next"])),
)
def test_the_language_and_theme_switches(
    client: Client,
    alice: User,
    language: Any,
    theme: Any,
    after: Any,
    logged_in: bool,
    missing: set[str],
) -> None:
    if logged_in:
        client.force_login(alice)
    data = {
        k: v
        for k, v in {"language": language, "theme": theme, "next": after}.items()
        if k not in missing
    }
    for url in ("/language/", "/theme/"):
        response = post(client, url, data)
        location = response.get("Location", "")
        assert not location.startswith(("//", "http", "javascript", "\\")), location
    chosen = AccountLanguage.objects.values_list("language", flat=True)
    assert set(chosen) <= {"en", "fr"}
    timed(client, "get", "/language/", {"next": after})
