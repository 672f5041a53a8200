"""Walk every URL of the app as anonymous, as another user and with revoked links.

Each URL name is listed below with who may open it; a URL added to the app without a
line here fails `test_every_url_is_walked`, so nothing new escapes the walk.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeeper.http import LINK_HEADERS
from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.night_models import Season
from scorekeeper.rules import adding, trick
from scorekeeper.services import Who, add_deal, create_adding_session, create_session, record_event
from scorekeeper.services.nights import change_night_link, create_night, start_round
from scorekeeper.services.seasons import change_season_link

PUBLIC = {  # anyone, no account
    "home", "signup", "login", "rules", "rule_sheet", "score_pad", "offline", "service_worker",
    "manifest", "healthz", "rules_document", "format_document", "language", "favicon",
}  # fmt: skip
LOGGED_IN = {"logout", "password_change", "password_change_done", "players", "sessions",
             "session_import", "session_new", "session_start", "theme",
             "sessions_deleted", "rulesets", "ruleset_new", "nights", "night_new",
             "night_start", "seasons", "ladder"}  # fmt: skip
OWNER = {"player", "session", "deal_edit", "round_edit", "session_live", "session_history",
         "session_share", "session_scoresheet", "session_csv", "session_rules",
         "session_deals", "session_rounds", "session_display",
         "session_display_live", "session_manage", "session_replace",
         "session_delete", "session_rematch", "session_deleted", "ruleset", "ruleset_edit",
         "ruleset_delete", "ruleset_sheet", "ruleset_pad", "session_start_saved",
         "night", "night_display", "night_cards", "night_sheet", "night_csv", "night_json",
         "night_start_saved", "night_manage", "night_delete", "season", "season_csv",
         "season_manage", "season_delete", "season_live"}  # fmt: skip
WATCH_LINK = {"watch", "watch_live", "watch_deals", "watch_rounds", "watch_display",
              "watch_display_live", "watch_events"}  # fmt: skip
SCORER_LINK = {"scorer", "scorer_name", "scorer_forget", "scorer_live", "scorer_deal_edit",
               "scorer_round_edit", "scorer_deals", "scorer_rounds", "scorer_events"}  # fmt: skip
NIGHT_LINK = {"night_watch", "night_watch_display", "night_table", "season_watch",
              "night_events", "season_events", "season_watch_live"}  # fmt: skip
SECRET = "Alice's Secret Table"

# The Cache-Control that every link's answer carries (`http.link_headers`).
LINK_CACHE_CONTROL = ("private", "no-cache", "must-revalidate", "max-age=0")


def _names(patterns: list[Any]) -> set[str]:
    names: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= _names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


def test_every_url_is_walked() -> None:
    assert _names(get_resolver().url_patterns) == (
        PUBLIC | LOGGED_IN | OWNER | WATCH_LINK | SCORER_LINK | NIGHT_LINK
    )


@pytest.fixture
def world(alice: User) -> dict[str, Any]:
    players = [Player.objects.create(owner=alice, name=n) for n in ["Annabel", "Bertram", "Cyd"]]
    game = create_session(
        owner=alice, ruleset="parlett-jokerless", options={}, players=players, title=SECRET
    )
    hands = {p.name: trick.HandEntry(tricks=3, made=True) for p in players}
    add_deal(session=game, number=1, entry=trick.DealEntry(hands=hands), who=Who(alice))
    pennies = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=players, title=SECRET
    )
    event = adding.Event(player="Annabel", event="bust")
    record_event(session=pennies, state="0.0", event=event, who=Who(alice))
    for session in (game, pennies):
        session.watch_token, session.scorer_token = f"w-{session.pk}", f"s-{session.pk}"
        session.save()
    saved = SavedRuleset.objects.create(
        owner=alice, name=SECRET, family="trick", ruleset="parlett-classic", options={}
    )
    night = start_round(
        night=create_night(
            owner=alice,
            name=SECRET,
            played_on=datetime.date(2026, 11, 26),
            family="trick",
            ruleset="parlett-jokerless",
            options={},
            least=3,
            most=3,
            deals=2,
            rounds=2,
            method="placement",
            players=players,
        )
    )
    season = Season.objects.create(
        owner=alice,
        name=SECRET,
        family="trick",
        starts=datetime.date(2026, 11, 1),
        ends=datetime.date(2026, 11, 30),
    )
    return {
        "game": game,
        "pennies": pennies,
        "player": players[0],
        "saved": saved,
        "night": night,
        "season": season,
    }


def _urls(world: dict[str, Any], names: set[str]) -> list[str]:
    game, pennies = world["game"], world["pennies"]
    args: dict[str, list[list[Any]]] = {
        "player": [[world["player"].pk]],
        "deal_edit": [[game.public_id, 1]],
        "round_edit": [[pennies.public_id, 1]],
        "session_replace": [[game.public_id, 1], [pennies.public_id, 1]],
        "scorer_deal_edit": [[game.scorer_token, 1]],
        "scorer_round_edit": [[pennies.scorer_token, 1]],
        "session_start": [["trick", "four"], ["adding", "thirty-three"]],
        "rule_sheet": [["trick", "four"]],
        "score_pad": [["adding", "thirty-three"]],
        "ruleset_new": [["trick", "parlett-classic"]],
        **{
            name: [[world["saved"].pk]]
            for name in ("ruleset", "ruleset_edit", "ruleset_delete", "ruleset_sheet")
        },
        "ruleset_pad": [[world["saved"].pk]],
        "session_start_saved": [[world["saved"].pk]],
        "night_start_saved": [[world["saved"].pk]],
        "night_start": [["trick", "four"], ["adding", "thirty-three"]],
        **{
            name: [[world["night"].public_id]]
            for name in (
                "night",
                "night_display",
                "night_cards",
                "night_sheet",
                "night_csv",
                "night_manage",
                "night_delete",
            )
        },
        "night_json": [[world["night"].public_id]],
        "night_watch": [[world["night"].watch_token]],
        "night_watch_display": [[world["night"].watch_token]],
        "night_events": [[world["night"].watch_token]],
        "season_events": [[world["season"].watch_token]],
        "season_watch_live": [[world["season"].watch_token]],
        "night_table": [[world["night"].tables.get().scorer_token]],
        **{
            name: [[world["season"].public_id]]
            for name in ("season", "season_csv", "season_manage", "season_delete", "season_live")
        },
        "season_watch": [[world["season"].watch_token]],
    }
    urls = []
    for name in sorted(names):
        if name in args:
            urls += [reverse(name, args=a) for a in args[name]]
        elif name in OWNER:
            urls += [reverse(name, args=[s.public_id]) for s in (game, pennies)]
        elif name in WATCH_LINK:
            urls += [reverse(name, args=[s.watch_token]) for s in (game, pennies)]
        elif name in SCORER_LINK:
            urls += [reverse(name, args=[s.scorer_token]) for s in (game, pennies)]
        else:
            urls.append(reverse(name))
    return urls


def _leaks(text: str) -> bool:
    return SECRET in text or "Annabel" in text or "Bertram" in text


@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_visitors_are_sent_to_log_in(
    client: Client, world: dict[str, Any], method: str
) -> None:
    for url in _urls(world, LOGGED_IN | OWNER):
        response = getattr(client, method)(url)
        if url == reverse("logout") or url == reverse("theme"):
            assert response.status_code in (302, 405), url  # logging out or a colour is harmless
            continue
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url


def test_another_user_gets_404_and_never_sees_the_data(
    bob_client: Client, world: dict[str, Any]
) -> None:
    for url in _urls(world, OWNER):
        for method in ("get", "post"):
            response = getattr(bob_client, method)(url, {"name": "x", "watch": "on"})
            assert response.status_code in (404, 405), (method, url, response.status_code)
            assert not _leaks(response.content.decode()), url
    for url in _urls(world, LOGGED_IN - {"logout"}):
        assert not _leaks(bob_client.get(url).content.decode()), url
    world["game"].refresh_from_db()
    assert world["game"].watch_token == f"w-{world['game'].pk}"


def test_revoked_links_open_nothing(client: Client, world: dict[str, Any]) -> None:
    live = _urls(world, WATCH_LINK | SCORER_LINK)
    GameSession.objects.update(watch_token=None, scorer_token=None)
    for url in live:
        for method in ("get", "post"):
            response = getattr(client, method)(url, {"name": "Mallory"})
            assert response.status_code in (404, 405, 429), (method, url, response.status_code)
            assert not _leaks(response.content.decode()), url


def test_a_night_s_links_open_only_by_their_token(client: Client, world: dict[str, Any]) -> None:
    for url in _urls(world, NIGHT_LINK):
        assert client.get(url).status_code in (200, 204, 302), url  # a stream: 204 under WSGI
        wrong = url.replace(url.split("/")[2], "no-such-token")
        response = client.get(wrong)
        assert response.status_code in (404, 429), wrong
        assert not _leaks(response.content.decode()), wrong


def test_a_night_s_links_turned_off_open_nothing(client: Client, world: dict[str, Any]) -> None:
    urls = _urls(world, NIGHT_LINK)
    night, season = world["night"], world["season"]
    change_night_link(night=night, action="off")
    change_night_link(night=night, action="off", table=night.tables.get())
    change_season_link(season=season, action="off")
    for url in urls:
        response = client.get(url)
        assert response.status_code in (404, 429), url
        assert not _leaks(response.content.decode()), url


def _promised() -> dict[str, list[str]]:
    """SECURITY.md's table of what every link's page sends: each header's values, as written
    between backticks in its row."""
    text = (Path(settings.BASE_DIR) / "SECURITY.md").read_text()
    section = text.split("\n## Links\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = re.fullmatch(r"\| `([A-Za-z-]+)` \| (.*) \|", line)
        if found:
            rows[found[1]] = re.findall(r"`([^`]+)`", found[2])
    return rows


def test_security_md_promises_what_the_code_sends() -> None:
    promised = _promised()
    assert {name: values[0] for name, values in promised.items() if name in LINK_HEADERS} == (
        LINK_HEADERS
    )
    cache = promised["Cache-Control"]
    assert cache[: len(LINK_CACHE_CONTROL)] == list(LINK_CACHE_CONTROL)
    assert cache[len(LINK_CACHE_CONTROL)] == "no-store"
    assert set(promised) == {*LINK_HEADERS, "Cache-Control"}


def _check_link_headers(response: Any, url: str, kept_offline: bool) -> None:
    promised = _promised()
    for name in LINK_HEADERS:
        assert response[name] == promised[name][0], (url, name)
    control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert set(LINK_CACHE_CONTROL) <= control, url
    assert ("no-store" in control) is not kept_offline, url
    assert "public" not in control, url


def test_every_link_page_sends_what_security_md_promises(
    client: Client, world: dict[str, Any]
) -> None:
    game, pennies = world["game"], world["pennies"]
    kept = {f"/w/{s.watch_token}/" for s in (game, pennies)}
    kept |= {f"/s/{s.scorer_token}/" for s in (game, pennies)}
    client.post(f"/s/{game.scorer_token}/name/", {"name": "Sam"})
    client.post(f"/s/{pennies.scorer_token}/name/", {"name": "Sam"})
    urls = _urls(world, WATCH_LINK | SCORER_LINK | NIGHT_LINK)
    opened = 0
    for url in urls:
        response = client.post(url) if url.endswith("/forget/") else client.get(url)
        opened += response.status_code < 400  # a trick game's /rounds/ page is a 404
        _check_link_headers(response, url, url in kept)
        if response.has_header("ETag"):  # a live region's poll, unchanged: 304, the same headers
            again = client.get(
                url, headers={"HX-Request": "true", "If-None-Match": response["ETag"]}
            )
            assert again.status_code == 304, url
            _check_link_headers(again, url, url in kept)
    assert opened >= len(urls) - 4
    for url in urls:  # a link that opens nothing
        wrong = url.replace(url.split("/")[2], "no-such-token")
        response = client.get(wrong)
        assert response.status_code in (404, 405, 429), wrong
        if response.status_code != 405:
            _check_link_headers(response, wrong, kept_offline=False)


def test_public_pages_open_for_anyone(client: Client, world: dict[str, Any]) -> None:
    for url in _urls(world, PUBLIC):
        response = client.get(url)
        assert response.status_code == (302 if url == "/favicon.ico" else 200), url
        assert not _leaks(response.content.decode()), url


def test_every_post_needs_the_csrf_token(alice: User, world: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    names = LOGGED_IN | OWNER | {"scorer", "scorer_name", "scorer_forget"}
    for url in _urls(world, names):
        # The colour switch posts with no token (it is on pages kept for every phone, which
        # hold none): what it needs instead is a post from this site, not another's.
        cross_site = {"origin": "https://evil.example"} if url == reverse("theme") else {}
        response = client.post(url, {"name": "x", "undo": "1"}, headers=cross_site)
        assert response.status_code in (403, 405), (url, response.status_code)
    assert Player.objects.count() == 3
    assert world["game"].deals.count() == 1


def test_another_owners_session_costs_what_a_missing_one_does(
    bob_client: Client, game: GameSession
) -> None:
    """Nothing in the answer to another owner's session, its time included, confirms that it
    exists: it is read as far as a session that does not exist, and no further."""
    counted = []
    for public_id in (game.public_id, "no-such-session"):
        with CaptureQueriesContext(connection) as queries:
            response = bob_client.get(reverse("session", args=[public_id]))
        assert response.status_code == 404
        counted.append([query["sql"].split(" FROM ")[-1][:40] for query in queries])
    assert counted[0] == counted[1]
