"""A whole session of the trick game: seats, trumps (§1.4), how it ends (§1.5), standings."""

import pytest

from scorekeeper.rules.trick import (
    DealEntry,
    GameResult,
    HandEntry,
    NextDeal,
    SessionResult,
    Standing,
    TrickRules,
    resolve_rules,
    score_session,
)

H = HandEntry
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def rules_for(preset: str = "parlett-jokerless", count: int = 3, **options: object) -> TrickRules:
    return resolve_rules(preset, options, NAMES[:count])


def made_by(rules: TrickRules, *winners: str, trump: str | None = None) -> DealEntry:
    """A deal in which exactly `winners` make their bids (the tricks are spread evenly)."""
    count = len(rules.hands)
    tricks = [rules.tricks // count + (seat < rules.tricks % count) for seat in range(count)]
    hands = {
        name: H(won, bid=won if name in winners else (won + 1) % 10)
        for name, won in zip(rules.hands, tricks, strict=True)
    }
    if rules.dummy and "dummy" not in winners:
        hands["dummy"] = H(tricks[-1], bid=tricks[-1] - 1)
    return DealEntry(hands, trump)


def play(rules: TrickRules, *deals: DealEntry) -> SessionResult:
    return score_session(rules, deals)


# Dealer and leader


@pytest.mark.parametrize(
    ("preset", "count", "dealers", "leaders"),
    [
        ("parlett-jokerless", 3, "Ann Ben Cat Ann Ben", "Ben Cat Ann Ben Cat"),
        ("four", 4, "Ann Ben Cat Dan Ann", "Ben Cat Dan Ann Ben"),
        ("five", 5, "Ann Ben Cat Dan Eve", "Ben Cat Dan Eve Ann"),
        ("two-dummy", 2, "Ann Ben Ann Ben Ann", "Ben Ann Ben Ann Ben"),
        ("custom", 2, "Ann Ben Ann Ben Ann", "Ben Ann Ben Ann Ben"),
    ],
)
def test_the_deal_passes_left_and_the_next_player_leads(preset, count, dealers, leaders):
    rules = rules_for(preset, count)
    result = play(rules, *[made_by(rules)] * 4)
    assert [deal.dealer for deal in result.deals] + [result.next.dealer] == dealers.split()
    assert [deal.leader for deal in result.deals] + [result.next.leader] == leaders.split()
    assert [deal.number for deal in result.deals] + [result.next.number] == [1, 2, 3, 4, 5]


def test_before_the_first_deal_the_first_seat_deals():
    result = play(rules_for())
    assert result.next == NextDeal(1, "Ann", "Ben", "diamonds", False)
    assert result.deals == ()
    assert not result.finished
    assert [(s.player, s.total, s.rank) for s in result.standings] == [
        ("Ann", 0, 1),
        ("Ben", 0, 1),
        ("Cat", 0, 1),
    ]


# Trump


@pytest.mark.parametrize(
    ("successes", "trump"), [(0, "diamonds"), (1, "spades"), (2, "hearts"), (3, "clubs")]
)
def test_by_successes_the_trump_follows_how_many_succeeded(successes, trump):
    rules = rules_for()
    result = play(rules, made_by(rules, *NAMES[:successes]), made_by(rules))
    assert [deal.trump for deal in result.deals] == ["diamonds", trump]
    assert result.next.trump == "diamonds"


@pytest.mark.parametrize(
    ("preset", "options", "first"),
    [
        ("parlett-jokerless", {}, "diamonds"),
        ("parlett-jokerless", {"first_trump": "none"}, "none"),
        ("encyclopaedia", {}, "none"),
        ("encyclopaedia", {"first_trump": "diamonds"}, "diamonds"),
    ],
)
def test_the_first_trump_is_diamonds_or_none(preset, options, first):
    rules = rules_for(preset, **options)
    assert play(rules).next.trump == first
    assert play(rules, made_by(rules)).deals[0].trump == first


@pytest.mark.parametrize(("preset", "count"), [("four", 4), ("five", 5)])
def test_four_or_more_succeeding_means_no_trump(preset, count):
    rules = rules_for(preset, count)
    result = play(rules, made_by(rules, *NAMES[:4]))
    assert result.next.trump == "none"


def test_with_a_dummy_the_trump_counts_the_dummys_success():
    rules = rules_for("two-dummy", 2)
    assert play(rules, made_by(rules, "Ann", "dummy")).next.trump == "hearts"
    assert play(rules, made_by(rules, "Ann", "Ben", "dummy")).next.trump == "clubs"
    assert play(rules, made_by(rules, "Ann")).next.trump == "spades"


def test_turn_up_takes_the_trump_from_the_table():
    rules = rules_for("parlett-classic")
    result = play(rules, made_by(rules, trump="none"), made_by(rules, trump="hearts"))
    assert [deal.trump for deal in result.deals] == ["none", "hearts"]
    assert result.next.trump is None
    assert result.next.trump_note == "decided at the table"


def test_declared_the_premium_bidder_names_the_trump_and_it_stays():
    rules = rules_for("declared")
    plain = made_by(rules)
    declared = DealEntry(
        {"Ann": H(3, bid=3), "Ben": H(3, bid=3, premium="declare"), "Cat": H(3, bid=2)}, "spades"
    )
    result = play(rules, plain, declared, plain, DealEntry(plain.hands, "spades"))
    assert [deal.trump for deal in result.deals] == ["none", "spades", "spades", "spades"]
    assert result.next == NextDeal(5, "Ben", "Cat", "spades", True)
    assert result.next.trump_note == "spades unless someone declares"


def test_declared_without_premium_bids_never_changes():
    rules = rules_for("custom", trump="declared", premiums=[])
    result = play(rules, made_by(rules))
    assert (result.next.trump, result.next.unless_declared) == ("none", False)


@pytest.mark.parametrize(
    ("bids", "trump"),
    [
        ((13, 0, 0), "diamonds"),
        ((12, 0, 0), "spades"),
        ((11, 0, 0), "hearts"),
        ((10, 0, 0), "clubs"),
        ((9, 0, 0), "clubs"),
        ((11, 1, 0), "clubs"),
        ((6, 0, 1), "clubs"),
    ],
)
def test_by_deviation_the_trump_follows_the_total_miss(bids, trump):
    rules = rules_for("long")
    hands = {"Ann": H(13, bid=bids[0]), "Ben": H(0, bid=bids[1]), "Cat": H(0, bid=bids[2])}
    result = play(rules, DealEntry(hands))
    assert result.deals[0].trump == "diamonds"
    assert result.next.trump == trump


# How a session ends


def test_deals_end_after_the_number_of_deals():
    rules = rules_for(match={"type": "deals", "deals": 2})
    result = play(rules, made_by(rules, "Ann"), made_by(rules, "Ben"))
    assert result.finished
    assert result.next is None
    assert result.winners == ("Ann", "Ben")
    assert result.deals[-1].finished
    assert result.deals[-1].announcements == ("The session is over: Ann and Ben win.",)
    assert not result.deals[0].finished
    assert result.games == ()
    assert (result.current_game, result.current_game_scores) == (None, None)
    assert result.standings[0].game_score is None


def test_a_target_ends_the_session_when_someone_reaches_it():
    rules = rules_for(match={"type": "target", "target": 60})
    result = play(rules, made_by(rules, "Ann"), made_by(rules, "Ben"))
    assert not result.finished
    result = play(rules, made_by(rules, "Ann"), made_by(rules, "Ben"), made_by(rules, "Ann"))
    assert result.finished
    assert result.winners == ("Ann",)
    assert result.totals == {"Ann": 69, "Ben": 39, "Cat": 9}


def rubber_rules(**options: object) -> TrickRules:
    # One success scores 3 tricks + 100: every deal someone makes alone ends a game.
    return rules_for("custom", bonus=[100, 100], match={"type": "rubber"}, **options)


def test_a_rubber_game_ends_at_100_with_a_bonus_for_the_winner():
    rules = rubber_rules()
    result = play(rules, made_by(rules, "Ann"))
    game = result.deals[0].game_over
    assert game == GameResult(
        number=1,
        last_deal=1,
        winner=("Ann",),
        scores={"Ann": 103, "Ben": 3, "Cat": 3},
        bonuses={"Ann": 100, "Ben": 0, "Cat": 0},
    )
    assert result.deals[0].hands[0].game_bonus == 100
    assert result.deals[0].hands[0].points == 203
    assert result.deals[0].game_scores == {"Ann": 103, "Ben": 3, "Cat": 3}
    assert result.totals == {"Ann": 203, "Ben": 3, "Cat": 3}
    assert result.current_game == 2
    assert result.current_game_scores == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert [s.games_won for s in result.standings] == [1, 0, 0]
    assert result.deals[0].announcements == (
        "Game 1 is over: Ann wins it.",
        "Game bonus of 100: Ann.",
    )


def test_a_game_does_not_end_before_someone_reaches_100():
    rules = rules_for(match={"type": "rubber"})
    result = play(rules, made_by(rules, "Ann"), made_by(rules, "Ann"))
    assert result.games == ()
    assert result.deals[1].game_scores == {"Ann": 66, "Ben": 6, "Cat": 6}
    assert result.current_game == 1
    assert [s.game_score for s in result.standings] == [66, 6, 6]


def test_everyone_on_100_gets_the_rubber_game_bonus_and_ties_share_the_win():
    rules = rubber_rules()
    result = play(rules, made_by(rules, "Ann", "Ben"))
    game = result.games[0]
    assert game.winner == ("Ann", "Ben")
    assert game.bonuses == {"Ann": 100, "Ben": 100, "Cat": 0}
    assert result.deals[0].announcements[0] == "Game 1 is over: Ann and Ben win it."


def test_a_player_on_100_who_did_not_win_still_gets_the_rubber_game_bonus():
    rules = rules_for("custom", bonus=[100, 100], match={"type": "rubber"})
    # Ann 4 + 100, Ben 3 + 100, Cat 2.
    deal = DealEntry({"Ann": H(4, bid=4), "Ben": H(3, bid=3), "Cat": H(2, bid=1)})
    game = play(rules, deal).games[0]
    assert game.winner == ("Ann",)
    assert game.bonuses == {"Ann": 100, "Ben": 100, "Cat": 0}


@pytest.mark.parametrize(
    ("winners", "bonus"),
    [
        (["Ann", "Ann", "Ann"], 500),
        (["Ann", "Ben", "Ann", "Ann"], 400),
        (["Ann", "Ben", "Cat", "Ben", "Ann", "Cat", "Ann"], 100),
    ],
)
def test_the_rubber_bonus_is_100_for_each_game_fewer_than_8(winners, bonus):
    rules = rubber_rules()
    result = play(rules, *[made_by(rules, winner) for winner in winners])
    last = result.deals[-1]
    assert result.finished
    assert last.rubber_winners == ("Ann",)
    assert last.hands[0].rubber_bonus == bonus
    assert last.hands[0].points == 3 + 100 + 100 + bonus
    assert last.game_over.bonuses["Ann"] == 100 + bonus
    assert result.winners == ("Ann",)
    assert result.current_game == len(winners)
    assert result.current_game_scores == result.games[-1].scores
    assert last.announcements == (
        f"Game {len(winners)} is over: Ann wins it.",
        "Game bonus of 100: Ann.",
        f"Ann wins the rubber (bonus {bonus}).",
        "The session is over: Ann wins.",
    )


def test_the_rubber_bonus_does_not_go_below_zero():
    rules = rules_for("custom", 5, bonus=[100], match={"type": "rubber"})
    order = ["Ann", "Ben", "Cat", "Dan", "Eve"] * 2 + ["Eve"]
    result = play(rules, *[made_by(rules, winner) for winner in order])
    assert result.finished
    assert len(result.games) == 11
    assert result.deals[-1].rubber_winners == ("Eve",)
    assert result.deals[-1].hands[4].rubber_bonus == 0


def test_players_reaching_three_games_at_once_all_win_the_rubber():
    rules = rubber_rules()
    result = play(rules, *[made_by(rules, "Ann", "Ben")] * 3)
    assert result.deals[-1].rubber_winners == ("Ann", "Ben")
    assert [hand.rubber_bonus for hand in result.deals[-1].hands] == [500, 500, 0]
    assert result.winners == ("Ann", "Ben")
    assert result.deals[-1].announcements[-2] == "Ann and Ben win the rubber (bonus 500)."


def test_the_session_winner_of_a_rubber_is_the_highest_total():
    rules = rubber_rules(trick_points=False)
    # Ann wins a game with 160 (+100); Ben wins one with 130 (+100) and Ann on 100 gets +100.
    ann = DealEntry({"Ann": H(9, bid=9, premium="reveal"), "Ben": H(0, bid=1), "Cat": H(0, bid=1)})
    ben = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3, premium="declare"), "Cat": H(3, bid=4)})
    result = play(rules, ann, ann, ben, ben, ben)
    assert result.deals[-1].rubber_winners == ("Ben",)
    assert result.totals == {"Ann": 2 * 260 + 3 * 200, "Ben": 3 * 230 + 300, "Cat": 0}
    assert result.winners == ("Ann",)


def game_bonus_rules() -> TrickRules:
    return rules_for("encyclopaedia", match={"type": "game-bonus"})


def test_game_bonus_goes_to_those_on_100_who_made_their_bid():
    rules = rules_for("custom", bonus=[100, 100], match={"type": "game-bonus"})
    # Ann and Ben both reach 100 and made their bids.
    first = DealEntry({"Ann": H(3, bid=3), "Ben": H(3, bid=3), "Cat": H(3, bid=4)})
    result = play(rules, first)
    assert result.games[0].bonuses == {"Ann": 100, "Ben": 100, "Cat": 0}
    rules = rules_for("custom", bonus=[30], match={"type": "game-bonus"})
    reveal = DealEntry(
        {"Ann": H(9, bid=8, premium="reveal"), "Ben": H(0, made=False), "Cat": H(0, bid=0)}
    )
    result = play(rules, reveal, reveal)  # Ben 120 without success; Cat 180 made hers.
    assert result.deals[1].game_scores == {"Ann": 18, "Ben": 120, "Cat": 180}
    assert result.games[0].bonuses == {"Ann": 0, "Ben": 0, "Cat": 100}
    assert result.games[0].winner == ("Cat",)
    assert [s.games_won for s in result.standings] == [1, 0, 0]


def test_a_game_can_end_with_no_game_bonus():
    rules = rules_for("custom", bonus=[30], match={"type": "game-bonus"})
    reveal = DealEntry(
        {"Ann": H(9, bid=8, premium="reveal"), "Ben": H(0, made=False), "Cat": H(0, made=False)}
    )
    result = play(rules, reveal, reveal)
    assert result.games[0].bonuses == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert result.deals[1].announcements == ("Game 1 is over: Ben and Cat win it.",)
    assert result.current_game == 2


def test_game_bonus_ends_when_someone_holds_three_bonuses():
    rules = rules_for("custom", bonus=[100], match={"type": "game-bonus"})
    result = play(rules, made_by(rules, "Ann"), made_by(rules, "Ben"), made_by(rules, "Ann"))
    assert not result.finished
    result = play(rules, *[made_by(rules, name) for name in ["Ann", "Ben", "Ann", "Ann"]])
    assert result.finished
    assert result.winners == ("Ann",)
    assert result.deals[-1].rubber_winners == ()
    assert [hand.rubber_bonus for hand in result.deals[-1].hands] == [0, 0, 0]


# Long Ninety-Nine deals: one player alone makes 13 tricks revealed (+90), the others miss by 4.
LONG_ANN = DealEntry(
    {"Ann": H(13, bid=13, premium="reveal"), "Ben": H(0, bid=4), "Cat": H(0, bid=4)}
)
LONG_BEN = DealEntry(
    {"Ann": H(0, bid=4), "Ben": H(13, bid=13, premium="reveal"), "Cat": H(0, bid=4)}
)


def test_a_long_game_needs_a_single_leader_on_100():
    rules = rules_for("long")
    both = DealEntry({"Ann": H(6, bid=6), "Ben": H(7, bid=7), "Cat": H(0, bid=4)})
    # Ann 90, then both on 86, then both on 106: tied, so the game goes on.
    result = play(rules, LONG_ANN, LONG_BEN, both)
    assert [deal.game_scores["Ann"] for deal in result.deals] == [90, 86, 106]
    assert result.deals[-1].game_scores == {"Ann": 106, "Ben": 106, "Cat": -12}
    assert result.games == ()
    assert not result.finished
    # An extra deal breaks the tie.
    result = play(rules, LONG_ANN, LONG_BEN, both, LONG_BEN)
    assert result.finished
    assert result.winners == ("Ben",)
    assert result.games[0].winner == ("Ben",)
    assert result.games[0].bonuses == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert result.deals[-1].announcements == (
        "Game 1 is over: Ben wins it.",
        "The session is over: Ben wins.",
    )


def test_a_long_match_can_be_more_games():
    rules = rules_for("long", match={"type": "long", "games": 2})
    result = play(rules, LONG_ANN, LONG_ANN)
    assert len(result.games) == 1
    assert not result.finished
    assert result.current_game_scores == {"Ann": 0, "Ben": 0, "Cat": 0}
    result = play(rules, *[LONG_ANN] * 4)
    assert result.finished
    assert result.winners == ("Ann",)
    assert [s.games_won for s in result.standings] == [2, 0, 0]


def test_the_long_match_winner_is_the_one_who_won_the_games():
    rules = rules_for("long", match={"type": "long", "games": 2})
    # Ann wins game 1 in four deals while Ben's failed reveals cost him 69 each.
    ann = DealEntry(
        {"Ann": H(13, bid=13), "Ben": H(0, bid=9, premium="reveal"), "Cat": H(0, bid=4)}
    )
    result = play(rules, *[ann] * 4, *[LONG_BEN] * 4)
    assert [game.winner for game in result.games] == [("Ann",), ("Ben",), ("Ben",)]
    assert result.totals == {"Ann": 120 - 16, "Ben": -276 + 360, "Cat": -16 - 16}
    assert result.winners == ("Ben",)
    assert result.standings[0].player == "Ann"


# Eighteen Ninety-Nine


def ninety_nine(winner: str) -> DealEntry:
    """99 points to `winner`: all nine tricks, bid, alone, revealed."""
    hands = {name: H(0, bid=1) for name in ("Ann", "Ben", "Cat")}
    hands[winner] = H(9, bid=9, premium="reveal")
    return DealEntry(hands, "clubs")


@pytest.mark.parametrize(
    ("winners", "points"),
    [
        ("Ann Ann Ann Ann Ben Ben Ben Cat", {"Ann": 3, "Ben": 1, "Cat": 0}),
        ("Ann Ann Ben Ben Cat", {"Ann": 1, "Ben": 1, "Cat": 0}),
        ("Ann Ann Ann Ann Ann Ben Ben Ben Cat Cat Cat", {"Ann": 4, "Ben": 1, "Cat": 1}),
        ("Ann Ann Ben", {"Ann": 1, "Ben": 0, "Cat": 0}),
        ("Cat", {"Ann": 0, "Ben": 0, "Cat": 0}),
    ],
    ids=["396 297 99", "tied first", "tied second", "second below 200", "under 100"],
)
def test_eighteen_ninety_nine_ends_with_game_points(winners, points):
    deals = [ninety_nine(winner) for winner in winners.split()]
    rules = rules_for("eighteen-ninety-nine", match={"type": "deals", "deals": len(deals)})
    result = play(rules, *deals)
    assert result.finished
    assert result.game_points == points
    game = result.games[0]
    assert (game.number, game.last_deal, game.game_points) == (1, len(deals), points)
    assert game.scores == result.totals
    assert game.winner == result.winners
    assert (
        result.deals[-1]
        .announcements[-1]
        .endswith(
            "Game points: " + ", ".join(f"{name} {value}" for name, value in points.items()) + "."
        )
    )


def test_eighteen_ninety_nine_has_no_game_points_before_the_end():
    rules = rules_for("eighteen-ninety-nine")
    result = play(rules, ninety_nine("Ann"))
    assert result.game_points is None
    assert result.games == ()
    assert rules.has_games


def test_eighteen_ninety_nine_is_eighteen_deals():
    rules = rules_for("eighteen-ninety-nine")
    assert not play(rules, *[ninety_nine("Ann")] * 17).finished
    assert play(rules, *[ninety_nine("Ann")] * 18).finished


# Standings and totals


def test_standings_share_ranks_and_keep_seat_order_within_a_tie():
    rules = rules_for()
    result = play(rules, made_by(rules, "Ben", "Cat"))
    assert result.standings == (
        Standing("Ben", 23, 1, None, 0),
        Standing("Cat", 23, 1, None, 0),
        Standing("Ann", 3, 3, None, 0),
    )


def test_totals_run_through_the_deals():
    rules = rules_for()
    result = play(rules, made_by(rules, "Ann"), made_by(rules, "Ann", "Ben"))
    assert [deal.totals for deal in result.deals] == [
        {"Ann": 33, "Ben": 3, "Cat": 3},
        {"Ann": 56, "Ben": 26, "Cat": 6},
    ]
    assert result.totals == {"Ann": 56, "Ben": 26, "Cat": 6}


def test_the_dummy_has_a_total_but_no_rank():
    rules = rules_for("two-dummy", 2)
    result = play(rules, made_by(rules, "dummy"))
    assert result.totals == {"Ann": 3, "Ben": 3, "dummy": 3 + 30 + 30}
    assert [s.player for s in result.standings] == ["Ann", "Ben"]


def test_the_dummy_reaching_100_does_not_end_a_game():
    rules = rules_for("two-dummy", 2, match={"type": "rubber"})
    result = play(rules, *[made_by(rules, "dummy")] * 2)
    assert result.totals["dummy"] == 126
    assert result.games == ()
