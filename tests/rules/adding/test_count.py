"""The count assistant of the adding game (RULES.md §2.1, §2.3, §2.5): every card of every
table, the turn, the events a card proposes, undo, the stored shape, and invariants over random
rounds (hypothesis). The expected effects are written again here from RULES.md §2.5."""

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import bounds
from scorekeeper.rules.adding import (
    CARD_TABLES,
    AddingResult,
    AddingRules,
    Count,
    Event,
    InvalidPlay,
    Play,
    Played,
    Proposal,
    RoundEntry,
    add_event,
    allowed_events,
    card_choices,
    check_rounds,
    events_for,
    follow_count,
    new_count,
    open_proposals,
    play_card,
    resolve_rules,
    score_session,
    tell_event,
    undo_card,
)
from scorekeeper.rules.adding.cards import ASK_TOTAL, ASK_VALUE, SKIP
from scorekeeper.rules.adding.count import CLOCKWISE, COUNTER_CLOCKWISE
from tests.rules.adding.test_properties import rules_st as any_rules

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")

# The preset that plays each card table (the regional tables: ninety-nine-standard's option).
TABLE_PRESET = {
    "pagat-99": "ninety-nine",
    "standard": "ninety-nine-standard",
    "thirty-three": "thirty-three",
    "wilson": "wilson",
    "stack-1950s": "on-honor",
    "one-hundred": "one-hundred",
    "ninety-eight": "ninety-eight",
    "arizona": "ninety-eight-arizona",
    "alternate": "ninety-nine-standard",
    "chicago": "ninety-nine-standard",
    "hawaii": "ninety-nine-standard",
    "iceland": "ninety-nine-standard",
    "taiwan": "ninety-nine-standard",
}


def rules_for(preset: str = "ninety-nine", count: int = 4, **options: object) -> AddingRules:
    return resolve_rules(preset, options, NAMES[:count])


def table_rules(table: str, count: int = 4) -> AddingRules:
    preset = TABLE_PRESET[table]
    options = {"card_table": table} if preset == "ninety-nine-standard" else {}
    return rules_for(preset, count, **options)


def start(rules: AddingRules, *events: Event) -> tuple[Count, AddingResult, tuple[RoundEntry, ...]]:
    """A session with these events recorded, its result, and the count of the next round."""
    rounds: tuple[RoundEntry, ...] = ()
    for event in events:
        rounds = add_event(rules, rounds, event)
    result = score_session(rules, rounds)
    count = new_count(rules, result)
    assert count is not None
    return count, result, rounds


def at(
    rules: AddingRules,
    total: int,
    turn: str = "Ann",
    direction: int = CLOCKWISE,
    **seats: tuple[str, ...],
) -> Count:
    """A count of round 1 standing at `total`, with `turn` to play."""
    before = Play("Q", None, rules.players[-1], total, direction, turn)
    return Count(1, rules.players[-1], rules.players, plays=(before,), **seats)


def tap(rules: AddingRules, count: Count, *cards: str) -> Count:
    """Cards played one after another ("A=11", "10=-10", "5=Cat"), each counted."""
    for text in cards:
        card, _, choice = text.partition("=")
        picked: int | str | None = None
        if choice:
            picked = int(choice) if choice.lstrip("-").isdigit() else choice
        played = play_card(rules, count, card, picked)
        assert played.counted, played.refused
        count = played.count
    return count


def sentences(played: Played) -> list[str]:
    return [proposal.sentence for proposal in played.proposals]


def events(played: Played) -> list[Event]:
    return [proposal.event for proposal in played.proposals]


# Every card of every table (RULES.md §2.5)

NEXT, REVERSES, SKIPS, TWICE = "next", "reverses", "skips", "twice"


def face(table: str, *numbers: int) -> list[tuple[str, str, None, int, int, str]]:
    return [(table, str(number), None, 50, 50 + number, NEXT) for number in numbers]


def plus_minus_ten(table: str) -> list[tuple[str, str, int, int, int, str]]:
    return [(table, "10", 10, 50, 60, NEXT), (table, "10", -10, 50, 40, NEXT)]


def ace(table: str, high: int = 11) -> list[tuple[str, str, int, int, int, str]]:
    return [(table, "A", 1, 50, 51, NEXT), (table, "A", high, 50, 50 + high, NEXT)]


# (table, card, choice, total before, total after, what happens to the turn): NEXT, REVERSES,
# SKIPS, TWICE (the next player plays two cards), or the player chosen to play next.
CARD_EFFECTS = [
    *ace("pagat-99"),
    ("pagat-99", "2", None, 50, 52, NEXT),
    ("pagat-99", "3", None, 50, 53, NEXT),
    ("pagat-99", "4", None, 50, 50, REVERSES),
    *face("pagat-99", 5, 6, 7, 8),
    ("pagat-99", "9", None, 50, 50, NEXT),
    *plus_minus_ten("pagat-99"),
    ("pagat-99", "J", None, 50, 60, NEXT),
    ("pagat-99", "Q", None, 50, 60, NEXT),
    ("pagat-99", "K", None, 50, 99, NEXT),
    *ace("standard"),
    ("standard", "2", None, 50, 52, NEXT),
    ("standard", "3", None, 50, 53, SKIPS),
    ("standard", "4", None, 50, 50, REVERSES),
    *face("standard", 5, 6, 7, 8),
    ("standard", "9", None, 50, 99, NEXT),
    *plus_minus_ten("standard"),
    ("standard", "J", None, 50, 60, NEXT),
    ("standard", "Q", None, 50, 60, NEXT),
    ("standard", "K", None, 50, 50, NEXT),
    *ace("thirty-three"),
    ("thirty-three", "2", None, 0, 0, NEXT),
    ("thirty-three", "2", None, 31, 62, NEXT),
    ("thirty-three", "2", None, 48, 96, NEXT),
    ("thirty-three", "2", None, 49, 98, NEXT),
    ("thirty-three", "2", None, 50, 25, NEXT),
    ("thirty-three", "2", None, 62, 31, NEXT),
    ("thirty-three", "2", None, 98, 49, NEXT),
    ("thirty-three", "3", None, 50, 53, NEXT),
    ("thirty-three", "4", None, 50, 54, REVERSES),
    *face("thirty-three", 5, 6, 7, 8),
    ("thirty-three", "9", None, 50, 50, NEXT),
    *plus_minus_ten("thirty-three"),
    ("thirty-three", "J", None, 50, 60, SKIPS),
    ("thirty-three", "Q", None, 50, 60, NEXT),
    ("thirty-three", "K", None, 50, 60, NEXT),
    *ace("wilson"),
    ("wilson", "2", None, 50, 52, NEXT),
    ("wilson", "3", None, 50, 53, NEXT),
    ("wilson", "4", None, 50, 54, NEXT),
    *face("wilson", 5, 6, 7),
    ("wilson", "8", None, 50, 50, REVERSES),
    ("wilson", "9", None, 50, 50, NEXT),
    *plus_minus_ten("wilson"),
    ("wilson", "J", None, 50, 60, NEXT),
    ("wilson", "Q", None, 50, 60, NEXT),
    ("wilson", "K", None, 50, 60, NEXT),
    *ace("stack-1950s"),
    ("stack-1950s", "2", None, 50, 52, NEXT),
    ("stack-1950s", "3", None, 50, 53, NEXT),
    ("stack-1950s", "4", None, 50, 54, NEXT),
    *face("stack-1950s", 5, 6, 8),
    ("stack-1950s", "7", None, 50, 57, REVERSES),
    ("stack-1950s", "9", None, 50, 50, NEXT),
    *plus_minus_ten("stack-1950s"),
    ("stack-1950s", "J", None, 50, 60, NEXT),
    ("stack-1950s", "Q", None, 50, 60, NEXT),
    ("stack-1950s", "K", None, 50, 60, NEXT),
    ("one-hundred", "Black A", 0, 50, 0, NEXT),
    ("one-hundred", "Black A", 37, 50, 37, NEXT),
    ("one-hundred", "Black A", 100, 50, 100, NEXT),
    ("one-hundred", "Red A", None, 50, 51, NEXT),
    ("one-hundred", "2", None, 50, 52, NEXT),
    ("one-hundred", "2♠", None, 40, 80, NEXT),
    ("one-hundred", "2♠", None, 50, 100, NEXT),
    ("one-hundred", "3", None, 50, 53, NEXT),
    ("one-hundred", "4", None, 50, 50, REVERSES),
    ("one-hundred", "Red 5", None, 50, 45, NEXT),
    ("one-hundred", "Black 5", None, 50, 55, NEXT),
    *face("one-hundred", 6, 7, 8),
    ("one-hundred", "9", None, 50, 59, NEXT),
    ("one-hundred", "10", None, 50, 100, NEXT),
    ("one-hundred", "J", None, 50, 40, NEXT),
    ("one-hundred", "Q", None, 50, 60, NEXT),
    ("one-hundred", "Q♥", None, 50, 0, NEXT),
    ("one-hundred", "K", None, 50, 50, NEXT),
    ("ninety-eight", "A", None, 50, 51, NEXT),
    ("ninety-eight", "2", None, 50, 52, NEXT),
    ("ninety-eight", "3", None, 50, 53, NEXT),
    ("ninety-eight", "4", None, 50, 54, NEXT),
    *face("ninety-eight", 5, 6, 7, 8),
    ("ninety-eight", "9", None, 50, 59, NEXT),
    ("ninety-eight", "10", None, 50, 40, NEXT),
    ("ninety-eight", "J", None, 50, 50, NEXT),
    ("ninety-eight", "Q", None, 50, 50, NEXT),
    ("ninety-eight", "K", None, 50, 98, NEXT),
    *ace("arizona"),
    ("arizona", "2", None, 50, 52, NEXT),
    ("arizona", "3", None, 50, 53, NEXT),
    ("arizona", "4", None, 50, 50, NEXT),
    *face("arizona", 5, 6, 7, 8),
    ("arizona", "9", None, 50, 50, REVERSES),
    ("arizona", "10", None, 50, 60, NEXT),
    ("arizona", "J", None, 50, 40, NEXT),
    ("arizona", "Q", None, 50, 50, NEXT),
    ("arizona", "K", None, 50, 98, NEXT),
    ("arizona", "Joker", None, 50, 98, TWICE),
    *ace("alternate"),
    ("alternate", "2", None, 50, 52, NEXT),
    ("alternate", "3", None, 50, 53, NEXT),
    ("alternate", "4", None, 50, 54, NEXT),
    *face("alternate", 5, 6, 7, 8),
    ("alternate", "9", None, 50, 50, NEXT),
    ("alternate", "10", None, 50, 40, NEXT),
    ("alternate", "J", None, 50, 60, NEXT),
    ("alternate", "Q", None, 50, 60, NEXT),
    ("alternate", "K", None, 50, 99, NEXT),
    *ace("chicago"),
    ("chicago", "2", None, 50, 52, NEXT),
    ("chicago", "3", None, 50, 53, SKIPS),
    ("chicago", "4", None, 50, 50, REVERSES),
    *face("chicago", 5, 6, 7, 8),
    ("chicago", "9", None, 50, 50, SKIPS),
    ("chicago", "10", None, 50, 40, NEXT),
    ("chicago", "J", None, 50, 60, NEXT),
    ("chicago", "Q", None, 50, 60, NEXT),
    ("chicago", "K", None, 50, 99, NEXT),
    *ace("hawaii"),
    ("hawaii", "2", None, 50, 52, NEXT),
    ("hawaii", "3", None, 50, 53, SKIPS),
    ("hawaii", "4", None, 50, 50, REVERSES),
    ("hawaii", "5", None, 50, 45, NEXT),
    *face("hawaii", 6, 7, 8),
    ("hawaii", "9", None, 50, 99, NEXT),
    ("hawaii", "10", None, 50, 40, NEXT),
    ("hawaii", "J", None, 50, 99, NEXT),
    ("hawaii", "Q", None, 50, 60, NEXT),
    ("hawaii", "K", None, 50, 50, NEXT),
    *ace("iceland", high=14),
    ("iceland", "2", None, 50, 52, NEXT),
    ("iceland", "3", None, 50, 53, NEXT),
    ("iceland", "4", None, 50, 50, REVERSES),
    ("iceland", "5", None, 50, 55, SKIPS),
    ("iceland", "6", None, 50, 56, NEXT),
    ("iceland", "7", None, 50, 57, REVERSES),
    ("iceland", "8", None, 50, 58, NEXT),
    ("iceland", "9", None, 50, 99, NEXT),
    *plus_minus_ten("iceland"),
    ("iceland", "J", None, 50, 61, NEXT),
    ("iceland", "Q", None, 50, 50, NEXT),
    ("iceland", "K", None, 50, 50, NEXT),
    *ace("taiwan"),
    ("taiwan", "A♠", None, 50, 0, NEXT),
    ("taiwan", "2", None, 50, 52, NEXT),
    ("taiwan", "3", None, 50, 53, SKIPS),
    ("taiwan", "4", None, 50, 50, REVERSES),
    ("taiwan", "5", "Cat", 50, 55, "Cat"),
    ("taiwan", "5", "Dan", 50, 55, "Dan"),
    ("taiwan", "5", "Ben", 50, 55, "Ben"),
    *face("taiwan", 6, 7, 8),
    ("taiwan", "9", None, 50, 59, NEXT),
    *plus_minus_ten("taiwan"),
    ("taiwan", "J", None, 50, 50, NEXT),
    ("taiwan", "Q", 20, 50, 70, NEXT),
    ("taiwan", "Q", -20, 50, 30, NEXT),
    ("taiwan", "K", None, 50, 99, NEXT),
]

# Ann plays with four at the table (Ann, Ben, Cat, Dan), clockwise: (next, direction, owes).
TURNS = {
    NEXT: ("Ben", CLOCKWISE, 1),
    REVERSES: ("Dan", COUNTER_CLOCKWISE, 1),
    SKIPS: ("Cat", CLOCKWISE, 1),
    TWICE: ("Ben", CLOCKWISE, 2),
}


@pytest.mark.parametrize(
    ("table", "card", "choice", "before", "after", "turn"),
    CARD_EFFECTS,
    ids=[f"{row[0]}-{row[1]}-{row[2]}-{row[3]}" for row in CARD_EFFECTS],
)
def test_every_card_of_every_table_counts_as_the_rules_say(
    table, card, choice, before, after, turn
):
    rules = table_rules(table)
    played = play_card(rules, at(rules, before), card, choice)
    assert played.counted
    count = played.count
    assert count.total == after
    following, direction, owes = TURNS.get(turn, (turn, CLOCKWISE, 1))
    assert (count.turn, count.direction, count.owes) == (following, direction, owes)
    assert count.plays[-1] == Play(card, choice, "Ann", after, direction, following, owes)


def test_the_card_effects_above_cover_every_card_and_every_choice():
    tested = {(table, card) for table, card, *_ in CARD_EFFECTS}
    assert tested == {(table.id, card.id) for table in CARD_TABLES.values() for card in table.cards}
    for table in CARD_TABLES.values():
        for card in table.cards:
            picked = {
                choice
                for name, tried, choice, *_ in CARD_EFFECTS
                if (name, tried) == (table.id, card.id)
            }
            if card.effect.asks == ASK_VALUE:
                assert picked == set(card.effect.values)
            elif card.effect.asks == ASK_TOTAL:
                assert set(card.effect.values) < picked
            elif card.effect.asks is None:
                assert picked == {None}


@pytest.mark.parametrize("table", CARD_TABLES)
def test_with_two_players_a_reverse_passes_and_a_skip_plays_again(table):
    if table == "one-hundred":  # for 3 to 10 players: two are left once the third goes out
        rules = table_rules(table, 3)
        count = at(rules, 50, out=("Cat",))
    else:
        rules = table_rules(table, 2)
        count = at(rules, 50)
    for card in CARD_TABLES[table].cards:
        choice = card_choices(rules, count, card.id)[0][0] if card.effect.asks else None
        played = play_card(rules, count, card.id, choice)
        assert played.counted
        expected = "Ann" if card.effect.turn == SKIP else "Ben"
        assert (played.count.turn, played.count.direction) == (expected, CLOCKWISE), card.id


def test_with_three_players_a_skip_jumps_one_and_a_reverse_turns_back():
    rules = table_rules("standard", 3)
    assert tap(rules, at(rules, 10), "3").turn == "Cat"
    assert tap(rules, at(rules, 10), "4").turn == "Cat"
    assert tap(rules, at(rules, 10, turn="Ben"), "4").turn == "Ann"


def test_a_card_below_zero_leaves_the_total_at_zero():
    rules = table_rules("one-hundred")
    assert tap(rules, at(rules, 7), "J").total == 0
    assert tap(rules, at(rules, 3), "Red 5").total == 0
    rules = table_rules("pagat-99")
    assert tap(rules, at(rules, 4), "10=-10").total == 0


# Choices and wrong input


def test_a_card_with_a_choice_offers_it_with_labels():
    rules = table_rules("pagat-99")
    count = at(rules, 50)
    assert card_choices(rules, count, "A") == ((1, "1"), (11, "11"))
    assert card_choices(rules, count, "10") == ((10, "+10"), (-10, "−10"))
    assert card_choices(rules, count, "K") == ()
    rules = table_rules("one-hundred")
    totals = card_choices(rules, at(rules, 50), "Black A")
    assert totals[0] == (0, "0") and totals[-1] == (100, "100") and len(totals) == 101
    rules = table_rules("taiwan")
    assert card_choices(rules, at(rules, 50), "5") == (
        ("Ben", "Ben"),
        ("Cat", "Cat"),
        ("Dan", "Dan"),
    )
    assert card_choices(rules, at(rules, 50), "5", player="Cat") == (
        ("Ann", "Ann"),
        ("Ben", "Ben"),
        ("Dan", "Dan"),
    )


@pytest.mark.parametrize(
    ("table", "card", "choice", "field", "message"),
    [
        ("pagat-99", "A", None, "choice", "Count the A as 1 or 11."),
        ("pagat-99", "A", 5, "choice", "Count the A as 1 or 11."),
        ("pagat-99", "A", True, "choice", "Count the A as 1 or 11."),
        ("pagat-99", "A", "11", "choice", "Count the A as 1 or 11."),
        ("pagat-99", "10", 0, "choice", "Count the 10 as +10 or −10."),
        ("pagat-99", "K", 99, "choice", "The K takes no choice here."),
        ("one-hundred", "Black A", 101, "choice", "Set the total to a whole number from 0 to 100."),
        (
            "one-hundred",
            "Black A",
            None,
            "choice",
            "Set the total to a whole number from 0 to 100.",
        ),
        ("taiwan", "5", "Ann", "choice", "Say who plays next: Ben, Cat and Dan."),
        ("taiwan", "5", None, "choice", "Say who plays next: Ben, Cat and Dan."),
        ("taiwan", "5", 2, "choice", "Say who plays next: Ben, Cat and Dan."),
        (
            "pagat-99",
            "Joker",
            None,
            "card",
            'The Pagat\'s Ninety-Nine table has no card "Joker"; it has A, 2, 3, 4, 5, 6, 7, 8, '
            "9, 10, J, Q, K.",
        ),
        (
            "one-hundred",
            "A",
            1,
            "card",
            'The One Hundred table has no card "A"; it has Black A, '
            "Red A, 2, 2♠, 3, 4, Red 5, Black 5, 6, 7, 8, 9, 10, J, Q, Q♥, K.",
        ),
    ],
)
def test_a_wrong_card_or_choice_is_refused_with_a_message(table, card, choice, field, message):
    rules = table_rules(table)
    with pytest.raises(InvalidPlay) as refused:
        play_card(rules, at(rules, 50), card, choice)
    assert (refused.value.field, refused.value.message, str(refused.value)) == (
        field,
        message,
        message,
    )


def test_a_choice_with_one_way_to_go_may_be_left_out():
    rules = table_rules("taiwan", 2)
    assert tap(rules, at(rules, 50), "5").turn == "Ben"
    rules = table_rules("taiwan", 3)
    count = at(rules, 50, sitting_out=(), out=("Cat",))
    assert play_card(rules, count, "5").count.plays[-1].choice == "Ben"


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("Cat", "Cat is out of the game."),
        ("Dan", "Dan busted and sits out the rest of this round."),
        ("Zed", "Zed is not playing in this session."),
    ],
)
def test_only_a_player_in_the_round_plays_a_card(player, message):
    rules = rules_for("ninety-eight-arizona")
    count = at(rules, 50, out=("Cat",), sitting_out=("Dan",))
    with pytest.raises(InvalidPlay, match=message) as refused:
        play_card(rules, count, "5", player=player)
    assert refused.value.field == "player"


def test_nobody_left_in_the_round_plays_nothing():
    rules = rules_for("ninety-eight-arizona", 2)
    count = at(rules, 50, sitting_out=("Ann", "Ben"))
    assert count.turn is None
    with pytest.raises(InvalidPlay, match="Nobody is left in this round"):
        play_card(rules, count, "5")


# The turn


def test_the_player_left_of_the_dealer_starts_and_the_deal_moves_on():
    rules = rules_for("ninety-nine")
    count, _, _ = start(rules)
    assert (count.round, count.dealer, count.turn, count.total) == (1, "Ann", "Ben", 0)
    assert count.in_round == ("Ann", "Ben", "Cat", "Dan")
    count, _, _ = start(rules, Event("Cat", "bust"))
    assert (count.round, count.dealer, count.turn) == (2, "Ben", "Cat")


def test_players_out_of_the_game_are_skipped():
    rules = rules_for("ninety-nine", tokens=1)
    count, _, _ = start(rules, Event("Ben", "bust"))  # Ben is out; Cat deals round 2
    assert (count.dealer, count.turn, count.out) == ("Cat", "Dan", ("Ben",))
    count, _, _ = start(rules, Event("Ben", "bust"), Event("Dan", "bust"))  # Ann deals round 3
    assert (count.dealer, count.turn, count.in_round) == ("Ann", "Cat", ("Ann", "Cat"))
    assert tap(rules, count, "5", "6", "7").turn == "Ann"


def test_reverse_skip_and_pass_follow_the_seat_order():
    rules = table_rules("standard")
    count, _, _ = start(rules)  # Ben starts
    count = tap(rules, count, "5")
    assert count.turn == "Cat"
    count = tap(rules, count, "4")  # Cat reverses
    assert (count.turn, count.clockwise) == ("Ben", False)
    count = tap(rules, count, "3")  # Ben skips Ann
    assert count.turn == "Dan"
    count = tap(rules, count, "K")  # a pass
    assert count.turn == "Cat"
    count = tap(rules, count, "4")  # back to clockwise
    assert (count.turn, count.direction) == ("Dan", CLOCKWISE)
    assert [(play.player, play.card) for play in count.plays] == [
        ("Ben", "5"),
        ("Cat", "4"),
        ("Ben", "3"),
        ("Dan", "K"),
        ("Cat", "4"),
    ]


def test_a_skip_jumps_over_players_who_are_out():
    rules = table_rules("standard", 5)
    count = at(rules, 10, out=("Ben",), sitting_out=())
    assert tap(rules, count, "3").turn == "Dan"


def test_a_joker_makes_the_next_player_play_twice():
    rules = rules_for("ninety-eight-arizona")
    count = tap(rules, at(rules, 10), "Joker")  # Ann
    assert (count.total, count.turn, count.owes) == (98, "Ben", 2)
    count = tap(rules, count, "4")
    assert (count.turn, count.owes) == ("Ben", 1)
    count = tap(rules, count, "Q")
    assert (count.turn, count.owes) == ("Cat", 1)


def test_a_reverse_in_a_double_play_turns_play_round_when_the_turn_passes():
    rules = rules_for("ninety-eight-arizona")
    count = tap(rules, at(rules, 10), "Joker", "9")  # Ben reverses, and plays again
    assert (count.turn, count.owes, count.clockwise) == ("Ben", 1, False)
    count = tap(rules, count, "4")
    assert count.turn == "Ann"  # back to the Joker's player
    count = tap(rules, at(rules, 10), "Joker", "9", "9")  # two nines: on to Cat
    assert (count.turn, count.clockwise) == ("Cat", True)


def test_a_joker_in_a_double_play_passes_the_double_play_on():
    rules = rules_for("ninety-eight-arizona")
    count = tap(rules, at(rules, 10), "Joker", "Joker")
    assert (count.turn, count.owes) == ("Cat", 2)


def test_a_player_who_busts_out_on_a_joker_passes_the_double_play_on():
    rules = rules_for("ninety-eight-arizona")
    count, _, rounds = start(rules)
    count = tap(rules, count, "Joker")  # Ben; Cat plays twice on 98
    played = play_card(rules, count, "5")
    assert events(played) == [Event("Cat", "bust")]
    rounds = add_event(rules, rounds, played.proposals[0].event)
    following = follow_count(rules, count, score_session(rules, rounds))
    assert following is not None
    assert (following.turn, following.owes, following.total) == ("Dan", 2, 98)


def test_cards_played_together_are_tapped_for_the_same_player():
    rules = rules_for("ninety-eight-arizona")
    count = at(rules, 10)
    count = play_card(rules, count, "8").count
    count = play_card(rules, count, "8", player="Ann").count
    assert (count.total, count.turn) == (26, "Ben")
    assert [play.player for play in count.plays[1:]] == ["Ann", "Ann"]


def test_taiwan_five_lets_the_player_choose_who_plays_next():
    rules = table_rules("taiwan")
    count = tap(rules, at(rules, 10), "5=Dan")
    assert (count.turn, count.direction) == ("Dan", CLOCKWISE)
    assert tap(rules, count, "6").turn == "Ann"


def test_iceland_queens_count_nothing_and_leave_the_turn_to_the_table():
    rules = table_rules("iceland")
    count = tap(rules, at(rules, 10), "Q", "Q")
    assert (count.total, count.turn) == (10, "Cat")
    # After two queens Cat must play two cards: the table names her for the second.
    count = play_card(rules, tap(rules, count, "6"), "8", player="Cat").count
    assert (count.total, count.turn) == (24, "Dan")


# Undo and the stored shape


def test_undo_takes_back_the_last_card():
    rules = table_rules("standard")
    count, _, _ = start(rules)
    first = tap(rules, count, "5")
    second = tap(rules, first, "4")
    assert undo_card(second) == first
    assert undo_card(first) == count
    assert (count.total, count.turn, count.direction) == (0, "Ben", CLOCKWISE)
    with pytest.raises(InvalidPlay, match="No card has been played in this round yet."):
        undo_card(count)


def test_undo_keeps_who_went_out_since():
    rules = rules_for("ninety-eight-arizona")
    count = tap(rules, at(rules, 10), "5")  # Ann; Ben to play
    count = Count(count.round, count.dealer, count.seats, sitting_out=("Ben",), plays=count.plays)
    assert count.turn == "Cat"
    assert undo_card(count).turn == "Ann"


def test_a_count_goes_to_json_and_back():
    rules = table_rules("taiwan")
    count = tap(rules, at(rules, 10, out=("Dan",)), "A=11", "10=-10", "5=Ann", "4")
    data = json.loads(json.dumps(count.to_data()))
    assert Count.from_data(data) == count
    assert data["plays"][-2] == {
        "card": "5",
        "choice": "Ann",
        "player": "Cat",
        "total": 16,
        "direction": 1,
        "next": "Ann",
        "owes": 1,
        "reset": False,
    }
    assert data["out"] == ["Dan"] and data["seats"] == ["Ann", "Ben", "Cat", "Dan"]


def test_a_round_counts_at_most_max_cards():
    """A card past MAX_CARDS is refused, while a card over the limit still proposes the end of
    the round and the last card can still be taken back."""
    rules = rules_for("ninety-nine")
    full = tap(rules, at(rules, 0), *["K"] * (bounds.MAX_CARDS - 1))
    assert (len(full.plays), full.total) == (bounds.MAX_CARDS, 99)
    message = "The counter takes at most 500 cards in a round: count the rest of it at the table."
    for card, choice in (("K", None), ("4", None), ("10", -10)):
        with pytest.raises(InvalidPlay) as refused:
            play_card(rules, full, card, choice)
        assert (refused.value.field, refused.value.message) == ("card", message)
    with pytest.raises(InvalidPlay, match="has no card"):  # what is wrong with the card first
        play_card(rules, full, "Joker")
    played = play_card(rules, full, "5")
    assert (played.count, events(played)) == (full, [Event(full.turn, "bust")])
    assert play_card(rules, undo_card(full), "K").count == full


def test_a_stored_count_holds_at_most_max_cards():
    rules = rules_for("ninety-nine")
    data = at(rules, 99).to_data()
    data["plays"] = data["plays"] * bounds.MAX_CARDS
    assert len(Count.from_data(data).plays) == bounds.MAX_CARDS
    data["plays"].append(data["plays"][0])
    with pytest.raises(ValueError, match=r"count\.plays: a list of at most 500 cards is needed\."):
        Count.from_data(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.pop("round"), "count: an object with exactly round, dealer, seats"),
        (lambda data: data.update(extra=1), "count: an object with exactly"),
        (lambda data: data.update(round=0), "count.round: a whole number from 1 up is needed."),
        (lambda data: data.update(round=True), "count.round: a whole number from 1 up"),
        (lambda data: data.update(seats=[]), "count.seats: a list of different player names"),
        (lambda data: data.update(seats=["Ann", "Ann"]), "count.seats: a list of different"),
        (lambda data: data.update(seats="Ann"), "count.seats: a list of names is needed."),
        (lambda data: data.update(dealer="Zed"), "count.dealer: 'Zed' has no seat."),
        (lambda data: data.update(out=["Zed"]), "count.out: 'Zed' has no seat."),
        (lambda data: data.update(sitting_out=[1]), "count.sitting_out: a list of names"),
        (lambda data: data.update(plays={}), "count.plays: a list is needed."),
        (lambda data: data["plays"].append([]), "count.plays[1]: an object with exactly card"),
        (lambda data: data["plays"][0].update(card=5), "count.plays[0].card: text is needed."),
        (lambda data: data["plays"][0].update(choice=[]), "count.plays[0].choice: a whole"),
        (lambda data: data["plays"][0].update(direction=0), "count.plays[0].direction: 1 or -1"),
        (lambda data: data["plays"][0].update(direction=True), "count.plays[0].direction"),
        (lambda data: data["plays"][0].update(reset=0), "count.plays[0].reset: true or false"),
        (lambda data: data["plays"][0].update(total=-1), "count.plays[0].total: a whole number"),
        (lambda data: data["plays"][0].update(owes=0), "count.plays[0].owes: a whole number"),
        (lambda data: data["plays"][0].update(next="Zed"), "count.plays[0].next: 'Zed' has no"),
        (lambda data: data["plays"][0].update(player=None), "count.plays[0].player: None has"),
    ],
)
def test_a_stored_count_that_does_not_fit_is_refused(change, message):
    rules = rules_for("ninety-nine")
    data = tap(rules, at(rules, 10), "5").to_data()
    data["plays"] = data["plays"][1:]
    change(data)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Count.from_data(data)


def test_a_proposal_goes_to_json_and_back():
    proposal = Proposal(3, Event("Ben", "hit", 33), "Ben hit 33: everyone else pays 1 token.")
    data = json.loads(json.dumps(proposal.to_data()))
    assert data == {
        "round": 3,
        "player": "Ben",
        "event": "hit",
        "target": 33,
        "sentence": "Ben hit 33: everyone else pays 1 token.",
    }
    assert Proposal.from_data(data) == proposal
    bust = Proposal(1, Event("Ann", "bust"), "Ann busts.")
    assert Proposal.from_data(bust.to_data()) == bust
    with pytest.raises(ValueError, match="proposal: player, event and sentence must be text."):
        Proposal.from_data(data | {"player": 1})
    with pytest.raises(ValueError, match="proposal.target: a whole number or null is needed."):
        Proposal.from_data(data | {"target": "33"})
    with pytest.raises(ValueError, match="proposal.round"):
        Proposal.from_data(data | {"round": 0})
    with pytest.raises(ValueError, match="proposal: an object with exactly"):
        Proposal.from_data([])


# The events a card proposes (RULES.md §2.1, §2.3)


def test_hitting_33_going_up_proposes_the_hit():
    rules = rules_for("thirty-three")
    played = play_card(rules, at(rules, 30, turn="Ben"), "3")
    assert events(played) == [Event("Ben", "hit", 33)]
    assert sentences(played) == ["Ben hit 33: everyone else pays 1 token."]
    assert all(proposal.round == 1 for proposal in played.proposals)


@pytest.mark.parametrize(
    ("before", "card", "proposed"),
    [
        (30, "3", ["Ann hit 33: everyone else pays 1 token."]),
        (60, "6", ["Ann hit 66: everyone else pays 1 token."]),
        (89, "10=10", ["Ann hit 99: everyone else pays 2 tokens; the round ends."]),
        (30, "5", ["Ann went past 33: Ann pays 1 token."]),
        (33, "5", ["Ann went past 33: Ann pays 1 token."]),  # leaving 33 upwards
        (31, "2", ["Ann went past 33: Ann pays 1 token."]),  # doubling 31 to 62
        (49, "2", ["Ann went past 66: Ann pays 1 token."]),  # doubling 49 to 98
        (
            33,
            "2",
            ["Ann went past 33: Ann pays 1 token.", "Ann hit 66: everyone else pays 1 token."],
        ),
        (43, "10=-10", []),  # making 33 going down is not a hit
        (76, "10=-10", []),  # nor 66
        (62, "2", []),  # halving 62 to 31 costs nothing
        (70, "2", []),  # halving 70 to 35 neither
        (99, "9", []),  # staying on 99 is not a hit
        (34, "6", []),
    ],
)
def test_thirty_three_hits_and_crosses_count_only_going_up(before, card, proposed):
    rules = rules_for("thirty-three")
    assert sentences(play_card(rules, at(rules, before), *_card(card))) == proposed


def _card(text: str) -> tuple[str, int | None]:
    card, _, choice = text.partition("=")
    return card, int(choice) if choice else None


def test_thirty_three_double_crossing_is_a_cross_66_then_a_bust():
    rules = rules_for("thirty-three")
    count = at(rules, 53)
    played = play_card(rules, count, "2")
    assert not played.counted and played.count == count
    assert played.refused == "The 2 would make 106, over 99: it is not counted."
    assert events(played) == [Event("Ann", "cross", 66), Event("Ann", "bust")]
    assert sentences(played) == [
        "Ann went past 66: Ann pays 1 token.",
        "Ann busts (the 2 would make 106): Ann pays 2 tokens; the round ends.",
    ]


def test_the_double_crossing_is_recorded_even_when_the_cross_puts_the_player_out():
    # Ann has no token left (thirty-three lets her stay in at 0): the cross 66 puts her out,
    # and the bust that comes with it is still accepted (RULES.md §2.1).
    rules = rules_for("thirty-three", tokens=1)
    _, result, rounds = start(rules, Event("Ann", "cross", 33))
    count = at(rules, 53)
    played = play_card(rules, count, "2")
    rounds = add_event(rules, rounds, played.proposals[0].event)
    assert check_rounds(rules, rounds) == []
    result = score_session(rules, rounds)
    assert [standing.player for standing in result.standings if standing.out] == ["Ann"]
    still = open_proposals(result, played.proposals[1:])
    assert still == played.proposals[1:]
    rounds = add_event(rules, rounds, still[0].event)
    assert check_rounds(rules, rounds) == []
    assert score_session(rules, rounds).next.number == 2


def test_a_hit_after_a_cross_that_put_the_player_out_is_no_longer_open():
    rules = rules_for("thirty-three", tokens=1)
    _, result, rounds = start(rules, Event("Ann", "cross", 33))
    played = play_card(rules, at(rules, 33), "2")  # 33 doubled: past 33, then exactly 66
    assert events(played) == [Event("Ann", "cross", 33), Event("Ann", "hit", 66)]
    assert open_proposals(result, played.proposals) == played.proposals
    rounds = add_event(rules, rounds, played.proposals[0].event)
    result = score_session(rules, rounds)
    assert open_proposals(result, played.proposals[1:]) == ()


@pytest.mark.parametrize(
    ("before", "card", "proposed"),
    [
        (30, "4", ["Ann crossed 33/34: Ann pays 1 game point."]),
        (33, "A=1", ["Ann crossed 33/34: Ann pays 1 game point."]),
        (40, "10=-10", ["Ann crossed 33/34: Ann pays 1 game point."]),
        (34, "10=-10", ["Ann crossed 33/34: Ann pays 1 game point."]),
        (33, "10=-10", []),
        (66, "A=1", ["Ann crossed 66/67: Ann pays 1 game point."]),
        (67, "10=-10", ["Ann crossed 66/67: Ann pays 1 game point."]),
        (70, "10=-10", ["Ann crossed 66/67: Ann pays 1 game point."]),
        (56, "10=10", []),
        (99, "10=-10", []),
        (60, "J", ["Ann crossed 66/67: Ann pays 1 game point."]),
    ],
)
def test_wilson_borders_count_either_way(before, card, proposed):
    rules = rules_for("wilson")
    played = play_card(rules, at(rules, before), *_card(card))
    assert played.counted
    assert sentences(played) == proposed


def test_passing_99_in_wilson_is_the_border_that_ends_the_round():
    rules = rules_for("wilson")
    count = at(rules, 95)
    played = play_card(rules, count, "7")
    assert played.count == count  # 102 is not counted: the round ends at the border
    assert events(played) == [Event("Ann", "border", 99)]
    assert sentences(played) == [
        "Ann crossed 99/100 (the 7 would make 102): Ann pays 1 game point; the round ends."
    ]
    played = play_card(rules, count, "K")
    assert events(played) == [Event("Ann", "border", 99)]


@pytest.mark.parametrize(
    ("preset", "card", "sentence"),
    [
        (
            "ninety-nine",
            "5",
            "Ann busts (the 5 would make 100): Ann pays 1 token; the round ends.",
        ),
        (
            "dollar-bill",
            "5",
            "Ann busts (the 5 would make 100): Ann pays 1 fold; the round ends.",
        ),
        (
            "ninety-eight",
            "4",
            "Ann busts (the 4 would make 99): Ann takes 1 drink; the round ends.",
        ),
        (
            "ninety-eight-arizona",
            "5",
            "Ann busts (the 5 would make 100): Ann sits out the rest of the round.",
        ),
    ],
)
def test_a_card_over_the_limit_is_not_counted_and_proposes_the_bust(preset, card, sentence):
    rules = rules_for(preset)
    count = at(rules, 95)
    played = play_card(rules, count, card)
    assert played.count == count and not played.counted
    assert events(played) == [Event("Ann", "bust")]
    assert sentences(played) == [sentence]


def test_a_legal_card_on_the_limit_is_counted_and_costs_nothing():
    rules = rules_for("ninety-nine")
    played = play_card(rules, at(rules, 89), "10", 10)
    assert (played.counted, played.count.total, played.proposals) == (True, 99, ())
    played = play_card(rules, at(rules, 99), "4")
    assert (played.counted, played.count.total) == (True, 99)
    played = play_card(rules, at(rules, 99), "A", 1)
    assert not played.counted


def test_one_hundred_counts_up_to_100():
    rules = rules_for("one-hundred")
    assert play_card(rules, at(rules, 50), "10").count.total == 100
    assert play_card(rules, at(rules, 50), "Black A", 100).count.total == 100
    played = play_card(rules, at(rules, 51), "2♠")
    assert played.refused == "The 2♠ would make 102, over 100: it is not counted."
    assert sentences(played) == [
        "Ann busts (the 2♠ would make 102): Ann pays 1 token; the round ends."
    ]


def test_a_black_ace_over_a_custom_limit_is_a_bust():
    rules = rules_for("custom", card_table="one-hundred")
    played = play_card(rules, at(rules, 50), "Black A", 100)
    assert not played.counted
    assert events(played) == [
        Event("Ann", "cross", 66),
        Event("Ann", "border", 66),
        Event("Ann", "bust"),
    ]


def test_custom_proposes_every_event_that_a_card_makes():
    rules = rules_for("custom")
    played = play_card(rules, at(rules, 30), "5")
    assert events(played) == [Event("Ann", "cross", 33), Event("Ann", "border", 33)]
    played = play_card(rules, at(rules, 20), "K")  # 20 to 99
    assert events(played) == [
        Event("Ann", "cross", 33),
        Event("Ann", "border", 33),
        Event("Ann", "cross", 66),
        Event("Ann", "border", 66),
        Event("Ann", "hit", 99),
    ]
    rules = rules_for("custom", card_table="one-hundred")
    played = play_card(rules, at(rules, 70), "Q♥")  # 70 to 0: borders going down
    assert events(played) == [Event("Ann", "border", 66), Event("Ann", "border", 33)]


def test_a_preset_proposes_only_the_events_it_has():
    rules = rules_for("ninety-nine")
    assert play_card(rules, at(rules, 30), "3").proposals == ()
    assert play_card(rules, at(rules, 30), "5").proposals == ()
    rules = rules_for("wilson")
    assert play_card(rules, at(rules, 30), "3").proposals == ()


@pytest.mark.parametrize(
    ("preset", "before", "card", "after", "proposed"),
    [
        ("ninety-nine", 61, "8", 69, ["Ann hit 69: Ann gains 1 token."]),
        ("ninety-nine", 79, "10=-10", 69, ["Ann hit 69: Ann gains 1 token."]),
        ("ninety-nine", 69, "9", 69, []),  # already 69: nothing is made
        (
            "thirty-three",
            64,
            "5",
            69,
            ["Ann went past 66: Ann pays 1 token.", "Ann hit 69: Ann gains 1 token."],
        ),
        (
            "wilson",
            62,
            "7",
            69,
            ["Ann crossed 66/67: Ann pays 1 game point.", "Ann hit 69: Ann gains 1 game point."],
        ),
    ],
)
def test_on_69_token_proposes_the_hit_69(preset, before, card, after, proposed):
    rules = rules_for(preset, on_69="token")
    played = play_card(rules, at(rules, before), *_card(card))
    assert (played.count.total, sentences(played)) == (after, proposed)
    assert not played.count.plays[-1].reset


def test_on_69_reset_takes_the_total_back_to_0():
    rules = rules_for("ninety-nine", on_69="reset")
    played = play_card(rules, at(rules, 61), "8")
    assert (played.count.total, played.count.plays[-1].reset, played.proposals) == (0, True, ())
    assert play_card(rules, at(rules, 79), "10", -10).count.total == 0
    assert play_card(rules, at(rules, 69), "9").count.total == 69
    assert tap(rules, played.count, "5").total == 5
    # Wilson: the card's own border, and none for the way back to 0.
    rules = rules_for("wilson", on_69="reset")
    played = play_card(rules, at(rules, 62), "7")
    assert (played.count.total, events(played)) == (0, [Event("Ann", "border", 66)])


def test_on_69_nothing_changes_nothing():
    rules = rules_for("ninety-nine")
    played = play_card(rules, at(rules, 61), "8")
    assert (played.count.total, played.proposals) == (69, ())


def test_the_last_player_left_in_an_arizona_round_is_proposed_the_win():
    rules = rules_for("ninety-eight-arizona", 3)
    count, result, rounds = start(rules, Event("Cat", "bust"))
    assert count.sitting_out == ("Cat",) and count.turn == "Ben"
    count = tap(rules, count, "K")  # Ben makes 98
    played = play_card(rules, count, "5")  # Ann cannot play
    assert sentences(played) == [
        "Ann busts (the 5 would make 103): Ann sits out the rest of the round.",
        "Ben is the last to play: Ben gains 1 round won; the round ends.",
    ]
    for proposal in played.proposals:
        rounds = add_event(rules, rounds, proposal.event)
        assert check_rounds(rules, rounds) == []
    result = score_session(rules, rounds)
    following = follow_count(rules, count, result)
    assert following is not None
    assert (following.round, following.dealer, following.turn, following.total) == (
        2,
        "Ben",
        "Cat",
        0,
    )
    assert following.sitting_out == ()


def test_a_bust_out_of_the_round_with_others_left_proposes_no_win():
    rules = rules_for("michigan", bust="out-of-round")
    played = play_card(rules, at(rules, 95), "5")
    assert events(played) == [Event("Ann", "bust")]
    assert sentences(played) == [
        "Ann busts (the 5 would make 100): Ann sits out the rest of the round."
    ]


def test_the_custom_last_to_play_costs_nothing():
    rules = rules_for("custom", 2, bust="out-of-round")
    played = play_card(rules, at(rules, 95), "5")
    assert sentences(played)[1] == "Ben is the last to play: the round ends."


@pytest.mark.parametrize(
    ("preset", "event", "sentence"),
    [
        (
            "thirty-three",
            Event("Ann", "hit", 99),
            "Ann hit 99: everyone else pays 2 tokens; the round ends.",
        ),
        (
            "thirty-three",
            Event("Ann", "empty"),
            "Ann has no card to play: Ann pays 3 tokens; the round ends.",
        ),
        (
            "michigan",
            Event("Ann", "trips"),
            "Ann laid down three of a kind: everyone else pays 1 fold; the round ends.",
        ),
        ("custom", Event("Ann", "win"), "Ann is the last to play: the round ends."),
        ("ninety-eight", Event("Ann", "bust"), "Ann busts: Ann takes 1 drink; the round ends."),
        ("custom", Event("Ann", "adjust", tokens=-1), "Ann: adjust."),
    ],
)
def test_every_event_reads_as_one_sentence(preset, event, sentence):
    rules = rules_for(preset)
    rule = next(
        rule
        for rule in events_for(rules)
        if (rule.event, rule.target) == (event.event, event.target)
    )
    assert tell_event(rules, rule, event) == sentence


# Following what the table recorded


def test_follow_skips_a_player_who_sits_out_from_whose_turn_it_was():
    rules = rules_for("ninety-eight-arizona")
    count, result, rounds = start(rules)
    count = tap(rules, count, "K")  # Ben makes 98; Cat to play
    played = play_card(rules, count, "5")
    rounds = add_event(rules, rounds, played.proposals[0].event)
    following = follow_count(rules, played.count, score_session(rules, rounds))
    assert following is not None
    assert (following.sitting_out, following.turn, following.total) == (("Cat",), "Dan", 98)
    assert following.plays == count.plays


def test_follow_skips_players_who_went_out_mid_round():
    rules = rules_for("thirty-three", tokens=1)
    count, _, rounds = start(rules, Event("Cat", "cross", 33), Event("Dan", "cross", 33))
    count = tap(rules, count, "10=10", "J", "8")  # Ben 10, Cat 20 skips Dan, Ann 28
    assert count.turn == "Ben"
    played = play_card(rules, count, "5")  # Ben hits 33: Cat and Dan cannot pay
    rounds = add_event(rules, rounds, played.proposals[0].event)
    result = score_session(rules, rounds)
    following = follow_count(rules, played.count, result)
    assert following is not None
    assert (following.out, following.turn, following.in_round) == (
        ("Cat", "Dan"),
        "Ann",
        ("Ann", "Ben"),
    )


def test_follow_starts_the_next_round_after_a_round_ending_event():
    rules = rules_for("ninety-nine")
    count, _, rounds = start(rules)
    count = tap(rules, count, "K")
    rounds = add_event(rules, rounds, Event("Cat", "bust"))
    following = follow_count(rules, count, score_session(rules, rounds))
    assert following == Count(2, "Ben", rules.players)
    assert following.turn == "Cat"


def test_follow_and_new_count_end_with_the_game():
    rules = rules_for("ninety-nine", 2, tokens=1)
    count, _, rounds = start(rules)
    rounds = add_event(rules, rounds, Event("Ann", "bust"))
    result = score_session(rules, rounds)
    assert result.finished
    assert follow_count(rules, count, result) is None
    assert new_count(rules, result) is None
    assert open_proposals(result, [Proposal(1, Event("Ben", "bust"), "")]) == ()


def test_follow_keeps_the_count_when_nothing_ended():
    rules = rules_for("thirty-three")
    count, _, rounds = start(rules)
    count = tap(rules, count, "10=10", "10=10", "10=10", "3")
    rounds = add_event(rules, rounds, Event("Dan", "hit", 33))
    assert follow_count(rules, count, score_session(rules, rounds)) == count


def test_open_proposals_drop_those_of_a_round_that_ended():
    rules = rules_for("thirty-three")
    _, result, rounds = start(rules)
    proposals = (
        Proposal(1, Event("Ann", "hit", 99), ""),
        Proposal(1, Event("Ben", "cross", 66), ""),
    )
    assert open_proposals(result, proposals) == proposals
    result = score_session(rules, add_event(rules, rounds, proposals[0].event))
    assert open_proposals(result, proposals[1:]) == ()
    assert open_proposals(score_session(rules, []), []) == ()


def test_a_new_count_mid_round_starts_at_0_and_knows_who_sits_out():
    rules = rules_for("ninety-eight-arizona")
    count, _, _ = start(rules, Event("Ben", "bust"), Event("Dan", "bust"))
    assert (count.round, count.total, count.sitting_out, count.turn) == (
        1,
        0,
        ("Ben", "Dan"),
        "Cat",
    )


# Invariants over random rounds (hypothesis)

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def rules_st() -> st.SearchStrategy[AddingRules]:
    """Any preset with house rules (as the property tests draw them), at most 5 players and
    3 tokens so that rounds end often."""
    return any_rules(names=NAMES, tokens=st.integers(1, 3))


@SETTINGS
@given(rules=rules_st(), data=st.data())
def test_the_count_keeps_its_promises_over_random_rounds(rules: AddingRules, data: st.DataObject):
    """Cards tapped at random, with their choices, now and then by another player, taken back,
    or events recorded by hand; the table confirms some proposals, in order. Then:
    - the total stays from 0 to the limit, and whose turn it is is a player in the round;
    - a card is counted (and undo gives the count back), or refused (the count is unchanged)
      with the events that end the round proposed;
    - every proposal could be recorded on its own, and those confirmed in order, kept open by
      open_proposals, are accepted by check_rounds where add_event puts them;
    - the count goes to JSON and back unchanged."""
    table = CARD_TABLES[rules.card_table]
    rounds: tuple[RoundEntry, ...] = ()
    result = score_session(rules, rounds)
    count = new_count(rules, result)
    for _ in range(data.draw(st.integers(1, 60), label="taps")):
        if count is None or count.turn is None:
            break
        assert count.round == result.next.number
        action = data.draw(st.sampled_from(["card"] * 8 + ["undo", "by hand"]))
        if action == "undo":
            if count.plays:
                count = undo_card(count)
            continue
        if action == "by hand":
            offered = allowed_events(rules, rounds)
            buttons = [(player, rule) for player, rules_ in offered.items() for rule in rules_]
            if not buttons:
                break
            player, rule = data.draw(st.sampled_from(buttons))
            tokens = data.draw(st.sampled_from([-2, -1, 1])) if rule.event == "adjust" else None
            rounds = add_event(rules, rounds, Event(player, rule.event, rule.target, tokens))
            assert check_rounds(rules, rounds) == []
            result = score_session(rules, rounds)
            count = follow_count(rules, count, result)
            continue
        card = data.draw(st.sampled_from(table.cards)).id
        player = data.draw(st.sampled_from([None] * 3 + list(count.in_round)))
        offered_choices = card_choices(rules, count, card, player=player)
        choice = (
            data.draw(st.sampled_from([value for value, _ in offered_choices]))
            if offered_choices
            else None
        )
        played = play_card(rules, count, card, choice, player=player)
        after = played.count
        assert 0 <= after.total <= rules.limit
        assert after.turn in after.in_round
        assert Count.from_data(json.loads(json.dumps(after.to_data()))) == after
        if played.counted:
            assert undo_card(after) == count
            assert after.plays[-1].card == card
        else:
            assert after == count
            assert played.proposals[-1].event.event in ("bust", "border", "win")
        rounds, result = confirm_some(rules, rounds, result, played, data)
        count = follow_count(rules, after, result)


def confirm_some(
    rules: AddingRules,
    rounds: tuple[RoundEntry, ...],
    result: AddingResult,
    played: Played,
    data: st.DataObject,
) -> tuple[tuple[RoundEntry, ...], AddingResult]:
    """Check that every proposal could be recorded on its own, then record some, in order, as
    the table confirms them: each is accepted where add_event puts it, as long as
    open_proposals keeps it open."""
    for proposal in played.proposals:
        assert proposal.round == played.count.round
        assert proposal.sentence.startswith(proposal.event.player)
        assert check_rounds(rules, add_event(rules, rounds, proposal.event)) == []
        assert Proposal.from_data(json.loads(json.dumps(proposal.to_data()))) == proposal
    pending = open_proposals(result, played.proposals)
    assert pending == played.proposals
    while pending:
        proposal, pending = pending[0], pending[1:]
        if data.draw(st.booleans()):
            rounds = add_event(rules, rounds, proposal.event)
            assert check_rounds(rules, rounds) == []
            result = score_session(rules, rounds)
            pending = open_proposals(result, pending)
    return rounds, result


@settings(SETTINGS, max_examples=400)
@given(rules=rules_st(), data=st.data())
def test_every_proposal_from_any_total_is_an_event_the_table_could_record(
    rules: AddingRules, data: st.DataObject
):
    """From any total, after events recorded by hand (players near their last token, out of
    the game or sitting out), a card by any player in the round: its proposals are accepted,
    alone or confirmed in order; a refused card changes nothing; a counted one stays within
    the limit."""
    rounds: tuple[RoundEntry, ...] = ()
    for _ in range(data.draw(st.integers(0, 6), label="events by hand")):
        buttons = [
            (player, rule)
            for player, offered in allowed_events(rules, rounds).items()
            for rule in offered
        ]
        if not buttons:
            break
        player, rule = data.draw(st.sampled_from(buttons))
        tokens = data.draw(st.sampled_from([-2, -1])) if rule.event == "adjust" else None
        rounds = add_event(rules, rounds, Event(player, rule.event, rule.target, tokens))
        if score_session(rules, rounds).finished:
            rounds = rounds[:-1]
    result = score_session(rules, rounds)
    fresh = new_count(rules, result)
    assert fresh is not None
    if not fresh.in_round:
        return
    near = [
        total for target in (33, 66, 69, rules.limit) for total in range(target - 11, target + 2)
    ]
    totals = st.sampled_from(range(rules.limit + 1)) | st.sampled_from(near)
    total = min(data.draw(totals, label="total"), rules.limit)
    turn = data.draw(st.sampled_from(fresh.in_round), label="turn")
    direction = data.draw(st.sampled_from([CLOCKWISE, COUNTER_CLOCKWISE]))
    count = replace(fresh, plays=(Play("Q", None, turn, total, direction, turn),))
    card = data.draw(st.sampled_from(CARD_TABLES[rules.card_table].cards)).id
    offered = card_choices(rules, count, card)
    choice = data.draw(st.sampled_from([value for value, _ in offered])) if offered else None
    played = play_card(rules, count, card, choice)
    if played.counted:
        assert 0 <= played.count.total <= rules.limit
        assert undo_card(played.count) == count
    else:
        assert played.count == count
        assert played.proposals[-1].event.event in ("bust", "border", "win")
    confirm_some(rules, rounds, result, played, data)
