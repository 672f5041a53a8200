"""The site's own pages in French: the welcome and account pages, the player and
session pages, saved rules and the error pages, asked for with `Accept-Language: fr`.

They need the compiled catalogue (the setup scripts make it); without it they are skipped.
The same pages in English are covered by the view tests, which must not change."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import GameSession, Player, SavedRuleset
from scorekeeper.rules import adding
from scorekeeper.services import Who, create_adding_session, record_event
from tests.factories import finished_session
from tests.french import needs_french

pytestmark = needs_french

NBSP = "\u00a0"


def french(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url, headers={"Accept-Language": "fr"})
    assert response.status_code == status, url
    return response.content.decode()


@pytest.fixture
def friday(alice: User, roster: list[Player]) -> GameSession:
    """A finished trick-game session of one deal."""
    return finished_session(alice, roster, title="Friday")


@pytest.mark.django_db
def test_welcome_and_account_pages_speak_french(client: Client, alice: User) -> None:
    page = french(client, "/")
    assert '<html lang="fr"' in page
    assert "Tenez la marque du Quatre-vingt-dix-neuf à table" in page
    assert "<strong>99 et compagnie</strong>, le jeu d’addition" in page
    assert "Aller au contenu" in page
    assert "Keep score of Ninety-Nine" not in page

    login = french(client, "/accounts/login/")
    assert "<title>Se connecter · 99 Compte-points</title>" in login
    assert f"Nouveau ici{NBSP}?" in login
    assert "Créez un compte</a>." in login

    signup = french(client, "/accounts/signup/")
    assert f"Vos joueurs et vos parties n’appartiennent qu’à vous{NBSP}:" in signup


@pytest.mark.django_db
def test_home_players_and_footer(alice_client: Client, friday: GameSession, alice: User) -> None:
    home = french(alice_client, "/")
    assert "Bonjour, alice" in home
    assert "Vous avez 3 joueurs dans votre liste." in home
    assert ">Séances</a>" in home
    assert "Déconnecter alice" in home
    assert f"Couleurs{NBSP}: Auto" in home
    assert "(passer en clair)" in home

    players = french(alice_client, "/players/")
    assert "Les personnes avec qui vous jouez." in players
    assert "Ajouter le joueur" in players
    assert "Dans votre liste" in players


@pytest.mark.django_db
def test_session_pages_with_plurals(alice_client: Client, friday: GameSession) -> None:
    sessions = french(alice_client, "/sessions/")
    assert "Commencer une nouvelle séance" in sessions
    assert ">Terminées</h2>" in sessions
    assert "1 donne ·" in sessions  # one deal: the singular, in French as in English
    assert f"Revanche de «{NBSP}Friday{NBSP}»{NBSP}: Ben donne en premier" in sessions

    base = f"/sessions/{friday.public_id}/"
    manage = french(alice_client, base + "manage/")
    assert '<h1 class="h3 mb-1">Gérer la séance</h1>' in manage
    assert "Rejouer" in manage
    assert f"Les places sont figées{NBSP}: 1 donne a été saisie avec elles." in manage
    assert "Place 1" in manage

    share = french(alice_client, base + "share/")
    assert "Le classement en direct pour toute la table" in share
    assert "Activer un lien spectateur" in share

    history = french(alice_client, base + "history/")
    assert "Historique des modifications" in history
    assert "par alice" in history

    table = french(alice_client, base)
    assert "Télécharger en CSV (tableur)" in table
    assert "Affichage de table" in table

    delete = french(alice_client, base + "manage/delete/")
    assert f"Supprimer «{NBSP}Friday{NBSP}»{NBSP}?" in delete


@pytest.mark.django_db
def test_new_session_rulesets_and_errors(alice_client: Client) -> None:
    new = french(alice_client, "/sessions/new/")
    assert "Choisissez le jeu et les règles auxquelles vous jouez." in new

    rulesets = french(alice_client, "/rulesets/")
    assert "Vous n’avez encore enregistré aucune règle." in rulesets
    assert f"«{NBSP}Nos règles du vendredi{NBSP}»" in rulesets

    missing = french(alice_client, "/players/999999/", status=404)
    assert "Rien ici" in missing
    assert "Aller à l’accueil" in missing


@pytest.mark.django_db
def test_adding_game_pages_say_rounds(
    alice_client: Client, alice: User, roster: list[Player]
) -> None:
    pennies = create_adding_session(
        owner=alice, ruleset="thirty-three", options={}, players=roster, title="Pennies"
    )
    event = adding.Event(player="Cat", event="bust")
    record_event(session=pennies, state="0.0", event=event, who=Who(alice))
    base = f"/sessions/{pennies.public_id}/"
    manage = french(alice_client, base + "manage/")
    assert f"Les places sont figées{NBSP}: 1 manche a été saisie avec elles." in manage
    assert "Abandonnez la séance" in manage
    assert "saisir la manche suivante la reprend aussi" in manage
    assert "1 manche jusqu’ici" in french(alice_client, "/")
    replace = french(alice_client, base + "manage/seats/3/")
    assert "Qui prend la place de Cat à partir de maintenant" in replace
    assert "Cat s’en va" in replace


@pytest.mark.django_db
def test_saved_rules_pages(alice_client: Client, alice: User, friday: GameSession) -> None:
    saved = SavedRuleset.objects.create(
        owner=alice, name="Vendredi", family="trick", ruleset="parlett-classic", options={}
    )
    detail = french(alice_client, f"/rulesets/{saved.pk}/")
    assert "Commencer une séance avec ces règles" in detail
    assert "Aide-mémoire" in detail
    assert "aucune règle maison" in detail
    delete = french(alice_client, f"/rulesets/{saved.pk}/delete/")
    assert f"Supprimer «{NBSP}Vendredi{NBSP}»{NBSP}?" in delete
    assert "Les règles sont supprimées définitivement." in delete
    change = french(alice_client, f"/rulesets/{saved.pk}/change/")
    assert f"Modifier «{NBSP}Vendredi{NBSP}»" in change
    assert "Règle maison" in change


@pytest.mark.django_db
def test_english_stays_the_default(alice_client: Client, friday: GameSession) -> None:
    home = alice_client.get("/").content.decode()
    assert '<html lang="en"' in home
    assert "You have 3 players on your roster." in home
    manage = alice_client.get(f"/sessions/{friday.public_id}/manage/").content.decode()
    assert "The seats are fixed: 1 deal was entered for them." in manage
