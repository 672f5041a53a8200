"""House rules at session start, in every header and sheet, and saved rulesets. The rules
themselves are tested in tests/rules/test_house_rules.py."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.rules import trick
from scorekeeper.services import Who, abandon_session, add_deal, create_session, rematch

CLASSIC = "/sessions/new/trick/parlett-classic/"
HOUSE = "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals"


def _seats(players: list[Player]) -> dict[str, object]:
    return {f"seat_{i}": player.pk for i, player in enumerate(players)}


def _start_classic(client: Client, players: list[Player], **fields: object) -> GameSession:
    data = {**_seats(players), "start": "", **fields}
    response = client.post(CLASSIC, data)
    assert response.status_code == 302, response.content.decode()
    return GameSession.objects.get(public_id=response["Location"].split("/")[2])


# The start page


def test_the_start_page_shows_every_option_of_the_preset_set_as_it_plays(
    alice_client: Client, roster: list[Player]
) -> None:
    page = alice_client.get(CLASSIC).content.decode()
    for name in ("trump", "first_trump", "match_type", "bonus", "premiums", "trick_points"):
        assert f'name="{name}"' in page, name
    assert 'name="zero_all_tricks"' in page
    assert 'name="dummy_exact_declarer"' not in page  # Classic has no dummy
    assert '<option value="turn-up" selected>' in page
    assert "is-house-rule" not in page
    assert 'data-preset-value="turn-up"' in page
    assert "house-rules.js" in page


def test_a_changed_option_is_marked_a_house_rule_when_the_form_comes_back(
    alice_client: Client, roster: list[Player]
) -> None:
    data = {"seat_0": roster[0].pk, "trump": "declared", "start": ""}
    page = alice_client.post(CLASSIC, data).content.decode()
    assert "Choose who sits in seat 2." in page
    assert page.count("option-row is-house-rule") == 1
    assert '<option value="declared" selected>' in page  # nothing typed is lost


def test_a_session_with_house_rules_keeps_the_presets_name_and_says_them(
    alice_client: Client, roster: list[Player]
) -> None:
    game = _start_classic(
        alice_client, roster, trump="declared", match_type="deals", match_number="18"
    )
    assert game.ruleset == "parlett-classic"
    assert game.options == {"trump": "declared", "match": {"type": "deals", "deals": 18}}
    table = alice_client.get(f"/sessions/{game.public_id}/").content.decode()
    assert HOUSE in table
    sheet = alice_client.get(f"/sessions/{game.public_id}/rules/").content.decode()
    assert HOUSE + "." in sheet  # the preset and its house rules, said once
    exported = json.loads(alice_client.get(f"/sessions/{game.public_id}/scoresheet.json").content)
    assert (exported["ruleset"], exported["options"]) == ("parlett-classic", game.options)


def test_restating_the_presets_own_values_is_no_house_rule(
    alice_client: Client, roster: list[Player]
) -> None:
    game = _start_classic(
        alice_client,
        roster,
        trump="turn-up",
        match_type="deals",
        match_number="9",
        trick_points="true",
        premiums="declare,reveal",
    )
    assert game.options == {}
    assert "house rules" not in alice_client.get(f"/sessions/{game.public_id}/").content.decode()


def test_the_adding_game_takes_house_rules_too(alice_client: Client, roster: list[Player]) -> None:
    page = alice_client.get("/sessions/new/adding/wilson/").content.decode()
    assert 'name="tokens"' not in page  # Wilson counts game points
    assert 'name="on_69"' in page and 'name="card_table"' in page
    response = alice_client.post(
        "/sessions/new/adding/thirty-three/",
        {**_seats(roster), "out": "at-zero", "start": ""},
    )
    game = GameSession.objects.get(public_id=response["Location"].split("/")[2])
    assert game.options == {"out": "at-zero"}
    table = alice_client.get(f"/sessions/{game.public_id}/").content.decode()
    assert "Thirty-Three, house rules: out at 0 tokens" in table


def test_a_house_rule_the_rules_refuse_is_said_beside_its_field(
    alice_client: Client, roster: list[Player]
) -> None:
    page = alice_client.post(
        "/sessions/new/adding/dollar-bill/",
        {**_seats(roster), "tokens": "9", "start": ""},
    ).content.decode()
    assert "A dollar bill folds 5 times at most" in page
    assert not GameSession.objects.exists()


def test_the_score_pad_and_sheet_of_a_query_say_the_house_rules(client: Client, db: None) -> None:
    pad = client.get("/rules/trick/parlett-classic/pad/?trump=declared").content.decode()
    assert "House rules: trump named by the declarer." in pad
    sheet = client.get("/rules/adding/ninety-nine/?on_69=reset").content.decode()
    assert "House rules:</strong> exactly 69: total back to 0." in sheet


# Saved rulesets


def _save(client: Client, name: str = "Friday night rules", **fields: object) -> SavedRuleset:
    response = client.post(
        "/rulesets/new/trick/parlett-classic/", {"name": name, "trump": "declared", **fields}
    )
    assert response.status_code == 302, response.content.decode()
    return SavedRuleset.objects.get(pk=int(response["Location"].split("/")[2]))


def test_a_saved_ruleset_keeps_its_house_rules_and_comes_first_at_start(
    alice_client: Client, alice: User
) -> None:
    saved = _save(alice_client, match_type="deals", match_number="18")
    assert (saved.owner, saved.family, saved.ruleset) == (alice, "trick", "parlett-classic")
    assert saved.options == {"trump": "declared", "match": {"type": "deals", "deals": 18}}
    page = alice_client.get(f"/rulesets/{saved.pk}/").content.decode()
    assert "Friday night rules" in page and "Trump named by the declarer" in page
    new = alice_client.get("/sessions/new/").content.decode()
    assert new.index("Friday night rules") < new.index("Classic Ninety-Nine")
    assert HOUSE in new
    assert "Friday night rules" in alice_client.get("/rulesets/").content.decode()


def test_names_are_unique_for_their_owner_ignoring_case(
    alice_client: Client, bob_client: Client
) -> None:
    _save(alice_client)
    page = alice_client.post(
        "/rulesets/new/trick/parlett-jokerless/", {"name": "  FRIDAY night RULES "}
    ).content.decode()
    assert "You already have rules called “Friday night rules”." in page
    assert SavedRuleset.objects.count() == 1
    _save(bob_client)  # another user's name is theirs to use
    assert SavedRuleset.objects.count() == 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "   "}, "Give these rules a name."),
        ({"name": "x" * 41}, "A name can be at most 40 characters."),
        ({"name": "Bad\x07name"}, "control character"),
        ({"name": "Ok", "bonus": "30, x"}, "Type whole numbers separated by commas"),
        ({"name": "Ok", "match_type": "deals", "match_number": ""}, "Say how many for"),
        ({"name": "Ok", "match_type": "deals", "match_number": "1000"}, "from 1 to 999"),
        ({"name": "Ok", "trump": "sideways"}, "Select a valid choice"),
    ],
)
def test_a_ruleset_form_refuses_bad_input_with_a_message(
    alice_client: Client, fields: dict[str, str], message: str
) -> None:
    response = alice_client.post("/rulesets/new/trick/parlett-classic/", fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not SavedRuleset.objects.exists()


def test_starting_from_a_saved_ruleset_copies_its_options(
    alice_client: Client, roster: list[Player]
) -> None:
    saved = _save(alice_client, match_type="deals", match_number="18")
    page = alice_client.get(f"/sessions/new/saved/{saved.pk}/").content.decode()
    assert "Friday night rules" in page
    assert '<option value="declared" selected>' in page
    assert page.count("option-row is-house-rule") == 2  # trump, and the match's number
    response = alice_client.post(
        f"/sessions/new/saved/{saved.pk}/",
        {**_seats(roster), "trump": "declared", "match_type": "deals",
         "match_number": "18", "start": ""},
    )  # fmt: skip
    game = GameSession.objects.get(public_id=response["Location"].split("/")[2])
    assert game.saved_ruleset == saved
    assert game.options == saved.options


def test_changing_or_deleting_a_saved_ruleset_never_changes_a_session(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    saved = _save(alice_client)
    game = create_session(
        owner=alice,
        ruleset=saved.ruleset,
        options=saved.options,
        players=roster,
        saved_ruleset=saved,
    )
    response = alice_client.post(
        f"/rulesets/{saved.pk}/change/",
        {"name": "Friday, new", "trump": "by-successes", "trick_points": "false"},
    )
    assert response.status_code == 302
    saved.refresh_from_db()
    game.refresh_from_db()
    assert saved.name == "Friday, new"
    assert saved.options == {"trump": "by-successes", "trick_points": False}
    assert game.options == {"trump": "declared"}
    alice_client.post(f"/rulesets/{saved.pk}/delete/")
    assert not SavedRuleset.objects.exists()
    game.refresh_from_db()
    assert (game.options, game.saved_ruleset) == ({"trump": "declared"}, None)
    table = alice_client.get(f"/sessions/{game.public_id}/").content.decode()
    assert "Classic Ninety-Nine, house rules: trump named by the declarer" in table


def test_a_saved_rulesets_sheet_and_pad_say_its_name_and_house_rules(
    alice_client: Client,
) -> None:
    saved = _save(alice_client)
    sheet = alice_client.get(f"/rules/saved/{saved.pk}/")
    assert sheet.status_code == 200
    text = sheet.content.decode()
    assert "Friday night rules" in text and "trump named by the declarer" in text
    assert "no-store" not in sheet.get("Cache-Control", "")  # kept for offline use
    assert "private" in sheet["Cache-Control"]
    pad = alice_client.get(f"/rules/saved/{saved.pk}/pad/").content.decode()
    assert "Friday night rules · score pad" in pad
    assert "Classic Ninety-Nine, house rules: trump named by the declarer." in pad


def test_only_the_owner_sees_or_uses_a_saved_ruleset(
    alice_client: Client, bob_client: Client, bob: User
) -> None:
    saved = _save(alice_client)
    for url in (
        f"/rulesets/{saved.pk}/",
        f"/rulesets/{saved.pk}/change/",
        f"/rulesets/{saved.pk}/delete/",
        f"/rules/saved/{saved.pk}/",
        f"/rules/saved/{saved.pk}/pad/",
        f"/sessions/new/saved/{saved.pk}/",
    ):
        assert bob_client.get(url).status_code == 404, url
        assert bob_client.post(url, {"name": "Mine now"}).status_code in (404, 405), url
    assert SavedRuleset.objects.get().name == "Friday night rules"
    for url in ("/rulesets/", "/sessions/new/", "/sessions/"):
        assert "Friday night rules" not in bob_client.get(url).content.decode()


def test_past_sessions_filter_by_saved_ruleset_and_a_rematch_keeps_it(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    saved = _save(alice_client)
    game = create_session(
        owner=alice,
        ruleset=saved.ruleset,
        options=saved.options,
        players=roster,
        title="From the saved rules",
        saved_ruleset=saved,
    )
    create_session(
        owner=alice, ruleset="parlett-classic", options={}, players=roster, title="Plain"
    )
    page = alice_client.get(f"/sessions/?ruleset=saved:{saved.pk}").content.decode()
    assert "From the saved rules" in page and "Plain" not in page
    for number in range(1, 10):
        hands = {p.name: trick.HandEntry(tricks=3, made=True) for p in roster}
        deal = trick.DealEntry(hands, None)  # nobody declares: the trump stays
        add_deal(session=game, number=number, entry=deal, who=Who(alice))
    game.refresh_from_db()
    again = rematch(session=game, who=Who(alice))
    assert (again.saved_ruleset, again.options) == (saved, saved.options)


def _sheet_head(page: str) -> str:
    return page.split('<header class="sheet-head">', 1)[1].split("</header>", 1)[0]


def test_a_sheet_with_house_rules_says_the_rules_as_played_once(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    # The preset's own line ("…; 9 deals.") is not said above its house rules ("18 deals").
    saved = _save(alice_client, match_type="deals", match_number="18")
    head = _sheet_head(alice_client.get(f"/rules/saved/{saved.pk}/").content.decode())
    assert "9 deals" not in head
    assert head.count("18 deals") == 1
    assert "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals." in head
    query = _sheet_head(
        alice_client.get(
            "/rules/trick/parlett-classic/?match=deals&match_number=18"
        ).content.decode()
    )
    assert "9 deals" not in query and query.count("18 deals") == 1
    game = create_session(
        owner=alice, ruleset=saved.ruleset, options=saved.options, players=roster,
        saved_ruleset=saved,
    )  # fmt: skip
    head = _sheet_head(alice_client.get(f"/sessions/{game.public_id}/rules/").content.decode())
    assert "9 deals" not in head and head.count("18 deals") == 1
    # Without house rules, the preset's own line says how it plays.
    plain = _sheet_head(alice_client.get("/rules/trick/parlett-classic/").content.decode())
    assert "trump turned up each deal; 9 deals." in plain
    page = alice_client.get(f"/rulesets/{saved.pk}/").content.decode()
    assert "9 deals" not in page
    start = alice_client.get(f"/sessions/new/saved/{saved.pk}/").content.decode()
    lead = start.split("</h1>", 1)[1].split("</p>", 1)[0]
    assert "9 deals" not in lead
    assert "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals" in lead


def test_a_session_started_from_saved_rules_carries_their_name(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    saved = _save(alice_client, match_type="deals", match_number="18")
    response = alice_client.post(
        f"/sessions/new/saved/{saved.pk}/",
        {**_seats(roster), "trump": "declared", "match_type": "deals",
         "match_number": "18", "start": ""},
    )  # fmt: skip
    game = GameSession.objects.get(public_id=response["Location"].split("/")[2])
    assert game.title == ""
    assert str(game).startswith("Friday night rules, ")  # its name when none is given
    table = alice_client.get(f"/sessions/{game.public_id}/").content.decode()
    assert f'<h1 class="h5">{game}</h1>' in table
    assert "Friday night rules · Classic Ninety-Nine, house rules:" in table
    named = create_session(
        owner=alice, ruleset=saved.ruleset, options=saved.options, players=roster,
        title="At Sam's", saved_ruleset=saved,
    )  # fmt: skip
    table = alice_client.get(f"/sessions/{named.public_id}/").content.decode()
    assert "Friday night rules · Classic Ninety-Nine, house rules:" in table
    # The session keeps the name it started with, whatever becomes of the saved rules.
    alice_client.post(f"/rulesets/{saved.pk}/change/", {"name": "Saturday", "trump": "declared"})
    alice_client.post(f"/rulesets/{saved.pk}/delete/")
    game.refresh_from_db()
    assert str(game).startswith("Friday night rules, ")
    sheet = alice_client.get(f"/sessions/{game.public_id}/rules/").content.decode()
    assert "Friday night rules" in _sheet_head(sheet)


def test_a_rematch_keeps_the_saved_rules_name(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    saved = _save(alice_client)
    game = create_session(
        owner=alice, ruleset=saved.ruleset, options=saved.options, players=roster,
        saved_ruleset=saved,
    )  # fmt: skip
    alice_client.post(f"/rulesets/{saved.pk}/change/", {"name": "Renamed", "trump": "declared"})
    game.refresh_from_db()
    abandon_session(session=game, who=Who(alice))
    again = rematch(session=game, who=Who(alice))
    assert str(again).startswith("Friday night rules, ")
