"""The adding game's words go through rules.i18n: whole messages with their fields filled after
translation, counts through ngettext, and module-level data kept as English ids.

A fake translator (every message wrapped in ⟨…⟩, plurals tagged with the form chosen) shows
what was translated and how, without a catalogue; the English output is checked elsewhere."""

from collections.abc import Iterator

import pytest

from scorekeeper.rules import i18n
from scorekeeper.rules.adding import (
    CARD_TABLES,
    EVENT_LABELS,
    PRESETS,
    AddingRules,
    Event,
    RoundProblem,
    describe_event,
    new_count,
    play_card,
    prose,
    resolve_rules,
    score_session,
    show_tokens,
    tell_event,
)
from scorekeeper.rules.adding.count import InvalidPlay
from scorekeeper.rules.adding.entries import RoundEntry
from scorekeeper.rules.adding.options import OPTIONS_BY_NAME
from scorekeeper.rules.adding.scoring import check_rounds
from scorekeeper.rules.bounds import MAX_TOKENS
from scorekeeper.rules.common import InvalidRules

Calls = list[tuple[str, str, int]]
PLAYERS = ("Ann", "Ben", "Cat")


def fake_gettext(message: str) -> str:
    return f"⟨{message}⟩"


def fake_ngettext(singular: str, plural: str, count: int) -> str:
    return f"⟨one: {singular}⟩" if count == 1 else f"⟨many: {plural}⟩"


@pytest.fixture
def translated() -> Iterator[list[tuple[str, str, int]]]:
    """A fake language installed for the test (and the real one put back after); yields the
    ngettext calls made."""
    saved = (i18n._gettext, i18n._ngettext, i18n._language)
    calls: list[tuple[str, str, int]] = []

    def ngettext(singular: str, plural: str, count: int) -> str:
        calls.append((singular, plural, count))
        return fake_ngettext(singular, plural, count)

    i18n.install(fake_gettext, ngettext, lambda: "xx")
    try:
        yield calls
    finally:
        i18n.install(*saved)


def thirty_three() -> AddingRules:
    return resolve_rules("thirty-three", {}, PLAYERS)


def test_a_proposal_is_one_translated_sentence_with_its_fields_filled(translated: Calls) -> None:
    rules = thirty_three()
    rule = next(rule for rule in rules.events if (rule.event, rule.target) == ("hit", 33))
    sentence = tell_event(rules, rule, Event("Ben", "hit", 33))
    # Each template is translated, then its fields filled (the count by ngettext).
    assert sentence == "⟨⟨Ben hit 33⟩: ⟨everyone else pays ⟨one: 1 token⟩⟩.⟩"
    assert ("{count} token", "{count} tokens", 1) in translated


def test_a_card_over_the_limit_is_refused_and_its_bust_told_in_the_language(
    translated: Calls,
) -> None:
    rules = thirty_three()
    count = new_count(rules, score_session(rules, []))
    assert count is not None
    for card in ("K",) * 9 + ("5",):  # 95
        count = play_card(rules, count, card).count
    assert count.total == 95
    played = play_card(rules, count, "K")
    # The card's name goes through the language too ("K" is "R" in French).
    assert played.refused == "⟨The ⟨K⟩ would make 105, over 99: it is not counted.⟩"
    (bust,) = played.proposals
    player = bust.event.player
    assert bust.sentence == (
        f"⟨⟨⟨{player} busts⟩ (⟨the ⟨K⟩ would make 105⟩)⟩: "
        f"⟨{player} pays ⟨many: 2 tokens⟩⟩; the round ends.⟩"
    )


def test_amounts_are_whole_phrases_through_ngettext(translated: Calls) -> None:
    rules = thirty_three()
    assert rules.amount(1) == "⟨one: 1 token⟩"
    assert rules.amount(3) == "⟨many: 3 tokens⟩"
    assert rules.amount(-1) == "⟨one: -1 token⟩"
    bill = resolve_rules("dollar-bill", {}, PLAYERS)
    assert bill.amount(2) == "⟨many: 2 folds⟩"
    assert show_tokens(bill, 2) == "⟨many: 2 folds left⟩"
    assert ("{count} fold left", "{count} folds left", 2) in translated
    wilson = resolve_rules("wilson", {}, PLAYERS)
    assert wilson.amount(1) == "⟨one: 1 game point⟩"


def test_cheat_sheet_lines_are_translated_whole(translated: Calls) -> None:
    rules = thirty_three()
    rule = next(rule for rule in rules.events if rule.event == "bust")
    # The event's label (an English id) is translated where it is shown.
    assert describe_event(rules, rule) == "⟨⟨Bust⟩: ⟨you lose ⟨many: 2 tokens⟩⟩; the round ends.⟩"
    assert prose.bust_line(rules) == (
        "⟨If you cannot play without taking the total over 99, you bust.⟩"
    )
    assert prose.cards_held(rules.preset) == "⟨many: 3 cards each⟩"


def test_the_card_table_words_are_translated(translated: Calls) -> None:
    cells = dict(CARD_TABLES["one-hundred"].cells)
    assert "⟨Black A⟩" in cells and "⟨Q♥⟩" in cells
    assert cells["⟨Q♥⟩"] == "⟨total becomes 0⟩"
    assert cells["4"] == "⟨0, and play reverses⟩"
    thirty = dict(CARD_TABLES["thirty-three"].cells)
    assert thirty["2"] == "⟨halves an even total over 49; otherwise doubles the total⟩"
    ace = dict(CARD_TABLES["pagat-99"].cells)["A"]
    assert ace == "⟨1 or 11⟩"


def test_problems_are_translated_with_their_fields(translated: Calls) -> None:
    rules = thirty_three()
    problems = check_rounds(rules, [RoundEntry((Event("Zoe", "bust"),))])
    assert problems[0].message == "⟨Zoe is not playing in this session.⟩"
    assert str(problems[0]) == "⟨Round 1, event 1 (Zoe): ⟨Zoe is not playing in this session.⟩⟩"
    with pytest.raises(InvalidRules) as raised:
        resolve_rules("wilson", {"tokens": 4}, PLAYERS)
    message = raised.value.problems[0].message
    assert message == "⟨“⟨Tokens each⟩” does not apply: ⟨Wilson⟩ counts game points, not tokens.⟩"


def test_count_messages_are_translated(translated: Calls) -> None:
    rules = thirty_three()
    count = new_count(rules, score_session(rules, []))
    assert count is not None
    with pytest.raises(InvalidPlay) as raised:
        play_card(rules, count, "A", 5)
    assert raised.value.message == "⟨Count the A as 1 or 11.⟩"


def test_data_read_at_import_stays_english() -> None:
    """Ids and names kept in data are the English ids, whatever language is active."""
    assert EVENT_LABELS["bust"] == "Bust"
    assert PRESETS["thirty-three"].name == "Thirty-Three"
    assert CARD_TABLES["pagat-99"].name == "Pagat's Ninety-Nine"
    assert OPTIONS_BY_NAME["tokens"].label == "Tokens each player starts with"


def test_the_tokens_hint_names_the_bound() -> None:
    # The hint is a whole id, so its number is spelled out: it must follow the bound.
    assert OPTIONS_BY_NAME["tokens"].sheet_help == f"a whole number from 1 to {MAX_TOKENS}"


def test_round_problem_in_english_without_a_translator() -> None:
    problem = RoundProblem(1, 0, "player", "Gone.", "Ann")
    assert str(problem) == "Round 2, event 1 (Ann): Gone."
    assert str(RoundProblem(0, None, None, "Empty.")) == "Round 1: Empty."
