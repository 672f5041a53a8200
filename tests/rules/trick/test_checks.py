"""Checks on the deals of the trick game (RULES.md §1.2 and the checks the app adds)."""

import pytest

from scorekeeper.rules.trick import (
    DealEntry,
    DealProblem,
    HandEntry,
    InvalidDeals,
    TrickRules,
    check_deal,
    check_deals,
    resolve_rules,
    score_session,
)

H = HandEntry
DDD = ("diamonds", "diamonds", "diamonds")
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def rules_for(preset: str = "parlett-jokerless", count: int = 3, **options: object) -> TrickRules:
    return resolve_rules(preset, options, NAMES[:count])


def deal(trump: str | None = None, **hands: HandEntry) -> DealEntry:
    return DealEntry(hands, trump)


def problems(rules: TrickRules, *deals: DealEntry) -> list[tuple[str, str]]:
    with pytest.raises(InvalidDeals) as caught:
        score_session(rules, deals)
    return [(problem.path, problem.message) for problem in caught.value.problems]


JOKERLESS = rules_for()
CLASSIC = rules_for("parlett-classic")
DECLARED = rules_for("declared")
LONG = rules_for("long")
FOUR = rules_for("four", 4)
FOUR_STRICT = rules_for("four", 4, zero_all_tricks=False)
TWO = rules_for("two-dummy", 2)
OXFORD = rules_for("oxford-whist")
DECLARE_ONLY = rules_for("custom", premiums=["declare"])
DEVIATION = rules_for("custom", trump="by-deviation")

GOOD = deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(3, bid=3))

# One bad deal, as the first deal of a session: (rules, deal, expected problems).
BAD_DEALS = {
    "tricks add up to too few": (
        JOKERLESS,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(2, bid=2)),
        [("deals[0].hands", "Tricks add up to 8; a deal has 9.")],
    ),
    "tricks add up to too many": (
        FOUR,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(3, bid=3), Dan=H(2, bid=2)),
        [("deals[0].hands", "Tricks add up to 11; a deal has 10.")],
    ),
    "negative tricks": (
        JOKERLESS,
        deal(Ann=H(-1, made=False), Ben=H(5, made=False), Cat=H(5, made=False)),
        [("deals[0].hands.Ann.tricks", "Tricks must be a whole number, 0 or more.")],
    ),
    "tricks not a number": (
        JOKERLESS,
        deal(Ann=H("3", made=False), Ben=H(3, made=False), Cat=H(3, made=False)),  # type: ignore[arg-type]
        [("deals[0].hands.Ann.tricks", "Tricks must be a whole number, 0 or more.")],
    ),
    "more tricks than the deal has": (
        JOKERLESS,
        deal(Ann=H(10, made=False), Ben=H(0, bid=0), Cat=H(0, bid=0)),
        [("deals[0].hands.Ann.tricks", "10 tricks won, but a deal has only 9.")],
    ),
    "bid out of range": (
        JOKERLESS,
        deal(Ann=H(3, bid=10), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid", "Bid 10 is out of range (0–9).")],
    ),
    "negative bid": (
        JOKERLESS,
        deal(Ann=H(3, bid=-1), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid", "Bid -1 is out of range (0–9).")],
    ),
    "long bid out of range": (
        LONG,
        deal(Ann=H(13, bid=14), Ben=H(0, bid=0), Cat=H(0, bid=0)),
        [("deals[0].hands.Ann.bid", "Bid 14 is out of range (0–13).")],
    ),
    "four: 11 is no bid": (
        FOUR,
        deal(Ann=H(10, bid=11), Ben=H(0, bid=0), Cat=H(0, bid=0), Dan=H(0, bid=0)),
        [("deals[0].hands.Ann.bid", "Bid 11 is out of range (0–9).")],
    ),
    "four without zero_all_tricks: 10 is no bid": (
        FOUR_STRICT,
        deal(Ann=H(10, bid=10), Ben=H(0, bid=0), Cat=H(0, bid=0), Dan=H(0, bid=0)),
        [("deals[0].hands.Ann.bid", "Bid 10 is out of range (0–9).")],
    ),
    "bid not a whole number": (
        JOKERLESS,
        deal(Ann=H(3, bid=2.5), Ben=H(3, bid=True), Cat=H(3, bid=3)),  # type: ignore[arg-type]
        [
            ("deals[0].hands.Ann.bid", "A bid must be a whole number."),
            ("deals[0].hands.Ben.bid", "A bid must be a whole number."),
        ],
    ),
    "two bid-cards": (
        JOKERLESS,
        deal(Ann=H(3, bid_cards=("clubs", "diamonds")), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid_cards", "A bid is made with three cards; 2 given.")],
    ),
    "not a suit": (
        JOKERLESS,
        deal(Ann=H(3, bid_cards=("clubs", "none", "stars")), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [
            (
                "deals[0].hands.Ann.bid_cards",
                '"none" is not a suit: use clubs, hearts, spades or diamonds.',
            ),
            (
                "deals[0].hands.Ann.bid_cards",
                '"stars" is not a suit: use clubs, hearts, spades or diamonds.',
            ),
        ],
    ),
    "bid-cards as text": (
        JOKERLESS,
        deal(Ann=H(3, bid_cards="CDD"), Ben=H(3, bid=3), Cat=H(3, bid=3)),  # type: ignore[arg-type]
        [("deals[0].hands.Ann.bid_cards", "Bid-cards are a list of three suits.")],
    ),
    "bid and bid-cards disagree": (
        JOKERLESS,
        deal(Ann=H(3, bid=3, bid_cards=DDD), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid_cards", "The bid-cards make 0, but the bid is 3.")],
    ),
    "long: 12 is not made with three diamonds": (
        LONG,
        deal(Ann=H(12, bid=12, bid_cards=DDD), Ben=H(1, bid=1), Cat=H(0, bid=0)),
        [("deals[0].hands.Ann.bid_cards", "The bid-cards make 0, but the bid is 12.")],
    ),
    "nothing known about the bid": (
        JOKERLESS,
        deal(Ann=H(3), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid", "Enter the bid, or mark the hand made or failed.")],
    ),
    "marked failed but made": (
        JOKERLESS,
        deal(Ann=H(3, bid=3, made=False), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.made", "Marked as failed, but the bid of 3 was made.")],
    ),
    "marked made but failed": (
        JOKERLESS,
        deal(Ann=H(3, bid=4, made=True), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.made", "Marked as made, but the bid was 4 and 3 tricks were won.")],
    ),
    "the dummy marked made but over its bid": (
        TWO,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), dummy=H(3, bid=2, made=True)),
        [("deals[0].hands.dummy.made", "Marked as made, but the bid was 2 and 3 tricks were won.")],
    ),
    "made not true or false": (
        JOKERLESS,
        deal(Ann=H(3, made=1), Ben=H(3, bid=3), Cat=H(3, bid=3)),  # type: ignore[arg-type]
        [("deals[0].hands.Ann.made", "Made must be true or false.")],
    ),
    "made alone, but no such bid": (
        FOUR_STRICT,
        deal(Ann=H(10, made=True), Ben=H(0, bid=0), Cat=H(0, bid=0), Dan=H(0, bid=0)),
        [("deals[0].hands.Ann.made", "Bids go up to 9, so 10 tricks cannot be a bid made.")],
    ),
    "two premium bids": (
        JOKERLESS,
        deal(
            Ann=H(3, bid=3, premium="declare"), Ben=H(3, bid=3, premium="reveal"), Cat=H(3, bid=3)
        ),
        [
            (
                "deals[0].hands",
                "Only one premium bid is allowed in a deal, but Ann and Ben made one each.",
            )
        ],
    ),
    "not a premium bid": (
        JOKERLESS,
        deal(Ann=H(3, bid=3, premium="double"), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.premium", 'A premium bid is "declare" or "reveal".')],
    ),
    "premium bid without the bid": (
        JOKERLESS,
        deal(Ann=H(3, made=True, premium="declare"), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid", "A premium bid is shown, so enter the bid.")],
    ),
    "premium bid with the bid hidden": (
        JOKERLESS,
        deal(Ann=H(3, made=False, premium="reveal"), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.bid", "A premium bid is shown, so enter the bid.")],
    ),
    "no premiums in oxford whist": (
        OXFORD,
        deal("clubs", Ann=H(3, bid=3, premium="declare"), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.premium", "Premium bids are not played in this game.")],
    ),
    "reveal switched off": (
        DECLARE_ONLY,
        deal(Ann=H(3, bid=3, premium="reveal"), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].hands.Ann.premium", "Revealing is not played in this game.")],
    ),
    "nobody reveals with a dummy": (
        TWO,
        deal(Ann=H(3, bid=3, premium="reveal"), Ben=H(3, bid=3), dummy=H(3, bid=3)),
        [
            (
                "deals[0].hands.Ann.premium",
                "Nobody may reveal in the game with a dummy; both players may declare.",
            )
        ],
    ),
    "the dummy makes no premium bid": (
        TWO,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), dummy=H(3, bid=3, premium="declare")),
        [("deals[0].hands.dummy.premium", "The dummy cannot make a premium bid.")],
    ),
    "the dummy's bid is always entered": (
        TWO,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), dummy=H(3, made=True)),
        [("deals[0].hands.dummy.bid", "The dummy's bid is always entered.")],
    ),
    "long needs every bid": (
        LONG,
        deal(Ann=H(13, made=False), Ben=H(0, bid=0), Cat=H(0, bid=0)),
        [("deals[0].hands.Ann.bid", "Every bid must be entered in this game.")],
    ),
    "the trump by deviation needs every bid": (
        DEVIATION,
        deal(Ann=H(9, made=False), Ben=H(0, bid=0), Cat=H(0, bid=0)),
        [("deals[0].hands.Ann.bid", "Every bid must be entered in this game.")],
    ),
    "someone not playing, someone missing": (
        JOKERLESS,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Bob=H(3, bid=3)),
        [
            ("deals[0].hands.Bob", "Bob is not playing in this session."),
            ("deals[0].hands.Cat", "No hand entered."),
        ],
    ),
    "a dummy where there is none": (
        JOKERLESS,
        deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(3, bid=3), dummy=H(0, bid=0)),
        [("deals[0].hands.dummy", "There is no dummy in this game.")],
    ),
    "the dummy's hand missing": (
        TWO,
        deal(Ann=H(3, bid=3), Ben=H(6, bid=3)),
        [("deals[0].hands.dummy", "No hand entered.")],
    ),
    "not a trump": (
        CLASSIC,
        deal("stars", Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].trump", "The trump is clubs, hearts, spades, diamonds or none.")],
    ),
    "turn-up trump missing": (
        CLASSIC,
        GOOD,
        [("deals[0].trump", "Enter the trump turned up for this deal (a suit, or none).")],
    ),
    "declared trump missing": (
        DECLARED,
        deal(Ann=H(3, bid=3, premium="declare"), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].trump", "Enter the trump the premium bidder named.")],
    ),
    "declared: no premium, so no new trump": (
        DECLARED,
        deal("hearts", Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].trump", "The trump for this deal is none, not hearts.")],
    ),
    "computed trump entered wrongly": (
        JOKERLESS,
        deal("clubs", Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(3, bid=3)),
        [("deals[0].trump", "The trump for this deal is diamonds, not clubs.")],
    ),
    "long: first trump is diamonds": (
        LONG,
        deal("none", Ann=H(13, bid=13), Ben=H(0, bid=0), Cat=H(0, bid=0)),
        [("deals[0].trump", "The trump for this deal is diamonds, not none.")],
    ),
}


@pytest.mark.parametrize(("rules", "entry", "expected"), BAD_DEALS.values(), ids=BAD_DEALS)
def test_it_rejects_a_bad_deal(rules, entry, expected):
    assert problems(rules, entry) == expected


def test_good_deals_pass():
    assert check_deals(JOKERLESS, [GOOD, GOOD]) == []
    assert (
        check_deals(
            TWO, [deal(Ann=H(3, bid=3), Ben=H(3, bid=3, premium="declare"), dummy=H(3, bid=3))]
        )
        == []
    )


def test_both_live_players_may_declare_with_a_dummy():
    both = deal(
        Ann=H(3, bid=3, premium="declare"),
        Ben=H(3, bid=3, premium="declare"),
        dummy=H(3, bid=4),
    )
    assert check_deals(TWO, [both]) == []


def test_a_computed_trump_may_be_entered_if_it_is_right():
    assert (
        check_deals(JOKERLESS, [deal("diamonds", **GOOD.hands), deal("clubs", **GOOD.hands)]) == []
    )


def test_every_problem_in_every_deal_is_listed():
    bad_tricks = deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(2, bid=2))
    bad_bid = deal(Ann=H(3, bid=12), Ben=H(3), Cat=H(3, bid=3))
    assert problems(JOKERLESS, GOOD, bad_tricks, GOOD, bad_bid) == [
        ("deals[1].hands", "Tricks add up to 8; a deal has 9."),
        ("deals[3].hands.Ann.bid", "Bid 12 is out of range (0–9)."),
        ("deals[3].hands.Ben.bid", "Enter the bid, or mark the hand made or failed."),
    ]


def test_the_computed_trump_is_not_checked_after_a_bad_deal():
    bad = deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(2, bid=2))
    wrong_trump = deal("spades", **GOOD.hands)
    assert problems(JOKERLESS, GOOD, wrong_trump, GOOD) == [
        ("deals[1].trump", "The trump for this deal is clubs, not spades."),
    ]
    assert problems(JOKERLESS, bad, wrong_trump) == [
        ("deals[0].hands", "Tricks add up to 8; a deal has 9."),
    ]


def test_a_deal_that_could_not_be_read_stops_the_checks_that_depend_on_it():
    wrong_trump = deal("spades", **GOOD.hands)
    assert check_deals(JOKERLESS, [None, wrong_trump]) == []
    bad_bid = deal(Ann=H(3, bid=12), Ben=H(3, bid=3), Cat=H(3, bid=3))
    assert [p.path for p in check_deals(JOKERLESS, [None, bad_bid])] == ["deals[1].hands.Ann.bid"]


def test_a_deal_after_the_last_is_rejected():
    bad_bid = deal(Ann=H(3, bid=12), Ben=H(3, bid=3), Cat=H(3, bid=3))
    assert problems(JOKERLESS, *[GOOD] * 9, GOOD, bad_bid) == [
        ("deals[9]", "The session ended after deal 9."),
        ("deals[10]", "The session ended after deal 9."),
        ("deals[10].hands.Ann.bid", "Bid 12 is out of range (0–9)."),
    ]


def test_the_last_deal_is_known_even_after_a_bad_deal():
    bad_bid = deal(Ann=H(3, bid=12), Ben=H(3, bid=3), Cat=H(3, bid=3))
    found = problems(JOKERLESS, bad_bid, *[GOOD] * 9)
    assert found[-1] == ("deals[9]", "The session ended after deal 9.")


def test_a_deal_after_a_won_rubber_is_rejected():
    rules = rules_for("custom", bonus=[100], match={"type": "rubber"})
    ann_wins = deal(Ann=H(3, bid=3), Ben=H(3, bid=4), Cat=H(3, bid=4))
    assert problems(rules, *[ann_wins] * 5) == [
        ("deals[3]", "The session ended after deal 3."),
        ("deals[4]", "The session ended after deal 3."),
    ]


def test_check_deal_checks_a_new_deal_after_the_others():
    assert check_deal(JOKERLESS, [GOOD], deal("clubs", **GOOD.hands)) == []
    assert check_deal(JOKERLESS, [GOOD], deal("hearts", **GOOD.hands)) == [
        DealProblem(1, None, "trump", "The trump for this deal is clubs, not hearts.")
    ]
    assert check_deal(JOKERLESS, [GOOD] * 9, GOOD) == [
        DealProblem(9, None, None, "The session ended after deal 9.")
    ]


@pytest.mark.parametrize(
    ("problem", "path", "text"),
    [
        (
            DealProblem(3, "Ben", "bid", "Bid 11 is out of range (0–9)."),
            "deals[3].hands.Ben.bid",
            "Deal 4, Ben: Bid 11 is out of range (0–9).",
        ),
        (
            DealProblem(3, "Ben", None, "No hand entered."),
            "deals[3].hands.Ben",
            "Deal 4, Ben: No hand entered.",
        ),
        (
            DealProblem(3, None, "hands", "Tricks add up to 8; a deal has 9."),
            "deals[3].hands",
            "Deal 4: Tricks add up to 8; a deal has 9.",
        ),
        (
            DealProblem(0, None, "trump", "Enter the trump."),
            "deals[0].trump",
            "Deal 1: Enter the trump.",
        ),
        (
            DealProblem(9, None, None, "The session ended after deal 9."),
            "deals[9]",
            "Deal 10: The session ended after deal 9.",
        ),
    ],
)
def test_a_deal_problem_gives_its_path_and_reads_plainly(problem, path, text):
    assert problem.path == path
    assert str(problem) == text


def test_invalid_deals_reads_as_its_problems():
    with pytest.raises(InvalidDeals) as caught:
        score_session(JOKERLESS, [deal(Ann=H(3, bid=3), Ben=H(3, bid=3), Cat=H(2, bid=12))])
    assert str(caught.value) == (
        "Deal 1, Cat: Bid 12 is out of range (0–9).\nDeal 1: Tricks add up to 8; a deal has 9."
    )
