"""Bad input said in French: a form posted with Accept-Language: fr names what is wrong and
where in French, and a scoresheet import lists its problems in French (the file's keys, its
contract, stay as they are)."""

import re

import pytest
from django import forms
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from scorekeeper.forms.deals import DealForm
from scorekeeper.models import Deal, GameSession, Player
from scorekeeper.services import create_session
from tests.factories import scoresheet_file, worked_deal_form
from tests.french import needs_french

pytestmark = needs_french

FR = {"Accept-Language": "fr"}
HX = {"HX-Request": "true", "HX-Target": "entry-status"}
NBSP = "\u00a0"


def _text(response: object) -> str:
    return response.text.replace("&#x27;", "'").replace("&nbsp;", NBSP)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Tapez le nom du joueur."),
        ("x" * 41, "Un nom compte au plus 40 caractères."),
        ("ann", "Vous avez déjà un joueur nommé Ann."),
    ],
)
def test_a_bad_player_name_is_said_in_french(
    alice_client: Client, roster: list[Player], name: str, message: str
) -> None:
    response = alice_client.post("/players/", {"name": name}, headers=FR)
    assert response.status_code == 200
    page = _text(response)
    assert message in page
    assert 'lang="fr"' in page or "Nom" in page  # the field's label is French too


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"h0-tricks": "-1"}, f"Ann{NBSP}: Les plis ne peuvent pas être négatifs."),
        ({"h0-tricks": "x"}, f"Ann{NBSP}: Les plis sont un nombre entier."),
        ({"h0-bid": "12"}, f"Ann{NBSP}: Une annonce vaut au plus 9."),
        ({"h2-cards": "DDX"}, f"Cat{NBSP}: Touchez au plus trois couleurs de cartes d’annonce."),
    ],
)
def test_a_bad_deal_names_the_hand_in_french(
    alice_client: Client, game: GameSession, overrides: dict[str, str], message: str
) -> None:
    response = alice_client.post(
        f"/sessions/{game.public_id}/",
        worked_deal_form(**{"h0-premium": ""} | overrides),
        headers=FR | HX,
    )
    assert response.status_code == 200
    assert message in _text(response)
    assert not Deal.objects.exists()


def test_the_deal_forms_words_are_french(game: GameSession) -> None:
    with translation.override("fr"):
        form = DealForm(rules=game.rules())
        assert form.fields["h0-tricks"].label == "Plis gagnés par Ann"
        assert form.fields["h1-made"].label == "Ben a-t-il réussi son annonce\u00a0?"
        made = form.fields["h1-made"]
        assert isinstance(made, forms.ChoiceField)
        assert [str(label) for _, label in made.choices] == [
            "D’après l’annonce",
            "Réussie ✓",
            "Chutée ✗",
        ]
    with translation.override("en"):
        assert DealForm(rules=game.rules()).fields["h0-tricks"].label == "Tricks won by Ann"


@pytest.mark.parametrize(
    ("name", "of"),
    [
        ("Anne", "d’Anne"),
        ("Ben", "de Ben"),
        ("Hugo", "d’Hugo"),
        ("Hélène", "d’Hélène"),
        ("Élodie", "d’Élodie"),
        ("Yves", "d’Yves"),
        ("Yann", "de Yann"),
    ],
)
def test_the_deal_forms_words_elide_de_before_a_vowel(alice: User, name: str, of: str) -> None:
    """French writes « l’annonce d’Anne » but « de Ben », and « d’Hugo » (a mute h)."""
    players = [Player.objects.create(owner=alice, name=n) for n in (name, "Zoé", "Xavier")]
    game = create_session(owner=alice, ruleset="parlett-classic", options={}, players=players)
    with translation.override("fr"):
        form = DealForm(rules=game.rules())
        hand = form.hands()[0]
        assert form.fields["h0-bid"].label == f"Annonce {of} en nombre"
        assert form.fields["h0-premium"].label == f"Annonce à prime {of}"
        assert hand["bid"].label == f"Annonce {of}"
        assert hand["cards_group"] == f"Cartes d’annonce {of}"
        assert hand["cards_clear"] == f"Effacer les cartes d’annonce {of}"
        questions = [group["question"] for group in hand["choices"]]
        assert questions == [f"Annonce {of} réussie{NBSP}?", f"Annonce à prime {of}"]
    with translation.override("en"):
        hand = DealForm(rules=game.rules()).hands()[0]
        assert hand["bid"].label == f"Bid of {name}"
        assert hand["cards_clear"] == f"Clear {name}'s bid cards"


def test_a_seat_taken_twice_is_said_in_french(alice_client: Client, roster: list[Player]) -> None:
    ann, ben, *_ = roster
    response = alice_client.post(
        "/sessions/new/trick/parlett-jokerless/",
        {"seat_0": ann.pk, "seat_1": ann.pk, "seat_2": ben.pk},
        headers=FR,
    )
    assert response.status_code == 200
    page = _text(response)
    assert "Ann a déjà une place." in page
    assert "Place 2 donne en premier" in re.sub(r"<[^>]+>", "", page)  # beside its seat


def test_the_sessions_filter_says_its_dates_are_wrong_in_french(alice_client: Client) -> None:
    response = alice_client.get(
        "/sessions/", {"since": "2026-11-20", "until": "2026-11-01"}, headers=FR
    )
    page = _text(response)
    assert "La date de fin précède la date de début." in page
    assert "Les deux jeux" in page


def test_a_rename_to_the_same_name_is_refused_in_french(
    alice_client: Client, game: GameSession
) -> None:
    response = alice_client.post(
        f"/sessions/{game.public_id}/manage/", {"fix_name": "1", "seat1-name": "Ann"}, headers=FR
    )
    assert "C’est déjà le nom à la place 1." in _text(response)


def test_an_import_with_errors_lists_them_in_french(alice_client: Client) -> None:
    sheet = {
        "format": "ninety-nine-scoresheet",
        "version": 1,
        "family": "trick",
        "ruleset": "parlett-jokerless",
        "players": ["Ann", "Ben", "Cat"],
        "title": 7,
        "deals": [{"hands": {"Ann": {"tricks": -1}}, "colour": "red"}],
    }
    response = alice_client.post("/sessions/import/", {"file": scoresheet_file(sheet)}, headers=FR)
    assert response.status_code == 200
    page = _text(response)
    # Each problem names its place in the file by the file's own keys (FORMAT.md: a contract).
    for path, message in [
        ("title", "doit être du texte"),
        ("deals[0].colour", "clé inconnue"),
        ("deals[0].hands.Ann.tricks", "doit être un nombre entier ≥ 0"),
    ]:
        assert re.search(rf"{re.escape(path)}\s?: {re.escape(message)}", page), (path, page)
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe", "Ce fichier n’est pas du texte (UTF-8)"),
        (b"{not json", "Ce n’est pas du JSON valide (ligne 1, colonne 2)"),
        (b"[]", "Un fichier de feuille de score contient un seul objet JSON {…}, pas une liste."),
        (b"", "Choisissez un fichier de feuille de score à envoyer."),
    ],
)
def test_an_unreadable_file_is_said_in_french(
    alice_client: Client, content: bytes, message: str
) -> None:
    data = {"file": scoresheet_file(content)} if content else {}
    response = alice_client.post("/sessions/import/", data, headers=FR)
    assert response.status_code == 200
    assert message in _text(response)


def test_english_stays_as_it_was(alice_client: Client, roster: list[Player]) -> None:
    response = alice_client.post("/players/", {"name": "x" * 41}, headers={"Accept-Language": "en"})
    assert "A name can be at most 40 characters." in _text(response)
