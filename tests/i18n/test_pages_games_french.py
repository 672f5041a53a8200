"""The game pages in French: the trick and adding tables, a rule sheet and a score pad, asked
for by a browser whose language is French (Accept-Language), read the catalogue's French.

They need the compiled catalogue (the setup scripts compile it); without it they are skipped.
"""

from django.test import Client

from scorekeeper.models import GameSession, Player
from scorekeeper.services import create_adding_session, create_session
from tests.french import needs_french

pytestmark = needs_french

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


def _page(client: Client, url: str) -> str:
    response = client.get(url, **FRENCH)
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_the_trick_table_in_french(alice_client: Client, roster: list[Player]) -> None:
    game = create_session(
        owner=roster[0].owner,
        ruleset="parlett-jokerless",
        options={},
        players=roster,
        title="Vendredi",
    )
    page = _page(alice_client, f"/sessions/{game.public_id}/")
    for french in [
        "Donne 1",
        "Donneur",
        "Entame",
        "Atout",
        "Annonce",
        "Plis",
        "Enregistrer la donne 1",
        "Chaque main\u00a0: cartes d’annonce ou annonce, puis plis.",
        "Pavé de saisie",
        "Classement",
        "Aucune donne pour l’instant.",
        'data-bid-text="{hand}\u00a0: annonce"',
    ]:
        assert french in page, french
    for english in ["Each hand: bid-cards or bid", "No deals yet.", ">Standings</h2>", "Keypad"]:
        assert english not in page, english


def test_it_shows_the_adding_table_in_french(alice_client: Client, roster: list[Player]) -> None:
    game: GameSession = create_adding_session(
        owner=roster[0].owner, ruleset="thirty-three", options={}, players=roster, title="Samedi"
    )
    page = _page(alice_client, f"/sessions/{game.public_id}/")
    for french in [
        "Manche 1",
        "Donneur",
        "Compter les cartes\u00a0: total, tour et événements",
        "Classement",
        "Joueur",
        "Aucune manche pour l’instant\u00a0: touchez ce qui arrive",
    ]:
        assert french in page, french
    for english in ["Count the cards", "No rounds yet", ">Standings</h2>", "Undo the last tap"]:
        assert english not in page, english


def test_it_prints_a_trick_rule_sheet_in_french(client: Client) -> None:
    page = _page(client, "/rules/trick/parlett-classic/")
    for french in [
        "À la table",
        "Annoncer avec les cartes d’annonce",
        "Carte d’annonce",
        "Marquer une donne",
        "Qui donne et qui entame",
        "Fin de la séance",
        "Imprimer cet aide-mémoire",
        "Feuille de marque vierge pour",
    ]:
        assert french in page, french
    for english in ["Bidding with bid-cards", "Scoring a deal", "Print this sheet"]:
        assert english not in page, english


def test_it_prints_an_adding_rule_sheet_in_french(client: Client) -> None:
    page = _page(client, "/rules/adding/ninety-nine/")
    for french in ["Comment jouer", "Ce que font les cartes", "Les manches et la fin"]:
        assert french in page, french
    assert "How to play" not in page


def test_it_prints_a_score_pad_in_french(client: Client) -> None:
    page = _page(client, "/rules/trick/parlett-classic/pad/")
    for french in ["feuille de marque", "Date\u00a0:", "Imprimer cette feuille", "Nom du joueur 1"]:
        assert french in page, french
    for english in ["Print this pad", "Name of player 1"]:
        assert english not in page, english


def test_it_keeps_english_for_an_english_browser(client: Client) -> None:
    page = client.get("/rules/trick/parlett-classic/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bidding with bid-cards" in page
    assert "Annoncer avec les cartes" not in page
