"""House rules (RULES.md §3): every option changed on every preset it applies to, scored right.

The table below takes each option of each family onto every preset that accepts it and plays a
worked deal or round both ways, the preset's own and the house rule's, and checks the difference
the rule book gives; a few whole worked examples follow. The property tests check that restating
a preset's own values is the same as not giving them.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import adding, trick
from scorekeeper.rules.adding import Event, RoundEntry
from scorekeeper.rules.common import InvalidRules
from scorekeeper.rules.trick import TRICKS_FOR_PLAYERS, DealEntry, HandEntry

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
TRICK_PRESETS = [preset for preset in trick.PRESETS.values() if preset.id != "custom"]
ADDING_PRESETS = [preset for preset in adding.PRESETS.values() if preset.id != "custom"]


def trick_rules(preset: trick.Preset, **options: object) -> trick.TrickRules:
    return trick.resolve_rules(preset.id, options, NAMES[: preset.players[0]])


def plain_deal(rules: trick.TrickRules, premium: str | None = None) -> DealEntry:
    """Everyone makes their bid: the first hand takes what the others leave, the others one
    trick each (the dummy too); the first may make a premium bid."""
    tricks = rules.tricks
    others = len(rules.hands) - 1
    first = tricks - others
    hands = {rules.hands[0]: HandEntry(first, bid=first, premium=premium)}
    hands |= {name: HandEntry(1, bid=1) for name in rules.hands[1:]}
    needs_trump = rules.trump == "turn-up" or (rules.trump == "declared" and premium)
    return DealEntry(hands, "hearts" if needs_trump else None)


def scored(rules: trick.TrickRules, *deals: DealEntry) -> trick.SessionResult:
    evaluation = trick.evaluate(rules, list(deals))
    assert not evaluation.problems, evaluation.problems
    return evaluation.result


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
def test_no_trick_points_takes_each_hands_tricks_away(preset):
    with_points = trick_rules(preset, trick_points=True)
    without = trick_rules(preset, trick_points=False)
    a, b = scored(with_points, plain_deal(with_points)), scored(without, plain_deal(without))
    for hand_a, hand_b in zip(a.deals[0].hands, b.deals[0].hands, strict=True):
        assert hand_a.points - hand_b.points == hand_a.tricks
    changed = without if preset.defaults["trick_points"] else with_points
    assert changed.house_rules() == (
        ("no trick points",) if preset.defaults["trick_points"] else ("1 point a trick",)
    )


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
def test_a_house_bonus_row_pays_its_own_bonus(preset):
    rules = trick_rules(preset, bonus=[7, 6, 5, 4, 3])
    deal = scored(rules, plain_deal(rules)).deals[0]
    expected = [7, 6, 5, 4, 3][deal.successes - 1] if deal.successes <= 5 else 0
    if rules.scoring == "long":
        expected = rules.bonus[deal.successes - 1]
    assert {hand.bonus for hand in deal.hands if hand.made} == {expected}
    assert "success bonus 7, 6, 5, 4, 3" in rules.house_rules()


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
def test_premium_bids_can_be_switched_off_or_on(preset):
    off = trick_rules(preset, premiums=[])
    problems = trick.evaluate(off, [plain_deal(off, premium="declare")]).problems
    assert [problem.message for problem in problems] == [
        "Premium bids are not played in this game."
    ]
    on = trick_rules(preset, premiums=["declare"])
    deal = scored(on, plain_deal(on, premium="declare")).deals[0]
    assert deal.hands[0].premium == trick.PREMIUM_POINTS["declare"]


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
def test_a_zero_bid_made_by_every_trick(preset):
    rules = trick_rules(preset, zero_all_tricks=True)
    others = {name: HandEntry(0, bid=1) for name in rules.hands[1:]}
    deal = DealEntry({rules.hands[0]: HandEntry(rules.tricks, bid=0), **others}, None)
    if rules.trump == "turn-up":
        deal = DealEntry(deal.hands, "spades")
    made = scored(rules, deal).deals[0].hands[0].made
    assert made is (rules.scoring != "long")  # long reads the bid as the nearer 10 or 0
    if not preset.defaults["zero_all_tricks"]:
        assert "a 0 bid also made by winning every trick" in rules.house_rules()


EXPECTED_NEXT_TRUMP = {"turn-up": None, "declared": "none", "by-deviation": "diamonds"}


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
@pytest.mark.parametrize("rule", trick.TRUMP_RULES)
def test_every_trump_rule_on_every_preset(preset, rule):
    rules = trick_rules(preset, trump=rule)
    result = scored(rules, plain_deal(rules))
    assert result.next is not None
    successes = len(rules.hands)  # everyone made it
    if rule == "by-successes":
        count = sum(1 for name in rules.hands)
        expected = trick.TRUMP_BY_COUNT[count] if count < 4 else "none"
        assert result.next.trump == expected and successes == count
    elif rule == "by-deviation":
        assert result.next.trump == "diamonds"  # nobody missed
    else:
        assert result.next.trump == EXPECTED_NEXT_TRUMP[rule]
    changed = rule != preset.defaults["trump"]
    assert (rules.title != preset.name) is changed


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
@pytest.mark.parametrize("first", trick.FIRST_TRUMPS)
def test_the_first_trump_under_trump_by_successes(preset, first):
    rules = trick_rules(preset, trump="by-successes", first_trump=first)
    assert scored(rules, plain_deal(rules)).deals[0].trump == first


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda preset: preset.id)
def test_a_house_number_of_deals_ends_the_session(preset):
    if "deals" not in preset.match_types:
        pytest.skip(f"{preset.name} is not played over deals")
    rules = trick_rules(preset, match={"type": "deals", "deals": 2})
    result = scored(rules, plain_deal(rules), plain_deal(rules))
    assert result.finished and result.next is None
    assert "2 deals" in rules.house_rules()


def test_the_dummys_exact_bid_in_the_game_with_a_dummy():
    preset = trick.PRESETS["two-dummy"]
    for exact in (True, False):
        rules = trick_rules(preset, dummy_exact_declarer=exact)
        hands = {
            "Ann": HandEntry(4, bid=4),
            "Ben": HandEntry(4, bid=4),
            "dummy": HandEntry(1, bid=1),
        }
        dummy = scored(rules, DealEntry(hands, None)).deals[0].hands[2]
        assert dummy.premium == (trick.DUMMY_DECLARER_POINTS if exact else 0)


# Whole worked examples, checked by hand against RULES.md §1.


def test_classic_with_trump_declared_and_eighteen_deals():
    rules = trick.resolve_rules(
        "parlett-classic",
        {"trump": "declared", "match": {"type": "deals", "deals": 18}},
        ["Ann", "Ben", "Cat"],
    )
    assert rules.title == (
        "Classic Ninety-Nine, house rules: trump named by the declarer; 18 deals"
    )
    # Ann declares 4 and makes it (4 tricks + 30 declare), Ben 4 of 4, Cat 1 of 1: all three
    # succeed (bonus 10 each, RULES.md §1.3). Ann named hearts.
    deal = DealEntry(
        {
            "Ann": HandEntry(4, bid=4, premium="declare"),
            "Ben": HandEntry(4, bid=4),
            "Cat": HandEntry(1, bid=1),
        },
        "hearts",
    )
    result = scored(rules, deal)
    assert [hand.points for hand in result.deals[0].hands] == [4 + 10 + 30, 4 + 10, 1 + 10]
    assert result.next is not None and result.next.trump == "hearts"  # stays until declared


def test_oxford_whist_with_trick_points_off_scores_only_its_flat_ten():
    rules = trick.resolve_rules("oxford-whist", {"trick_points": False}, ["Ann", "Ben", "Cat"])
    deal = DealEntry(
        {"Ann": HandEntry(5, bid=5), "Ben": HandEntry(4, bid=3), "Cat": HandEntry(0, bid=0)},
        "clubs",
    )
    assert [hand.points for hand in scored(rules, deal).deals[0].hands] == [10, 0, 10]
    assert rules.title == "Oxford Whist, house rules: no trick points"


# The adding game


def adding_rules(preset: adding.AddingPreset, **options: object) -> adding.AddingRules:
    return adding.resolve_rules(preset.id, options, NAMES[: max(3, preset.players[0])])


def token_presets() -> list[adding.AddingPreset]:
    return [preset for preset in ADDING_PRESETS if preset.scoring == "tokens"]


@pytest.mark.parametrize("preset", token_presets(), ids=lambda preset: preset.id)
def test_house_tokens_start_every_player_with_that_many(preset):
    rules = adding_rules(preset, tokens=2, display="tokens")
    result = adding.score_session(rules, [])
    assert {standing.tokens for standing in result.standings} == {2}
    assert "2 tokens each" in rules.house_rules()


@pytest.mark.parametrize("preset", token_presets(), ids=lambda preset: preset.id)
def test_out_at_zero_or_when_you_cannot_pay(preset):
    bust = next(rule for rule in preset.events if rule.event == "bust")
    for out, still_in in (("at-zero", False), ("owing", True)):
        rules = adding_rules(preset, tokens=bust.cost, out=out, display="tokens")
        result = adding.score_session(rules, [RoundEntry((Event("Ann", "bust"),))])
        ann = next(standing for standing in result.standings if standing.player == "Ann")
        assert ann.tokens == 0
        assert ann.out is not still_in


@pytest.mark.parametrize("preset", token_presets(), ids=lambda preset: preset.id)
def test_a_bust_that_only_sits_the_player_out_of_the_round(preset):
    rules = adding_rules(preset, bust="out-of-round")
    start = rules.tokens
    result = adding.score_session(rules, [RoundEntry((Event("Ann", "bust"),))])
    assert all(standing.tokens == start for standing in result.standings)  # no cost, round on
    if preset.defaults["bust"] != "out-of-round":
        assert "bust: out of the round" in rules.house_rules()


@pytest.mark.parametrize("preset", ADDING_PRESETS, ids=lambda preset: preset.id)
def test_making_69_sets_the_total_back_or_gains_a_token(preset):
    assert "reset" in adding.ON_69
    rules = adding_rules(preset, on_69="reset")
    assert rules.on_69 == "reset"
    if preset.scoring in ("tokens", "wilson"):
        gaining = adding_rules(preset, on_69="token")
        assert any(rule.target == 69 for rule in gaining.events)
    else:
        with pytest.raises(InvalidRules, match="cannot gain a token"):
            adding_rules(preset, on_69="token")


# Properties: restating a preset's own values changes nothing.


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_restating_the_presets_own_values_is_the_same_as_leaving_them(data):
    family = data.draw(st.sampled_from([trick, adding]))
    preset = data.draw(st.sampled_from(list(family.PRESETS.values())))
    count = data.draw(st.sampled_from([n for n in preset.players if n <= len(NAMES)]))
    players = NAMES[:count]
    own = family.default_options(preset, count)
    names = data.draw(st.lists(st.sampled_from(sorted(own)), unique=True))
    restated = {name: own[name] for name in names}
    rules = family.resolve_rules(preset.id, restated, players)
    assert rules == family.resolve_rules(preset.id, {}, players)
    assert rules.overrides_data() == {} and rules.title == preset.name
    assert family.score_session(rules, []) == family.score_session(
        family.resolve_rules(preset.id, {}, players), []
    )


def test_every_option_names_itself_when_it_cannot_apply():
    for family in (trick, adding):
        for preset in family.PRESETS.values():
            for option in family.OPTIONS:
                why = family.inapplicable(preset, option.name)
                assert why is None or (option.short in why and preset.name in why)


def test_tricks_per_deal_stay_the_presets_under_house_rules():
    for preset in TRICK_PRESETS:
        rules = trick_rules(preset, trump="declared", bonus=[1])
        assert rules.tricks == (preset.tricks or TRICKS_FOR_PLAYERS[preset.players[0]])


@pytest.mark.parametrize(
    "preset",
    [preset for preset in TRICK_PRESETS if preset.defaults["trump"] != "by-successes"],
    ids=lambda preset: preset.id,
)
def test_trump_by_successes_as_a_house_rule_plays_the_first_deal_at_no_trump(preset):
    # RULES.md §1.4: given `by-successes` without `first_trump`, a preset whose own trump is
    # another rule plays its first deal at `none`.
    rules = trick_rules(preset, trump="by-successes")
    assert rules.first_trump == "none"
    assert trick.score_session(rules, []).next.trump == "none"
    assert scored(rules, plain_deal(rules)).deals[0].trump == "none"
    assert "first_trump" not in rules.overrides_data()
