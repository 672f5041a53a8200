"""The presenters in French: headings, labels, sentences and plural forms follow the active
language, and English stays as it is.

These need the compiled French catalogue (the setup scripts compile it); without it they skip.
"""

from typing import cast

from django.utils import translation

from scorekeeper.models import Change, ChangeAction
from scorekeeper.presenters import adding as adding_presenter
from scorekeeper.presenters import trick as trick_presenter
from scorekeeper.presenters.history import session_change_words
from scorekeeper.presenters.sheets import PadColumn
from scorekeeper.rules import adding, trick
from tests.french import needs_french

pytestmark = needs_french

NAMES = ["Ann", "Ben", "Cat"]
NBSP = "\u00a0"  # French puts a non-breaking space before : ; ! ?


def _worked_example() -> trick.SessionResult:
    """RULES.md §1.3: Ann 4 tricks bid 4 and revealed (84), Ben failed (5), Cat 0 bid 0 (20)."""
    rules = trick.resolve_rules("parlett-jokerless", {}, NAMES)
    deal = trick.DealEntry(
        hands={
            "Ann": trick.HandEntry(4, bid=4, premium="reveal"),
            "Ben": trick.HandEntry(5, made=False),
            "Cat": trick.HandEntry(0, bid=0),
        }
    )
    return trick.score_session(rules, [deal])


def test_a_saved_deal_is_told_in_french_with_the_plural_of_who_made_it() -> None:
    result = _worked_example()
    with translation.override("fr"):
        told = trick_presenter.deal_saved_message(result.deals[-1])
        made = trick_presenter.table_context(result)["last_deal_made"]
    assert told.startswith("Donne 1 enregistrée. ")
    assert f"ont réussi{NBSP}: Ann +84, Ben +5, Cat +20." in told
    assert str(made).endswith("ont réussi")
    with translation.override("en"):
        assert trick_presenter.deal_saved_message(result.deals[-1]).startswith(
            "Deal 1 saved. Ann and Cat made it: Ann +84, Ben +5, Cat +20."
        )


def test_a_hand_s_points_and_words_in_french() -> None:
    result = _worked_example()
    ann = result.deals[-1].hands[0]
    with translation.override("fr"):
        assert trick_presenter.breakdown(ann).startswith("4 plis + ")
        assert "de prime" in trick_presenter.breakdown(ann)
        assert trick_presenter.hand_words(trick.HandEntry(1, bid=1)) == "1 pli, annonce 1"
        assert trick_presenter.hand_words(trick.HandEntry(5, made=False)) == (
            "5 plis, échoué (annonce gardée secrète)"
        )
        assert trick_presenter.hand_words(trick.HandEntry(4, bid=4, premium="reveal")) == (
            "4 plis, annonce 4, prime dévoilée"
        )
    with translation.override("en"):
        assert trick_presenter.hand_words(trick.HandEntry(4, bid=4, premium="reveal")) == (
            "4 tricks, bid 4, Reveal premium"
        )


def test_french_plurals_count_zero_and_one_as_singular() -> None:
    result = trick.score_session(trick.resolve_rules("parlett-jokerless", {}, NAMES), [])
    with translation.override("fr"):
        assert trick_presenter.standing_words(result, "Ann") == "0 point"
    with translation.override("en"):
        assert trick_presenter.standing_words(result, "Ann") == "0 points"
    with translation.override("fr"):
        assert trick_presenter.standing_words(_worked_example(), "Ann") == "84 points"


def test_the_score_pad_s_columns_in_french() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, NAMES)
    with translation.override("fr"):
        pad = trick_presenter.pad_context(rules)
    deal_columns = cast(list[PadColumn], pad["deal_columns"])
    labels = [column.label for column in cast(list[PadColumn], pad["hand_columns"])]
    assert [column.label for column in deal_columns][:2] == ["Donneur", "Atout"]
    assert labels[:2] == ["Annonce", "Faits"]
    assert labels[-1] == "Total"
    assert pad["row_noun"] == "Donne"


def test_the_adding_game_in_french_tokens_out_and_the_table_display() -> None:
    rules = adding.resolve_rules("sudden-death", {}, NAMES)  # 1 token each
    result = adding.score_session(rules, [adding.RoundEntry((adding.Event("Ben", "bust"),))])
    with translation.override("fr"):
        strip = adding_presenter.strip(result)
        board = adding_presenter.board(result)
        told = adding_presenter.last_tap_message(result)
        context = adding_presenter.table_context(result)
    assert strip[1].value == "hors jeu"
    assert board.figure_label == "Jetons restants"
    assert dict(board.facts)["Manche"] == "2"
    assert "Ben est hors jeu." in told
    assert told.startswith(f"Ben{NBSP}: ")
    assert context["strip_label"] == "Jetons restants, et la variation de la dernière manche"
    with translation.override("en"):
        assert adding_presenter.board(result).figure_label == "Tokens left"
        assert adding_presenter.strip(result)[1].value == "out"


def test_the_history_in_french() -> None:
    with translation.override("fr"):
        assert trick_presenter.change_label(Change(action=ChangeAction.ADDED, number=3)) == (
            "Donne 3 saisie"
        )
        assert adding_presenter.change_label(Change(action=ChangeAction.ADDED, number=2)) == (
            "Événement à la manche 2"
        )
        seated = Change(
            action=ChangeAction.SEATED, before={"seats": ["Ann", "Ben"]}, after={"seats": []}
        )
        _, before, _ = session_change_words(seated, "deal")
        stopped = Change(action=ChangeAction.ABANDONED, before={}, after={"played": 4})
        _, _, after = session_change_words(stopped, "round")
    assert before == [f"Place 1{NBSP}: Ann", f"Place 2{NBSP}: Ben"]
    assert after == ["Arrêtée après la manche 4"]


def test_the_cheat_sheet_s_card_table_keeps_its_english_rows() -> None:
    table = adding.CARD_TABLES[adding.resolve_rules("thirty-three", {}, NAMES).card_table]
    with translation.override("en"):
        shown = adding_presenter.sheet_table(table)
    assert (shown.name, shown.cells, shown.notes) == (table.name, table.cells, table.notes)
