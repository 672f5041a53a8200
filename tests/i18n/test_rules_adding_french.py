"""The adding game's rules speak French through Django's catalogue: proposals,
cheat-sheet lines, the card table, plurals and problems, with the fields in place."""

from django.utils import translation

from scorekeeper.rules.adding import (
    CARD_TABLES,
    PRESETS,
    Event,
    describe_event,
    new_count,
    play_card,
    prose,
    resolve_rules,
    score_session,
    show_tokens,
    tell_event,
)
from scorekeeper.rules.adding.entries import RoundEntry
from scorekeeper.rules.adding.scoring import check_rounds
from tests.french import needs_french

pytestmark = needs_french
NBSP = "\u00a0"
PLAYERS = ("Ann", "Ben", "Cat")


def test_a_hit_is_proposed_in_french() -> None:
    rules = resolve_rules("thirty-three", {}, PLAYERS)
    rule = next(rule for rule in rules.events if (rule.event, rule.target) == ("hit", 33))
    with translation.override("fr"):
        sentence = tell_event(rules, rule, Event("Ben", "hit", 33))
    assert sentence == f"Ben a atteint 33{NBSP}: tous les autres paient 1 jeton."
    with translation.override("en"):
        assert tell_event(rules, rule, Event("Ben", "hit", 33)) == (
            "Ben hit 33: everyone else pays 1 token."
        )


def test_tokens_and_folds_take_french_plurals() -> None:
    rules = resolve_rules("thirty-three", {}, PLAYERS)
    bill = resolve_rules("dollar-bill", {}, PLAYERS)
    with translation.override("fr"):
        assert rules.amount(0) == "0 jeton"
        assert rules.amount(1) == "1 jeton"
        assert rules.amount(2) == "2 jetons"
        assert rules.amount(1_000_000) == "1000000 de jetons"
        assert show_tokens(bill, 3) == "3 pliures restantes"
        assert prose.bill_shows(bill, 3) == "1 coin plié"


def test_a_bust_on_the_cheat_sheet_in_french() -> None:
    rules = resolve_rules("ninety-nine", {}, PLAYERS)
    (bust,) = rules.events
    with translation.override("fr"):
        assert describe_event(rules, bust) == (
            f"Crève{NBSP}: vous perdez 1 jeton{NBSP}; la manche se termine."
        )
        assert prose.bust_line(rules) == (
            "Si vous ne pouvez pas jouer sans faire dépasser 99 au total, vous crevez."
        )
        assert prose.round_lines(rules)[-1] == "Le dernier en jeu gagne."


def test_the_card_table_in_french() -> None:
    with translation.override("fr"):
        cells = dict(CARD_TABLES["pagat-99"].cells)
        name = translation.gettext(CARD_TABLES["thirty-three"].name)
        thirty = dict(CARD_TABLES["thirty-three"].cells)
    assert cells["R"] == "le total passe à 99"
    assert cells["A"] == "1 ou 11"
    assert cells["4"] == f"0, et le sens du jeu s’inverse (à 2 joueurs{NBSP}: passe)"
    assert cells["9"] == "0 (passe)"
    assert thirty["2"] == (
        f"divise par deux un total pair au-dessus de 49{NBSP}; sinon double le total"
    )
    assert name == "33, 66, 99"


def test_preset_names_and_descriptions_in_french() -> None:
    with translation.override("fr"):
        assert translation.gettext(PRESETS["ninety-nine"].name) == "Quatre-vingt-dix-neuf"
        assert translation.gettext(PRESETS["sudden-death"].name) == "Mort subite"
        # "3 to 10" comes from rules.bounds, translated there.
        assert PRESETS["one-hundred"].players_label.endswith(" joueurs")
        assert PRESETS["sudden-death"].players_label.endswith(" joueurs")


def test_a_refused_card_and_a_problem_in_french() -> None:
    rules = resolve_rules("ninety-nine", {}, PLAYERS)
    count = new_count(rules, score_session(rules, []))
    assert count is not None
    for card in ("9", "K"):
        count = play_card(rules, count, card).count
    with translation.override("fr"):
        played = play_card(rules, count, "2")
        problems = check_rounds(rules, [RoundEntry((Event("Zoé", "bust"),))])
        problem = str(problems[0])
    assert played.refused == f"Le 2 ferait 101, au-delà de 99{NBSP}: il n’est pas compté."
    assert "(le 2 ferait 101)" in played.proposals[0].sentence
    assert problem == (f"Manche 1, événement 1 (Zoé){NBSP}: Zoé ne joue pas dans cette séance.")
