"""Scoring one deal of the trick game: RULES.md §1.3, §1.7, §1.8 and the scoring options."""

import pytest

from scorekeeper.rules.trick import (
    DealEntry,
    DealResult,
    HandEntry,
    PremiumResult,
    TrickRules,
    resolve_rules,
    score_session,
)

H = HandEntry
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
DDD = ("diamonds", "diamonds", "diamonds")


def rules_for(preset: str = "parlett-jokerless", count: int = 3, **options: object) -> TrickRules:
    return resolve_rules(preset, options, NAMES[:count])


def score(rules: TrickRules, *hands: HandEntry, trump: str | None = None) -> DealResult:
    if trump is None and rules.trump == "turn-up":
        trump = "clubs"
    entry = DealEntry(dict(zip(rules.hands, hands, strict=True)), trump)
    return score_session(rules, [entry]).deals[0]


def points(deal: DealResult) -> list[int]:
    return [hand.points for hand in deal.hands]


# §1.3 worked example (3 players, parlett-jokerless) and the maximum


@pytest.mark.parametrize(
    ("hands", "expected"),
    [
        pytest.param(
            [H(4, bid=4, premium="reveal"), H(5, made=False), H(0, bid=0)],
            [84, 5, 20],
            id="Ann reveals and makes it",
        ),
        pytest.param(
            [H(3, bid=4, premium="reveal"), H(6, made=False), H(0, bid=0)],
            [3, 66, 90],
            id="Ann reveals and fails",
        ),
        pytest.param(
            [H(9, bid=9, premium="reveal"), H(0, bid=1), H(0, bid=2)],
            [99, 0, 0],
            id="the most one player can score: 99",
        ),
    ],
)
def test_the_worked_examples(hands, expected):
    assert points(score(rules_for(), *hands)) == expected


def test_the_worked_example_in_detail():
    deal = score(rules_for(), H(4, bid=4, premium="reveal"), H(5, made=False), H(0, bid_cards=DDD))
    ann, ben, cat = deal.hands
    assert (ann.trick_points, ann.bonus, ann.premium, ann.points) == (4, 20, 60, 84)
    assert (ben.bid, ben.made, ben.trick_points, ben.bonus, ben.premium) == (None, False, 5, 0, 0)
    assert (cat.bid, cat.made, cat.points) == (0, True, 20)
    assert deal.successes == 2
    assert deal.premiums == (PremiumResult("Ann", "reveal", True, 60),)
    assert ann.premium_bid == "reveal"
    assert ben.premium_bid is None
    assert deal.totals == {"Ann": 84, "Ben": 5, "Cat": 20}
    assert not any(hand.is_dummy for hand in deal.hands)


# §1.3 success bonus


@pytest.mark.parametrize(("successes", "bonus"), [(0, 0), (1, 30), (2, 20), (3, 10)])
def test_the_success_bonus_depends_on_how_many_succeed(successes, bonus):
    hands = [H(3, bid=3 if seat < successes else 4) for seat in range(3)]
    deal = score(rules_for(), *hands)
    assert deal.successes == successes
    assert points(deal) == [3 + bonus] * successes + [3] * (3 - successes)


@pytest.mark.parametrize(
    ("options", "bonus"),
    [({}, 0), ({"bonus": [30, 20, 10, 10]}, 10)],
    ids=["four succeeding get nothing", "or 10, by option"],
)
def test_four_successes_with_four_players(options, bonus):
    rules = rules_for("four", 4, **options)
    deal = score(rules, H(3, bid=3), H(3, bid=3), H(2, bid=2), H(2, bid=2))
    assert deal.successes == 4
    assert points(deal) == [3 + bonus, 3 + bonus, 2 + bonus, 2 + bonus]


@pytest.mark.parametrize(("successes", "bonus"), [(1, 50), (2, 40), (3, 30), (4, 20), (5, 10)])
def test_five_players_have_their_own_bonus_row(successes, bonus):
    hands = [H(2 if seat < 4 else 1, made=seat < successes) for seat in range(5)]
    deal = score(rules_for("five", 5), *hands)
    assert [hand.bonus for hand in deal.hands] == [bonus] * successes + [0] * (5 - successes)


def test_five_players_may_use_the_three_player_row():
    rules = rules_for("five", 5, bonus=[30, 20, 10, 0])
    hands = [H(2 if seat < 4 else 1, made=True) for seat in range(5)]
    assert [hand.bonus for hand in score(rules, *hands).hands] == [0] * 5


def test_successes_beyond_the_bonus_row_get_nothing():
    rules = rules_for("custom", 5, bonus=[30, 20, 10])
    hands = [H(2, made=True)] * 3 + [H(2, made=False), H(1, made=False)]
    assert [hand.bonus for hand in score(rules, *hands).hands] == [10, 10, 10, 0, 0]
    hands = [H(2, made=True)] * 4 + [H(1, made=False)]
    assert [hand.bonus for hand in score(rules, *hands).hands] == [0] * 5


# §1.3 premiums


@pytest.mark.parametrize(
    ("premium", "ann", "expected"),
    [
        pytest.param("declare", H(4, bid=4, premium="declare"), [4 + 20 + 30, 5, 20], id="made"),
        pytest.param("declare", H(4, bid=3, premium="declare"), [4, 5 + 30, 30 + 30], id="failed"),
        pytest.param("reveal", H(4, bid=4, premium="reveal"), [4 + 20 + 60, 5, 20], id="reveal"),
        pytest.param("reveal", H(4, bid=5, premium="reveal"), [4, 5 + 60, 30 + 60], id="lost"),
    ],
)
def test_a_premium_goes_to_the_bidder_or_to_every_other_player(premium, ann, expected):
    deal = score(rules_for(), ann, H(5, made=False), H(0, bid=0))
    assert points(deal) == expected
    assert deal.premiums[0].kind == premium


def test_a_failed_premium_pays_every_other_player_at_a_four_player_table():
    rules = rules_for("four", 4)
    deal = score(rules, H(1, bid=2, premium="reveal"), H(3, bid=3), H(3, bid=1), H(3, made=False))
    assert [hand.premium for hand in deal.hands] == [0, 60, 60, 60]
    assert deal.premiums == (PremiumResult("Ann", "reveal", False, 60),)


def test_trick_points_can_be_switched_off():
    rules = rules_for("custom", trick_points=False)
    deal = score(rules, H(4, bid=4), H(5, made=False), H(0, bid=0))
    assert points(deal) == [20, 0, 20]
    assert [hand.trick_points for hand in deal.hands] == [0, 0, 0]


@pytest.mark.parametrize("made", [1, 2, 3])
def test_oxford_whist_gives_a_flat_ten_for_success(made):
    hands = [H(3, bid=3 if seat < made else 2) for seat in range(3)]
    deal = score(rules_for("oxford-whist"), *hands)
    assert points(deal) == [13] * made + [3] * (3 - made)


# `four`: a 0 bid is also made by winning every trick


@pytest.mark.parametrize(
    "ann",
    [
        H(10, bid=0),
        H(10, bid=10),
        H(10, bid_cards=DDD),
        H(10, bid=10, bid_cards=DDD),
        H(10, made=True),
    ],
    ids=["bid 0", "bid 10", "bid-cards", "both", "made"],
)
def test_four_counts_all_ten_tricks_as_a_zero_bid_made(ann):
    deal = score(rules_for("four", 4), ann, H(0, bid=1), H(0, bid=1), H(0, made=False))
    assert (deal.hands[0].bid, deal.hands[0].made, deal.hands[0].points) == (0, True, 40)


def test_a_zero_bid_is_still_made_by_winning_nothing():
    deal = score(rules_for("four", 4), H(0, bid=0), H(4, bid=1), H(3, bid=1), H(3, made=False))
    assert deal.hands[0].made


def test_without_the_option_all_ten_tricks_fail_a_zero_bid():
    rules = rules_for("four", 4, zero_all_tricks=False)
    deal = score(rules, H(10, bid=0), H(0, bid=1), H(0, bid=1), H(0, made=False))
    assert (deal.hands[0].made, deal.hands[0].points) == (False, 10)


# §1.7 two players with a dummy


def dummy_deal(ann: HandEntry, ben: HandEntry, dummy: HandEntry, **options: object) -> DealResult:
    return score(rules_for("two-dummy", 2, **options), ann, ben, dummy)


@pytest.mark.parametrize(
    ("tricks", "bid", "made", "dummy_points"),
    [
        pytest.param(3, 2, False, 3, id="more than its bid: fails"),
        pytest.param(2, 4, True, 2 + 20, id="fewer than its bid: succeeds"),
        pytest.param(3, 3, True, 3 + 20 + 30, id="exactly its bid: succeeds and declares"),
    ],
)
def test_the_dummy_fails_only_by_winning_more_than_its_bid(tricks, bid, made, dummy_points):
    ann = H(9 - tricks - 2, made=False)
    deal = dummy_deal(ann, H(2, bid=2), H(tricks, bid=bid))
    dummy = deal.hands[2]
    assert (dummy.player, dummy.is_dummy, dummy.made, dummy.points) == (
        "dummy",
        True,
        made,
        dummy_points,
    )


def test_the_dummy_making_its_bid_exactly_need_not_count_as_declaring():
    deal = dummy_deal(H(4, made=False), H(2, bid=2), H(3, bid=3), dummy_exact_declarer=False)
    assert (deal.hands[2].premium, deal.hands[2].points) == (0, 3 + 20)


def test_successes_count_over_all_three_hands():
    deal = dummy_deal(H(3, bid=3), H(3, bid=3), H(3, bid_cards=("clubs", "clubs", "spades")))
    assert deal.successes == 3
    assert [hand.bonus for hand in deal.hands] == [10, 10, 10]


def test_a_failed_live_declarer_pays_the_other_live_player_and_the_dummy():
    deal = dummy_deal(H(4, bid=3, premium="declare"), H(3, made=False), H(2, bid=1))
    assert [hand.premium for hand in deal.hands] == [0, 30, 30]


def test_both_live_declarers_failing_leave_sixty_to_the_dummy():
    deal = dummy_deal(H(4, bid=3, premium="declare"), H(3, bid=4, premium="declare"), H(2, bid=1))
    assert [hand.premium for hand in deal.hands] == [0, 0, 60]
    assert [(p.player, p.made) for p in deal.premiums] == [("Ann", False), ("Ben", False)]


def test_one_live_declarer_making_it_and_the_other_failing():
    deal = dummy_deal(H(4, bid=4, premium="declare"), H(3, bid=4, premium="declare"), H(2, bid=1))
    assert [hand.premium for hand in deal.hands] == [30 + 30, 0, 30]


# §1.8 Long Ninety-Nine


def long_deal(*hands: HandEntry) -> DealResult:
    return score(rules_for("long"), *hands)


@pytest.mark.parametrize(
    ("ann", "shown", "made", "points"),
    [
        pytest.param(H(12, bid=12), 12, True, 30, id="bid 12 made"),
        pytest.param(H(12, bid=2), 12, True, 30, id="bid 2 also means 12"),
        pytest.param(
            H(12, bid_cards=("hearts", "diamonds", "diamonds")), 12, True, 30, id="cards of 2"
        ),
        pytest.param(H(12, bid=12, bid_cards=("hearts", "diamonds", "diamonds")), 12, True, 30),
        pytest.param(H(12, made=True), 12, True, 30, id="made alone"),
        pytest.param(H(12, bid=13), 13, False, -1, id="bid 13, one short"),
        pytest.param(H(12, bid=3), 13, False, -1, id="bid 3 is read as 13"),
        pytest.param(H(12, bid=5), 5, False, -7, id="bid 5 is only 5"),
        pytest.param(H(12, bid=9), 9, False, -3, id="bid 9"),
    ],
)
def test_long_bids_get_the_benefit_of_the_doubt(ann, shown, made, points):
    deal = long_deal(ann, H(1, bid=5), H(0, bid=4))
    hand = deal.hands[0]
    assert (hand.bid, hand.made, hand.points) == (shown, made, points)
    assert hand.trick_points == 0


def test_long_low_bids_stay_low_when_the_tricks_are_low():
    deal = long_deal(H(2, bid=12), H(11, bid=7), H(0, bid=0))
    assert [(hand.bid, hand.made) for hand in deal.hands] == [(2, True), (7, False), (0, True)]
    assert [hand.points for hand in deal.hands] == [20, -4, 20]
    assert [hand.miss for hand in deal.hands] == [0, -4, 0]


def test_long_ties_in_the_doubt_read_the_lower_bid():
    # Bid 0 or 10 with 5 tricks: missed by 5 either way.
    deal = long_deal(H(5, bid=0), H(8, bid=8), H(0, bid=0))
    assert (deal.hands[0].bid, deal.hands[0].miss) == (0, -5)


def test_long_success_bonus_is_30_20_or_10():
    deal = long_deal(H(12, bid=12), H(1, bid=1), H(0, bid=0))
    assert points(deal) == [10, 10, 10]


@pytest.mark.parametrize(
    ("ann", "expected"),
    [
        (H(12, bid=12, premium="declare"), [30 + 30, -1, -1]),
        (H(12, bid=12, premium="reveal"), [30 + 60, -1, -1]),
        (H(11, bid=12, premium="declare"), [-1 - 30, 30, -2]),
        (H(11, bid=12, premium="reveal"), [-1 - 60, 30, -2]),
    ],
)
def test_long_premiums_are_won_or_lost_by_the_bidder_alone(ann, expected):
    others = [H(1, bid=2), H(0, bid=1)] if ann.tricks == 12 else [H(2, bid=2), H(0, bid=2)]
    deal = long_deal(ann, *others)
    assert points(deal) == expected


def test_long_scores_can_go_negative():
    rules = rules_for("long")
    deals = [
        DealEntry({"Ann": H(13, bid=4), "Ben": H(0, bid=9), "Cat": H(0, bid=9)}),
        DealEntry({"Ann": H(13, bid=4), "Ben": H(0, bid=9), "Cat": H(0, bid=9)}),
    ]
    result = score_session(rules, deals)
    assert result.totals == {"Ann": -18, "Ben": -18, "Cat": -18}
    assert [standing.rank for standing in result.standings] == [1, 1, 1]
