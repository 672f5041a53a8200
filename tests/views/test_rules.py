"""Rule sheets, score pads, the session's own sheet, the service worker and the offline page."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from scorekeeper.models import GameSession, Player
from scorekeeper.rules import adding, trick
from scorekeeper.services import create_adding_session
from tests.factories import trick_session, with_links
from tests.french import needs_french

TRICK = [("trick", preset_id) for preset_id in trick.PRESETS]
ADDING = [("adding", preset_id) for preset_id in adding.PRESETS]
EVERY_PRESET = TRICK + ADDING


def _rows(html: str) -> int:
    """The rows of a score pad's grid (its numbered rows)."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return len(re.findall(r'<tr><th scope="row">\d+</th>', body))


@pytest.fixture
def roster_names() -> list[str]:
    """Four players: the session seats three, a rule sheet's seat order names all four."""
    return ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def game(alice: User, roster: list[Player]) -> GameSession:
    """Three of the four, on house rules: no first trump, 18 deals."""
    options: dict[str, object] = {"first_trump": "none", "match": {"type": "deals", "deals": 18}}
    return trick_session(alice, roster[:3], options=options, title="Friday")


# The list


def test_it_lists_every_preset_of_both_families(client: Client, db: None) -> None:
    response = client.get("/rules/")
    assert response.status_code == 200
    for family, presets in (("trick", trick.PRESETS), ("adding", adding.PRESETS)):
        for preset in presets.values():
            assert escape(preset.name) in response.text
            assert escape(preset.description) in response.text
            assert f'href="/rules/{family}/{preset.id}/"' in response.text
            assert f'href="/rules/{family}/{preset.id}/pad/"' in response.text


def test_the_menu_links_the_rules_and_registers_the_service_worker(
    client: Client, db: None
) -> None:
    page = client.get("/rules/").text
    assert '<a href="/rules/" aria-current="page">Rules</a>' in page
    assert 'src="/static/js/sw-register.js" data-sw="/sw.js" defer' in page


# Every sheet and pad, for anyone


@pytest.mark.parametrize(("family", "preset_id"), EVERY_PRESET)
def test_every_sheet_renders_for_anyone(
    client: Client, db: None, family: str, preset_id: str
) -> None:
    response = client.get(f"/rules/{family}/{preset_id}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.text
    if family == "trick":
        rules = trick.resolve_rules(preset_id, {}, ["A", "B", "C", "D", "E"][: _count(preset_id)])
        preset: trick.Preset | adding.AddingPreset = rules.preset
        assert escape(rules.match.describe()) in page
        # The bid-card codes, lowest first (♦0 ♠1 ♥2 ♣3), and examples (RULES.md §1.1).
        table = page.split('class="table table-sm sheet-table bid-table"', 1)[1].split("</table>")[
            0
        ]
        assert re.findall(r'visually-hidden">(\w+)</span>', table) == [
            "Diamonds",
            "Spades",
            "Hearts",
            "Clubs",
        ]
        assert "<td>0</td><td>1</td><td>2</td><td>3</td>" in table
        assert "♣♦♦ = 3" in page and "♥♠♦ = 3" in page and "♠♠♠ = 3" in page
        assert f"Bids go from 0 to {rules.bid_max}." in page
        for kind in rules.premiums:
            assert f"<td>{trick.PREMIUM_POINTS[kind]}</td>" in page
    else:
        added = adding.resolve_rules(preset_id, {}, ["A", "B", "C", "D"])
        preset = added.preset
        table = adding.CARD_TABLES[added.card_table]
        assert escape(table.name) in page
        for rank, effect in table.cells:
            assert f'<th scope="row">{escape(rank)}</th><td>{escape(effect)}</td>' in page
        for rule in adding.events_for(added):
            assert escape(adding.describe_event(added, rule)) in page
        assert f"the total over {added.limit}, you bust." in page or added.scoring == "wilson"
    assert escape(preset.name) in page
    assert escape(preset.description) in page
    # Which cards to play with (RULES.md §1.6, §2.5): every sheet says so.
    assert "<li>Cards: " in page


def test_the_classic_sheet_says_which_cards_and_what_a_turned_card_means(
    client: Client, db: None
) -> None:
    page = client.get("/rules/trick/parlett-classic/").text.replace("&#x27;", "'")
    assert "<li>Cards: 37, the 6 to the Ace of each suit, and one Joker.</li>" in page
    assert "a Nine or the Joker turned up means no trump" in page


def _count(preset_id: str) -> int:
    players = trick.PRESETS[preset_id].players
    return 3 if 3 in players else players[0]


@pytest.mark.parametrize(("family", "preset_id"), EVERY_PRESET)
def test_every_pad_renders_for_anyone(
    client: Client, db: None, family: str, preset_id: str
) -> None:
    response = client.get(f"/rules/{family}/{preset_id}/pad/")
    assert response.status_code == 200
    page = response.text
    if family == "trick":
        rules = trick.resolve_rules(preset_id, {}, ["A", "B", "C", "D", "E"][: _count(preset_id)])
        deals = rules.match.deals if rules.match.type == "deals" else 24
        assert _rows(page) == deals
        assert page.count('class="pad-name"') == len(rules.players)
        assert ("Dummy" in page) == rules.dummy
        assert "Bid</th>" in page and "Won</th>" in page and "Total</th>" in page
    else:
        assert _rows(page) == 24
        assert page.count('class="pad-name"') == 4
        added = adding.resolve_rules(preset_id, {}, ["A", "B", "C", "D"])
        if added.uses_tokens:
            assert page.count(f'<td class="pad-first">{added.tokens}</td>') == 4


def test_unknown_rulesets_are_404(client: Client, db: None) -> None:
    assert client.get("/rules/trick/nope/").status_code == 404
    assert client.get("/rules/poker/custom/").status_code == 404
    assert client.get("/rules/adding/nope/pad/").status_code == 404


def test_the_sheets_are_read_only(client: Client, db: None) -> None:
    assert client.post("/rules/trick/long/").status_code == 405
    assert client.post("/rules/").status_code == 405


# What the sheet says, from the rules


@pytest.mark.parametrize(
    ("preset_id", "most"),
    [
        ("parlett-jokerless", "9 + 30 + 60 = 99"),  # RULES.md §1.3
        ("long", "30 + 60 = 90"),  # no trick points (§1.8)
        ("four", "10 + 30 + 60 = 100"),  # 0 bid made by all 10 tricks
        ("five", "9 + 50 + 60 = 119"),
        ("oxford-whist", "9 + 10 = 19"),  # no premiums, a flat 10
        # 8 tricks and the only success (the dummy won 1 over its bid), own declare 30, and the
        # other player's failed declare 30 (§1.7).
        ("two-dummy", "8 + 30 + 60 = 98"),
    ],
)
def test_the_most_in_one_deal_is_scored_by_the_rules(
    client: Client, db: None, preset_id: str, most: str
) -> None:
    assert (
        f"<strong>Most in one deal:</strong> {most}"
        in client.get(f"/rules/trick/{preset_id}/").text
    )


def test_the_first_trump_option_changes_the_sheet_and_the_pad(client: Client, db: None) -> None:
    diamonds = client.get("/rules/trick/parlett-jokerless/").text
    none = client.get("/rules/trick/parlett-jokerless/?first_trump=none").text
    assert "First deal: ♦ Diamonds." in diamonds
    assert "First deal: No trump." in none
    assert "First deal: ♦ Diamonds." not in none
    # The links to the pad and the form carry the option.
    assert 'href="/rules/trick/parlett-jokerless/pad/?first_trump=none"' in none
    assert '<option value="none" selected>' in none
    pad = client.get("/rules/trick/parlett-jokerless/pad/?first_trump=none").text
    assert '<tr><th scope="row">1</th><td>1</td><td>NT</td>' in pad
    pad = client.get("/rules/trick/parlett-jokerless/pad/").text
    assert '<tr><th scope="row">1</th><td>1</td><td>♦</td>' in pad


def test_the_match_option_changes_the_end_and_the_pad(client: Client, db: None) -> None:
    response = client.get("/rules/trick/parlett-classic/?match=deals:18")
    assert "18 deals; the highest total wins." in response.text
    assert _rows(client.get("/rules/trick/parlett-classic/pad/?match=deals:18").text) == 18
    rubber = client.get("/rules/trick/parlett-classic/?match=rubber").text
    assert escape(trick.Match("rubber").describe()) in rubber
    assert "for each game fewer than 8 that it took (3 games: 500)" in rubber
    # The JSON of RULES.md §3 works too.
    response = client.get('/rules/trick/long/?match={"type": "long", "games": 2}')
    assert "the first to win 2 games wins." in response.text


def test_more_deals_than_fit_say_so(client: Client, db: None) -> None:
    page = client.get("/rules/trick/custom/pad/?match=deals:30").text
    assert _rows(page) == 24
    assert "print a second pad for the other 6." in page


def test_players_change_the_bonus_row_and_the_pad(client: Client, db: None) -> None:
    page = client.get("/rules/trick/custom/?players=5").text
    assert "<td>50</td>" in page  # the five-player bonus row
    pad = client.get("/rules/trick/custom/pad/?players=5").text
    assert pad.count('class="pad-name"') == 5


def test_custom_options_change_the_scoring(client: Client, db: None) -> None:
    page = client.get("/rules/trick/custom/?trick_points=false&premiums=declare&bonus=10,5").text
    assert "<strong>No trick points</strong>" in page
    assert "Reveal</th>" not in page and "Declare</th>" in page
    assert "<strong>Most in one deal:</strong> 10 + 30 = 40" in page


def test_declared_trump_without_premiums_is_no_trump(client: Client, db: None) -> None:
    page = client.get("/rules/trick/custom/?trump=declared&premiums=none&trick_points=false").text
    assert "Nobody can make a premium bid here, so every deal is played at no trump." in page
    assert "No premium bids in this game." in page
    assert "<strong>Most in one deal:</strong> 30. Win all 9 tricks" in page


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("card_table=chicago", "0, and the next player is skipped"),
        ("on_69=reset", "Make the total exactly 69 and it goes back to 0."),
        ("on_69=token", "Hit 69: you gain 1 token."),
        ("tokens=2", "Each player starts with 2 tokens."),
        ("display=dollar-bill", "The dollar bill: corners first, then in half"),
    ],
)
def test_adding_options_change_the_sheet(client: Client, db: None, query: str, shown: str) -> None:
    response = client.get(f"/rules/adding/ninety-nine-standard/?{query}")
    assert response.status_code == 200
    assert shown in response.text
    assert shown not in client.get("/rules/adding/ninety-nine-standard/").text


def test_the_dollar_bill_shows_its_folds(client: Client, db: None) -> None:
    page = client.get("/rules/adding/dollar-bill/").text
    rules = adding.resolve_rules("dollar-bill", {}, ["A", "B", "C", "D"])
    for count in range(rules.tokens or 0):
        assert f"<td>{count}</td><td>{adding.bill_shows(rules, count)}" in page


def test_pagats_99_says_3_tokens_over_4_players(client: Client, db: None) -> None:
    page = client.get("/rules/adding/ninety-nine/").text
    assert "Each player starts with 5 tokens (3 each when more than 4 play)." in page
    page = client.get("/rules/adding/ninety-nine/?players=6").text
    assert "Each player starts with 3 tokens." in page


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/rules/trick/parlett-jokerless/?first_trump=clubs", "Choose one of: diamonds, none."),
        ("/rules/trick/parlett-jokerless/?dummy_exact_declarer=true", "has no dummy"),
        ("/rules/adding/wilson/?tokens=4", "Wilson counts game points, not tokens."),
        ("/rules/trick/parlett-classic/?match=deals:x", "must be a whole number from 1 to 999"),
        ("/rules/trick/parlett-classic/?match=deals:99999999999", "must be a whole number"),
        ("/rules/trick/parlett-classic/?match=forever", "The match type must be one of"),
        ("/rules/trick/parlett-classic/?match=rubber:3", "has no setting"),
        ("/rules/trick/parlett-classic/?match={oops", "The match must be an object"),
        ("/rules/trick/eighteen-ninety-nine/?match=rubber", "is played as a"),
        ("/rules/trick/custom/?bonus=30,x", "Must be a list of at most 10 whole numbers"),
        ("/rules/trick/custom/?bonus=[[1]]", "Must be a list of at most 10 whole numbers"),
        ("/rules/trick/custom/?premiums=shout", "Must be a list from"),
        ("/rules/trick/custom/?premiums=[[1]]", "Must be a list from"),
        ("/rules/trick/custom/?trick_points=maybe", "Must be true or false."),
        ("/rules/trick/custom/?players=7", "Custom is for 2 to 5 players, not"),
        ("/rules/trick/custom/?players=²", "Custom is for 2 to 5 players, not"),
        ("/rules/trick/long/?colour=red", 'There is no option "colour".'),
        ("/rules/adding/ninety-nine/?tokens=-1", "Must be a whole number from 1 to 99."),
        ("/rules/adding/ninety-nine/?tokens=0", "Must be a whole number from 1 to 99."),
        ("/rules/adding/custom/?out=never", "Choose one of: at-zero, owing."),
        ("/rules/adding/custom/?card_table=nope", "Choose one of:"),
        ("/rules/adding/dollar-bill/?tokens=9", "A dollar bill folds 5 times at most"),
        ("/rules/adding/wilson/?first_trump=none", 'There is no option "first_trump".'),
        ("/rules/adding/custom/pad/?tokens=x", "Must be a whole number from 1 to 99."),
        ("/rules/trick/custom/pad/?match=deals:0", "must be a whole number from 1 to 999"),
    ],
)
def test_bad_options_show_a_message_and_the_presets_own_rules(
    client: Client, db: None, url: str, message: str
) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert 'class="alert alert-warning sheet-problems" role="alert"' in response.text
    assert escape(message) in response.text
    assert "this shows the ruleset's own rules" in response.text


def test_an_empty_option_keeps_the_presets_value(client: Client, db: None) -> None:
    response = client.get("/rules/trick/parlett-jokerless/?first_trump=&match=")
    assert response.status_code == 200
    assert "First deal: ♦ Diamonds." in response.text


# The rules at this table


def test_the_owner_sees_the_sessions_rules_and_names(
    alice_client: Client, game: GameSession
) -> None:
    response = alice_client.get(f"/sessions/{game.public_id}/rules/")
    assert response.status_code == 200
    page = response.text
    assert "Seat order: Ann, Ben, Cat." in page
    assert "First deal: No trump." in page  # the session's option, not the preset's ♦
    assert "18 deals; the highest total wins." in page
    assert "<tr><td>1</td><td>Ann</td><td>Ben</td></tr>" in page  # Ann deals, Ben leads
    assert "<tr><td>3</td><td>Cat</td><td>Ann</td></tr>" in page
    assert f'href="/sessions/{game.public_id}/"' in page
    # Its pad link carries the session's options.
    assert "/rules/trick/parlett-jokerless/pad/?first_trump=none&amp;match=deals%3A18" in page
    assert "no-store" in response["Cache-Control"]


def test_the_rules_of_an_adding_session(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    game = create_adding_session(
        owner=alice, ruleset="ninety-nine", options={"on_69": "token"}, players=roster
    )
    page = alice_client.get(f"/sessions/{game.public_id}/rules/").text
    assert "Seat order: Ann, Ben, Cat, Dan." in page
    assert "Hit 69: you gain 1 token." in page


def test_another_user_gets_404_for_the_sessions_rules(
    bob_client: Client, game: GameSession
) -> None:
    assert bob_client.get(f"/sessions/{game.public_id}/rules/").status_code == 404


def test_anonymous_users_log_in_for_the_sessions_rules(client: Client, game: GameSession) -> None:
    url = f"/sessions/{game.public_id}/rules/"
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


def test_a_missing_session_is_404(alice_client: Client) -> None:
    assert alice_client.get("/sessions/nope/rules/").status_code == 404


def test_stored_options_the_rules_refuse_still_show_a_sheet(
    alice_client: Client, game: GameSession
) -> None:
    GameSession.objects.filter(pk=game.pk).update(options={"first_trump": "clubs"})
    response = alice_client.get(f"/sessions/{game.public_id}/rules/")
    assert response.status_code == 200
    assert "Choose one of: diamonds, none." in response.text


# Offline support


def test_it_serves_the_service_worker(client: Client, db: None) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert "no-cache" in response["Cache-Control"]
    script = response.text
    for url in ("/static/css/app.css", "/static/css/print.css", "/static/js/sw-register.js"):
        assert f'"{url}",' in script
    assert 'const OFFLINE_URL = "/offline/";' in script
    assert 'const STATIC_PREFIX = "/static/";' in script
    assert '"/rules/",' in script  # a prefix of the pages it stores
    assert "sessions" not in script.split("CACHED_PAGES", 1)[1].split("];", 1)[0]
    assert 'if (request.method !== "GET") return;' in script


def test_the_service_worker_stores_every_script_of_a_watch_page(
    client: Client, game: GameSession
) -> None:
    """A watch page kept for offline opens with its scripts: each is stored when the worker is
    installed."""
    game = with_links(game, watch="w" * 32)
    page = client.get(f"/w/{game.watch_token}/").text
    worker = client.get("/sw.js").text
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert "/static/js/csrf.js" in scripts and "/static/js/plain-http.js" in scripts
    for src in scripts:
        assert f'"{src}",' in worker, src


def test_the_service_worker_version_follows_the_static_urls(
    client: Client, db: None, settings: object
) -> None:
    first = re.search(r'const VERSION = "(\w+)";', client.get("/sw.js").text)
    again = re.search(r'const VERSION = "(\w+)";', client.get("/sw.js").text)
    assert first and again and first.group(1) == again.group(1)
    settings.STATIC_URL = "/assets/"  # type: ignore[attr-defined]
    moved = re.search(r'const VERSION = "(\w+)";', client.get("/sw.js").text)
    assert moved and moved.group(1) != first.group(1)


def test_it_serves_the_offline_page(client: Client, db: None) -> None:
    response = client.get("/offline/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert (
        "You are offline. The rule sheets you opened before still work; score entry needs the "
        "connection to the server." in response.text
    )


def test_the_service_worker_keeps_the_table_pages_in_a_cache_of_their_own(
    client: Client, db: None
) -> None:
    script = client.get("/sw.js").text
    assert 'const TABLE_CACHE = "scorekeeper-tables";' in script
    pages = script.split("const TABLE_PAGES = [", 1)[1].split("];", 1)[0]
    for prefix in ("/sessions/", "/s/", "/w/"):
        assert f'["{prefix}", "/"],' in pages
    others = script.split("const NOT_TABLES = [", 1)[1].split("];", 1)[0]
    for path in ("/sessions/new/", "/sessions/import/", "/sessions/deleted/"):
        assert f'"{path}",' in others
    # A table page opened for the first time installs the worker: its files are stored then.
    for url in ("/static/js/offline-copy.js", "/static/js/live.js", "/static/js/deal-entry.js"):
        assert f'"{url}",' in script
    # Each copy names its time and the version whose static files it points at.
    assert 'headers.set("X-Stored-At", new Date().toISOString());' in script
    assert 'headers.set("X-Stored-Version", VERSION);' in script


def test_the_table_pages_are_kept_by_the_phone_alone(client: Client, game: GameSession) -> None:
    game = with_links(game, watch="w" * 32, scorer="s" * 32)
    client.post(f"/s/{game.scorer_token}/name/", {"name": "Sam"})
    urls = [f"/w/{game.watch_token}/", f"/s/{game.scorer_token}/"]
    client.force_login(game.owner)
    urls.append(f"/sessions/{game.public_id}/")
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        control = {part.strip() for part in response["Cache-Control"].split(",")}
        # No shared cache keeps it, nor shows it without asking; the service worker may.
        assert {"private", "no-cache", "max-age=0"} <= control, url
        assert "no-store" not in control, url
        assert "public" not in control, url


def test_a_table_page_carries_the_words_and_the_script_of_its_offline_copy(
    alice_client: Client, game: GameSession
) -> None:
    page = alice_client.get(f"/sessions/{game.public_id}/").text
    assert 'src="/static/js/offline-copy.js" defer' in page
    assert (
        'data-offline="Offline: this is the table as it was at {time} (time of the phone). '
        'It is not live."' in page
    )
    assert 'data-online="Back online: reload for the live table."' in page


@needs_french
def test_the_offline_copy_words_are_french_on_a_french_watch_page(
    client: Client, game: GameSession
) -> None:
    game = with_links(game, watch="w" * 32)
    client.cookies["django_language"] = "fr"
    page = client.get(f"/w/{game.watch_token}/").text
    assert 'src="/static/js/offline-copy.js" defer' in page
    assert "Hors ligne\u00a0: voici la table telle qu’elle était à {time}" in page
    assert 'data-reload="Recharger"' in page
