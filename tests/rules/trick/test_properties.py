"""Invariants of the trick game, over random sessions of every preset (hypothesis)."""

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.trick import (
    DUMMY,
    FIRST_TRUMPS,
    PREMIUM_POINTS,
    PRESETS,
    TRUMP_BY_COUNT,
    TRUMP_RULES,
    TRUMPS,
    DealEntry,
    HandEntry,
    InvalidDeals,
    SessionResult,
    TrickRules,
    applicable_options,
    check_deals,
    resolve_rules,
    score_session,
)
from scorekeeper.scoresheet import (
    InvalidScoresheet,
    TrickSheet,
    dumps_scoresheet,
    export_scoresheet,
    loads_scoresheet,
    parse_scoresheet,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
SUIT_OF_CODE = {0: "diamonds", 1: "spades", 2: "hearts", 3: "clubs"}
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

MATCHES = {
    "deals": st.integers(1, 12).map(lambda n: {"type": "deals", "deals": n}),
    "target": st.integers(30, 400).map(lambda n: {"type": "target", "target": n}),
    "rubber": st.just({"type": "rubber"}),
    "game-bonus": st.just({"type": "game-bonus"}),
    "long": st.integers(1, 2).map(lambda n: {"type": "long", "games": n}),
}
OPTIONS = {
    "trump": st.sampled_from(TRUMP_RULES),
    "first_trump": st.sampled_from(FIRST_TRUMPS),
    "bonus": st.lists(st.integers(0, 120), max_size=6),
    "premiums": st.sampled_from([[], ["declare"], ["reveal"], ["declare", "reveal"]]),
    "trick_points": st.booleans(),
    "zero_all_tricks": st.booleans(),
    "dummy_exact_declarer": st.booleans(),
}


@st.composite
def rules_st(draw: st.DrawFn) -> TrickRules:
    preset = draw(st.sampled_from(list(PRESETS.values())))
    count = draw(st.sampled_from(preset.players))
    options: dict[str, object] = {}
    if draw(st.booleans()):
        options["match"] = draw(st.sampled_from(preset.match_types).flatmap(MATCHES.__getitem__))
    for option in applicable_options(preset):
        if option.name != "match" and draw(st.booleans()):
            options[option.name] = draw(OPTIONS[option.name])
    if preset.dummy and "reveal" in options.get("premiums", []):
        options["premiums"] = ["declare"]  # nobody reveals beside an open dummy
    return resolve_rules(preset.id, options, NAMES[:count])


@st.composite
def cards_st(draw: st.DrawFn, value: int) -> tuple[str, ...]:
    """Three bid-cards adding up to `value` (0–9)."""
    first = draw(st.integers(max(0, value - 6), min(3, value)))
    second = draw(st.integers(max(0, value - first - 3), min(3, value - first)))
    codes = [first, second, value - first - second]
    return tuple(SUIT_OF_CODE[code] for code in draw(st.permutations(codes)))


@st.composite
def hand_st(draw: st.DrawFn, rules: TrickRules, name: str, tricks: int) -> HandEntry:
    is_dummy = rules.dummy and name == DUMMY
    biddable = tricks <= rules.bid_max or (rules.zero_all_tricks and tricks == rules.tricks)
    forms = ["bid", "cards"]
    if not is_dummy and biddable:
        forms.append("made")
    if not is_dummy and not rules.needs_all_bids:
        forms.append("hidden")
    form = draw(st.sampled_from(forms))
    if form == "made":
        return HandEntry(tricks, made=True)
    if form == "hidden":
        return HandEntry(tricks, made=False)
    bids = st.integers(0, rules.bid_max)
    bid = draw(st.one_of(st.just(tricks), bids) if tricks <= rules.bid_max else bids)
    if form == "bid":
        return HandEntry(tricks, bid=bid)
    cards = draw(cards_st(bid - 10 if bid >= 10 else bid))
    return HandEntry(tricks, bid=bid if draw(st.booleans()) else None, bid_cards=cards)


@st.composite
def deal_st(draw: st.DrawFn, rules: TrickRules) -> DealEntry:
    """A deal that is valid whatever came before it."""
    names = rules.hands
    cuts = sorted(
        draw(
            st.lists(st.integers(0, rules.tricks), min_size=len(names) - 1, max_size=len(names) - 1)
        )
    )
    tricks = [high - low for low, high in zip([0, *cuts], [*cuts, rules.tricks], strict=True)]
    hands = {name: draw(hand_st(rules, name, won)) for name, won in zip(names, tricks, strict=True)}
    shown = [
        name
        for name in rules.players
        if hands[name].bid is not None or hands[name].bid_cards is not None
    ]
    if shown and rules.premiums:
        bidders = (
            draw(st.lists(st.sampled_from(shown), unique=True))
            if rules.dummy
            else draw(st.lists(st.sampled_from(shown), max_size=1))
        )
        for name in bidders:
            hands[name] = replace(hands[name], premium=draw(st.sampled_from(rules.premiums)))
    premium = any(hand.premium for hand in hands.values())
    trump = None
    if rules.trump == "turn-up" or (rules.trump == "declared" and premium):
        trump = draw(st.sampled_from(TRUMPS))
    return DealEntry(hands, trump)


def playable(rules: TrickRules, deals: list[DealEntry]) -> list[DealEntry]:
    """The deals up to the end of the session (the generated deals are otherwise valid)."""
    problems = check_deals(rules, deals)
    assert all(problem.message.startswith("The session ended after") for problem in problems)
    return deals[: problems[0].deal] if problems else deals


@st.composite
def session_st(draw: st.DrawFn) -> tuple[TrickRules, list[DealEntry]]:
    rules = draw(rules_st())
    deals = draw(st.lists(deal_st(rules), max_size=14))
    return rules, playable(rules, deals)


def next_trump(rules: TrickRules, result: SessionResult, index: int) -> str:
    """The trump the rules give deal `index` + 1, from deal `index`."""
    deal = result.deals[index]
    if rules.trump == "by-successes":
        return TRUMP_BY_COUNT[deal.successes] if deal.successes < 4 else "none"
    missed = sum(abs(hand.tricks - hand.bid) for hand in deal.hands if not hand.made)
    return TRUMP_BY_COUNT[min(missed, 3)]


@SETTINGS
@given(session_st())
def test_points_are_the_sum_of_their_parts(session):
    rules, deals = session
    result = score_session(rules, deals)
    for deal in result.deals:
        assert deal.successes == sum(hand.made for hand in deal.hands)
        assert sum(hand.tricks for hand in deal.hands) == rules.tricks
        row = rules.bonus[deal.successes - 1] if 0 < deal.successes <= len(rules.bonus) else 0
        for hand in deal.hands:
            assert hand.points == (
                hand.trick_points
                + hand.bonus
                + hand.premium
                + hand.miss
                + hand.game_bonus
                + hand.rubber_bonus
            )
            assert hand.trick_points == (hand.tricks if rules.trick_points else 0)
            assert hand.bonus == (row if hand.made else 0)
            assert hand.miss <= 0
            if rules.scoring != "long" or hand.made:
                assert hand.miss == 0
            if hand.made and not hand.is_dummy:
                assert hand.bid is not None


@SETTINGS
@given(session_st())
def test_totals_are_the_sums_of_the_points(session):
    rules, deals = session
    result = score_session(rules, deals)
    running = dict.fromkeys(rules.hands, 0)
    for deal in result.deals:
        for hand in deal.hands:
            running[hand.player] += hand.points
        assert deal.totals == running
    assert result.totals == running
    totals = [standing.total for standing in result.standings]
    assert totals == sorted(totals, reverse=True)
    for standing in result.standings:
        assert standing.total == running[standing.player]
        assert standing.rank == 1 + sum(total > standing.total for total in totals)
    assert {standing.player for standing in result.standings} == set(rules.players)


@SETTINGS
@given(session_st())
def test_premiums_go_to_the_bidder_or_to_every_other_hand(session):
    rules, deals = session
    for deal in score_session(rules, deals).deals:
        received = {hand.player: hand.premium for hand in deal.hands}
        if rules.dummy and rules.dummy_exact_declarer:
            dummy = deal.hands[-1]
            received[DUMMY] -= 30 if dummy.bid == dummy.tricks else 0
        failed = [premium for premium in deal.premiums if not premium.made]
        expected = dict.fromkeys(received, 0)
        for premium in deal.premiums:
            assert premium.value == PREMIUM_POINTS[premium.kind]
            if premium.made:
                expected[premium.player] += premium.value
            elif rules.scoring == "long":
                expected[premium.player] -= premium.value
            elif len(failed) == 1:  # a failed premium gives every other hand exactly the premium
                for player in expected:
                    expected[player] += premium.value if player != premium.player else 0
        if len(failed) == 2:  # both live players with a dummy: 60 to the dummy instead
            expected[DUMMY] += 60
        assert received == expected


@SETTINGS
@given(session_st())
def test_the_trump_chain_follows_the_rules(session):
    rules, deals = session
    result = score_session(rules, deals)
    trumps = [deal.trump for deal in result.deals]
    if rules.trump == "turn-up":
        assert trumps == [entry.trump for entry in deals]
    elif rules.trump == "declared":
        previous = "none"
        for entry, deal in zip(deals, result.deals, strict=True):
            premium = any(hand.premium for hand in entry.hands.values())
            assert deal.trump == (entry.trump if premium else previous)
            previous = deal.trump
    else:
        first = rules.first_trump if rules.trump == "by-successes" else "diamonds"
        expected = [first] + [next_trump(rules, result, i) for i in range(len(deals))]
        assert trumps == expected[: len(trumps)]
        if result.next is not None:
            assert result.next.trump == expected[-1]


@SETTINGS
@given(session_st())
def test_seats_rotate_and_the_session_ends_once(session):
    rules, deals = session
    result = score_session(rules, deals)
    players = rules.players
    for index, deal in enumerate(result.deals):
        assert deal.dealer == players[index % len(players)]
        assert deal.leader == players[(index + 1) % len(players)]
        assert deal.finished == (result.finished and index == len(deals) - 1)
    assert bool(result.winners) == result.finished == (result.next is None)
    assert set(result.winners) <= set(players)
    if result.next is not None:
        assert result.next.number == len(deals) + 1


MUTATIONS = [
    "more tricks",
    "negative tricks",
    "drop a hand",
    "extra hand",
    "bid too high",
    "no bid",
    "two bid-cards",
    "bad trump",
    "bad premium",
    "contradicting mark",
    "second premium",
]


@st.composite
def broken_session_st(draw: st.DrawFn) -> tuple[TrickRules, list[DealEntry], int]:
    """A valid session with one deal made invalid, and that deal's index."""
    rules = draw(rules_st())
    deals = playable(rules, draw(st.lists(deal_st(rules), min_size=1, max_size=8)))
    if not deals:
        deals = [draw(deal_st(rules))]
    index = draw(st.integers(0, len(deals) - 1))
    result = score_session(rules, deals[: index + 1]).deals[index]
    entry = deals[index]
    hands = dict(entry.hands)
    name = draw(st.sampled_from(rules.hands))
    hand = hands[name]
    mutation = draw(st.sampled_from(MUTATIONS))
    if mutation == "more tricks":
        hands[name] = replace(hand, tricks=hand.tricks + draw(st.integers(1, 20)))
    elif mutation == "negative tricks":
        hands[name] = replace(hand, tricks=draw(st.integers(-20, -1)))
    elif mutation == "drop a hand":
        del hands[name]
    elif mutation == "extra hand":
        hands["Zed"] = hand
    elif mutation == "bid too high":
        bid = rules.bid_max + draw(st.integers(1, 5))
        bid += rules.zero_all_tricks and bid == rules.tricks
        hands[name] = replace(hand, bid=bid)
    elif mutation == "no bid":
        hands[name] = HandEntry(hand.tricks)
    elif mutation == "two bid-cards":
        hands[name] = replace(hand, bid=None, bid_cards=("clubs", "clubs"))
    elif mutation == "bad trump":
        entry = replace(entry, trump="stars")
    elif mutation == "bad premium":
        hands[name] = replace(hand, premium="double")
    elif mutation == "contradicting mark":
        made = next(result_hand.made for result_hand in result.hands if result_hand.player == name)
        hands[name] = replace(hand, made=not made, bid=hand.bid if hand.bid is not None else 99)
    else:
        for other in rules.hands if not rules.dummy else [DUMMY]:
            hands[other] = replace(hands[other], premium="declare")
    deals[index] = replace(entry, hands=hands)
    return rules, deals, index


@SETTINGS
@given(broken_session_st())
def test_an_invalid_deal_is_always_rejected(broken):
    rules, deals, index = broken
    try:
        score_session(rules, deals)
    except InvalidDeals as error:
        assert any(problem.deal == index for problem in error.problems)
        assert all(problem.deal >= index for problem in error.problems)
        assert all(
            str(problem).startswith(f"Deal {problem.deal + 1}") for problem in error.problems
        )
    else:
        raise AssertionError("the broken deal was accepted")


ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 15),
    st.integers(),
    st.floats(),
    st.text(max_size=4),
    st.sampled_from([*TRUMPS, "declare", "reveal", DUMMY]),
    st.lists(st.one_of(st.sampled_from(TRUMPS), st.integers(-1, 4)), max_size=4),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
GARBAGE_HAND = st.builds(
    HandEntry,
    tricks=ANYTHING,
    bid=ANYTHING,
    bid_cards=ANYTHING,
    made=ANYTHING,
    premium=ANYTHING,
)
GARBAGE_DEAL = st.builds(
    DealEntry,
    hands=st.dictionaries(st.sampled_from([*NAMES, DUMMY, "Zed"]), GARBAGE_HAND, max_size=6),
    trump=ANYTHING,
)


@SETTINGS
@given(rules_st(), st.lists(GARBAGE_DEAL, max_size=4))
def test_garbage_deals_never_crash_the_rules(rules, deals):
    try:
        score_session(rules, deals)
    except InvalidDeals as error:
        assert error.problems


# The scoresheet file: random sessions and random garbage

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=25,
)


def sheet_of(rules: TrickRules, deals: list[DealEntry]) -> TrickSheet:
    return TrickSheet.build(
        ruleset=rules.preset.id,
        options=rules.overrides_data(),
        players=rules.players,
        deals=tuple(deals),
    )


@SETTINGS
@given(session_st())
def test_export_then_import_gives_the_same_file(session):
    rules, deals = session
    text = dumps_scoresheet(sheet_of(rules, deals))
    sheet = loads_scoresheet(text)
    assert sheet.rules == rules
    assert dumps_scoresheet(sheet) == text
    assert json.loads(text)["deals"] == export_scoresheet(sheet)["deals"]


def parse_or_reject(data: object) -> None:
    try:
        sheet = parse_scoresheet(data)
    except InvalidScoresheet as error:
        assert error.problems
        assert all(problem.message for problem in error.problems)
    else:
        export_scoresheet(sheet)


@SETTINGS
@given(JSON)
def test_garbage_files_are_rejected_without_crashing(data):
    parse_or_reject(data)
    parse_or_reject(
        {
            "format": "ninety-nine-scoresheet",
            "version": 1,
            "family": "trick",
            "ruleset": "custom",
            "players": data,
            "deals": data,
            "options": data,
        }
    )


def paths_in(data: object, here: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [here]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths_in(value, (*here, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths_in(value, (*here, index))
    return found


@SETTINGS
@given(session_st(), st.data())
def test_a_damaged_file_is_rejected_or_read_without_crashing(session, data):
    rules, deals = session
    content = export_scoresheet(sheet_of(rules, deals))
    path = data.draw(st.sampled_from(paths_in(content)[1:]))
    target = content
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = data.draw(JSON)
    parse_or_reject(content)
