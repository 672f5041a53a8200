"""Scoring the adding game (RULES.md §2.1–2.3): costs, round endings, elimination, standings."""

import pytest

from scorekeeper.rules.adding import (
    AddingResult,
    AddingRules,
    Event,
    EventResult,
    NextRound,
    RoundEntry,
    Standing,
    add_event,
    allowed_events,
    can_act,
    events_for,
    resolve_rules,
    score_session,
)

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def rules_for(preset: str = "ninety-nine", count: int = 3, **options: object) -> AddingRules:
    return resolve_rules(preset, options, NAMES[:count])


def ev(text: str) -> Event:
    """'Ann bust', 'Ben hit 33', 'Cat adjust -2' (a number is the target, or an adjustment's)."""
    player, kind, *number = text.split()
    if not number:
        return Event(player, kind)
    if kind == "adjust":
        return Event(player, kind, tokens=int(number[0]))
    return Event(player, kind, target=int(number[0]))


def rounds_of(*specs: str) -> list[RoundEntry]:
    """One round per spec, its events separated by commas ('' is a round with no events)."""
    return [
        RoundEntry(tuple(ev(text) for text in spec.split(",") if text.strip())) for spec in specs
    ]


def play(rules: AddingRules, *specs: str) -> AddingResult:
    return score_session(rules, rounds_of(*specs))


def only_event(rules: AddingRules, text: str) -> EventResult:
    return play(rules, text).rounds[0].events[0]


# What each event costs, and whether it ends the round, preset by preset (RULES.md §2.3)

EVENT_COSTS = [
    ("ninety-nine", "Ann bust", {"Ann": -1}, True),
    ("ninety-nine-standard", "Ben bust", {"Ben": -1}, True),
    ("dollar-bill", "Cat bust", {"Cat": -1}, True),
    ("on-honor", "Ann bust", {"Ann": -1}, True),
    ("thirty-three", "Ann hit 33", {"Ben": -1, "Cat": -1}, False),
    ("thirty-three", "Cat hit 66", {"Ann": -1, "Ben": -1}, False),
    ("thirty-three", "Ben hit 99", {"Cat": -2, "Ann": -2}, True),
    ("thirty-three", "Ann cross 33", {"Ann": -1}, False),
    ("thirty-three", "Ann cross 66", {"Ann": -1}, False),
    ("thirty-three", "Ann bust", {"Ann": -2}, True),
    ("thirty-three", "Ann empty", {"Ann": -3}, True),
    ("wilson", "Ann border 33", {"Ann": -1}, False),
    ("wilson", "Ann border 66", {"Ann": -1}, False),
    ("wilson", "Ann border 99", {"Ann": -1}, True),
    ("one-hundred", "Ann bust", {"Ann": -1}, True),
    ("ninety-eight", "Ann bust", {"Ann": 1}, True),  # a drink
    ("ninety-eight-arizona", "Ann bust", {}, False),  # out of the round only
    ("ninety-eight-arizona", "Ben win", {"Ben": 1}, True),  # a round won
    ("michigan", "Ann bust", {"Ann": -1}, True),
    ("michigan", "Ben trips", {"Cat": -1, "Ann": -1}, True),
    ("sudden-death", "Ann bust", {"Ann": -1}, True),
    ("custom", "Ann bust", {"Ann": -1}, True),
    ("custom", "Ann hit 33", {"Ben": -1, "Cat": -1}, False),
    ("custom", "Ann hit 66", {"Ben": -1, "Cat": -1}, False),
    ("custom", "Ann hit 99", {"Ben": -2, "Cat": -2}, True),
    ("custom", "Ann cross 33", {"Ann": -1}, False),
    ("custom", "Ann cross 66", {"Ann": -1}, False),
    ("custom", "Ann border 33", {"Ann": -1}, False),
    ("custom", "Ann border 66", {"Ann": -1}, False),
    ("custom", "Ann border 99", {"Ann": -1}, True),
    ("custom", "Ann empty", {"Ann": -3}, True),
    ("custom", "Ann trips", {"Ben": -1, "Cat": -1}, True),
    ("custom", "Ann win", {}, True),
]


@pytest.mark.parametrize(("preset", "text", "changes", "ends"), EVENT_COSTS)
def test_each_event_costs_what_the_preset_says(preset, text, changes, ends):
    rules = rules_for(preset)
    result = only_event(rules, text)
    assert result.changes == changes
    assert list(result.changes) == list(changes)  # paid in seat order from the player's left
    assert result.ends_round is ends
    assert result.wins == ()
    assert play(rules, text).rounds[0].complete is ends
    assert play(rules, text).current_round_open is not ends


def test_every_event_kind_of_the_table_is_in_custom():
    kinds = {(rule.event, rule.target) for rule in events_for(rules_for("custom"))}
    assert kinds == {
        ("bust", None),
        ("hit", 33),
        ("hit", 66),
        ("hit", 99),
        ("cross", 33),
        ("cross", 66),
        ("border", 33),
        ("border", 66),
        ("border", 99),
        ("empty", None),
        ("trips", None),
        ("win", None),
        ("adjust", None),
    }


def test_tokens_apply_at_once_and_the_round_carries_them():
    rules = rules_for("thirty-three")
    result = play(rules, "Ben hit 33, Cat cross 66, Ann bust", "Cat hit 66")
    assert [played.tokens for played in result.rounds] == [
        {"Ann": 6, "Ben": 9, "Cat": 7},
        {"Ann": 5, "Ben": 8, "Cat": 7},
    ]
    assert [played.complete for played in result.rounds] == [True, False]
    assert result.current_round_open
    assert result.next == NextRound(2, "Ben")  # the round in progress keeps its dealer


def test_pagat_99_gives_3_pennies_when_more_than_4_play():
    assert rules_for("ninety-nine", 4).tokens == 5
    assert rules_for("ninety-nine", 5).tokens == 3
    assert rules_for("ninety-nine", 5, tokens=5).tokens == 5
    assert play(rules_for("ninety-nine", 6)).standings[0].tokens == 3


# Going out: at-zero and owing (RULES.md §2.2)


def test_at_zero_puts_a_player_out_as_their_last_token_goes():
    rules = rules_for("ninety-nine-standard")
    result = play(rules, "Ann bust", "Ann bust", "Ann bust")
    last = result.rounds[-1]
    assert last.events[0].eliminated == ("Ann",)
    assert last.tokens == {"Ann": 0, "Ben": 3, "Cat": 3}
    assert last.eliminated == ("Ann",)
    assert result.standings[-1] == Standing("Ann", 3, 0, True, 3, None)


def test_owing_lets_a_player_stay_in_at_zero_until_they_must_pay():
    rules = rules_for("on-honor")
    at_zero = play(rules, "Ann bust", "Ann bust", "Ann bust")
    assert at_zero.rounds[-1].tokens["Ann"] == 0
    assert at_zero.rounds[-1].eliminated == ()
    assert can_act(rules, rounds_of("Ann bust", "Ann bust", "Ann bust"), "Ann")
    out = play(rules, "Ann bust", "Ann bust", "Ann bust", "Ann bust")
    assert out.rounds[-1].events[0].changes == {"Ann": 0}
    assert out.rounds[-1].eliminated == ("Ann",)
    assert not can_act(rules, rounds_of("Ann bust", "Ann bust", "Ann bust", "Ann bust"), "Ann")


def test_owing_pays_what_it_can_before_going_out():
    rules = rules_for("thirty-three")
    result = play(rules, "Ann adjust -8, Ann bust")
    assert result.rounds[0].events[1].changes == {"Ann": -1}
    assert result.rounds[0].events[1].eliminated == ("Ann",)


def test_at_zero_pays_what_it_can_and_goes_out():
    rules = rules_for("custom", tokens=2)
    result = play(rules, "Ann empty")
    assert result.rounds[0].events[0].changes == {"Ann": -2}
    assert result.rounds[0].events[0].eliminated == ("Ann",)


def test_a_negative_adjustment_can_put_a_player_out():
    result = play(rules_for("ninety-nine"), "Ann adjust -5")
    assert result.rounds[0].eliminated == ("Ann",)
    assert not result.rounds[0].complete  # an adjustment does not end the round


def test_a_positive_adjustment_gives_tokens():
    result = play(rules_for("ninety-nine"), "Ann bust, Ann adjust 2")
    assert result.rounds[0].tokens == {"Ann": 6, "Ben": 5, "Cat": 5}


# The game ends when one player is left (RULES.md §2.2)


def test_the_last_player_left_wins():
    rules = rules_for("sudden-death", 3)
    result = play(rules, "Ben bust", "Ann bust")
    assert result.finished
    assert result.winners == ("Cat",)
    assert result.next is None
    assert not result.current_round_open
    assert result.rounds[-1].events[-1].wins == ("Cat",)
    assert [(s.player, s.rank, s.out, s.out_in_round) for s in result.standings] == [
        ("Cat", 1, False, None),
        ("Ann", 2, True, 2),
        ("Ben", 3, True, 1),
    ]


def test_a_hit_that_puts_out_every_other_player_wins_at_once():
    rules = rules_for("thirty-three", 4)
    result = play(rules, "Ben adjust -9, Cat adjust -9, Dan adjust -9, Cat hit 33")
    hit = result.rounds[0].events[-1]
    assert hit.changes == {"Dan": 0, "Ann": -1, "Ben": 0}
    assert hit.eliminated == ("Dan", "Ben")
    assert hit.wins == ()
    assert not result.finished
    won = play(rules, "Ben adjust -9, Cat adjust -9, Dan adjust -9, Ann hit 33")
    hit = won.rounds[0].events[-1]
    assert hit.eliminated == ("Ben", "Cat", "Dan")
    assert hit.wins == ("Ann",)
    assert hit.ends_round  # a hit 33 does not end a round, but the game is over
    assert won.rounds[0].complete
    assert won.finished and won.winners == ("Ann",)
    # Going out on the same event shares a rank (seat order among them).
    assert [(s.player, s.rank) for s in won.standings] == [
        ("Ann", 1),
        ("Ben", 2),
        ("Cat", 2),
        ("Dan", 2),
    ]


def test_trips_can_end_the_game():
    rules = rules_for("michigan", 3, tokens=1)
    result = play(rules, "Ann trips")
    assert result.finished and result.winners == ("Ann",)
    assert result.rounds[0].eliminated == ("Ben", "Cat")


# thirty-three: one card crossing 66 and 99 (RULES.md §2.1, §2.3)


def test_a_double_crossing_costs_3():
    result = play(rules_for("thirty-three"), "Ann cross 66, Ann bust")
    assert [event.changes for event in result.rounds[0].events] == [{"Ann": -1}, {"Ann": -2}]
    assert result.rounds[0].tokens["Ann"] == 6
    assert result.rounds[0].complete


def test_the_bust_after_a_cross_that_put_the_player_out_is_accepted_and_costs_nothing():
    rules = rules_for("thirty-three")
    rounds = rounds_of("Ann adjust -9, Ann cross 66")
    assert allowed_events(rules, rounds) == {
        "Ann": tuple(rule for rule in rules.events if rule.event == "bust"),
        "Ben": events_for(rules),
        "Cat": events_for(rules),
    }
    assert add_event(rules, rounds, ev("Ann bust")) == tuple(
        rounds_of("Ann adjust -9, Ann cross 66, Ann bust")
    )
    result = play(rules, "Ann adjust -9, Ann cross 66, Ann bust")
    cross, bust = result.rounds[0].events[1:]
    assert cross.eliminated == ("Ann",)
    assert (bust.changes, bust.eliminated, bust.ends_round) == ({}, (), True)
    assert result.rounds[0].complete
    assert result.next == NextRound(2, "Ben")
    assert not can_act(rules, rounds_of("Ann adjust -9, Ann cross 66, Ann bust"), "Ann")


def test_the_bust_after_a_cross_that_ended_the_game_is_still_accepted():
    rules = rules_for("thirty-three", 2)
    rounds = rounds_of("Ann adjust -9, Ann cross 66")
    assert play(rules, "Ann adjust -9, Ann cross 66").winners == ("Ben",)
    assert can_act(rules, rounds, "Ann")
    assert not can_act(rules, rounds, "Ben")
    assert add_event(rules, rounds, ev("Ann bust")) == tuple(
        rounds_of("Ann adjust -9, Ann cross 66, Ann bust")
    )
    result = play(rules, "Ann adjust -9, Ann cross 66, Ann bust")
    assert result.finished and result.winners == ("Ben",)
    assert result.rounds[0].events[-1].changes == {}


def test_the_exception_also_holds_at_zero_in_custom():
    rules = rules_for("custom", tokens=1)
    result = play(rules, "Ann cross 66, Ann bust")
    assert result.rounds[0].events[0].eliminated == ("Ann",)
    assert result.rounds[0].events[1].changes == {}


# Wilson (RULES.md §2.3)

WILSON_ROUND = "Ben border 33, Cat border 66, Ben border 99"  # Ann 3, Ben 1, Cat 2


def test_wilson_adds_what_is_left_of_the_3_game_points_when_the_round_ends():
    rules = rules_for("wilson")
    result = play(rules, WILSON_ROUND, "Ann border 33, Ann border 66, Ann border 33, Ann border 66")
    first, second = result.rounds
    assert first.points == {"Ann": 3, "Ben": 1, "Cat": 2}
    assert first.tokens is None
    assert first.totals == {"Ann": 3, "Ben": 1, "Cat": 2}
    assert first.eliminated == ()
    assert (first.tally, second.tally) == (None, None)
    # The round in progress shows its points; they count once it ends.
    assert second.points == {"Ann": -1, "Ben": 3, "Cat": 3}
    assert second.totals == first.totals
    assert [(s.player, s.total, s.rank, s.tokens) for s in result.standings] == [
        ("Ann", 3, 1, None),
        ("Cat", 2, 2, None),
        ("Ben", 1, 3, None),
    ]
    ended = play(rules, WILSON_ROUND, "Ann border 33, Ann border 66, Ann border 99")
    assert ended.rounds[1].totals == {"Ann": 3, "Ben": 4, "Cat": 5}


def test_wilson_ends_when_a_round_leaves_anyone_on_15():
    rules = rules_for("wilson")
    result = play(rules, *[WILSON_ROUND] * 5)
    assert result.rounds[-1].totals == {"Ann": 15, "Ben": 5, "Cat": 10}
    assert result.finished and result.winners == ("Ann",)
    assert result.rounds[-1].events[-1].wins == ("Ann",)
    assert result.next is None
    assert not play(rules, *[WILSON_ROUND] * 4).finished


def test_wilson_ties_share_the_win():
    rules = rules_for("wilson")
    result = play(rules, *["Cat border 33, Cat border 66, Cat border 99"] * 5)
    assert result.winners == ("Ann", "Ben")
    assert [(s.player, s.rank) for s in result.standings] == [("Ann", 1), ("Ben", 1), ("Cat", 3)]


def test_wilson_the_highest_wins_even_if_another_reached_15():
    rules = rules_for("wilson")
    rounds = [WILSON_ROUND] * 4 + ["Ann adjust 1, Ben adjust 5, Cat border 99"]
    result = play(rules, *rounds)
    assert result.rounds[-1].totals == {"Ann": 16, "Ben": 12, "Cat": 10}
    assert result.winners == ("Ann",)
    late = play(rules, *[WILSON_ROUND] * 4, "Cat border 99, Ben adjust 9")
    assert late.rounds[-1].totals == {"Ann": 15, "Ben": 16, "Cat": 10}
    assert late.winners == ("Ben",)  # an adjustment after the border still belongs to the round


def test_wilson_points_can_go_negative():
    rules = rules_for("wilson")
    borders = ", ".join(["Ann border 33", "Ann border 66"] * 2 + ["Ann border 99"])
    result = play(rules, borders)
    assert result.rounds[0].points == {"Ann": -2, "Ben": 3, "Cat": 3}


# The 98 presets: tallies, no elimination, never finished by themselves


def test_ninety_eight_counts_drinks_and_the_fewest_lead():
    rules = rules_for("ninety-eight")
    result = play(rules, "Ann bust", "Ben bust", "Ann bust", "Cat adjust 2")
    assert [played.tally for played in result.rounds] == [
        {"Ann": 1, "Ben": 0, "Cat": 0},
        {"Ann": 1, "Ben": 1, "Cat": 0},
        {"Ann": 2, "Ben": 1, "Cat": 0},
        {"Ann": 2, "Ben": 1, "Cat": 0},  # in progress: counted once the round ends
    ]
    assert result.rounds[-1].events[0].changes == {"Cat": 2}
    assert [played.tokens for played in result.rounds] == [None] * 4
    assert [(s.player, s.total, s.rank) for s in result.standings] == [
        ("Cat", 0, 1),
        ("Ben", 1, 2),
        ("Ann", 2, 3),
    ]
    assert not result.finished and result.winners == ()
    assert result.next == NextRound(4, "Ann")


def test_arizona_counts_rounds_won_and_the_most_lead():
    rules = rules_for("ninety-eight-arizona")
    result = play(rules, "Ann bust, Ben win", "Cat win", "Cat bust, Ann bust")
    assert [played.tally for played in result.rounds] == [
        {"Ann": 0, "Ben": 1, "Cat": 0},
        {"Ann": 0, "Ben": 1, "Cat": 1},
        {"Ann": 0, "Ben": 1, "Cat": 1},
    ]
    assert [played.complete for played in result.rounds] == [True, True, False]
    assert [(s.player, s.total, s.rank) for s in result.standings] == [
        ("Ben", 1, 1),
        ("Cat", 1, 1),
        ("Ann", 0, 3),
    ]
    assert result.rounds[2].eliminated == ()


def test_arizona_a_busted_player_sits_out_only_the_rest_of_the_round():
    rules = rules_for("ninety-eight-arizona")
    rounds = rounds_of("Ann bust")
    assert not can_act(rules, rounds, "Ann")
    assert can_act(rules, rounds, "Ben")
    assert can_act(rules, rounds_of("Ann bust, Ben win"), "Ann")


def test_michigan_out_of_round_bust_needs_a_last_player():
    rules = rules_for("michigan", bust="out-of-round")
    assert [rule.label for rule in rules.events] == ["Bust", "Trips", "Last to play"]
    result = play(rules, "Ann bust, Ben bust, Cat win")
    assert [event.changes for event in result.rounds[0].events] == [{}, {}, {}]
    assert result.rounds[0].complete
    assert result.rounds[0].tokens == {"Ann": 4, "Ben": 4, "Cat": 4}


# on_69 (RULES.md §2.3)


def test_on_69_token_gains_one():
    rules = rules_for("ninety-nine", on_69="token")
    assert [rule.label for rule in events_for(rules)] == ["Bust", "Hit 69", "Adjust"]
    result = play(rules, "Ann hit 69, Ben bust")
    assert result.rounds[0].events[0].changes == {"Ann": 1}
    assert not result.rounds[0].events[0].ends_round
    assert result.rounds[0].tokens == {"Ann": 6, "Ben": 4, "Cat": 5}


def test_on_69_token_in_wilson_is_a_game_point():
    rules = rules_for("wilson", on_69="token")
    result = play(rules, "Ann hit 69, Ann border 99")
    assert result.rounds[0].points == {"Ann": 3, "Ben": 3, "Cat": 3}


@pytest.mark.parametrize("on_69", ["nothing", "reset"])
def test_other_on_69_rules_do_not_score(on_69):
    rules = rules_for("thirty-three", on_69=on_69)
    assert {rule.target for rule in rules.events if rule.event == "hit"} == {33, 66, 99}


# Dealing (RULES.md §2.2)


def test_dealers_skip_eliminated_players():
    rules = rules_for("sudden-death", 5)
    result = play(rules, "Ben bust", "Cat bust", "Eve bust", "Dan bust")
    # Ben is out after round 1, so Cat deals next; Cat and Eve are out by round 4: Ann deals.
    assert [played.dealer for played in result.rounds] == ["Ann", "Cat", "Dan", "Ann"]
    assert result.winners == ("Ann",)


def test_a_round_in_progress_keeps_its_dealer_even_if_the_dealer_goes_out():
    rules = rules_for("thirty-three", 3)
    rounds = ["Ann bust", "Ben adjust -9, Ben cross 33"]
    result = play(rules, *rounds)
    assert result.rounds[1].dealer == "Ben"
    assert result.rounds[1].eliminated == ("Ben",)
    assert result.next == NextRound(2, "Ben")
    ended = play(rules, *rounds[:-1], rounds[-1] + ", Cat bust")
    assert ended.next == NextRound(3, "Cat")


def test_the_first_round_is_dealt_by_seat_1():
    assert play(rules_for("ninety-nine", 4)).next == NextRound(1, "Ann")
    result = play(rules_for("ninety-nine", 4), "")
    assert result.rounds[0].dealer == "Ann"
    assert result.current_round_open
    assert result.next == NextRound(1, "Ann")


# Standings (RULES.md §2.2)


def test_standings_put_players_still_in_by_tokens_then_the_most_recently_out():
    rules = rules_for("ninety-nine-standard", 6)
    result = play(
        rules,
        "Ann adjust -2, Ann bust",  # Ann out in round 1
        "Ben adjust -2, Cat adjust -2, Dan adjust -1, Eve adjust -1, Ben bust",  # Ben out
        "Fay adjust -1, Eve bust",
    )
    assert [(s.player, s.rank, s.tokens, s.out, s.out_in_round) for s in result.standings] == [
        ("Dan", 1, 2, False, None),
        ("Fay", 1, 2, False, None),
        ("Cat", 3, 1, False, None),
        ("Eve", 3, 1, False, None),
        ("Ben", 5, 0, True, 2),
        ("Ann", 6, 0, True, 1),
    ]
    assert result.rounds[-1].eliminated == ("Ann", "Ben")
