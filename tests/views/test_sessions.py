import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper.models import Deal, GameSession, Hand, Player
from tests.factories import scoresheet_file

SHEET = {
    "format": "ninety-nine-scoresheet",
    "version": 1,
    "family": "trick",
    "ruleset": "parlett-jokerless",
    "options": {"match": {"type": "deals", "deals": 9}},
    "title": "Friday at Sam's",
    "played_on": "2026-11-20",
    "players": ["Ann", "Ben", "Cat"],
    "deals": [
        {
            "hands": {
                "Ann": {"tricks": 4, "bid": 4, "premium": "reveal"},
                "Ben": {"tricks": 5, "made": False},
                "Cat": {"tricks": 0, "bid_cards": ["diamonds", "diamonds", "diamonds"]},
            }
        }
    ],
}


@pytest.fixture
def imported(alice_client: Client, alice: User) -> GameSession:
    response = alice_client.post("/sessions/import/", {"file": scoresheet_file(SHEET)})
    assert response.status_code == 302
    return GameSession.objects.get(owner=alice)


def test_it_requires_login(client: Client, db: None) -> None:
    for url in [
        "/sessions/",
        "/sessions/import/",
        "/sessions/abc/",
        "/sessions/abc/scoresheet.json",
    ]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_it_imports_a_scoresheet(alice_client: Client, alice: User) -> None:
    Player.objects.create(owner=alice, name="ann")
    assert alice_client.get("/sessions/import/").status_code == 200
    response = alice_client.post("/sessions/import/", {"file": scoresheet_file(SHEET)})
    session = GameSession.objects.get(owner=alice)
    assert response["Location"] == f"/sessions/{session.public_id}/"
    assert session.title == "Friday at Sam's"
    assert str(session.played_on) == "2026-11-20"
    # "ann" was on the roster already; Ben and Cat are new.
    assert sorted(Player.objects.filter(owner=alice).values_list("name", flat=True)) == [
        "Ben",
        "Cat",
        "ann",
    ]
    assert Deal.objects.filter(session=session).count() == 1
    cat = Hand.objects.get(deal__session=session, seat__player__name="Cat")
    assert (cat.tricks, cat.bid, cat.bid_cards) == (0, None, "DDD")


def test_it_shows_the_session(alice_client: Client, imported: GameSession) -> None:
    response = alice_client.get(f"/sessions/{imported.public_id}/")
    assert response.status_code == 200
    page = response.text
    assert "Friday at Sam&#x27;s" in page
    # Worked example of RULES.md §1.3: Ann 84, Ben 5, Cat 20.
    assert ">84<" in page and ">20<" in page and ">5<" in page
    assert ">Deal 2</h2>" in page
    assert "Ben" in page.split("Dealer")[1][:80]  # seat 2 deals the second deal


def test_it_lists_sessions(alice_client: Client, imported: GameSession) -> None:
    response = alice_client.get("/sessions/")
    assert response.status_code == 200
    assert f"/sessions/{imported.public_id}/" in response.text


def test_it_downloads_the_scoresheet(alice_client: Client, imported: GameSession) -> None:
    response = alice_client.get(f"/sessions/{imported.public_id}/scoresheet.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["players"] == ["ann", "Ben", "Cat"] or data["players"] == ["Ann", "Ben", "Cat"]
    assert data["deals"][0]["result"]["Ann"] == {"bid": 4, "made": True, "points": 84}
    assert data["next"]["number"] == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe", "That file is not text"),
        (b"{not json", "line 1"),
        (b"[]", "holds one JSON object"),
        ({**SHEET, "ruleset": "snap"}, "ruleset"),
        (
            {
                **SHEET,
                "deals": [
                    {
                        "hands": {
                            "Ann": {"tricks": 4, "bid": 4},
                            "Ben": {"tricks": 4, "bid": 4},
                            "Cat": {"tricks": 0, "bid": 0},
                        }
                    }
                ],
            },
            "deals[0]",
        ),
    ],
)
def test_it_rejects_bad_files(
    alice_client: Client, alice: User, content: object, message: str
) -> None:
    response = alice_client.post("/sessions/import/", {"file": scoresheet_file(content)})
    assert response.status_code == 200
    assert "is-invalid" in response.text
    assert message in response.text
    assert not GameSession.objects.exists()
    assert not Player.objects.exists()


def test_it_requires_a_file(alice_client: Client) -> None:
    response = alice_client.post("/sessions/import/", {})
    assert response.status_code == 200
    assert "Choose a scoresheet file to upload." in response.text


def test_it_rejects_a_huge_file(alice_client: Client) -> None:
    big = io.BytesIO(b" " * 5_000_001)
    upload = SimpleUploadedFile("big.json", big.getvalue())
    response = alice_client.post("/sessions/import/", {"file": upload})
    assert "too big" in response.text
    assert not GameSession.objects.exists()


def test_it_refuses_a_body_declared_over_the_servers_bound_before_reading_it(
    alice_client: Client,
) -> None:
    """Under a server that reads bodies as the view asks (WSGI), the view holds the async
    server's bound (settings.MAX_REQUEST_BODY) itself, with the import's own message."""
    from django.conf import settings

    over = settings.MAX_REQUEST_BODY + 1
    response = alice_client.post(
        "/sessions/import/",
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(over),
    )
    assert response.status_code == 413
    assert "That file is too big for a scoresheet (over 5 MB)." in response.text
    assert not GameSession.objects.exists()


def test_it_keeps_sessions_private(bob_client: Client, imported: GameSession) -> None:
    assert bob_client.get(f"/sessions/{imported.public_id}/").status_code == 404
    assert bob_client.get(f"/sessions/{imported.public_id}/scoresheet.json").status_code == 404
    assert imported.public_id not in bob_client.get("/sessions/").text


def test_it_404s_for_an_unknown_session(alice_client: Client) -> None:
    assert alice_client.get("/sessions/000000000000/").status_code == 404


def _titles(client: Client, query: str = "") -> list[str]:
    import re

    page = client.get(f"/sessions/{query}").text
    return re.findall(r'<span class="session-title">([^<]*)</span>', page)


def test_filters_and_search(alice_client: Client, alice: User) -> None:
    from scorekeeper.services import create_adding_session, create_session

    ann, ben, cat, dan = (
        Player.objects.create(owner=alice, name=n) for n in ["Ann", "Ben", "Cat", "Dan"]
    )
    create_session(
        owner=alice,
        ruleset="parlett-jokerless",
        options={},
        players=[ann, ben, cat],
        title="Friday",
    )
    create_session(
        owner=alice, ruleset="four", options={}, players=[ann, ben, cat, dan], title="Four"
    )
    create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=[ben, dan], title="Pennies"
    )
    assert sorted(_titles(alice_client)) == ["Four", "Friday", "Pennies"]
    assert _titles(alice_client, "?family=adding") == ["Pennies"]
    assert _titles(alice_client, "?ruleset=trick:four") == ["Four"]
    assert sorted(_titles(alice_client, f"?player={dan.pk}")) == ["Four", "Pennies"]
    assert _titles(alice_client, "?q=fri") == ["Friday"]
    assert sorted(_titles(alice_client, "?q=dan")) == ["Four", "Pennies"]
    assert _titles(alice_client, "?status=finished") == []
    assert len(_titles(alice_client, "?status=playing")) == 3
    assert len(_titles(alice_client, "?since=2000-01-01&until=2999-01-01")) == 3
    assert _titles(alice_client, "?until=2000-01-01") == []
    page = alice_client.get("/sessions/?since=2026-02-01&until=2026-01-01").text
    assert "The end date is before the start date." in page
    page = alice_client.get("/sessions/?player=999999").text
    assert "Select a valid choice." in page


def test_pagination(alice_client: Client, alice: User) -> None:
    from scorekeeper.services import create_session

    seated = [Player.objects.create(owner=alice, name=n) for n in ["Ann", "Ben", "Cat"]]
    for number in range(23):
        create_session(
            owner=alice, ruleset="parlett-jokerless", options={}, players=seated, title=f"S{number}"
        )
    assert len(_titles(alice_client)) == 20
    page = alice_client.get("/sessions/?q=S&page=2").text
    assert "Page 2 of 2" in page
    assert len(_titles(alice_client, "?q=S&page=2")) == 3
    assert "?q=S&amp;page=1" in page


def test_the_session_page_draws_running_totals(alice_client: Client, imported: GameSession) -> None:
    page = alice_client.get(f"/sessions/{imported.public_id}/").text
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in page
    assert "Ann ends on 84. Ben ends on 5. Cat ends on 20." in page
    assert page.count("<polyline") == 3


def test_it_downloads_csv(alice_client: Client, imported: GameSession) -> None:
    import csv
    import io

    response = alice_client.get(f"/sessions/{imported.public_id}/session.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:9] == [
        "deal",
        "dealer",
        "leader",
        "trump",
        "Ann bid",
        "Ann tricks",
        "Ann made",
        "Ann premium",
        "Ann points",
    ]
    assert rows[1][:4] == ["1", "Ann", "Ben", "diamonds"]
    # Made in words, and the premium bid.
    assert rows[1][4:9] == ["4", "4", "made", "reveal", "84"]
    assert rows[1][9:14] == ["", "5", "failed", "", "5"]  # Ben's failed bid stayed hidden
    assert rows[1][-3:] == ["84", "5", "20"]


def test_csv_is_private(bob_client: Client, imported: GameSession) -> None:
    assert bob_client.get(f"/sessions/{imported.public_id}/session.csv").status_code == 404
