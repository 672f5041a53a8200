"""The count assistant on the adding-game table: shown or hidden per browser, one tap per
card (a card with a choice asks in one more), undo, proposals recorded through the same
service as the event buttons or dismissed, shared by the scorer link and seen by watchers;
ownership, stale taps and bad input."""

import re
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import live
from scorekeeper.models import Change, GameSession, Player, RoundEvent
from scorekeeper.presenters.adding import SHOWN_CARDS
from scorekeeper.rules import adding, bounds
from scorekeeper.services import create_adding_session
from tests.pages import session_url

HX = {"HX-Request": "true", "HX-Target": "table"}


@pytest.fixture
def game(adding_game: GameSession) -> GameSession:
    """The table here plays the adding game (tests/conftest.py)."""
    return adding_game


def _field(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert match, name
    return match.group(1)


def _counter_form(client: Client, base: str) -> dict[str, str]:
    page = client.get(base).text
    start = page.index('id="counter"')
    panel = page[start:]
    return {name: _field(panel, name) for name in ("version", "state", "form_key")}


def _show(client: Client, base: str) -> None:
    assert client.post(base, {"counter": "show"}).status_code == 302


def _post(client: Client, base: str, **data: str) -> str:
    response = client.post(base, {**_counter_form(client, base), **data}, follow=True)
    assert response.status_code == 200
    return response.text


def _total(page: str) -> int:
    match = re.search(r'<span class="visually-hidden">Running total: </span>(\d+)<', page)
    assert match
    return int(match.group(1))


def test_the_counter_is_hidden_until_this_browser_shows_it(
    alice_client: Client, client: Client, game: GameSession, alice: User
) -> None:
    base = session_url(game)
    page = alice_client.get(base).text
    assert "Count the cards" in page and 'id="counter"' not in page
    response = alice_client.post(base, {"counter": "show"})
    assert response["Location"] == f"{base}#counter"
    page = alice_client.get(base).text
    assert 'id="counter"' in page and _total(page) == 0
    assert re.search(r'class="counter-turn">Ben<', page)  # left of the dealer, Ann
    # Another browser of the same owner keeps its own choice.
    other = Client()
    other.force_login(alice)
    assert 'id="counter"' not in other.get(base).text
    alice_client.post(base, {"counter": "hide"})
    assert 'id="counter"' not in alice_client.get(base).text
    assert GameSession.objects.get(pk=game.pk).version == game.version  # nothing written


def test_one_tap_per_card_and_undo(alice_client: Client, game: GameSession) -> None:
    base = session_url(game)
    _show(alice_client, base)
    page = _post(alice_client, base, card="K")
    assert _total(page) == 10
    assert "K: the total is 10. Cat to play." in page
    page = _post(alice_client, base, card="8")
    assert _total(page) == 18
    assert 'class="counter-play-card">K<' in page and 'class="counter-play-card">8<' in page
    page = _post(alice_client, base, count_undo="")
    assert _total(page) == 10 and "Last card taken back." in page
    assert RoundEvent.objects.count() == 0  # counting records no event


def test_a_card_with_a_choice_asks_in_one_more_tap(alice_client: Client, game: GameSession) -> None:
    base = session_url(game)
    _show(alice_client, base)
    response = alice_client.post(base, {**_counter_form(alice_client, base), "card": "A"})
    assert response["Location"] == f"{base}?ask=A#counter"
    page = alice_client.get(response["Location"]).text
    assert "A: count it as?" in page
    assert 'value="A|1"' in page and 'value="A|11"' in page
    page = _post(alice_client, base, card="A|11")
    assert _total(page) == 11
    page = _post(alice_client, base, card="10|-10")
    assert _total(page) == 1
    assert 'class="counter-play-card">A (11)<' in page
    assert 'class="counter-play-card">10 (−10)<' in page
    # With htmx the question comes back in place, nothing written.
    version = GameSession.objects.get(pk=game.pk).version
    page = alice_client.post(
        base, {**_counter_form(alice_client, base), "card": "A"}, headers=HX
    ).text
    assert 'value="A|1"' in page
    assert GameSession.objects.get(pk=game.pk).version == version


def test_a_proposal_is_recorded_as_the_event_button_records_it(
    alice_client: Client, game: GameSession
) -> None:
    base = session_url(game)
    _show(alice_client, base)
    for card in ("K", "K", "K"):
        page = _post(alice_client, base, card=card)
    assert _total(page) == 30
    page = _post(alice_client, base, card="3")
    assert _total(page) == 33
    assert "<strong>Ben hit 33: everyone else pays 1 token.</strong> Record it?" in page
    changes = Change.objects.count()
    page = _post(alice_client, base, confirm="0")
    assert "Recorded: Ben hit 33" in page
    assert "Record it?" not in page
    event = RoundEvent.objects.get()
    assert (event.seat.player.name, event.event, event.target) == ("Ben", "hit", 33)
    assert Change.objects.count() == changes + 1  # one line of history, as a tap makes
    # The hit does not end the round: the count goes on from 33.
    assert _total(page) == 33


def test_a_dismissed_proposal_records_nothing(alice_client: Client, game: GameSession) -> None:
    base = session_url(game)
    _show(alice_client, base)
    for card in ("K", "K", "K", "3"):
        page = _post(alice_client, base, card=card)
    assert "Record it?" in page
    page = _post(alice_client, base, dismiss="0")
    assert "Record it?" not in page and "Not recorded." in page
    assert RoundEvent.objects.count() == 0 and _total(page) == 33


def test_thirty_three_double_crossing_is_two_proposals_and_the_next_round_starts_at_0(
    alice_client: Client, game: GameSession
) -> None:
    base = session_url(game)
    _show(alice_client, base)
    for card in ("K", "K", "K", "K", "K", "3"):  # 53
        page = _post(alice_client, base, card=card)
    assert _total(page) == 53
    page = _post(alice_client, base, card="2")  # doubles 53: a cross 66, then a bust
    assert "The 2 would make 106, over 99: it is not counted." in page
    sentences = re.findall(r"<strong>([^<]*)</strong> Record it\?", page)
    assert len(sentences) == 2
    assert "66" in sentences[0] and "bust" in sentences[1].lower()
    page = _post(alice_client, base, confirm="0")
    page = _post(alice_client, base, confirm="0")
    assert RoundEvent.objects.count() == 2
    # The bust ended round 1: round 2 is counted from 0 with the next dealer (Ben).
    assert _total(page) == 0
    assert re.search(r"<dd>2, Ben dealt</dd>", page)


def test_two_phones_tapping_at_once_count_the_card_once(
    alice_client: Client, game: GameSession
) -> None:
    base = session_url(game)
    _show(alice_client, base)
    form = _counter_form(alice_client, base)
    alice_client.post(base, {**form, "card": "K"})
    page = alice_client.post(base, {**form, "card": "K"}, follow=True).text
    assert "The count changed on another phone just now" in page
    assert _total(page) == 10


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"card": "Z"}, "has no card “Z”"),
        ({"card": "A|7"}, "Count the A as 1 or 11."),
        ({"card": "A|eleven"}, "Count the A as 1 or 11."),
        ({"card": "K|3"}, "The K takes no choice here."),
        ({"dismiss": "x"}, "That proposal is not one of this table&#x27;s."),
        ({"confirm": "4"}, "The count changed on another phone"),
    ],
)
def test_bad_input_is_refused_with_a_message(
    alice_client: Client, game: GameSession, data: dict[str, str], message: str
) -> None:
    base = session_url(game)
    _show(alice_client, base)
    version = GameSession.objects.get(pk=game.pk).version
    page = _post(alice_client, base, **data)
    assert message in page
    assert GameSession.objects.get(pk=game.pk).version == version


def test_a_missing_version_is_refused(alice_client: Client, game: GameSession) -> None:
    base = session_url(game)
    _show(alice_client, base)
    page = alice_client.post(base, {"card": "K"}, follow=True).text
    assert "The count changed on another phone" in page


@pytest.mark.parametrize(
    "data", [{"counter": "show"}, {"card": "K"}, {"count_undo": ""}, {"confirm": "0"}]
)
def test_another_user_gets_404(
    alice_client: Client, bob_client: Client, game: GameSession, data: dict[str, str]
) -> None:
    base = session_url(game)
    _show(alice_client, base)
    _post(alice_client, base, card="K")
    version = GameSession.objects.get(pk=game.pk).version
    assert bob_client.post(base, {"version": str(version), **data}).status_code == 404
    assert bob_client.get(f"{base}live/").status_code == 404
    assert GameSession.objects.get(pk=game.pk).version == version


def test_the_scorer_link_shares_the_count_and_a_watcher_sees_it(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game.scorer_token, game.watch_token = "s" * 30, "w" * 30
    game.save()
    owner, scorer = session_url(game), f"/s/{game.scorer_token}/"
    _show(alice_client, owner)
    _post(alice_client, owner, card="K")
    client.post(f"{scorer}name/", {"name": "Sam"})
    _show(client, scorer)
    page = _post(client, scorer, card="5")
    assert _total(page) == 15
    assert _total(alice_client.get(owner).text) == 15
    # The owner's live poll brings the panel as it is now (out of band).
    live = alice_client.get(f"{owner}live/?since=1", headers={"HX-Request": "true"}).text
    assert 'id="counter" class="counter" aria-labelledby="counter-heading" hx-swap-oob' in live
    assert _total(live) == 15
    # A watcher sees the count read-only, on the watch page and the table display.
    watch = Client()
    for path in ("", "live/", "display/", "display/live/"):
        page = watch.get(f"/w/{game.watch_token}/{path}").text
        assert _total(page) == 15, path
        assert 'name="card"' not in page


def test_one_hundred_black_ace_sets_any_total_and_taiwan_five_names_who_plays_next(
    alice_client: Client, alice: User
) -> None:
    roster = [Player.objects.create(owner=alice, name=name) for name in ["Ann", "Ben", "Cat"]]
    hundred = create_adding_session(owner=alice, ruleset="one-hundred", options={}, players=roster)
    base = session_url(hundred)
    _show(alice_client, base)
    page = alice_client.get(
        alice_client.post(base, {**_counter_form(alice_client, base), "card": "Black A"})[
            "Location"
        ]
    ).text
    assert "Black A: set the total to?" in page
    assert len(re.findall(r'name="card" value="Black A\|\d+"', page)) == 101
    page = _post(alice_client, base, card="Black A|57")
    assert _total(page) == 57 and 'class="counter-play-card">Black A (57)<' in page

    taiwan = create_adding_session(
        owner=alice,
        ruleset="ninety-nine-standard",
        options={"card_table": "taiwan"},
        players=roster,
    )
    base = session_url(taiwan)
    _show(alice_client, base)
    page = alice_client.post(
        base, {**_counter_form(alice_client, base), "card": "5"}, headers=HX
    ).text
    assert ">5: who plays next?</legend>" in page
    assert 'value="5|Ann"' in page and 'value="5|Cat"' in page and 'value="5|Ben"' not in page
    page = _post(alice_client, base, card="5|Ann")
    assert _total(page) == 5 and re.search(r'class="counter-turn">Ann<', page)
    page = _post(alice_client, base, card="Q|-20")
    assert _total(page) == 0 and 'class="counter-play-card">Q (−20)<' in page


def test_a_card_on_another_phone_is_not_a_stale_table_but_an_event_is(
    alice_client: Client, client: Client, game: GameSession
) -> None:
    game.scorer_token = "s" * 30
    game.save()
    owner, scorer = session_url(game), f"/s/{game.scorer_token}/"
    client.post(f"{scorer}name/", {"name": "Sam"})
    _show(client, scorer)
    page = client.get(scorer).text
    since = re.search(r'hx-get="[^"]*live/\?since=([^"]+)"', page).group(1)
    assert since == "0.0"  # the table's state, as its tap form has it
    _show(alice_client, owner)
    _post(alice_client, owner, card="K")
    live = client.get(f"{scorer}live/?since={since}").text
    assert "The table changed on another phone." not in live
    assert _total(live) == 10  # the counter follows, out of band
    _post(alice_client, owner, card="K")
    _post(alice_client, owner, card="K")
    _post(alice_client, owner, card="3")
    _post(alice_client, owner, confirm="0")
    live = client.get(f"{scorer}live/?since={since}").text
    assert "The table changed on another phone." in live


# A long round: the bound on cards and the pages that list only the last ones

NAMES_OF_SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
# Links of their own: a watch link's pages are kept in the cache by link and version.
SCORER_99, WATCH_99 = "scorer-of-a-long-round", "watch-of-a-long-round"


@pytest.fixture
def ninety_nine(alice: User) -> GameSession:
    """Pagat's 99 for six, where Kings hold the total at 99 and a round may go on and on."""
    roster = [Player.objects.create(owner=alice, name=name) for name in NAMES_OF_SIX]
    game = create_adding_session(owner=alice, ruleset="ninety-nine", options={}, players=roster)
    game.scorer_token, game.watch_token = SCORER_99, WATCH_99
    game.save()
    return game


def _counted(session: GameSession, cards: Sequence[str]) -> adding.Count:
    """Count `cards` with the rules and keep the count as the service keeps it (a tap each
    through the views would take minutes for the bound's worth)."""
    rules = session.rules()
    count = adding.new_count(rules, live.result(session))
    assert count is not None
    for card in cards:
        played = adding.play_card(rules, count, card)
        assert played.counted, played.refused
        count = played.count
    session.counter = adding.Pile(count).to_data()
    session.version += 1
    session.save()
    return count


def test_a_card_past_the_bound_is_refused_with_a_message(
    alice_client: Client, ninety_nine: GameSession
) -> None:
    _counted(ninety_nine, ["K"] * bounds.MAX_CARDS)
    base = session_url(ninety_nine)
    _show(alice_client, base)
    version = GameSession.objects.get(pk=ninety_nine.pk).version
    page = _post(alice_client, base, card="9")
    assert (
        "The counter takes at most 500 cards in a round: count the rest of it at the table." in page
    )
    stored = GameSession.objects.get(pk=ninety_nine.pk)
    assert stored.version == version
    assert len(stored.counter["count"]["plays"]) == bounds.MAX_CARDS
    # The last card can still be taken back, and then one more is counted.
    page = _post(alice_client, base, count_undo="")
    assert "Last card taken back." in page
    page = _post(alice_client, base, card="9")
    assert "9: the total is 99." in page


def _pages(owner: Client, scorer: Client, session: GameSession) -> dict[str, str]:
    """Every page that shows the count, as the owner, a scorer and a watcher see it."""
    base, scorer_base, watch = session_url(session), f"/s/{SCORER_99}/", f"/w/{WATCH_99}/"
    hx = {"HX-Request": "true"}
    return {
        "owner": owner.get(base).text,
        "owner live": owner.get(f"{base}live/?since=1", headers=hx).text,
        "scorer": scorer.get(scorer_base).text,
        "watch": Client().get(watch).text,
        "watch live": Client().get(f"{watch}live/", headers=hx).text,
        "display": Client().get(f"{watch}display/").text,
        "display live": Client().get(f"{watch}display/live/", headers=hx).text,
    }


def test_a_long_round_shows_only_its_last_cards(
    alice_client: Client, client: Client, ninety_nine: GameSession
) -> None:
    base = session_url(ninety_nine)
    _show(alice_client, base)
    client.post(f"/s/{SCORER_99}/name/", {"name": "Sam"})
    _show(client, f"/s/{SCORER_99}/")
    # The first card (a K) falls out of the list; the last (a 4) is in it.
    _counted(ninety_nine, ["K"] + ["9"] * (SHOWN_CARDS - 2) + ["4"])
    few = _pages(alice_client, client, ninety_nine)
    count = _counted(ninety_nine, ["K"] + ["9"] * (bounds.MAX_CARDS - 2) + ["4"])
    many = _pages(alice_client, client, ninety_nine)
    earlier = bounds.MAX_CARDS - SHOWN_CARDS
    for name, page in few.items():
        assert page.count('class="counter-play-card"') == SHOWN_CARDS, name
        assert "earlier card" not in page, name
    for name, page in many.items():
        assert page.count('class="counter-play-card"') == SHOWN_CARDS, name
        assert f"{earlier} earlier cards" in page, name
        assert 'class="counter-play-card">4<' in page, name
        assert 'class="counter-play-card">K<' not in page, name
        # The count is still worked out from every card: the total and whose turn it is.
        assert _total(page) == 99, name
        assert re.search(rf'class="counter-turn">{count.turn}<', page), name
        # A page is as large after the bound's worth of cards as after a few.
        assert len(page) - len(few[name]) < 200, (name, len(page), len(few[name]))
