"""Checks on the rounds of the adding game (RULES.md §2.1, §2.4): every problem, by path."""

import pytest

from scorekeeper.rules.adding import (
    AddingRules,
    Event,
    InvalidRounds,
    RoundEntry,
    RoundProblem,
    add_event,
    allowed_events,
    can_act,
    check_rounds,
    resolve_rules,
    score_session,
)
from tests.rules.adding.test_scoring import ev, rounds_of

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def rules_for(preset: str = "ninety-nine", count: int = 3, **options: object) -> AddingRules:
    return resolve_rules(preset, options, NAMES[:count])


def problems(rules: AddingRules, *specs: str) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRounds) as caught:
        score_session(rules, rounds_of(*specs))
    assert check_rounds(rules, rounds_of(*specs)) == caught.value.problems
    return [(problem.path, problem.message) for problem in caught.value.problems]


NINETY_NINE = rules_for()
THIRTY_THREE = rules_for("thirty-three")
WILSON = rules_for("wilson")
ARIZONA = rules_for("ninety-eight-arizona")
DRINKS = rules_for("ninety-eight")
SUDDEN = rules_for("sudden-death")

BAD_ROUNDS = {
    "unknown player": (
        NINETY_NINE,
        ["Zed bust"],
        [("rounds[0].events[0].player", "Zed is not playing in this session.")],
    ),
    "unknown event": (
        NINETY_NINE,
        ["Ann jump"],
        [
            (
                "rounds[0].events[0].event",
                'There is no event "jump"; events are bust, hit, cross, border, empty, trips, '
                "win and adjust.",
            )
        ],
    ),
    "event not in the preset": (
        NINETY_NINE,
        ["Ann trips"],
        [
            (
                "rounds[0].events[0].event",
                "Ninety-Nine has no trips event; it has bust and adjust.",
            )
        ],
    ),
    "hit 69 without the option": (
        THIRTY_THREE,
        ["Ann hit 69"],
        [("rounds[0].events[0].target", "A hit in Thirty-Three is at 33, 66 or 99, not 69.")],
    ),
    "missing target": (
        THIRTY_THREE,
        ["Ann cross"],
        [("rounds[0].events[0].target", "Say which total: 33 or 66.")],
    ),
    "wrong target": (
        THIRTY_THREE,
        ["Ann cross 99"],
        [("rounds[0].events[0].target", "A cross in Thirty-Three is at 33 or 66, not 99.")],
    ),
    "wrong border": (
        WILSON,
        ["Ann border 50"],
        [("rounds[0].events[0].target", "A border in Wilson is at 33, 66 or 99, not 50.")],
    ),
    "target on a bust": (
        NINETY_NINE,
        ["Ann bust 99"],
        [("rounds[0].events[0].target", "A bust has no target.")],
    ),
    "event by an eliminated player": (
        SUDDEN,
        ["Ann bust", "Ann bust"],
        [("rounds[1].events[0].player", "Ann is out of the game (since round 1).")],
    ),
    "adjust by an eliminated player": (
        SUDDEN,
        ["Ann bust", "Ann adjust 1"],
        [("rounds[1].events[0].player", "Ann is out of the game (since round 1).")],
    ),
    "event after the round ended": (
        NINETY_NINE,
        ["Ann bust, Ben bust"],
        [
            (
                "rounds[0].events[1].event",
                "The round ended with Ann's bust; only an adjustment can follow.",
            )
        ],
    ),
    "win after the round ended": (
        ARIZONA,
        ["Ben win, Cat win"],
        [
            (
                "rounds[0].events[1].event",
                "The round ended with Ben's win; only an adjustment can follow.",
            )
        ],
    ),
    "eliminated and after the round ended": (
        THIRTY_THREE,
        ["Ann adjust -9, Ann cross 33, Ben hit 99, Ann bust"],
        [
            ("rounds[0].events[3].player", "Ann is out of the game (since round 1)."),
            (
                "rounds[0].events[3].event",
                "The round ended with Ben's hit 99; only an adjustment can follow.",
            ),
        ],
    ),
    "arizona: a busted player acts again": (
        ARIZONA,
        ["Ann bust, Ann win"],
        [("rounds[0].events[1].player", "Ann busted and sits out the rest of this round.")],
    ),
    "arizona: a busted player adjusts": (
        ARIZONA,
        ["Ann bust, Ben win, Ann adjust 1"],
        [("rounds[0].events[2].player", "Ann busted and sits out the rest of this round.")],
    ),
    "a bust after a cross 33 is no exception": (
        THIRTY_THREE,
        ["Ann adjust -9, Ann cross 33, Ann bust"],
        [("rounds[0].events[2].player", "Ann is out of the game (since round 1).")],
    ),
    "the exception bust must come right after the cross": (
        THIRTY_THREE,
        ["Ann adjust -9, Ann cross 66, Ben cross 33, Ann bust"],
        [("rounds[0].events[3].player", "Ann is out of the game (since round 1).")],
    ),
    "the exception is a bust": (
        THIRTY_THREE,
        ["Ann adjust -9, Ann cross 66, Ann empty"],
        [("rounds[0].events[2].player", "Ann is out of the game (since round 1).")],
    ),
    "an event after the game was won": (
        SUDDEN,
        ["Ann bust", "Ben bust, Cat adjust 1"],
        [("rounds[1].events[1]", "The game is over (Cat won); nothing can follow.")],
    ),
    "a round after the game ended": (
        SUDDEN,
        ["Ann bust", "Ben bust", "Cat bust", ""],
        [
            ("rounds[2]", "The game ended in round 2; no round can follow it."),
            ("rounds[3]", "The game ended in round 2; no round can follow it."),
        ],
    ),
    "a round after a Wilson game ended": (
        WILSON,
        ["Ann border 99, Ann adjust 13", "Ann border 33"],
        [("rounds[1]", "The game ended in round 1; no round can follow it.")],
    ),
    "a round in progress before the last": (
        NINETY_NINE,
        ["Ann adjust 1", "Ben bust"],
        [
            (
                "rounds[0]",
                "This round has no event that ends it; only the last round may be in progress.",
            )
        ],
    ),
    "an empty round before the last": (
        NINETY_NINE,
        ["", "Ben bust"],
        [("rounds[0]", "This round has no events; only the last round may be in progress.")],
    ),
    "arizona: only busts, then another round": (
        ARIZONA,
        ["Ann bust, Ben bust", "Cat win"],
        [
            (
                "rounds[0]",
                "This round has no event that ends it; only the last round may be in progress.",
            )
        ],
    ),
    "every problem of an event": (
        THIRTY_THREE,
        ["Zed hit"],
        [
            ("rounds[0].events[0].player", "Zed is not playing in this session."),
            ("rounds[0].events[0].target", "Say which total: 33, 66 or 99."),
        ],
    ),
    "problems in several rounds": (
        NINETY_NINE,
        ["Zed bust", "Ann trips", "Ben bust 33"],
        [
            ("rounds[0].events[0].player", "Zed is not playing in this session."),
            (
                "rounds[1].events[0].event",
                "Ninety-Nine has no trips event; it has bust and adjust.",
            ),
            ("rounds[2].events[0].target", "A bust has no target."),
        ],
    ),
}


@pytest.mark.parametrize(("rules", "specs", "expected"), BAD_ROUNDS.values(), ids=BAD_ROUNDS)
def test_it_rejects_a_bad_round_with_a_message(rules, specs, expected):
    assert problems(rules, *specs) == expected


ADJUST_NEEDS = "An adjustment needs a whole number of {} from -99 to 99 other than 0, e.g. -1."
NO_EVENT = (
    'There is no event "None"; events are bust, hit, cross, border, empty, trips, win and adjust.'
)
HIT_AT = "A hit in Thirty-Three is at 33, 66 or 99, not {}."


@pytest.mark.parametrize(
    ("rules", "event", "expected"),
    [
        (
            THIRTY_THREE,
            Event("Ann", "empty", target=33),
            ("target", "An empty hand has no target."),
        ),
        (ARIZONA, Event("Ann", "win", target=98), ("target", "A win has no target.")),
        (
            NINETY_NINE,
            Event("Ann", "bust", tokens=1),
            ("tokens", "Only an adjustment carries a number."),
        ),
        (
            NINETY_NINE,
            Event("Ann", "adjust", target=3, tokens=1),
            ("target", "An adjustment has no target."),
        ),
        (
            NINETY_NINE,
            Event("Ann", "adjust", tokens=True),
            ("tokens", ADJUST_NEEDS.format("tokens")),
        ),
        (
            NINETY_NINE,
            Event("Ann", "adjust", tokens=1.5),
            ("tokens", ADJUST_NEEDS.format("tokens")),
        ),
        (THIRTY_THREE, Event("Ann", "hit", target="33"), ("target", HIT_AT.format("33"))),
        (THIRTY_THREE, Event("Ann", "hit", target=33.0), ("target", HIT_AT.format("33.0"))),
        (NINETY_NINE, Event(None, "bust"), ("player", "The player must be a name.")),
        (NINETY_NINE, Event("Ann", None), ("event", NO_EVENT)),
        (NINETY_NINE, Event("Ann", ["bust"]), ("event", NO_EVENT.replace("None", "['bust']"))),
        (
            rules_for("dollar-bill"),
            Event("Ann", "adjust"),
            ("tokens", ADJUST_NEEDS.format("folds")),
        ),
        (WILSON, Event("Ann", "adjust", tokens=0), ("tokens", ADJUST_NEEDS.format("game points"))),
        (ARIZONA, Event("Ann", "adjust", tokens=0), ("tokens", ADJUST_NEEDS.format("rounds won"))),
    ],
)
def test_it_checks_every_field_of_an_event(rules, event, expected):
    found = check_rounds(rules, [RoundEntry((event,))])
    assert [(problem.field, problem.message) for problem in found] == [expected]


def test_a_problem_names_the_round_the_event_and_the_player():
    problem = RoundProblem(2, 1, "target", "Say which total: 33 or 66.", "Ben")
    assert problem.path == "rounds[2].events[1].target"
    assert str(problem) == "Round 3, event 2 (Ben): Say which total: 33 or 66."
    whole_event = RoundProblem(0, 0, None, "The game is over.", "Ann")
    assert whole_event.path == "rounds[0].events[0]"
    assert str(whole_event) == "Round 1, event 1 (Ann): The game is over."
    whole_round = RoundProblem(4, None, None, "This round has no events.")
    assert whole_round.path == "rounds[4]"
    assert str(whole_round) == "Round 5: This round has no events."


def test_invalid_rounds_lists_every_problem_in_its_message():
    with pytest.raises(InvalidRounds) as caught:
        score_session(NINETY_NINE, rounds_of("Zed bust", "Ann trips"))
    assert str(caught.value) == (
        "Round 1, event 1 (Zed): Zed is not playing in this session.\n"
        "Round 2, event 1 (Ann): Ninety-Nine has no trips event; it has bust and adjust."
    )


def test_a_round_that_cannot_be_read_stops_the_checks_that_depend_on_it():
    rounds = [*rounds_of("Ann bust"), None, *rounds_of("Ann bust, Ben bust", "Zed bust")]
    assert [problem.path for problem in check_rounds(SUDDEN, rounds)] == [
        "rounds[3].events[0].player"
    ]


def test_checks_that_depend_on_the_state_stop_after_a_problem():
    # The first problem leaves the state unknown: the later eliminated player is not reported.
    found = check_rounds(SUDDEN, rounds_of("Ann bust 5, Ann bust", "Ann bust"))
    assert [problem.path for problem in found] == ["rounds[0].events[0].target"]


def test_a_valid_session_has_no_problems():
    assert check_rounds(THIRTY_THREE, rounds_of("Ann hit 33, Ben cross 66, Ben bust", "")) == []


# What the table may record next


def test_nothing_can_be_recorded_once_the_game_is_over_or_rounds_are_invalid():
    finished = rounds_of("Ann bust", "Ben bust")
    assert [can_act(SUDDEN, finished, name) for name in NAMES[:3]] == [False, False, False]
    invalid = rounds_of("Zed bust")
    assert allowed_events(SUDDEN, invalid) == {"Ann": (), "Ben": (), "Cat": ()}
    assert not can_act(SUDDEN, [], "Zed")


def test_every_button_is_offered_to_a_player_still_in():
    assert [rule.label for rule in allowed_events(THIRTY_THREE, [])["Ann"]] == [
        "Hit 33",
        "Hit 66",
        "Hit 99",
        "Cross 33",
        "Cross 66",
        "Bust",
        "Empty hand",
        "Adjust",
    ]


def test_add_event_fills_the_open_round_then_starts_a_new_one():
    rounds = add_event(NINETY_NINE, [], ev("Ann adjust 1"))
    assert rounds == tuple(rounds_of("Ann adjust 1"))
    rounds = add_event(NINETY_NINE, rounds, ev("Ben bust"))
    assert rounds == tuple(rounds_of("Ann adjust 1, Ben bust"))
    rounds = add_event(NINETY_NINE, rounds, ev("Cat adjust -1"))
    assert rounds == tuple(rounds_of("Ann adjust 1, Ben bust", "Cat adjust -1"))


def test_add_event_goes_by_the_events_when_earlier_rounds_have_problems():
    open_round = add_event(NINETY_NINE, rounds_of("Zed bust", "Ann adjust 1"), ev("Ben bust"))
    assert open_round == tuple(rounds_of("Zed bust", "Ann adjust 1, Ben bust"))
    ended = add_event(NINETY_NINE, rounds_of("Zed bust", "Ann bust"), ev("Ben bust"))
    assert ended == tuple(rounds_of("Zed bust", "Ann bust", "Ben bust"))
