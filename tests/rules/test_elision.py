"""Which names French elides « de » before (« d’Anne », « d’Automne 2026 », « de Ben »): the
wording a sentence with a name takes in French hangs on it (scorekeeper.rules.i18n)."""

import pytest

from scorekeeper.rules.i18n import vowel_sound_first


@pytest.mark.parametrize(
    ("name", "vowel"),
    [
        ("Anne", True),
        ("Élodie", True),
        ("  Ursula", True),
        ("Autumn 2026", True),
        ("Hiver 2026", True),  # a mute h
        ("Yves", True),  # a y before a consonant sounds as a vowel
        ("Yann", False),
        ("Ben", False),
        ("Saison 2026", False),
        ("2026", False),
        ("", False),
    ],
)
def test_a_name_begins_with_a_vowel_sound(name: str, vowel: bool) -> None:
    assert vowel_sound_first(name) is vowel
