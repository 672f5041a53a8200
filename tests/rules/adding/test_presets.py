"""Presets, options and card tables of the adding game (RULES.md §2.3, §2.5, §3)."""

import pytest

from scorekeeper.rules.adding import (
    ADJUST,
    CARD_TABLES,
    OPTION_NAMES,
    PRESETS,
    REGIONAL_TABLES,
    AddingRules,
    applicable_options,
    bill_shows,
    default_options,
    describe_event,
    events_for,
    prose,
    resolve_rules,
    show_tokens,
)
from scorekeeper.rules.common import InvalidRules, Problem

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def rules_for(preset: str, count: int = 3, **options: object) -> AddingRules:
    return resolve_rules(preset, options, NAMES[:count])


def problems_of(preset: str, options: dict[str, object], players: list[str]) -> list[Problem]:
    with pytest.raises(InvalidRules) as caught:
        resolve_rules(preset, options, players)
    return caught.value.problems


def test_it_lists_the_presets_in_the_order_of_the_rules():
    assert list(PRESETS) == [
        "ninety-nine",
        "ninety-nine-standard",
        "dollar-bill",
        "on-honor",
        "thirty-three",
        "wilson",
        "one-hundred",
        "ninety-eight",
        "ninety-eight-arizona",
        "michigan",
        "sudden-death",
        "custom",
    ]


# Each row of RULES.md §2.3: (cards held, limit, scoring, tokens, out, display, card table,
# events as "label cost pays ends?").
TABLE = {
    "ninety-nine": ((3,), 99, "tokens", 5, "at-zero", "tokens", "pagat-99", ["Bust 1 self end"]),
    "ninety-nine-standard": (
        (3,),
        99,
        "tokens",
        3,
        "at-zero",
        "tokens",
        "standard",
        ["Bust 1 self end"],
    ),
    "dollar-bill": (
        (3,),
        99,
        "tokens",
        4,
        "at-zero",
        "dollar-bill",
        "pagat-99",
        ["Bust 1 self end"],
    ),
    "on-honor": ((3,), 99, "tokens", 3, "owing", "tokens", "stack-1950s", ["Bust 1 self end"]),
    "thirty-three": (
        (3,),
        99,
        "tokens",
        9,
        "owing",
        "tokens",
        "thirty-three",
        [
            "Hit 33 1 others -",
            "Hit 66 1 others -",
            "Hit 99 2 others end",
            "Cross 33 1 self -",
            "Cross 66 1 self -",
            "Bust 2 self end",
            "Empty hand 3 self end",
        ],
    ),
    "wilson": (
        (3,),
        99,
        "wilson",
        3,
        None,
        "tokens",
        "wilson",
        ["Border 33 1 self -", "Border 66 1 self -", "Border 99 1 self end"],
    ),
    "one-hundred": (
        (3,),
        100,
        "tokens",
        3,
        "at-zero",
        "tokens",
        "one-hundred",
        ["Bust 1 self end"],
    ),
    "ninety-eight": ((4,), 98, "drinks", None, None, "tokens", "ninety-eight", ["Bust 1 self end"]),
    "ninety-eight-arizona": (
        (4,),
        98,
        "rounds",
        None,
        None,
        "tokens",
        "arizona",
        ["Bust 0 none -", "Last to play 1 gain end"],
    ),
    "michigan": (
        (3,),
        99,
        "tokens",
        4,
        "at-zero",
        "dollar-bill",
        "pagat-99",
        ["Bust 1 self end", "Trips 1 others end"],
    ),
    "sudden-death": (
        (3, 5, 7),
        99,
        "tokens",
        1,
        "at-zero",
        "tokens",
        "pagat-99",
        ["Bust 1 self end"],
    ),
}


@pytest.mark.parametrize(("preset", "row"), TABLE.items(), ids=TABLE)
def test_each_preset_is_its_row_of_the_table(preset, row):
    cards, limit, scoring, tokens, out, display, table, events = row
    rules = rules_for(preset)
    assert (rules.preset.cards_held, rules.limit, rules.scoring) == (cards, limit, scoring)
    assert (rules.tokens, rules.out, rules.display, rules.card_table) == (
        tokens,
        out,
        display,
        table,
    )
    described = [
        f"{rule.label} {rule.cost} {rule.pays} {'end' if rule.ends_round else '-'}"
        for rule in rules.events
    ]
    assert described == events
    assert rules.events == rules.preset.events
    assert rules.overrides_data() == {}
    assert rules.uses_tokens is (scoring == "tokens")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_is_well_formed(preset):
    data = PRESETS[preset]
    assert set(data.defaults) == set(OPTION_NAMES)
    assert data.defaults["card_table"] in CARD_TABLES
    applicable = {option.name for option in applicable_options(data)}
    assert applicable <= set(OPTION_NAMES)
    assert {"on_69", "card_table"} <= applicable
    assert data.description and "\n" not in data.description
    assert data.players == tuple(range(data.players[0], data.players[-1] + 1))
    assert len({(rule.event, rule.target) for rule in data.events}) == len(data.events)


def test_ninety_nine_has_3_tokens_when_over_4_play():
    assert [rules_for("ninety-nine", count).tokens for count in (2, 3, 4, 5, 6)] == [5, 5, 5, 3, 3]
    assert default_options(PRESETS["ninety-nine"], 5)["tokens"] == 3
    assert rules_for("ninety-nine", 5).overrides_data() == {}
    assert rules_for("ninety-nine", 5, tokens=5).overrides_data() == {"tokens": 5}
    assert rules_for("ninety-nine-standard", 5).tokens == 3


def test_custom_opens_every_option_and_every_card_table():
    rules = rules_for(
        "custom",
        2,
        tokens=7,
        out="owing",
        on_69="reset",
        display="tokens",
        card_table="iceland",
        bust="out-of-round",
    )
    assert rules.options_data() == {
        "tokens": 7,
        "out": "owing",
        "on_69": "reset",
        "display": "tokens",
        "card_table": "iceland",
        "bust": "out-of-round",
    }
    assert rules.overrides_data() == {
        "tokens": 7,
        "out": "owing",
        "on_69": "reset",
        "card_table": "iceland",
        "bust": "out-of-round",
    }
    assert {option.name for option in applicable_options(PRESETS["custom"])} == set(OPTION_NAMES)
    bust = next(rule for rule in rules.events if rule.event == "bust")
    assert (bust.cost, bust.pays, bust.ends_round) == (0, "none", False)


def test_every_preset_plays_any_card_table_as_a_house_rule():
    for preset in PRESETS:
        for table in (*REGIONAL_TABLES, *CARD_TABLES):
            assert rules_for(preset, card_table=table).card_table == table
    rules = rules_for("ninety-nine", card_table="standard")
    assert rules.house_rules() == ("card table: Standard (encyclopaedia)",)
    assert rules.title == "Ninety-Nine, house rules: card table: Standard (encyclopaedia)"


def test_tokens_out_display_and_bust_apply_only_where_players_hold_tokens():
    for preset in PRESETS.values():
        applicable = {option.name for option in applicable_options(preset)}
        held = preset.scoring == "tokens"
        assert {"tokens", "out", "display", "bust"} <= applicable if held else True
        assert not applicable & {"tokens", "out", "display", "bust"} or held
    assert rules_for("thirty-three", bust="out-of-round").bust == "out-of-round"
    assert rules_for("ninety-nine", out="owing").house_rules() == ("out when you cannot pay",)


def test_the_dollar_bill_has_4_folds_and_may_have_the_halving_fold():
    assert rules_for("dollar-bill").tokens == 4
    assert rules_for("dollar-bill", tokens=5).tokens == 5
    message = (
        "A dollar bill folds 5 times at most (four corners, then in half), so it cannot "
        "stand for 6 tokens."
    )
    assert problems_of("dollar-bill", {"tokens": 6}, NAMES[:3]) == [
        Problem("options.tokens", message)
    ]
    assert problems_of("custom", {"tokens": 6, "display": "dollar-bill"}, NAMES[:3]) == [
        Problem("options.tokens", message)
    ]
    nine = message.replace("6 tokens", "9 tokens")
    assert problems_of("thirty-three", {"display": "dollar-bill"}, NAMES[:3]) == [
        Problem("options.display", nine)
    ]


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        (
            "ninety-nine",
            {"tokens": 0},
            [("options.tokens", "Must be a whole number from 1 to 99.")],
        ),
        (
            "ninety-nine",
            {"tokens": "5"},
            [("options.tokens", "Must be a whole number from 1 to 99.")],
        ),
        (
            "ninety-nine",
            {"tokens": True},
            [("options.tokens", "Must be a whole number from 1 to 99.")],
        ),
        ("custom", {"out": "never"}, [("options.out", "Choose one of: at-zero, owing.")]),
        (
            "ninety-nine",
            {"on_69": 69},
            [("options.on_69", "Choose one of: nothing, token, reset.")],
        ),
        (
            "ninety-nine",
            {"display": "coins"},
            [("options.display", "Choose one of: tokens, dollar-bill.")],
        ),
        (
            "michigan",
            {"bust": "drink"},
            [("options.bust", "Choose one of: ends-round, out-of-round.")],
        ),
        (
            "custom",
            {"card_table": "poker"},
            [("options.card_table", "Choose one of: " + ", ".join(CARD_TABLES) + ".")],
        ),
        ("ninety-nine", {"jokers": True}, [("options.jokers", 'There is no option "jokers".')]),
        (
            "wilson",
            {"tokens": 4},
            [
                (
                    "options.tokens",
                    "“Tokens each” does not apply: Wilson counts game points, not tokens.",
                )
            ],
        ),
        (
            "ninety-eight",
            {"on_69": "token"},
            [("options.on_69", "Ninety-Eight counts drinks, so making 69 cannot gain a token.")],
        ),
        (
            "ninety-eight-arizona",
            {"bust": "ends-round"},
            [
                (
                    "options.bust",
                    "“Bust” does not apply: Ninety-Eight, Arizona counts rounds won, not tokens.",
                )
            ],
        ),
        (
            "ninety-eight",
            {"display": "dollar-bill"},
            [
                (
                    "options.display",
                    "“Show tokens as” does not apply: Ninety-Eight counts drinks, not tokens.",
                )
            ],
        ),
        (
            "whist",
            {"tokens": 3, "colour": "red"},
            [
                ("ruleset", 'Unknown ruleset "whist"; choose one of ' + ", ".join(PRESETS) + "."),
                ("options.colour", 'There is no option "colour".'),
            ],
        ),
    ],
)
def test_it_rejects_bad_options(preset, options, expected):
    found = problems_of(preset, options, NAMES[:3])
    assert [(problem.path, problem.message) for problem in found] == expected


def test_a_closed_option_restated_at_the_presets_value_is_accepted():
    options = {
        "tokens": None,
        "out": None,
        "on_69": "nothing",
        "display": "tokens",
        "bust": "ends-round",
    }
    rules = resolve_rules("ninety-eight", options, NAMES[:3])
    assert rules.overrides_data() == {}
    assert rules_for("thirty-three", out="owing", card_table="thirty-three").out == "owing"


@pytest.mark.parametrize(
    ("preset", "players", "expected"),
    [
        ("ninety-nine", ["Ann"], [("players", "Ninety-Nine is for 2 to 10 players; 1 given.")]),
        (
            "one-hundred",
            ["Ann", "Ben"],
            [("players", "One Hundred is for 3 to 10 players; 2 given.")],
        ),
        (
            "custom",
            [f"P{n}" for n in range(11)],
            [("players", "Custom is for 2 to 10 players; 11 given.")],
        ),
        ("ninety-nine", ["Ann", "ann"], [("players[1]", '"ann" is already playing as "Ann".')]),
        (
            "ninety-nine",
            ["Ann", " Ben"],
            [("players[1]", '" Ben" has spaces at the start or end.')],
        ),
    ],
)
def test_it_checks_the_players(preset, players, expected):
    found = problems_of(preset, {}, players)
    assert [(problem.path, problem.message) for problem in found] == expected


def test_it_keeps_the_seat_order():
    assert rules_for("ninety-nine", 4).players == ("Ann", "Ben", "Cat", "Dan")


# Events, as buttons and on the cheat sheet


def test_the_buttons_are_the_events_then_adjust():
    rules = rules_for("michigan", on_69="token")
    assert [rule.label for rule in events_for(rules)] == ["Bust", "Trips", "Hit 69", "Adjust"]
    assert events_for(rules)[-1] == ADJUST


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        (
            "thirty-three",
            {},
            [
                "Hit 33: everyone else loses 1 token.",
                "Hit 66: everyone else loses 1 token.",
                "Hit 99: everyone else loses 2 tokens; the round ends.",
                "Cross 33: you lose 1 token.",
                "Cross 66: you lose 1 token.",
                "Bust: you lose 2 tokens; the round ends.",
                "Empty hand: you lose 3 tokens; the round ends.",
                "Adjust: a correction agreed at the table, so many tokens up or down.",
            ],
        ),
        (
            "michigan",
            {"on_69": "token"},
            [
                "Bust: you lose 1 fold; the round ends.",
                "Trips: everyone else loses 1 fold; the round ends.",
                "Hit 69: you gain 1 fold.",
                "Adjust: a correction agreed at the table, so many folds up or down.",
            ],
        ),
        (
            "wilson",
            {},
            [
                "Border 33: you lose 1 game point.",
                "Border 66: you lose 1 game point.",
                "Border 99: you lose 1 game point; the round ends.",
                "Adjust: a correction agreed at the table, so many game points up or down.",
            ],
        ),
        (
            "ninety-eight",
            {},
            [
                "Bust: you take 1 drink; the round ends.",
                "Adjust: a correction agreed at the table, so many drinks up or down.",
            ],
        ),
        (
            "ninety-eight-arizona",
            {},
            [
                "Bust: you are out for the rest of the round.",
                "Last to play: you gain 1 round won; the round ends.",
                "Adjust: a correction agreed at the table, so many rounds won up or down.",
            ],
        ),
        (
            "custom",
            {"bust": "out-of-round"},
            [
                "Bust: you are out for the rest of the round.",
                "Hit 33: everyone else loses 1 token.",
                "Hit 66: everyone else loses 1 token.",
                "Hit 99: everyone else loses 2 tokens; the round ends.",
                "Cross 33: you lose 1 token.",
                "Cross 66: you lose 1 token.",
                "Border 33: you lose 1 token.",
                "Border 66: you lose 1 token.",
                "Border 99: you lose 1 token; the round ends.",
                "Empty hand: you lose 3 tokens; the round ends.",
                "Trips: everyone else loses 1 token; the round ends.",
                "Last to play: nothing to pay; the round ends.",
            ],
        ),
    ],
)
def test_events_are_described_for_the_cheat_sheet(preset, options, expected):
    rules = rules_for(preset, **options)
    assert [describe_event(rules, rule) for rule in events_for(rules)][: len(expected)] == expected


@pytest.mark.parametrize(
    ("preset", "options", "counts", "expected"),
    [
        ("ninety-nine", {}, [5, 1, 0], ["5 tokens", "1 token", "0 tokens"]),
        # A dollar bill's tokens are its folds left.
        ("dollar-bill", {}, [4, 1, 0], ["4 folds left", "1 fold left", "0 folds left"]),
        ("wilson", {}, [2], ["2 game points"]),
        ("ninety-eight", {}, [1], ["1 drink"]),
    ],
)
def test_tokens_are_shown_as_the_display_option_says(preset, options, counts, expected):
    rules = rules_for(preset, **options)
    assert [show_tokens(rules, count) for count in counts] == expected


@pytest.mark.parametrize(
    ("options", "counts", "expected"),
    [
        ({}, [4, 3, 1, 0], ["no folds", "1 corner folded", "3 corners folded", "4 corners folded"]),
        ({"tokens": 5}, [1, 0], ["4 corners folded", "4 corners and the half folded"]),
        (
            {"on_69": "token"},
            [5, 6],
            ["no folds, 1 fold to spare", "no folds, 2 folds to spare"],
        ),
    ],
)
def test_a_dollar_bill_shows_its_folds(options, counts, expected):
    rules = rules_for("dollar-bill", **options)
    assert [bill_shows(rules, count) for count in counts] == expected


# Card tables (RULES.md §2.5)


def test_every_card_table_of_the_rules_is_there():
    assert list(CARD_TABLES) == [
        "pagat-99",
        "standard",
        "thirty-three",
        "wilson",
        "stack-1950s",
        "one-hundred",
        "ninety-eight",
        "arizona",
        "alternate",
        "chicago",
        "hawaii",
        "iceland",
        "taiwan",
    ]


@pytest.mark.parametrize("table", CARD_TABLES.values(), ids=CARD_TABLES)
def test_card_tables_have_one_cell_per_rank(table):
    ranks = [rank for rank, _ in table.cells]
    assert len(ranks) == len(set(ranks))
    assert all(effect for _, effect in table.cells)
    assert table.name


@pytest.mark.parametrize(
    ("table", "rank", "effect"),
    [
        ("pagat-99", "K", "total becomes 99"),
        ("pagat-99", "4", "0, and play reverses (with 2 players: pass)"),
        ("standard", "9", "total becomes 99"),
        ("standard", "K", "0 (pass)"),
        ("standard", "3", "3, and the next player is skipped"),
        ("thirty-three", "2", "halves an even total over 49; otherwise doubles the total"),
        ("wilson", "8", "0, and play reverses"),
        ("stack-1950s", "7", "7, and play reverses"),
        ("one-hundred", "10", "total becomes 100"),
        ("one-hundred", "Q♥", "total becomes 0"),
        ("ninety-eight", "10", "−10"),
        ("arizona", "Joker", "total becomes 98, and the next player plays twice"),
        ("alternate", "9", "0 (pass)"),
        ("alternate", "K", "total becomes 99"),
        ("chicago", "9", "0, and the next player is skipped"),
        ("chicago", "10", "−10"),
        ("hawaii", "5", "−5"),
        ("hawaii", "J", "total becomes 99"),
        ("hawaii", "9", "total becomes 99"),
        ("iceland", "A", "1 or 14"),
        ("iceland", "3", "3"),
        ("iceland", "J", "11"),
        ("taiwan", "A♠", "total becomes 0"),
        ("taiwan", "Q", "+20 or −20"),
        ("taiwan", "K", "total becomes 99"),
    ],
)
def test_card_tables_say_what_the_sources_say(table, rank, effect):
    assert dict(CARD_TABLES[table].cells)[rank] == effect


@pytest.mark.parametrize(
    ("preset", "options", "line"),
    [
        ("ninety-nine", {}, "Cards: a standard 52-card pack."),
        ("thirty-three", {}, "Cards: a standard 52-card pack."),
        ("ninety-eight-arizona", {}, "Cards: a 52-card pack and its two Jokers."),
        (
            "ninety-nine-standard",
            {"card_table": "alternate"},
            "Cards: a 52-card pack and its two Jokers.",
        ),
    ],
)
def test_the_sheet_says_which_cards_to_use(preset, options, line):
    rules = resolve_rules(preset, options, ["Ann", "Ben", "Cat", "Dan"])
    assert prose.deck_line(rules) == line
