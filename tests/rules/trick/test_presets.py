"""Presets and options of the trick game (RULES.md §1.6, §3) and resolve_rules()."""

import pytest

from scorekeeper.rules.bounds import MAX_NAME_LENGTH
from scorekeeper.rules.common import InvalidRules, Problem, join_names, rank
from scorekeeper.rules.trick import (
    BONUS_ROW,
    BONUS_ROW_FIVE,
    OPTION_NAMES,
    PRESETS,
    Match,
    NextDeal,
    applicable_options,
    bid_from_cards,
    default_options,
    inapplicable,
    prose,
    resolve_rules,
)

P3 = ["Ann", "Ben", "Cat"]
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def problems_of(preset: str, options: dict[str, object], players: list[str]) -> list[Problem]:
    with pytest.raises(InvalidRules) as caught:
        resolve_rules(preset, options, players)
    return caught.value.problems


def test_it_lists_the_presets_in_the_order_of_the_rules():
    assert list(PRESETS) == [
        "parlett-classic",
        "parlett-jokerless",
        "encyclopaedia",
        "declared",
        "eighteen-ninety-nine",
        "long",
        "four",
        "five",
        "two-dummy",
        "naughty-nun",
        "oxford-whist",
        "custom",
    ]


@pytest.mark.parametrize(
    ("preset", "players", "tricks", "trump", "first_trump", "match"),
    [
        ("parlett-classic", 3, 9, "turn-up", None, {"type": "deals", "deals": 9}),
        ("parlett-jokerless", 3, 9, "by-successes", "diamonds", {"type": "deals", "deals": 9}),
        ("encyclopaedia", 3, 9, "by-successes", "none", {"type": "game-bonus"}),
        ("declared", 3, 9, "declared", None, {"type": "deals", "deals": 9}),
        ("eighteen-ninety-nine", 3, 9, "turn-up", None, {"type": "deals", "deals": 18}),
        ("long", 3, 13, "by-deviation", None, {"type": "long", "games": 1}),
        ("four", 4, 10, "by-successes", "none", {"type": "deals", "deals": 12}),
        ("five", 5, 9, "by-successes", "none", {"type": "deals", "deals": 10}),
        ("two-dummy", 2, 9, "by-successes", "none", {"type": "deals", "deals": 9}),
        ("naughty-nun", 3, 9, "turn-up", None, {"type": "deals", "deals": 9}),
        ("oxford-whist", 3, 9, "turn-up", None, {"type": "deals", "deals": 16}),
    ],
)
def test_it_resolves_each_preset_as_in_the_table(
    preset, players, tricks, trump, first_trump, match
):
    rules = resolve_rules(preset, {}, NAMES[:players])
    assert rules.tricks == tricks
    assert rules.trump == trump
    if first_trump is not None:
        assert rules.first_trump == first_trump
    assert rules.match.to_data() == match
    assert rules.overrides_data() == {}


@pytest.mark.parametrize(
    ("preset", "bonus", "premiums", "trick_points", "zero_all_tricks", "dummy_exact"),
    [
        ("parlett-jokerless", BONUS_ROW, ("declare", "reveal"), True, False, False),
        ("long", BONUS_ROW, ("declare", "reveal"), False, False, False),
        ("four", BONUS_ROW, ("declare", "reveal"), True, True, False),
        ("five", BONUS_ROW_FIVE, ("declare", "reveal"), True, False, False),
        ("two-dummy", BONUS_ROW, ("declare",), True, False, True),
        ("oxford-whist", (10, 10, 10), (), True, False, False),
    ],
)
def test_it_sets_the_scoring_options_of_each_preset(
    preset, bonus, premiums, trick_points, zero_all_tricks, dummy_exact
):
    rules = resolve_rules(preset, {}, NAMES[: PRESETS[preset].players[0]])
    assert rules.bonus == bonus
    assert rules.premiums == premiums
    assert rules.trick_points is trick_points
    assert rules.zero_all_tricks is zero_all_tricks
    assert rules.dummy_exact_declarer is dummy_exact


def test_it_gives_every_preset_a_name_a_description_and_every_option():
    for preset in PRESETS.values():
        assert preset.name
        assert preset.description.endswith(".")
        assert len(preset.description) <= 80
        assert set(preset.defaults) == set(OPTION_NAMES)
        assert "match" in {option.name for option in applicable_options(preset)}


def test_it_marks_the_special_presets():
    assert PRESETS["long"].scoring == "long"
    assert PRESETS["long"].needs_all_bids
    assert PRESETS["long"].bid_max == 13
    assert PRESETS["two-dummy"].dummy
    assert PRESETS["eighteen-ninety-nine"].game_points
    assert [p.id for p in PRESETS.values() if p.scoring == "long"] == ["long"]
    assert [p.id for p in PRESETS.values() if p.dummy] == ["two-dummy"]
    assert [p.id for p in PRESETS.values() if p.game_points] == ["eighteen-ninety-nine"]


@pytest.mark.parametrize(("count", "tricks"), [(2, 9), (3, 9), (4, 10), (5, 9)])
def test_custom_takes_the_tricks_from_the_number_of_players(count, tricks):
    rules = resolve_rules("custom", {}, NAMES[:count])
    assert rules.tricks == tricks
    assert not rules.dummy
    assert rules.hands == tuple(NAMES[:count])


@pytest.mark.parametrize(("count", "bonus"), [(3, BONUS_ROW), (4, BONUS_ROW), (5, BONUS_ROW_FIVE)])
def test_custom_gets_the_bonus_row_for_its_table(count, bonus):
    rules = resolve_rules("custom", {}, NAMES[:count])
    assert rules.bonus == bonus
    assert rules.overrides_data() == {}
    assert default_options(PRESETS["custom"], count)["bonus"] == list(bonus)


def test_default_options_are_a_fresh_copy():
    options = default_options(PRESETS["five"], 5)
    options["bonus"].append(5)
    assert PRESETS["five"].defaults["bonus"] == list(BONUS_ROW_FIVE)


# Which options each preset opens (RULES.md [choice] and the disputed rules)

# Every option applies to every preset (house rules, RULES.md §3) but the dummy's, which needs
# a dummy.
APPLICABLE = {
    preset.id: set(OPTION_NAMES) - ({"dummy_exact_declarer"} if not preset.dummy else set())
    for preset in PRESETS.values()
}

VALUES = {
    "trump": "turn-up",
    "first_trump": "diamonds",
    "match": {"type": "target", "target": 300},
    "bonus": [30, 20, 10, 10],
    "premiums": ["declare"],
    "trick_points": False,
    "zero_all_tricks": False,
    "dummy_exact_declarer": False,
}


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("option", OPTION_NAMES)
def test_it_accepts_every_option_that_applies_as_a_house_rule(preset, option):
    players = NAMES[: PRESETS[preset].players[0]]
    restated = default_options(PRESETS[preset], len(players))[option] == VALUES[option]
    if option in APPLICABLE[preset] or restated:
        rules = resolve_rules(preset, {option: VALUES[option]}, players)
        assert rules.options_data()[option] == VALUES[option]
        assert rules.overrides_data() == ({} if restated else {option: VALUES[option]})
    else:
        assert problems_of(preset, {option: VALUES[option]}, players) == [
            Problem(
                f"options.{option}",
                f"“Dummy's exact bid scores 30” does not apply: {PRESETS[preset].name} has no "
                "dummy.",
            )
        ]


def test_every_option_applies_to_every_preset_but_the_dummys():
    assert {
        preset.id: {option.name for option in applicable_options(preset)}
        for preset in PRESETS.values()
    } == APPLICABLE
    assert all(inapplicable(preset, "trump") is None for preset in PRESETS.values())


def test_nobody_reveals_in_the_game_with_a_dummy():
    assert problems_of("two-dummy", {"premiums": ["declare", "reveal"]}, ["Ann", "Ben"]) == [
        Problem(
            "options.premiums",
            "Nobody reveals in Two players with a dummy: the dummy's hand is open. "
            "Choose declare only.",
        )
    ]
    assert resolve_rules("two-dummy", {"premiums": []}, ["Ann", "Ben"]).premiums == ()


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        ("parlett-jokerless", {"first_trump": "none"}, {"first_trump": "none"}),
        ("four", {"bonus": [30, 20, 10, 10]}, {"bonus": [30, 20, 10, 10]}),
        ("four", {"zero_all_tricks": False}, {"zero_all_tricks": False}),
        ("five", {"bonus": [30, 20, 10, 0]}, {"bonus": [30, 20, 10, 0]}),
        ("two-dummy", {"dummy_exact_declarer": False}, {"dummy_exact_declarer": False}),
        ("parlett-jokerless", {"first_trump": "diamonds"}, {}),
        (
            "oxford-whist",
            {"match": {"type": "deals", "deals": 9}},
            {"match": {"type": "deals", "deals": 9}},
        ),
        ("long", {"match": {"type": "long"}}, {}),
        ("long", {"match": {"type": "long", "games": 3}}, {"match": {"type": "long", "games": 3}}),
    ],
)
def test_overrides_data_gives_only_what_differs(preset, options, expected):
    players = NAMES[: PRESETS[preset].players[0]]
    rules = resolve_rules(preset, options, players)
    assert rules.overrides_data() == expected
    assert rules.options_data() == default_options(PRESETS[preset], len(players)) | expected


def test_options_data_gives_every_option():
    rules = resolve_rules("parlett-jokerless", {}, P3)
    assert rules.options_data() == {
        "trump": "by-successes",
        "first_trump": "diamonds",
        "match": {"type": "deals", "deals": 9},
        "bonus": [30, 20, 10, 0],
        "premiums": ["declare", "reveal"],
        "trick_points": True,
        "zero_all_tricks": False,
        "dummy_exact_declarer": False,
    }


def test_premiums_come_out_in_a_fixed_order():
    rules = resolve_rules("custom", {"premiums": ["reveal", "declare"]}, P3)
    assert rules.premiums == ("declare", "reveal")


def test_by_deviation_needs_every_bid():
    assert resolve_rules("custom", {"trump": "by-deviation"}, P3).needs_all_bids
    assert not resolve_rules("custom", {}, P3).needs_all_bids
    assert resolve_rules("long", {}, P3).needs_all_bids


# Bad options

BAD_OPTIONS = [
    (
        "trump",
        "random",
        "options.trump",
        "Choose one of: turn-up, by-successes, declared, by-deviation.",
    ),
    (
        "trump",
        None,
        "options.trump",
        "Choose one of: turn-up, by-successes, declared, by-deviation.",
    ),
    ("first_trump", "hearts", "options.first_trump", "Choose one of: diamonds, none."),
    (
        "bonus",
        "30",
        "options.bonus",
        "Must be a list of at most 10 whole numbers from 0 to 1,000, e.g. [30, 20, 10, 0].",
    ),
    (
        "bonus",
        [30, -1],
        "options.bonus",
        "Must be a list of at most 10 whole numbers from 0 to 1,000, e.g. [30, 20, 10, 0].",
    ),
    (
        "bonus",
        [30, True],
        "options.bonus",
        "Must be a list of at most 10 whole numbers from 0 to 1,000, e.g. [30, 20, 10, 0].",
    ),
    (
        "bonus",
        [2.5],
        "options.bonus",
        "Must be a list of at most 10 whole numbers from 0 to 1,000, e.g. [30, 20, 10, 0].",
    ),
    ("premiums", "declare", "options.premiums", 'Must be a list from "declare" and "reveal".'),
    (
        "premiums",
        ["declare", "declare"],
        "options.premiums",
        'Must be a list from "declare" and "reveal".',
    ),
    ("premiums", ["double"], "options.premiums", 'Must be a list from "declare" and "reveal".'),
    ("premiums", [["declare"]], "options.premiums", 'Must be a list from "declare" and "reveal".'),
    ("trick_points", 1, "options.trick_points", "Must be true or false."),
    ("zero_all_tricks", "yes", "options.zero_all_tricks", "Must be true or false."),
    ("dummy_exact_declarer", None, "options.dummy_exact_declarer", "Must be true or false."),
    (
        "match",
        9,
        "options.match",
        'The match must be an object such as {"type": "deals", "deals": 9}.',
    ),
    (
        "match",
        {"deals": 9},
        "options.match.type",
        "The match type must be one of: deals, target, rubber, game-bonus, long.",
    ),
    (
        "match",
        {"type": "best-of"},
        "options.match.type",
        "The match type must be one of: deals, target, rubber, game-bonus, long.",
    ),
    (
        "match",
        {"type": "deals"},
        "options.match.deals",
        "The number of deals must be a whole number from 1 to 999.",
    ),
    (
        "match",
        {"type": "deals", "deals": 0},
        "options.match.deals",
        "The number of deals must be a whole number from 1 to 999.",
    ),
    (
        "match",
        {"type": "deals", "deals": "9"},
        "options.match.deals",
        "The number of deals must be a whole number from 1 to 999.",
    ),
    (
        "match",
        {"type": "target", "target": True},
        "options.match.target",
        "The target must be a whole number from 1 to 10,000.",
    ),
    (
        "match",
        {"type": "long", "games": -1},
        "options.match.games",
        "The number of games must be a whole number from 1 to 99.",
    ),
    (
        "match",
        {"type": "rubber", "games": 3},
        "options.match.games",
        'A "rubber" match has no setting "games".',
    ),
    (
        "match",
        {"type": "deals", "deals": 9, "target": 5},
        "options.match.target",
        'A "deals" match has no setting "target".',
    ),
]


@pytest.mark.parametrize(("option", "value", "path", "message"), BAD_OPTIONS)
def test_it_rejects_a_bad_option_value(option, value, path, message):
    # The dummy's option is read where there is a dummy.
    preset, players = ("two-dummy", P3[:2]) if option == "dummy_exact_declarer" else ("custom", P3)
    assert problems_of(preset, {option: value}, players) == [Problem(path, message)]


def test_it_rejects_an_unknown_option():
    assert problems_of("custom", {"tokens": 3}, P3) == [
        Problem("options.tokens", 'There is no option "tokens".')
    ]


def test_eighteen_ninety_nine_is_played_over_deals_or_to_a_target():
    resolve_rules("eighteen-ninety-nine", {"match": {"type": "target", "target": 500}}, P3)
    assert problems_of("eighteen-ninety-nine", {"match": {"type": "rubber"}}, P3) == [
        Problem(
            "options.match.type", 'Eighteen Ninety-Nine is played as a "deals" or "target" match.'
        )
    ]


def test_it_lists_every_problem_at_once():
    problems = problems_of(
        "two-dummy",
        {"premiums": ["reveal"], "first_trump": "clubs", "match": {"type": "deals"}},
        ["Ann", "ann", "dummy"],
    )
    assert [problem.path for problem in problems] == [
        "players[1]",
        "players[2]",
        "players",
        "options.first_trump",
        "options.match.deals",
        "options.premiums",
    ]


# Players

BAD_PLAYERS = [
    (
        "parlett-classic",
        ["Ann", "Ben"],
        "players",
        "Classic Ninety-Nine is for 3 players; 2 given.",
    ),
    ("four", P3, "players", "Four players is for 4 players; 3 given."),
    ("custom", NAMES + ["Fay"], "players", "Custom is for 2 to 5 players; 6 given."),
    ("custom", ["Ann"], "players", "Custom is for 2 to 5 players; 1 given."),
    (
        "two-dummy",
        P3,
        "players",
        "Two players with a dummy is for 2 players (the dummy is not listed); 3 given.",
    ),
    ("custom", ["Ann", "Ben", "Ann"], "players[2]", '"Ann" is already playing as "Ann".'),
    ("custom", ["Ann", "Ben", "ANN"], "players[2]", '"ANN" is already playing as "Ann".'),
    ("custom", ["Ann", "Ben", ""], "players[2]", "A player name cannot be blank."),
    ("custom", ["Ann", "Ben", "  "], "players[2]", "A player name cannot be blank."),
    ("custom", ["Ann", "Ben", " Cat"], "players[2]", '" Cat" has spaces at the start or end.'),
    (
        "custom",
        ["Ann", "Ben", "C" * 41],
        "players[2]",
        "A player name can be at most 40 characters long.",
    ),
    ("custom", ["Ann", "Ben", 7], "players[2]", "A player name must be text."),
    (
        "two-dummy",
        ["Ann", "dummy"],
        "players[1]",
        '"dummy" is reserved in this game; pick another name.',
    ),
    (
        "two-dummy",
        ["Ann", "Dummy"],
        "players[1]",
        '"Dummy" is reserved in this game; pick another name.',
    ),
]


@pytest.mark.parametrize(("preset", "players", "path", "message"), BAD_PLAYERS)
def test_it_rejects_bad_players(preset, players, path, message):
    assert problems_of(preset, {}, players) == [Problem(path, message)]


def test_a_player_may_be_called_dummy_where_there_is_no_dummy():
    rules = resolve_rules("custom", {}, ["Ann", "Ben", "dummy"])
    assert rules.hands == ("Ann", "Ben", "dummy")


def test_a_name_of_the_longest_length_is_fine():
    resolve_rules("custom", {}, ["Ann", "Ben", "C" * MAX_NAME_LENGTH])


def test_two_dummy_seats_the_dummy_last():
    rules = resolve_rules("two-dummy", {}, ["Ann", "Ben"])
    assert rules.players == ("Ann", "Ben")
    assert rules.hands == ("Ann", "Ben", "dummy")


def test_it_rejects_an_unknown_ruleset_and_still_checks_the_rest():
    problems = problems_of("ninety-nine", {"colour": "red", "trump": "x"}, ["Ann", "Ann"])
    assert [str(problem) for problem in problems] == [
        'ruleset: Unknown ruleset "ninety-nine"; choose one of ' + ", ".join(PRESETS) + ".",
        'players[1]: "Ann" is already playing as "Ann".',
        'options.colour: There is no option "colour".',
        "options.trump: Choose one of: turn-up, by-successes, declared, by-deviation.",
    ]


def test_invalid_rules_reads_as_its_problems():
    error = InvalidRules([Problem("players", "Too few."), Problem("", "Bad.")])
    assert str(error) == "players: Too few.\nBad."


# Match


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"type": "deals", "deals": 9}, Match("deals", deals=9)),
        ({"type": "target", "target": 500}, Match("target", target=500)),
        ({"type": "rubber"}, Match("rubber")),
        ({"type": "game-bonus"}, Match("game-bonus")),
        ({"type": "long", "games": 2}, Match("long", games=2)),
    ],
)
def test_match_reads_and_writes_its_json_shape(data, match):
    assert Match.from_data(data) == match
    assert match.to_data() == data


def test_a_long_match_is_one_game_unless_told():
    assert Match.from_data({"type": "long"}) == Match("long", games=1)


@pytest.mark.parametrize(
    ("match", "description"),
    [
        (Match("deals", deals=9), "9 deals; the highest total wins."),
        (
            Match("target", target=500),
            "Play until someone has 500 or more; the highest total wins.",
        ),
        (
            Match("rubber"),
            "Games to 100, 100 bonus for the winner and anyone on 100; "
            "first to win 3 games wins the rubber.",
        ),
        (
            Match("game-bonus"),
            "Games to 100; 100 bonus to anyone reaching it who made their bid; "
            "play until someone holds 3 bonuses.",
        ),
        (Match("long", games=1), "Games to 100 (ties play on); the first to win 1 game wins."),
        (Match("long", games=2), "Games to 100 (ties play on); the first to win 2 games wins."),
    ],
)
def test_match_describes_itself(match, description):
    assert match.describe() == description


def test_only_some_matches_have_games():
    assert [
        kind
        for kind in ("deals", "target", "rubber", "game-bonus", "long")
        if Match(kind).has_games
    ] == ["rubber", "game-bonus", "long"]


# Bid-cards


@pytest.mark.parametrize(
    ("cards", "bid"),
    [
        (("clubs", "diamonds", "diamonds"), 3),
        (("hearts", "spades", "diamonds"), 3),
        (("spades", "spades", "spades"), 3),
        (("diamonds", "diamonds", "diamonds"), 0),
        (("clubs", "clubs", "clubs"), 9),
        (("hearts", "hearts", "clubs"), 7),
    ],
)
def test_bid_from_cards_adds_the_suit_codes(cards, bid):
    assert bid_from_cards(cards) == bid


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (("clubs", "clubs"), "A bid is made with three cards, not 2."),
        (("clubs", "clubs", "none"), '"none" is not a suit.'),
    ],
)
def test_bid_from_cards_rejects_what_is_not_three_suits(cards, message):
    with pytest.raises(ValueError, match=message):
        bid_from_cards(cards)


# Small shared helpers


def test_rank_shares_ranks_between_equal_scores():
    scores = {"Ann": 10, "Ben": 30, "Cat": 30, "Dan": 5}
    assert rank(scores, ["Ann", "Ben", "Cat", "Dan"]) == [
        ("Ben", 1),
        ("Cat", 1),
        ("Ann", 3),
        ("Dan", 4),
    ]


@pytest.mark.parametrize(
    ("names", "text"),
    [([], ""), (["Ann"], "Ann"), (["Ann", "Ben"], "Ann and Ben"), (P3, "Ann, Ben and Cat")],
)
def test_join_names(names, text):
    assert join_names(names) == text


@pytest.mark.parametrize(
    ("coming", "note"),
    [
        (NextDeal(2, "Ben", "Cat", None, False), "decided at the table"),
        (NextDeal(2, "Ben", "Cat", "hearts", False), "hearts"),
        (NextDeal(2, "Ben", "Cat", "hearts", True), "hearts unless someone declares"),
    ],
)
def test_next_deal_says_how_the_trump_stands(coming, note):
    assert coming.trump_note == note


@pytest.mark.parametrize(
    ("preset_id", "options"),
    [
        ("parlett-classic", {"trump": "turn-up", "premiums": ["declare", "reveal"]}),
        ("long", {"first_trump": "none", "trick_points": False, "trump": "by-deviation"}),
        ("eighteen-ninety-nine", {"match": {"type": "deals", "deals": 18}}),
        ("oxford-whist", {"premiums": [], "trump": "turn-up"}),
    ],
)
def test_restating_a_closed_option_at_its_preset_value_is_accepted(
    preset_id: str, options: dict[str, object]
) -> None:
    players = ["Ann", "Ben", "Cat"]
    rules = resolve_rules(preset_id, options, players)
    assert rules == resolve_rules(preset_id, {}, players)


def test_an_option_that_cannot_apply_is_still_refused() -> None:
    with pytest.raises(InvalidRules) as error:
        resolve_rules("parlett-classic", {"dummy_exact_declarer": True}, ["Ann", "Ben", "Cat"])
    assert "does not apply: Classic Ninety-Nine has no dummy" in str(error.value)


# The cards each preset is played with (RULES.md §1.6)


@pytest.mark.parametrize("preset", [p for p in PRESETS.values() if p.id != "custom"])
def test_every_presets_pack_holds_the_hands_it_deals(preset):
    # The pack is the cards dealt (tricks + 3 bid-cards, to every hand) and those set aside:
    # Classic's turned-up card, the stacks turned for trumps.
    rules = resolve_rules(preset.id, {}, NAMES[: preset.players[0]])
    deck = preset.deck
    assert deck is not None
    assert deck.cards == (rules.tricks + 3) * len(rules.hands) + deck.aside


@pytest.mark.parametrize(
    ("preset_id", "line"),
    [
        ("parlett-classic", "Cards: 37, the 6 to the Ace of each suit, and one Joker."),
        ("parlett-jokerless", "Cards: 36, the 6 to the Ace of each suit."),
        ("two-dummy", "Cards: 36, the 6 to the Ace of each suit."),
        ("long", "Cards: 48, a 52-card pack without its four Nines."),
        ("four", "Cards: 52, the whole pack, 2 to Ace."),
        (
            "eighteen-ninety-nine",
            "Cards: a 54-card pack with its two Jokers. Deal the 36 from 6 to Ace; shuffle the "
            "other 18 (2 to 5, and the Jokers) and stack them face down.",
        ),
        ("custom", "Cards: any pack your table agrees on."),
    ],
)
def test_the_sheet_says_which_cards_to_use(preset_id, line):
    preset = PRESETS[preset_id]
    rules = resolve_rules(preset_id, {}, NAMES[: 3 if 3 in preset.players else preset.players[0]])
    assert prose.deck_line(rules) == line


def test_a_turned_up_trump_says_what_a_nine_or_the_joker_means():
    lines = prose.trump_lines(resolve_rules("parlett-classic", {}, P3))
    assert lines[0] == (
        "The 37th card, left over, is turned up: its suit is trump; a Nine or the Joker turned "
        "up means no trump. A Joker in a hand counts as the turned-up card, for bidding and play."
    )
    assert lines[1] == "Tell the scorer the trump of every deal."
    # A preset without its own way of turning it keeps the general words.
    assert (
        "usually by turning up a card" in prose.trump_lines(resolve_rules("naughty-nun", {}, P3))[0]
    )
    # A trump rule of the table's own, not turned up, says nothing of turning cards.
    by_successes = resolve_rules("parlett-classic", {"trump": "by-successes"}, P3)
    assert not any("turned" in line for line in prose.trump_lines(by_successes))
