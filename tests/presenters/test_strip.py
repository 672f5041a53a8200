"""The standings strip at the top of a table page, worked out by hand from RULES.md."""

from scorekeeper.presenters import adding as adding_presenter
from scorekeeper.presenters import trick as trick_presenter
from scorekeeper.presenters.common import StripCell
from scorekeeper.rules import adding, trick

NAMES = ["Ann", "Ben", "Cat"]


def test_the_trick_game_shows_totals_and_the_last_deal_in_seat_order() -> None:
    rules = trick.resolve_rules("parlett-jokerless", {}, NAMES)
    assert trick_presenter.strip(trick.score_session(rules, [])) == [
        StripCell(name, "0", "", leads=False) for name in NAMES
    ]
    worked_example = trick.DealEntry(  # RULES.md §1.3: Ann 84, Ben 5, Cat 20
        hands={
            "Ann": trick.HandEntry(4, bid=4, premium="reveal"),
            "Ben": trick.HandEntry(5, made=False),
            "Cat": trick.HandEntry(0, bid=0),
        }
    )
    all_made = trick.DealEntry(hands={name: trick.HandEntry(3, bid=3) for name in NAMES})
    result = trick.score_session(rules, [worked_example, all_made])  # 3 + 10 each
    assert trick_presenter.strip(result) == [
        StripCell("Ann", "97", "+13", leads=True),
        StripCell("Ben", "18", "+13", leads=False),
        StripCell("Cat", "33", "+13", leads=False),
    ]


def test_the_adding_game_shows_tokens_and_what_the_round_changed() -> None:
    rules = adding.resolve_rules("thirty-three", {}, NAMES)  # 9 tokens; a hit 33 costs 1 each
    rounds = [
        adding.RoundEntry((adding.Event("Ann", "hit", 33), adding.Event("Ben", "bust"))),
    ]
    result = adding.score_session(rules, rounds)
    assert adding_presenter.strip(result) == [
        StripCell("Ann", "9", "", leads=True),
        StripCell("Ben", "6", "-3", leads=False),  # 1 for Ann's hit, 2 for the bust
        StripCell("Cat", "8", "-1", leads=False),
    ]


def test_a_player_out_says_so() -> None:
    rules = adding.resolve_rules("sudden-death", {}, NAMES)  # 1 token each
    result = adding.score_session(rules, [adding.RoundEntry((adding.Event("Ben", "bust"),))])
    assert adding_presenter.strip(result) == [
        StripCell("Ann", "1", "", leads=True),
        StripCell("Ben", "out", "-1", leads=False, out=True),
        StripCell("Cat", "1", "", leads=True),
    ]
