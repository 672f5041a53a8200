"""The scoresheet file of FORMAT.md: reading, checking and writing it (no database)."""

import copy
import json
import re
from datetime import date

import pytest

from scorekeeper.rules.common import Problem
from scorekeeper.rules.trick import (
    DUMMY,
    PRESETS,
    TRUMPS,
    DealEntry,
    HandEntry,
    TrickRules,
    check_deals,
    resolve_rules,
)
from scorekeeper.scoresheet import (
    InvalidScoresheet,
    TrickSheet,
    dumps_scoresheet,
    export_scoresheet,
    loads_scoresheet,
    parse_scoresheet,
)

HEADER = {"format": "ninety-nine-scoresheet", "version": 1, "family": "trick"}
DEAL = {
    "hands": {
        "Ann": {"tricks": 4, "bid": 4, "premium": "reveal"},
        "Ben": {"tricks": 5, "made": False},
        "Cat": {"tricks": 0, "bid_cards": ["diamonds", "diamonds", "diamonds"]},
    }
}
BASE = {**HEADER, "ruleset": "parlett-jokerless", "players": ["Ann", "Ben", "Cat"], "deals": [DEAL]}
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


# FORMAT.md examples


def test_it_reads_the_top_level_example():
    sheet = parse_scoresheet(
        {
            **HEADER,
            "ruleset": "parlett-jokerless",
            "options": {"match": {"type": "deals", "deals": 9}},
            "title": "Friday at Sam's",
            "played_on": "2026-11-20",
            "players": ["Ann", "Ben", "Cat"],
            "deals": [],
        }
    )
    assert sheet == TrickSheet(
        ruleset="parlett-jokerless",
        options={"match": {"type": "deals", "deals": 9}},
        title="Friday at Sam's",
        played_on=date(2026, 11, 20),
        players=("Ann", "Ben", "Cat"),
        deals=(),
        rules=resolve_rules("parlett-jokerless", {}, ["Ann", "Ben", "Cat"]),
    )


def test_it_reads_the_deal_example_where_the_premium_bidder_names_the_trump():
    sheet = parse_scoresheet(
        {**BASE, "ruleset": "declared", "deals": [{"trump": "hearts", **DEAL}]}
    )
    assert sheet.deals == (
        DealEntry(
            {
                "Ann": HandEntry(4, bid=4, premium="reveal"),
                "Ben": HandEntry(5, made=False),
                "Cat": HandEntry(0, bid_cards=("diamonds", "diamonds", "diamonds")),
            },
            "hearts",
        ),
    )
    deal = export_scoresheet(sheet)["deals"][0]
    assert deal["trump"] == "hearts"
    assert deal["totals"] == {"Ann": 84, "Ben": 5, "Cat": 20}


def test_it_writes_the_computed_fields_of_the_example():
    data = export_scoresheet(parse_scoresheet(BASE))
    deal = data["deals"][0]
    assert {key: deal[key] for key in ("number", "dealer", "leader", "trump")} == {
        "number": 1,
        "dealer": "Ann",
        "leader": "Ben",
        "trump": "diamonds",
    }
    assert deal["result"] == {
        "Ann": {"bid": 4, "made": True, "points": 84},
        "Ben": {"bid": None, "made": False, "points": 5},
        "Cat": {"bid": 0, "made": True, "points": 20},
    }
    assert deal["totals"] == {"Ann": 84, "Ben": 5, "Cat": 20}
    assert data["standings"] == [
        {"player": "Ann", "total": 84, "rank": 1},
        {"player": "Cat", "total": 20, "rank": 2},
        {"player": "Ben", "total": 5, "rank": 3},
    ]
    assert data["next"] == {"number": 2, "dealer": "Ben", "leader": "Cat", "trump": "hearts"}
    assert data["finished"] is False
    assert data["winners"] == []
    assert "games" not in data


def test_it_writes_the_file_in_a_fixed_order():
    data = export_scoresheet(parse_scoresheet(changed(("title", "Friday"))))
    assert list(data) == [
        "format",
        "version",
        "family",
        "ruleset",
        "options",
        "title",
        "players",
        "deals",
        "standings",
        "next",
        "finished",
        "winners",
    ]
    deal = data["deals"][0]
    assert list(deal) == ["number", "dealer", "leader", "trump", "hands", "result", "totals"]


def test_it_writes_only_the_hand_fields_that_were_entered():
    deal = changed(("deals[0].hands.Ben.bid", 6), ("deals[0].hands.Cat.bid", 0))["deals"][0]
    data = export_scoresheet(parse_scoresheet(changed(("deals[0]", deal))))
    assert data["deals"][0]["hands"] == {
        "Ann": {"tricks": 4, "bid": 4, "premium": "reveal"},
        "Ben": {"tricks": 5, "bid": 6, "made": False},
        "Cat": {"tricks": 0, "bid": 0, "bid_cards": ["diamonds", "diamonds", "diamonds"]},
    }


def test_it_writes_the_options_as_given():
    data = export_scoresheet(
        parse_scoresheet(
            {**BASE, "ruleset": "long", "options": {"match": {"type": "long"}}, "deals": []}
        )
    )
    assert data["options"] == {"match": {"type": "long"}}
    assert data["games"] == []
    assert "title" not in data
    assert "played_on" not in data


def test_it_ignores_computed_fields_and_unknown_top_level_keys():
    wrong = changed(
        ("deals[0].number", 7),
        ("deals[0].dealer", "Cat"),
        ("deals[0].leader", "Cat"),
        ("deals[0].result", {"Ann": "lots"}),
        ("deals[0].totals", None),
        ("deals[0].hands.Ann.points", 1000),
        ("standings", "nonsense"),
        ("next", 5),
        ("finished", True),
        ("winners", ["Cat"]),
        ("games", {}),
        ("app", {"version": "9.9"}),
    )
    assert export_scoresheet(parse_scoresheet(wrong)) == export_scoresheet(parse_scoresheet(BASE))


def test_empty_optional_fields_count_as_not_given():
    data = changed(
        ("options", None),
        ("title", None),
        ("played_on", None),
        ("deals[0].trump", None),
        ("deals[0].hands.Ann.made", None),
        ("deals[0].hands.Ben.bid", None),
        ("deals[0].hands.Ben.premium", None),
        ("deals[0].hands.Cat.bid", None),
    )
    assert export_scoresheet(parse_scoresheet(data)) == export_scoresheet(parse_scoresheet(BASE))


def test_dumps_gives_indented_json_with_a_final_newline():
    sheet = parse_scoresheet(changed(("players", ["Zoë", "Ben", "Cat"]), ("deals", [])))
    text = dumps_scoresheet(sheet)
    assert text.endswith("}\n")
    assert '\n  "players": [\n    "Zoë",' in text
    assert json.loads(text) == export_scoresheet(sheet)


# Round trip, for a session of every preset


def sample_deals(rules: TrickRules, count: int = 40) -> list[DealEntry]:
    """Valid deals of every kind of entry, up to the end of the session or `count` deals."""
    names = rules.hands
    deals = []
    for number in range(count):
        share, extra = divmod(rules.tricks, len(names))
        tricks = [share + (seat < extra) for seat in range(len(names))]
        tricks = tricks[number % len(names) :] + tricks[: number % len(names)]
        hands = {}
        for seat, (name, won) in enumerate(zip(names, tricks, strict=True)):
            form = (number + seat) % 5
            if name == DUMMY:
                hands[name] = HandEntry(won, bid=won + form % 2)
            elif form == 0:
                hands[name] = HandEntry(won, bid=won)
            elif form == 1 and won <= 9:
                hands[name] = HandEntry(won, bid_cards=cards_for(won))
            elif form == 2:
                hands[name] = HandEntry(won, made=True)
            elif form == 3 and not rules.needs_all_bids:
                hands[name] = HandEntry(won, made=False)
            else:
                hands[name] = HandEntry(won, bid=(won + 1) % 10, made=False)
        if rules.premiums and number % 3 == 1:  # a premium bid, made every other time
            first = rules.players[number % len(rules.players)]
            won = tricks[names.index(first)]
            bid = won if number % 2 else (won + 1) % 10
            hands[first] = HandEntry(won, bid=bid, premium=rules.premiums[-1])
        premium = any(hand.premium for hand in hands.values())
        trump = None
        if rules.trump == "turn-up" or (rules.trump == "declared" and premium):
            trump = TRUMPS[number % len(TRUMPS)]
        deals.append(DealEntry(hands, trump))
    problems = check_deals(rules, deals)
    assert all(problem.message.startswith("The session ended") for problem in problems)
    return deals[: problems[0].deal] if problems else deals


def cards_for(bid: int) -> tuple[str, ...]:
    clubs, rest = divmod(bid, 3)
    codes = [3] * clubs + [rest] + [0] * (2 - clubs)
    suits = {0: "diamonds", 1: "spades", 2: "hearts", 3: "clubs"}
    return tuple(suits[code] for code in codes[:3])


SESSIONS = {
    "parlett-classic": {},
    "parlett-jokerless": {"first_trump": "none"},
    "encyclopaedia": {},
    "declared": {},
    "eighteen-ninety-nine": {"match": {"type": "deals", "deals": 6}},
    "long": {},
    "four": {"bonus": [30, 20, 10, 10]},
    "five": {},
    "two-dummy": {"match": {"type": "rubber"}},
    "naughty-nun": {"match": {"type": "target", "target": 150}},
    "oxford-whist": {},
    "custom": {"trump": "by-deviation", "trick_points": False, "bonus": [50]},
}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_export_import_export_is_byte_identical(preset):
    players = ("Ann", "Ben", "Cat", "Dan", "Eve")[: PRESETS[preset].players[-1]]
    rules = resolve_rules(preset, SESSIONS[preset], players)
    deals = sample_deals(rules)
    sheet = TrickSheet.build(
        ruleset=preset,
        options=SESSIONS[preset],
        players=players,
        deals=tuple(deals),
        title="Round trip ☺",
        played_on=date(2026, 11, 20),
    )
    text = dumps_scoresheet(sheet)
    again = loads_scoresheet(text)
    assert dumps_scoresheet(again) == text
    assert again.rules == rules
    data = json.loads(text)
    assert ("games" in data) == rules.has_games
    assert data["title"] == "Round trip ☺"
    assert data["played_on"] == "2026-11-20"


def test_every_sample_session_plays_to_its_end():
    finished = {}
    for preset, options in SESSIONS.items():
        players = ("Ann", "Ben", "Cat", "Dan", "Eve")[: PRESETS[preset].players[-1]]
        sheet = TrickSheet.build(
            ruleset=preset,
            options=options,
            players=players,
            deals=tuple(sample_deals(resolve_rules(preset, options, players))),
        )
        finished[preset] = export_scoresheet(sheet)["finished"]
    assert all(finished.values())


def test_eighteen_ninety_nine_writes_its_game_points():
    options = {"match": {"type": "deals", "deals": 6}}
    rules = resolve_rules("eighteen-ninety-nine", options, ["Ann", "Ben", "Cat"])
    sheet = TrickSheet.build(
        ruleset="eighteen-ninety-nine",
        options=options,
        players=("Ann", "Ben", "Cat"),
        deals=tuple(sample_deals(rules)),
    )
    data = export_scoresheet(sheet)
    (game,) = data["games"]
    assert list(game) == ["number", "winner", "scores", "bonuses", "game_points"]
    assert game["scores"] == data["deals"][-1]["totals"]
    assert data["next"] is None
    assert data["winners"] == game["winner"]


def test_a_rubber_writes_its_games():
    options = {"bonus": [100], "match": {"type": "rubber"}}
    rules = resolve_rules("custom", options, ["Ann", "Ben", "Cat"])
    ann_alone = DealEntry(
        {"Ann": HandEntry(3, bid=3), "Ben": HandEntry(3, bid=4), "Cat": HandEntry(3, bid=4)}
    )
    sheet = TrickSheet.build(
        ruleset="custom", options=options, players=rules.players, deals=(ann_alone,)
    )
    assert export_scoresheet(sheet)["games"] == [
        {
            "number": 1,
            "winner": ["Ann"],
            "scores": {"Ann": 103, "Ben": 3, "Cat": 3},
            "bonuses": {"Ann": 100, "Ben": 0, "Cat": 0},
        }
    ]


# Invalid files: every problem, by path

INVALID = {
    "no format": (
        [("format", DELETE)],
        ['format: missing; a scoresheet has "format": "ninety-nine-scoresheet"'],
    ),
    "wrong format": ([("format", "99")], ['format: must be "ninety-nine-scoresheet"']),
    "no version": ([("version", DELETE)], ["version: must be 1"]),
    "version true": ([("version", True)], ["version: must be 1"]),
    "newer version": (
        [("version", 2)],
        ["version: this file is version 2; this app reads version 1"],
    ),
    "a trick file called adding": (
        [("family", "adding")],
        [
            'ruleset: Unknown ruleset "parlett-jokerless"; choose one of ninety-nine, '
            "ninety-nine-standard, dollar-bill, on-honor, thirty-three, wilson, one-hundred, "
            "ninety-eight, ninety-eight-arizona, michigan, sudden-death, custom.",
            "rounds: missing; use [] for a session with no rounds yet",
        ],
    ),
    "unknown family": ([("family", "tricks")], ['family: must be "trick" or "adding"']),
    "whole header": (
        [("format", None), ("version", "1"), ("family", None)],
        [
            'format: must be "ninety-nine-scoresheet"',
            "version: must be 1",
            'family: must be "trick" or "adding"',
        ],
    ),
    "no ruleset": (
        [("ruleset", DELETE)],
        ["ruleset: missing; give a ruleset id such as parlett-jokerless"],
    ),
    "ruleset not text": (
        [("ruleset", 5)],
        ["ruleset: must be text: a ruleset id such as parlett-jokerless"],
    ),
    "unknown ruleset": (
        [("ruleset", "whist")],
        ['ruleset: Unknown ruleset "whist"; choose one of ' + ", ".join(PRESETS) + "."],
    ),
    "options not an object": (
        [("options", [])],
        ["options: must be an object of option overrides, e.g. {}"],
    ),
    "unknown option": (
        [("options", {"tokens": 3})],
        ['options.tokens: There is no option "tokens".'],
    ),
    "option that cannot apply": (
        [("options", {"dummy_exact_declarer": True})],
        [
            "options.dummy_exact_declarer: “Dummy's exact bid scores 30” does not apply: "
            "Jokerless Ninety-Nine has no dummy."
        ],
    ),
    "bad match": (
        [("options", {"match": {"type": "deals", "deals": 0}})],
        ["options.match.deals: The number of deals must be a whole number from 1 to 999."],
    ),
    "title not text": ([("title", 5)], ["title: must be text"]),
    "no such date": (
        [("played_on", "2026-13-01")],
        ['played_on: must be a date written like "2026-11-20"'],
    ),
    "date without dashes": (
        [("played_on", "20261120")],
        ['played_on: must be a date written like "2026-11-20"'],
    ),
    "date as a number": (
        [("played_on", 20261120)],
        ['played_on: must be a date written like "2026-11-20"'],
    ),
    "no players": ([("players", DELETE)], ["players: missing; list the players in seat order"]),
    "players not a list": (
        [("players", "Ann, Ben, Cat")],
        ["players: must be a list of player names in seat order"],
    ),
    "player not text": ([("players", ["Ann", 2, "Cat"])], ["players[1]: must be text"]),
    "same player twice": (
        [("players", ["Ann", "Ben", "ann"])],
        ['players[2]: "ann" is already playing as "Ann".'],
    ),
    "too few players": (
        [("players", ["Ann", "Ben"])],
        ["players: Jokerless Ninety-Nine is for 3 players; 2 given."],
    ),
    "no deals": ([("deals", DELETE)], ["deals: missing; use [] for a session with no deals yet"]),
    "deals not a list": ([("deals", {})], ["deals: must be a list of deals"]),
    "deal not an object": (
        [("deals[0]", [])],
        ['deals[0]: must be an object with "hands" (and "trump" where it is entered)'],
    ),
    "unknown deal key": ([("deals[0].trumps", "clubs")], ["deals[0].trumps: unknown key"]),
    "trump not text": (
        [("deals[0].trump", 3)],
        ["deals[0].trump: must be clubs, hearts, spades, diamonds or none"],
    ),
    "no hands": (
        [("deals[0].hands", DELETE)],
        ["deals[0].hands: missing; give a hand for every player"],
    ),
    "hands not an object": (
        [("deals[0].hands", [])],
        ["deals[0].hands: must be an object with a hand for every player"],
    ),
    "hand not an object": (
        [("deals[0].hands.Ben", 5)],
        ['deals[0].hands.Ben: must be an object such as {"tricks": 3, "bid": 3}'],
    ),
    "no tricks": (
        [("deals[0].hands.Ben.tricks", DELETE)],
        ["deals[0].hands.Ben.tricks: missing; give the tricks won"],
    ),
    "negative tricks": (
        [("deals[0].hands.Ben.tricks", -1)],
        ["deals[0].hands.Ben.tricks: must be a whole number ≥ 0"],
    ),
    "fractional tricks": (
        [("deals[0].hands.Ben.tricks", 1.5)],
        ["deals[0].hands.Ben.tricks: must be a whole number ≥ 0"],
    ),
    "tricks true": (
        [("deals[0].hands.Ben.tricks", True)],
        ["deals[0].hands.Ben.tricks: must be a whole number ≥ 0"],
    ),
    "tricks as text": (
        [("deals[0].hands.Ben.tricks", "5")],
        ["deals[0].hands.Ben.tricks: must be a whole number ≥ 0"],
    ),
    "bid as text": (
        [("deals[0].hands.Ben.bid", "3")],
        ["deals[0].hands.Ben.bid: must be a whole number ≥ 0"],
    ),
    "negative bid": (
        [("deals[0].hands.Ben.bid", -1)],
        ["deals[0].hands.Ben.bid: must be a whole number ≥ 0"],
    ),
    "bid-cards as text": (
        [("deals[0].hands.Cat.bid_cards", "DDD")],
        [
            "deals[0].hands.Cat.bid_cards: must be a list of three suits, "
            'e.g. ["clubs", "diamonds", "diamonds"]'
        ],
    ),
    "bid-cards as numbers": (
        [("deals[0].hands.Cat.bid_cards", [0, 0, 0])],
        [
            "deals[0].hands.Cat.bid_cards: must be a list of three suits, "
            'e.g. ["clubs", "diamonds", "diamonds"]'
        ],
    ),
    "made as text": (
        [("deals[0].hands.Ben.made", "no")],
        ["deals[0].hands.Ben.made: must be true or false"],
    ),
    "premium as a number": (
        [("deals[0].hands.Ann.premium", 60)],
        ['deals[0].hands.Ann.premium: must be "declare" or "reveal"'],
    ),
    "unknown hand key": (
        [("deals[0].hands.Ann.bidd", 4)],
        ["deals[0].hands.Ann.bidd: unknown key"],
    ),
    "bid out of range": (
        [("deals[0].hands.Ann.bid", 12)],
        ["deals[0].hands.Ann.bid: Bid 12 is out of range (0–9)."],
    ),
    "two bid-cards": (
        [("deals[0].hands.Cat.bid_cards", ["clubs", "clubs"])],
        ["deals[0].hands.Cat.bid_cards: A bid is made with three cards; 2 given."],
    ),
    "not a premium": (
        [("deals[0].hands.Ann.premium", "double")],
        ['deals[0].hands.Ann.premium: A premium bid is "declare" or "reveal".'],
    ),
    "tricks do not add up": (
        [("deals[0].hands.Ben.tricks", 4)],
        ["deals[0].hands: Tricks add up to 8; a deal has 9."],
    ),
    "stranger": (
        [("deals[0].hands.Bob", {"tricks": 0, "bid": 0})],
        ["deals[0].hands.Bob: Bob is not playing in this session."],
    ),
    "missing hand": ([("deals[0].hands.Ben", DELETE)], ["deals[0].hands.Ben: No hand entered."]),
    "wrong trump": (
        [("deals[0].trump", "clubs")],
        ["deals[0].trump: The trump for this deal is diamonds, not clubs."],
    ),
    "unknown trump": (
        [("deals[0].trump", "stars")],
        ["deals[0].trump: The trump is clubs, hearts, spades, diamonds or none."],
    ),
    "deal after the end": (
        [("options", {"match": {"type": "deals", "deals": 1}}), ("deals[1]", DEAL)],
        ["deals[1]: The session ended after deal 1."],
    ),
}


@pytest.mark.parametrize(("changes", "expected"), INVALID.values(), ids=INVALID)
def test_it_rejects_an_invalid_file(changes, expected):
    assert rejected(changed(*changes)) == expected


def test_it_lists_every_problem_of_a_file_in_file_order():
    data = changed(
        ("deals[1]", DEAL),
        ("deals[2]", DEAL),
        ("deals[3]", DEAL),
        ("deals[0].hands.Ann.bid", 12),
        ("deals[1].hands.Ben.tricks", -2),
        ("deals[1].hands.Ben.colour", "red"),
        ("deals[2].hands.Cat.bid_cards", ["clubs"]),
        ("deals[3].trump", "none"),
        ("title", 5),
        ("played_on", "yesterday"),
    )
    assert rejected(data) == [
        "title: must be text",
        'played_on: must be a date written like "2026-11-20"',
        "deals[0].hands.Ann.bid: Bid 12 is out of range (0–9).",
        "deals[1].hands.Ben.colour: unknown key",
        "deals[1].hands.Ben.tricks: must be a whole number ≥ 0",
        "deals[2].hands.Cat.bid_cards: A bid is made with three cards; 1 given.",
    ]


def test_it_checks_the_deals_against_the_rules_after_a_deal_it_cannot_read():
    data = changed(
        ("deals[0].hands.Ben.tricks", "five"), ("deals[1]", DEAL), ("deals[1].hands.Ann.bid", 10)
    )
    assert rejected(data) == [
        "deals[0].hands.Ben.tricks: must be a whole number ≥ 0",
        "deals[1].hands.Ann.bid: Bid 10 is out of range (0–9).",
    ]


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ([], "a list"),
        ("text", "text"),
        (None, "null"),
        (3, "a number"),
        (2.5, "a number"),
        (True, "true or false"),
        ((1, 2), "tuple"),
    ],
)
def test_a_file_must_hold_an_object(data, kind):
    assert rejected(data) == [f"A scoresheet file holds one JSON object {{…}}, not {kind}."]


def test_names_of_hands_and_options_must_be_text():
    assert rejected(changed(("deals[0].hands", {1: {"tricks": 9, "bid": 9}}))) == [
        "deals[0].hands: player names must be text"
    ]
    assert rejected(changed(("options", {1: 2}))) == ["options: option names must be text"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": ', "This is not valid JSON (line 1, column 12): Expecting value."),
        (
            '{\n  "a": 1,\n}',
            "This is not valid JSON (line 2, column 9): "
            "Illegal trailing comma before end of object.",
        ),
        ('{"a": 1, "a": 2}', 'The key "a" appears twice in the same object.'),
        ("", "This is not valid JSON (line 1, column 1): Expecting value."),
    ],
)
def test_loads_reports_bad_json_with_its_place(text, message):
    with pytest.raises(InvalidScoresheet) as caught:
        loads_scoresheet(text)
    assert caught.value.problems == [Problem("", message)]
    assert str(caught.value) == message


def test_loads_reports_json_it_cannot_decode():
    for text in ["[" * 100_000, '{"a": ' + "9" * 5000 + "}"]:
        with pytest.raises(InvalidScoresheet) as caught:
            loads_scoresheet(text)
        assert caught.value.problems[0].message.startswith("This is not valid JSON")


def test_loads_reads_a_file():
    sheet = loads_scoresheet(json.dumps(BASE))
    assert sheet == parse_scoresheet(BASE)


def test_loads_rejects_nan():
    text = json.dumps(changed(("deals[0].hands.Ben.tricks", float("nan"))))
    with pytest.raises(InvalidScoresheet) as caught:
        loads_scoresheet(text)
    assert [str(p) for p in caught.value.problems] == [
        "deals[0].hands.Ben.tricks: must be a whole number ≥ 0"
    ]


def test_build_resolves_the_rules():
    sheet = TrickSheet.build(ruleset="two-dummy", options={}, players=("Ann", "Ben"))
    assert sheet.rules.hands == ("Ann", "Ben", DUMMY)
    assert (sheet.title, sheet.played_on, sheet.deals) == (None, None, ())
