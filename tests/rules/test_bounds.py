"""The bounds of RULES.md §3, as the rules package enforces them: each at its edge and past it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import adding, bounds, trick
from scorekeeper.rules.common import InvalidRules, check_player_names

PLAYERS = ["Ann", "Ben", "Cat"]


@pytest.mark.parametrize(
    ("one", "other"),
    [("Éva", "éva"), ("Straße", "STRASSE"), ("Ｅｖａ", "Eva"), ("ﬁnn", "Finn"), ("É", "E\u0301")],
)
def test_names_people_read_alike_share_a_key(one: str, other: str) -> None:
    assert bounds.name_key(one) == bounds.name_key(other)


def test_names_that_differ_keep_apart() -> None:
    assert bounds.name_key("Éva") != bounds.name_key("Eva")
    assert bounds.name_key("Ann") != bounds.name_key("Anne")


@pytest.mark.parametrize(
    "text", ["Ann\x00", "tab\there", "new\nline", "\u202eevil", "x\u2028y", "\ud800", "\ue000"]
)
def test_control_characters_are_refused(text: str) -> None:
    assert "control characters" in (bounds.text_problem(text, "A name", 40) or "")


@pytest.mark.parametrize("text", ["Ann", "Zoë", "李雷", "👩‍👩‍👧", "Anne-Marie O'Neil"])
def test_ordinary_names_pass(text: str) -> None:
    assert bounds.text_problem(text, "A name", 40) is None


def test_length_is_bounded() -> None:
    assert bounds.text_problem("x" * 40, "A name", 40) is None
    assert (
        bounds.text_problem("x" * 41, "A name", 40) == "A name can be at most 40 characters long."
    )


def test_player_names_are_unique_by_key() -> None:
    problems = check_player_names(["Éva", "Cat", "éva"])
    assert [(p.path, p.message) for p in problems] == [
        ("players[2]", '"éva" is already playing as "Éva".')
    ]
    reserved = check_player_names(["DUMMY"], reserved=["dummy"])
    assert [p.message for p in reserved] == ['"DUMMY" is reserved in this game; pick another name.']
    assert check_player_names(["Ann\x00"])[0].message.startswith("A player name cannot hold")


def test_problems_are_cut_short_with_a_count() -> None:
    assert bounds.shown_problems(list(range(3))) == ["0", "1", "2"]
    lines = bounds.shown_problems(list(range(bounds.SHOWN_PROBLEMS + 9_812)))
    assert len(lines) == bounds.SHOWN_PROBLEMS + 1
    assert lines[-1] == "… and 9,812 more problems."
    assert bounds.shown_problems(list(range(bounds.SHOWN_PROBLEMS + 1)))[-1] == (
        "… and 1 more problem."
    )


# The trick game


@pytest.mark.parametrize(
    ("match", "ok"),
    [
        ({"type": "deals", "deals": 999}, True),
        ({"type": "deals", "deals": 1000}, False),
        ({"type": "target", "target": 10_000}, True),
        ({"type": "target", "target": 10_001}, False),
        ({"type": "long", "games": 99}, True),
        ({"type": "long", "games": 100}, False),
        ({"type": "deals", "deals": 2**70}, False),
    ],
)
def test_match_settings_are_bounded(match: dict[str, object], ok: bool) -> None:
    if ok:
        assert trick.resolve_rules("custom", {"match": match}, PLAYERS).match.to_data() == match
    else:
        with pytest.raises(InvalidRules) as caught:
            trick.resolve_rules("custom", {"match": match}, PLAYERS)
        assert "must be a whole number from 1 to" in str(caught.value)


@given(st.lists(st.integers(-5, 2_000), max_size=14))
def test_a_bonus_row_is_bounded(row: list[int]) -> None:
    fits = len(row) <= bounds.MAX_PLAYERS and all(0 <= v <= bounds.MAX_BONUS for v in row)
    try:
        rules = trick.resolve_rules("custom", {"bonus": row}, PLAYERS)
    except InvalidRules as error:
        assert not fits
        assert [p.path for p in error.problems] == ["options.bonus"]
    else:
        assert fits and rules.bonus == tuple(row)


def _deal(tricks: tuple[int, int, int] = (3, 3, 3)) -> trick.DealEntry:
    return trick.DealEntry(
        {
            name: trick.HandEntry(tricks=won, made=True)
            for name, won in zip(PLAYERS, tricks, strict=True)
        }
    )


def test_a_session_holds_at_most_2000_deals() -> None:
    longest = {"match": {"type": "target", "target": 10_000}, "bonus": [], "premiums": []}
    rules = trick.resolve_rules("custom", longest, PLAYERS)
    assert trick.check_deals(rules, [_deal()] * bounds.MAX_DEALS) == []
    problems = trick.check_deals(rules, [_deal()] * 100_000)
    assert [(p.path, str(p)) for p in problems] == [
        ("deals[2000]", "Deal 2001: A session has at most 2,000 deals; this one has 100,000.")
    ]


# The adding game


@pytest.mark.parametrize(("tokens", "ok"), [(1, True), (99, True), (100, False), (0, False)])
def test_tokens_are_bounded(tokens: int, ok: bool) -> None:
    if ok:
        assert adding.resolve_rules("custom", {"tokens": tokens}, PLAYERS).tokens == tokens
    else:
        with pytest.raises(InvalidRules, match="Must be a whole number from 1 to 99."):
            adding.resolve_rules("custom", {"tokens": tokens}, PLAYERS)


@given(st.integers(-300, 300))
def test_an_adjustment_is_bounded(amount: int) -> None:
    rules = adding.resolve_rules("thirty-three", {}, PLAYERS)
    rounds = [adding.RoundEntry((adding.Event("Ann", "adjust", tokens=amount),))]
    problems = adding.check_rounds(rules, rounds)
    assert (problems == []) == (0 < abs(amount) <= bounds.MAX_ADJUST)


def test_rounds_and_events_are_bounded() -> None:
    rules = adding.resolve_rules("ninety-eight", {}, PLAYERS)
    bust = adding.Event("Ann", "bust")
    assert adding.check_rounds(rules, [adding.RoundEntry((bust,))] * bounds.MAX_DEALS) == []
    too_many = adding.check_rounds(rules, [adding.RoundEntry((bust,))] * (bounds.MAX_DEALS + 1))
    assert [p.path for p in too_many] == ["rounds[2000]"]
    adjust = adding.Event("Ann", "adjust", tokens=1)
    assert adding.check_rounds(rules, [adding.RoundEntry((adjust,) * bounds.MAX_EVENTS)]) == []
    crowded = adding.check_rounds(rules, [adding.RoundEntry((adjust,) * 201)])
    assert [str(p) for p in crowded] == [
        "Round 1: A round has at most 200 events; this one has 201."
    ]


def test_players_are_bounded() -> None:
    names = [f"P{n}" for n in range(11)]
    assert adding.resolve_rules("ninety-nine", {}, names[:10]).players == tuple(names[:10])
    with pytest.raises(InvalidRules, match="2 to 10 players; 11 given"):
        adding.resolve_rules("ninety-nine", {}, names)
