"""The adding family's scoresheet file (FORMAT.md §1, §3, §4): reading, checking, writing."""

import copy
import json
import re
from datetime import date

import pytest

from scorekeeper.rules.adding import PRESETS, Event, RoundEntry, resolve_rules
from scorekeeper.scoresheet import (
    AddingSheet,
    InvalidScoresheet,
    TrickSheet,
    dumps_scoresheet,
    event_data,
    export_scoresheet,
    loads_scoresheet,
    parse_scoresheet,
    round_data,
)
from tests.rules.adding.test_scoring import rounds_of

HEADER = {"format": "ninety-nine-scoresheet", "version": 1, "family": "adding"}
# The round of FORMAT.md §3 (Ann's adjust follows the round-ending bust).
ROUND = {
    "events": [
        {"player": "Ben", "event": "hit", "target": 33},
        {"player": "Cat", "event": "cross", "target": 66},
        {"player": "Ann", "event": "bust"},
        {"player": "Ann", "event": "adjust", "tokens": 1},
    ]
}
BASE = {**HEADER, "ruleset": "thirty-three", "players": ["Ann", "Ben", "Cat"], "rounds": [ROUND]}
DELETE = object()


def changed(*changes: tuple[str, object]) -> dict[str, object]:
    """BASE with the values at the paths replaced (or deleted)."""
    data = copy.deepcopy(BASE)
    for path, value in changes:
        steps = [int(step) if step.isdigit() else step for step in re.findall(r"[^.\[\]]+", path)]
        target: object = data
        for step in steps[:-1]:
            target = target[step]
        if value is DELETE:
            del target[steps[-1]]
        elif isinstance(target, list) and steps[-1] == len(target):
            target.append(copy.deepcopy(value))
        else:
            target[steps[-1]] = copy.deepcopy(value)
    return data


def rejected(data: object) -> list[str]:
    with pytest.raises(InvalidScoresheet) as caught:
        parse_scoresheet(data)
    return [str(problem) for problem in caught.value.problems]


def test_it_reads_the_format_example():
    sheet = parse_scoresheet(
        {**BASE, "options": {"tokens": 7}, "title": "Pub", "played_on": "2026-11-20"}
    )
    assert sheet == AddingSheet(
        ruleset="thirty-three",
        options={"tokens": 7},
        title="Pub",
        played_on=date(2026, 11, 20),
        players=("Ann", "Ben", "Cat"),
        rounds=(
            RoundEntry(
                (
                    Event("Ben", "hit", target=33),
                    Event("Cat", "cross", target=66),
                    Event("Ann", "bust"),
                    Event("Ann", "adjust", tokens=1),
                )
            ),
        ),
        rules=resolve_rules("thirty-three", {"tokens": 7}, ["Ann", "Ben", "Cat"]),
    )


def test_it_writes_the_computed_fields():
    data = export_scoresheet(parse_scoresheet(BASE))
    assert list(data) == [
        "format",
        "version",
        "family",
        "ruleset",
        "options",
        "players",
        "rounds",
        "standings",
        "next",
        "finished",
        "winners",
    ]
    assert data["rounds"] == [
        {
            "number": 1,
            "dealer": "Ann",
            **ROUND,
            "tokens": {"Ann": 7, "Ben": 9, "Cat": 7},
            "eliminated": [],
        }
    ]
    assert data["standings"] == [
        {"player": "Ben", "tokens": 9, "out": False, "rank": 1},
        {"player": "Ann", "tokens": 7, "out": False, "rank": 2},
        {"player": "Cat", "tokens": 7, "out": False, "rank": 2},
    ]
    assert data["next"] == {"number": 2, "dealer": "Ben"}
    assert (data["finished"], data["winners"]) == (False, [])
    assert data["options"] == {}


def test_a_finished_game_writes_its_winner_and_no_next_round():
    data = export_scoresheet(
        parse_scoresheet(
            {
                **HEADER,
                "ruleset": "sudden-death",
                "players": ["Ann", "Ben"],
                "rounds": [{"events": [{"player": "Ben", "event": "bust"}]}],
            }
        )
    )
    assert data["rounds"][0]["eliminated"] == ["Ben"]
    assert data["standings"] == [
        {"player": "Ann", "tokens": 1, "out": False, "rank": 1},
        {"player": "Ben", "tokens": 0, "out": True, "rank": 2},
    ]
    assert (data["next"], data["finished"], data["winners"]) == (None, True, ["Ann"])


def test_wilson_writes_points_and_totals():
    sheet = AddingSheet.build(
        ruleset="wilson",
        options={},
        players=["Ann", "Ben"],
        rounds=[RoundEntry((Event("Ann", "border", 33), Event("Ben", "border", 99)))],
    )
    data = export_scoresheet(sheet)
    assert data["rounds"][0] == {
        "number": 1,
        "dealer": "Ann",
        "events": [
            {"player": "Ann", "event": "border", "target": 33},
            {"player": "Ben", "event": "border", "target": 99},
        ],
        "eliminated": [],
        "points": {"Ann": 2, "Ben": 2},
        "totals": {"Ann": 2, "Ben": 2},
    }
    assert data["standings"] == [
        {"player": "Ann", "total": 2, "rank": 1},
        {"player": "Ben", "total": 2, "rank": 1},
    ]


@pytest.mark.parametrize(
    ("ruleset", "events", "tally"),
    [
        ("ninety-eight", [{"player": "Ben", "event": "bust"}], {"Ann": 0, "Ben": 1}),
        (
            "ninety-eight-arizona",
            [{"player": "Ann", "event": "bust"}, {"player": "Ben", "event": "win"}],
            {"Ann": 0, "Ben": 1},
        ),
    ],
)
def test_the_98_presets_write_a_tally_and_no_tokens(ruleset, events, tally):
    data = export_scoresheet(
        parse_scoresheet(
            {
                **HEADER,
                "ruleset": ruleset,
                "players": ["Ann", "Ben"],
                "rounds": [{"events": events}],
            }
        )
    )
    assert data["rounds"][0] == {
        "number": 1,
        "dealer": "Ann",
        "events": events,
        "eliminated": [],
        "tally": tally,
    }
    assert data["standings"][0]["total"] == (0 if ruleset == "ninety-eight" else 1)
    assert data["next"] == {"number": 2, "dealer": "Ben"}


def test_input_fields_are_written_back_as_given():
    data = changed(
        ("options", {"tokens": 5, "on_69": "nothing"}),
        ("title", "Friday"),
        ("played_on", "2026-11-20"),
        ("rounds[1]", {"events": []}),
    )
    out = export_scoresheet(parse_scoresheet(data))
    assert out["options"] == {"tokens": 5, "on_69": "nothing"}
    assert (out["title"], out["played_on"]) == ("Friday", "2026-11-20")
    assert [round_["events"] for round_ in out["rounds"]] == [ROUND["events"], []]
    assert out["next"] == {"number": 2, "dealer": "Ben"}  # the round in progress


def test_computed_fields_are_ignored_on_import():
    first = export_scoresheet(parse_scoresheet(BASE))
    tampered = copy.deepcopy(first)
    tampered["rounds"][0]["tokens"] = {"Ann": 99}
    tampered["rounds"][0]["dealer"] = "Zed"
    tampered["standings"] = []
    tampered["unknown"] = "ignored"
    assert export_scoresheet(parse_scoresheet(tampered)) == first


def test_round_data_writes_only_the_keys_given():
    entry = RoundEntry((Event("Ann", "bust"), Event("Ben", "adjust", tokens=-1)))
    assert round_data(entry) == {
        "events": [
            {"player": "Ann", "event": "bust"},
            {"player": "Ben", "event": "adjust", "tokens": -1},
        ]
    }
    assert event_data(Event("Cat", "hit", target=69)) == {
        "player": "Cat",
        "event": "hit",
        "target": 69,
    }


def test_build_resolves_the_rules_and_dumps_a_file():
    sheet = AddingSheet.build(ruleset="michigan", options={"tokens": 5}, players=("Ann", "Ben"))
    assert sheet.rules.tokens == 5
    assert (sheet.title, sheet.played_on, sheet.rounds) == (None, None, ())
    text = dumps_scoresheet(sheet)
    assert text.endswith("}\n")
    assert loads_scoresheet(text) == sheet


def test_both_families_go_through_the_same_functions():
    trick = {
        **HEADER,
        "family": "trick",
        "ruleset": "parlett-jokerless",
        "players": ["A", "B", "C"],
    }
    assert isinstance(parse_scoresheet({**trick, "deals": []}), TrickSheet)
    assert isinstance(loads_scoresheet(json.dumps(BASE)), AddingSheet)


# Round trips, every preset

SESSIONS = {
    "ninety-nine": ["Ann bust", "Ben adjust 2, Cat bust", "Ann adjust -1"],
    "ninety-nine-standard": ["Ann bust", "Ann bust", "Ann bust", "Ben bust"],
    "dollar-bill": ["Cat bust", "Cat bust"],
    "on-honor": ["Ann bust", "Ann bust", "Ann bust", "Ann bust", "Ben bust"],
    "thirty-three": ["Ann adjust -9, Ann cross 66, Ann bust", "Ben hit 33, Cat hit 99"],
    "wilson": ["Ann border 33, Ben border 66, Ann border 99", "Cat border 33"],
    "one-hundred": ["Ann bust", "Ben bust, Ben adjust 1"],
    "ninety-eight": ["Ann bust", "Ben bust", "Cat adjust 1"],
    "ninety-eight-arizona": ["Ann bust, Ben win", "Cat bust, Ann bust, Ben win"],
    "michigan": ["Ann trips", "Ben bust"],
    "sudden-death": ["Ann bust", "Ben bust"],
    "custom": ["Ann hit 33, Ben border 66, Cat empty", "Ann win", "Ben trips"],
}


def sheet_for(preset: str, specs: list[str]) -> AddingSheet:
    return AddingSheet.build(
        ruleset=preset,
        options={"on_69": "token"} if preset == "custom" else {},
        players=["Ann", "Ben", "Cat"],
        rounds=rounds_of(*specs),
        title="Round trip",
        played_on=date(2026, 11, 21),
    )


def test_every_preset_has_a_session_here():
    assert list(SESSIONS) == list(PRESETS)


@pytest.mark.parametrize(("preset", "specs"), SESSIONS.items(), ids=SESSIONS)
def test_export_import_export_is_byte_identical(preset, specs):
    sheet = sheet_for(preset, specs)
    text = dumps_scoresheet(sheet)
    again = loads_scoresheet(text)
    assert again == sheet
    assert dumps_scoresheet(again) == text


# Invalid files: every problem, by path

INVALID = {
    "no ruleset": (
        [("ruleset", DELETE)],
        ["ruleset: missing; give a ruleset id such as ninety-nine"],
    ),
    "ruleset not text": (
        [("ruleset", 99)],
        ["ruleset: must be text: a ruleset id such as ninety-nine"],
    ),
    "a trick ruleset": (
        [("ruleset", "parlett-classic")],
        ['ruleset: Unknown ruleset "parlett-classic"; choose one of ' + ", ".join(PRESETS) + "."],
    ),
    "unknown option": (
        [("options", {"trump": "none"})],
        ['options.trump: There is no option "trump".'],
    ),
    "bad option": (
        [("options", {"tokens": 0})],
        ["options.tokens: Must be a whole number from 1 to 99."],
    ),
    "options not an object": (
        [("options", [])],
        ["options: must be an object of option overrides, e.g. {}"],
    ),
    "title not text": ([("title", 5)], ["title: must be text"]),
    "bad date": (
        [("played_on", "2026-02-30")],
        ['played_on: must be a date written like "2026-11-20"'],
    ),
    "no players": ([("players", DELETE)], ["players: missing; list the players in seat order"]),
    "a player not text": ([("players[1]", 7)], ["players[1]: must be text"]),
    "too few players": (
        [("players", ["Ann"])],
        ["players: Thirty-Three is for 2 to 10 players; 1 given."],  # rounds need the rules
    ),
    "no rounds": (
        [("rounds", DELETE)],
        ["rounds: missing; use [] for a session with no rounds yet"],
    ),
    "rounds not a list": ([("rounds", {})], ["rounds: must be a list of rounds"]),
    "round not an object": ([("rounds[0]", [])], ['rounds[0]: must be an object with "events"']),
    "round without events": (
        [("rounds[0].events", DELETE)],
        ["rounds[0].events: missing; give the round's events, or [] for a round just dealt"],
    ),
    "events not a list": (
        [("rounds[0].events", "bust")],
        ["rounds[0].events: must be a list of events"],
    ),
    "unknown round key": ([("rounds[0].hands", {})], ["rounds[0].hands: unknown key"]),
    "event not an object": (
        [("rounds[0].events[1]", "bust")],
        ['rounds[0].events[1]: must be an object such as {"player": "Ann", "event": "bust"}'],
    ),
    "event without player or event": (
        [("rounds[0].events[0]", {"target": 33})],
        [
            "rounds[0].events[0].player: missing; give the player's name",
            'rounds[0].events[0].event: missing; give the event, such as "bust"',
        ],
    ),
    "event fields of the wrong type": (
        [("rounds[0].events[0]", {"player": 1, "event": ["hit"], "target": "33", "tokens": 1.5})],
        [
            "rounds[0].events[0].player: must be text",
            "rounds[0].events[0].event: must be text",
            "rounds[0].events[0].target: must be a whole number such as 33",
            "rounds[0].events[0].tokens: must be a whole number such as 1 or -1",
        ],
    ),
    "unknown event key": (
        [("rounds[0].events[2].drinks", 1)],
        ["rounds[0].events[2].drinks: unknown key"],
    ),
    "wrong target": (
        [("rounds[0].events[0].target", 34)],
        ["rounds[0].events[0].target: A hit in Thirty-Three is at 33, 66 or 99, not 34."],
    ),
    "adjust of zero": (
        [("rounds[0].events[3].tokens", 0)],
        [
            "rounds[0].events[3].tokens: "
            "An adjustment needs a whole number of tokens from -99 to 99 other than 0, e.g. -1."
        ],
    ),
    "event after the round ended": (
        [("rounds[0].events[4]", {"player": "Ben", "event": "bust"})],
        [
            "rounds[0].events[4].event: "
            "The round ended with Ann's bust; only an adjustment can follow."
        ],
    ),
    "a round in progress before the last": (
        [("rounds[0].events", ROUND["events"][:2]), ("rounds[1]", ROUND)],
        [
            "rounds[0]: "
            "This round has no event that ends it; only the last round may be in progress."
        ],
    ),
}


@pytest.mark.parametrize(("changes", "expected"), INVALID.values(), ids=INVALID)
def test_it_rejects_an_invalid_file(changes, expected):
    assert rejected(changed(*changes)) == expected


def test_it_lists_every_problem_in_the_order_of_the_file():
    data = changed(
        ("rounds[1]", {"events": [{"player": "Zed", "event": "bust", "colour": "red"}]}),
        ("rounds[2]", {"events": [{"player": "Ann", "event": "trips"}]}),
        ("rounds[0].events[0].target", 50),
        ("played_on", "yesterday"),
        ("title", ["Friday"]),
    )
    assert rejected(data) == [
        "title: must be text",
        'played_on: must be a date written like "2026-11-20"',
        "rounds[0].events[0].target: A hit in Thirty-Three is at 33, 66 or 99, not 50.",
        "rounds[1].events[0].colour: unknown key",
        "rounds[2].events[0].event: Thirty-Three has no trips event; it has bust, hit, cross, "
        "empty and adjust.",
    ]


def test_the_rounds_are_checked_after_a_round_that_cannot_be_read():
    data = changed(
        ("rounds[0].events[0].target", "33"),
        ("rounds[1]", {"events": [{"player": "Zed", "event": "bust"}]}),
    )
    assert rejected(data) == [
        "rounds[0].events[0].target: must be a whole number such as 33",
        "rounds[1].events[0].player: Zed is not playing in this session.",
    ]


def test_the_header_still_comes_first():
    assert rejected(changed(("version", 2), ("rounds", 5))) == [
        "version: this file is version 2; this app reads version 1"
    ]
