"""The trick game's words go through translation (scorekeeper.rules.i18n, issue 19).

A fake translator is installed for each test and the one before it put back: it knows a few
messages "in French", records every message and plural it is asked for, and says which language
is active. The rules must ask for whole sentences, fill their fields after translating, ask
ngettext for plurals, and keep ids, option values and file data in English.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from scorekeeper.rules import i18n
from scorekeeper.rules.bounds import number, shown_problems
from scorekeeper.rules.common import Problem, check_player_names, join_names, seat_names
from scorekeeper.rules.trick import (
    DUMMY,
    PRESETS,
    DealEntry,
    HandEntry,
    Match,
    TrickRules,
    check_deals,
    hand_label,
    prose,
    resolve_rules,
    score_session,
    trump_label,
    trump_word,
)
from scorekeeper.rules.trick.entries import _DUMMY_WORD
from scorekeeper.rules.trick.options import OPTIONS, OPTIONS_BY_NAME

H = HandEntry
NAMES = ("Ann", "Ben", "Cat")

FRENCH = {
    "Tricks add up to {total}; a deal has {tricks}.": (
        "Les plis font {total} au total\u00a0; une donne en compte {tricks}."
    ),
    "Deal {number}: {message}": "Donne {number}\u00a0: {message}",
    "Seat {number}": "Place {number}",
    "Classic Ninety-Nine": "Quatre-vingt-dix-neuf classique",
    "{name}, house rules: {rules}": "{name}, règles maison\u00a0: {rules}",
    "; ": "\u00a0; ",
    "trump {lower}": "atout {lower}",
    "Named by the declarer": "Choisi par le déclarant",
    "Dummy": "Le mort",
    "diamonds": "carreau",
    "none": "sans-atout",
    "Diamonds": "Carreau",
    "No trump": "Sans-atout",
    "The trump for this deal is {expected}, not {entered}.": (
        "L’atout de cette donne est {expected}, pas {entered}."
    ),
    "{names} and {last}": "{names} et {last}",
    "1,000": "1\u00a0000",
    "A player name": "Un nom de joueur",
}
FRENCH_PLURALS = {
    "{deals} deal": ("{deals} donne", "{deals} donnes"),
    "Win all {count} trick": ("Remportez {count} pli", "Remportez les {count} plis"),
    "Game {number} is over: {names} wins it.": (
        "La partie {number} est finie\u00a0: {names} la gagne.",
        "La partie {number} est finie\u00a0: {names} la gagnent.",
    ),
    "The session is over: {names} wins.": (
        "La séance est finie\u00a0: {names} gagne.",
        "La séance est finie\u00a0: {names} gagnent.",
    ),
    "{what} can be at most {longest} character long.": (
        "{what} ne peut pas dépasser {longest} caractère.",
        "{what} ne peut pas dépasser {longest} caractères.",
    ),
}


@dataclass
class FakeTranslator:
    """French for the messages it knows (while `language` is "fr"), English for the rest."""

    language: str = "fr"
    asked: list[str] = field(default_factory=list)
    plurals: list[tuple[str, str, int]] = field(default_factory=list)

    def gettext(self, message: str) -> str:
        self.asked.append(message)
        return FRENCH.get(message, message) if self.language == "fr" else message

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        self.plurals.append((singular, plural, count))
        if self.language == "fr" and singular in FRENCH_PLURALS:
            return FRENCH_PLURALS[singular][0 if count in (0, 1) else 1]
        return singular if count == 1 else plural

    def active(self) -> str:
        return self.language


@pytest.fixture
def fake() -> Iterator[FakeTranslator]:
    before = (i18n._gettext, i18n._ngettext, i18n._language)
    translator = FakeTranslator()
    # The fake's "French" is not the catalogue's: keep neither in the best-deal cache.
    prose._best_deal.cache_clear()
    i18n.install(translator.gettext, translator.ngettext, translator.active)
    try:
        yield translator
    finally:
        i18n.install(*before)
        prose._best_deal.cache_clear()


def rules_for(preset: str = "parlett-jokerless", **options: object) -> TrickRules:
    return resolve_rules(preset, options, list(NAMES))


def test_a_problem_is_translated_whole_with_its_fields_filled(fake: FakeTranslator) -> None:
    entry = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(2, bid=2)})
    [problem] = check_deals(rules_for(), [entry])
    assert problem.message == "Les plis font 8 au total\u00a0; une donne en compte 9."
    assert str(problem) == "Donne 1\u00a0: Les plis font 8 au total\u00a0; une donne en compte 9."
    assert "Tricks add up to {total}; a deal has {tricks}." in fake.asked
    assert problem.path == "deals[0].hands"  # a place in the file: never translated


def test_a_trump_in_a_sentence_is_a_word_and_the_entered_value_stays_an_id(
    fake: FakeTranslator,
) -> None:
    rules = rules_for()  # the first deal is played with diamonds as trump
    entry = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(3, bid=3)}, "none")
    [problem] = check_deals(rules, [entry])
    assert problem.message == "L’atout de cette donne est carreau, pas sans-atout."
    assert entry.trump == "none"
    assert trump_word("diamonds") == "carreau"
    assert trump_label("diamonds") == "♦ Carreau"
    assert trump_label("none") == "Sans-atout"


def test_english_is_unchanged_without_a_translator() -> None:
    entry = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(2, bid=2)})
    [problem] = check_deals(rules_for(), [entry])
    assert str(problem) == "Deal 1: Tricks add up to 8; a deal has 9."
    assert number(10_000) == "10,000"
    assert join_names(["Ann", "Ben", "Cat"]) == "Ann, Ben and Cat"


def test_plurals_are_asked_of_ngettext_with_the_whole_phrase(fake: FakeTranslator) -> None:
    assert Match("deals", deals=1).brief() == "1 donne"
    assert Match("deals", deals=18).brief() == "18 donnes"
    assert ("{deals} deal", "{deals} deals", 1) in fake.plurals
    assert ("{deals} deal", "{deals} deals", 18) in fake.plurals
    fake.language = "en"
    assert Match("deals", deals=1).brief() == "1 deal"
    assert Match("deals", deals=18).brief() == "18 deals"
    assert PRESETS["custom"].players_label == "2 to 5 players"
    assert ("{players} player", "{players} players", 5) in fake.plurals
    assert PRESETS["two-dummy"].players_label == "2 players + dummy"


def test_news_is_told_in_the_language_active_when_it_is_read(fake: FakeTranslator) -> None:
    """A result is kept per version and shown to phones in different languages."""
    fake.language = "en"
    rules = rules_for(match={"type": "deals", "deals": 1})
    entry = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(3, bid=2)})
    result = score_session(rules, [entry])
    assert result.deals[0].announcements == ("The session is over: Ann and Ben win.",)
    fake.language = "fr"
    assert result.deals[0].announcements == ("La séance est finie\u00a0: Ann et Ben gagnent.",)
    assert ("The session is over: {names} wins.", "The session is over: {names} win.", 2) in (
        fake.plurals
    )


def test_the_game_over_news_takes_the_plural_by_how_many_won(fake: FakeTranslator) -> None:
    rules = rules_for("custom", bonus=[100, 100], match={"type": "rubber"})
    one = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=2), "Cat": H(3, bid=2)})
    two = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(3, bid=2)})
    alone = score_session(rules, [one]).deals[0].announcements[0]
    both = score_session(rules, [two]).deals[0].announcements[0]
    assert alone == "La partie 1 est finie\u00a0: Ann la gagne."
    assert both == "La partie 1 est finie\u00a0: Ann et Ben la gagnent."


def test_the_best_deal_is_cached_per_language(fake: FakeTranslator) -> None:
    rules = rules_for()
    fake.language = "en"
    english = prose.best_deal(rules)
    fake.language = "fr"
    french = prose.best_deal(rules)
    assert english is not None and french is not None
    assert english.how.startswith("Win all 9 tricks")
    assert french.how.startswith("Remportez les 9 plis")
    assert english.total == french.total == 99
    fake.language = "en"
    assert prose.best_deal(rules) == english  # the English one is still there, not the French


def test_the_rule_sheet_words_are_translated_where_shown(fake: FakeTranslator) -> None:
    rules = rules_for("parlett-classic", trump="declared")
    assert rules.title == (
        "Quatre-vingt-dix-neuf classique, règles maison\u00a0: atout choisi par le déclarant"
    )
    assert seat_names(2) == ["Place 1", "Place 2"]
    assert hand_label(DUMMY) == "Le mort"
    assert hand_label("Ann") == "Ann"


def test_ids_option_values_and_file_data_stay_english(fake: FakeTranslator) -> None:
    rules = rules_for("parlett-classic", trump="declared")
    assert PRESETS["parlett-classic"].name == "Classic Ninety-Nine"  # the id of the message
    assert OPTIONS_BY_NAME["trump"].label == "Trump for each deal"
    assert rules.options_data()["trump"] == "declared"
    assert rules.overrides_data() == {"trump": "declared"}
    assert [option.name for option in OPTIONS][:2] == ["trump", "first_trump"]
    assert DUMMY == _DUMMY_WORD == "dummy"  # the key of the dummy's hand, read as a word


def test_bounds_and_shared_messages_are_translated(fake: FakeTranslator) -> None:
    assert number(10_000) == "10\u00a0000"
    [problem] = check_player_names(["x" * 41])
    assert problem.message == "Un nom de joueur ne peut pas dépasser 40 caractères."
    lines = shown_problems([Problem("", "a")] * 52)
    assert lines[-1] == "… and 2 more problems."  # no French given: the English, pluralised
    assert ("… and {count} more problem.", "… and {count} more problems.", 2) in fake.plurals
