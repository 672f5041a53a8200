"""The trick game's rules speak French through Django's catalogue: problems, plural
forms, house rules, cheat-sheet prose and a deal's news, while ids and file data stay English.

These need the compiled French catalogue (the setup scripts compile it); without it they skip.
"""

from django.utils import translation

from scorekeeper.rules import trick
from scorekeeper.rules.common import check_player_names
from scorekeeper.rules.trick import prose
from tests.french import needs_french

pytestmark = needs_french

NAMES = ["Ann", "Ben", "Cat"]
NBSP = "\u00a0"  # French puts a non-breaking space before : ; ! ?
H = trick.HandEntry


def test_the_tricks_do_not_add_up_in_french() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, NAMES)
    entry = trick.DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(2, bid=2)})
    with translation.override("fr"):
        [problem] = trick.check_deals(rules, [entry])
        shown = str(problem)
    assert problem.message == f"Les plis font 8 au total{NBSP}; une donne en compte 9."
    assert shown == f"Donne 1{NBSP}: Les plis font 8 au total{NBSP}; une donne en compte 9."
    assert problem.path == "deals[0].hands"


def test_a_wrong_trump_names_the_suits_in_french() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, NAMES)
    entry = trick.DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(3, bid=3)}, "none")
    with translation.override("fr"):
        [problem] = trick.check_deals(rules, [entry])
        label = trick.trump_label("hearts")
    assert problem.message == "L’atout de cette donne est carreau, pas sans-atout."
    assert label == "♥ Cœur"


def test_plural_forms_follow_french() -> None:
    with translation.override("fr"):
        one = trick.Match("deals", deals=1).brief()
        many = trick.Match("deals", deals=18).brief()
        players = trick.PRESETS["custom"].players_label
    assert (one, many) == ("1 donne", "18 donnes")
    assert players == "2 à 5 joueurs"


def test_house_rules_and_the_rules_title_in_french() -> None:
    rules = trick.resolve_rules("parlett-classic", {"trump": "declared"}, NAMES)
    with translation.override("fr"):
        title = rules.title
    assert (
        title
        == f"Quatre-vingt-dix-neuf classique, règles maison{NBSP}: atout choisi par le déclarant"
    )
    assert rules.options_data()["trump"] == "declared"  # the file keeps the id


def test_the_cheat_sheet_prose_is_french_and_cached_per_language() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, NAMES)
    with translation.override("fr"):
        best = prose.best_deal(rules)
        trump = prose.trump_lines(rules)
    with translation.override("en"):
        english = prose.best_deal(rules)
    assert best is not None and english is not None
    assert best.how == "Remportez les 9 plis en étant le seul à réussir votre annonce, et dévoilez."
    assert english.how == "Win all 9 tricks as the only one to make your bid, and reveal."
    assert trump[0] == f"Première donne{NBSP}: ♦ Carreau."


def test_a_kept_result_tells_its_news_in_the_language_of_the_page() -> None:
    rules = trick.resolve_rules(
        "parlett-jokerless", {"match": {"type": "deals", "deals": 1}}, NAMES
    )
    entry = trick.DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(3, bid=2)})
    with translation.override("en"):
        result = trick.score_session(rules, [entry])
    with translation.override("fr"):
        news = result.deals[0].announcements
    assert news == (f"La séance est finie{NBSP}: Ann et Ben gagnent.",)


def test_player_name_problems_in_french() -> None:
    with translation.override("fr"):
        [long] = check_player_names(["x" * 41])
        [twice] = check_player_names(["Ann", "ann"])[-1:]
    assert long.message == "Un nom de joueur ne peut pas dépasser 40 caractères."
    assert twice.message == f"«{NBSP}ann{NBSP}» joue déjà sous le nom «{NBSP}Ann{NBSP}»."
