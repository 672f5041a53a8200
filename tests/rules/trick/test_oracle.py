"""An independent reference model of the trick game (RULES.md §1.3–§1.8), compared with the app.

The model below is written from RULES.md alone, as plainly as possible, and uses only the public
API: `resolve_rules`, `score_session`, `HandEntry`, `DealEntry`, `InvalidDeals`, and the
scoresheet's `parse_scoresheet` / `export_scoresheet`. Sessions are generated per preset
(hypothesis) and the whole exported file is compared with what the model says it must hold;
hand-computed tables cover the tricky cases.
"""

import random
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.trick import (
    DealEntry,
    HandEntry,
    InvalidDeals,
    resolve_rules,
    score_session,
)
from scorekeeper.scoresheet import export_scoresheet, parse_scoresheet

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
SUITS = ("clubs", "hearts", "spades", "diamonds")
TRUMPS = (*SUITS, "none")
CODE = {"diamonds": 0, "spades": 1, "hearts": 2, "clubs": 3}  # §1.1
BY_COUNT = ("diamonds", "spades", "hearts", "clubs")  # §1.4: 0, 1, 2, 3
PREMIUM = {"declare": 30, "reveal": 60}
ALL_TRIPLES = [(a, b, c) for a in SUITS for b in SUITS for c in SUITS]

Json = dict[str, Any]


# The reference model


@dataclass(frozen=True)
class Spec:
    """One preset's rules as RULES.md §1.6 gives them (with the §3 options applied)."""

    players: int
    tricks: int
    trump: str
    first_trump: str
    match: Json
    bonus: tuple[int, ...] = (30, 20, 10, 0)
    premiums: tuple[str, ...] = ("declare", "reveal")
    trick_points: bool = True
    zero_all_tricks: bool = False
    dummy: bool = False
    dummy_exact: bool = False
    long: bool = False
    game_points: bool = False

    def with_options(self, options: Json) -> "Spec":
        names = {
            "trump": "trump",
            "first_trump": "first_trump",
            "match": "match",
            "trick_points": "trick_points",
            "zero_all_tricks": "zero_all_tricks",
            "dummy_exact_declarer": "dummy_exact",
        }
        changes: Json = {names[key]: value for key, value in options.items() if key in names}
        if "bonus" in options:
            changes["bonus"] = tuple(options["bonus"])
        if "premiums" in options:
            changes["premiums"] = tuple(options["premiums"])
        return replace(self, **changes)

    @property
    def hands(self) -> int:
        return self.players + (1 if self.dummy else 0)

    @property
    def has_games(self) -> bool:
        return self.match["type"] in ("rubber", "game-bonus", "long") or self.game_points

    @property
    def all_bids(self) -> bool:
        return self.long or self.trump == "by-deviation"


def deals(n: int) -> Json:
    return {"type": "deals", "deals": n}


SPECS = {
    "parlett-classic": Spec(3, 9, "turn-up", "diamonds", deals(9)),
    "parlett-jokerless": Spec(3, 9, "by-successes", "diamonds", deals(9)),
    "encyclopaedia": Spec(3, 9, "by-successes", "none", {"type": "game-bonus"}),
    "declared": Spec(3, 9, "declared", "none", deals(9)),
    "eighteen-ninety-nine": Spec(3, 9, "turn-up", "none", deals(18), game_points=True),
    "long": Spec(
        3,
        13,
        "by-deviation",
        "diamonds",
        {"type": "long", "games": 1},
        trick_points=False,
        long=True,
    ),
    "four": Spec(4, 10, "by-successes", "none", deals(12), zero_all_tricks=True),
    "five": Spec(5, 9, "by-successes", "none", deals(10), bonus=(50, 40, 30, 20, 10)),
    "two-dummy": Spec(
        2,
        9,
        "by-successes",
        "none",
        deals(9),
        premiums=("declare",),
        dummy=True,
        dummy_exact=True,
    ),
    "naughty-nun": Spec(3, 9, "turn-up", "none", deals(9)),
    "oxford-whist": Spec(3, 9, "turn-up", "none", deals(16), bonus=(10, 10, 10), premiums=()),
}
# Custom has no defaults in RULES.md: every custom session below sets every option. Tricks per
# deal are not an option (§3); 9 for 2, 3 or 5 players and 10 for 4, as in the presets.
CUSTOM_TRICKS = {2: 9, 3: 9, 4: 10, 5: 9}


def spec_for(preset: str, count: int, options: Json) -> Spec:
    if preset == "custom":
        base = Spec(count, CUSTOM_TRICKS[count], "by-successes", "none", deals(9))
    else:
        base = SPECS[preset]
    return base.with_options(options)


@dataclass
class ReadHand:
    bid: int | None  # as the result shows it
    made: bool
    miss: int  # tricks by which the bid was missed (0 when made or hidden)


def read_hand(spec: Spec, hand: Json, is_dummy: bool) -> ReadHand:
    """§1.1, §1.2, §1.7, §1.8: what a hand as entered means."""
    tricks = hand["tricks"]
    if "bid" in hand:
        bid = hand["bid"]
    elif "bid_cards" in hand:
        bid = sum(CODE[card] for card in hand["bid_cards"])
    elif hand["made"]:
        bid = tricks  # marked succeeded: the bid equals the tricks won
    else:
        return ReadHand(None, False, 0)  # failed, bid hidden
    if spec.long:
        low = bid - 10 if bid >= 10 else bid
        choices = [low, low + 10] if low <= 3 else [low]
        # [ambiguous] The result shows the reading nearest the tricks (the lower one if both
        # are as near), whichever way the bid was entered.
        nearest = min(choices, key=lambda choice: (abs(tricks - choice), choice))
        return ReadHand(nearest, tricks in choices, abs(tricks - nearest))
    if bid == 10:  # `four` with zero_all_tricks: 10 is the same bid as 0
        bid = 0
    if is_dummy:
        made = tricks <= bid
    else:
        made = tricks == bid or (spec.zero_all_tricks and bid == 0 and tricks == spec.tricks)
    return ReadHand(bid, made, 0 if made else abs(tricks - bid))


def rank_of(totals: dict[str, int], players: list[str]) -> list[Json]:
    ordered = sorted(players, key=lambda player: -totals[player])  # stable: seat order
    return [
        {
            "player": player,
            "total": totals[player],
            "rank": 1 + sum(totals[other] > totals[player] for other in players),
        }
        for player in ordered
    ]


def best(scores: dict[str, int], players: list[str]) -> list[str]:
    top = max(scores[player] for player in players)
    return [player for player in players if scores[player] == top]


class Model:
    """A session scored deal by deal from the input JSON, giving the export's computed fields."""

    def __init__(self, spec: Spec, players: list[str]) -> None:
        self.spec = spec
        self.players = players
        self.hands = [*players, "dummy"] if spec.dummy else list(players)
        self.totals = dict.fromkeys(self.hands, 0)
        self.game = dict.fromkeys(self.hands, 0)
        self.wins = dict.fromkeys(players, 0)
        self.games: list[Json] = []
        self.deals: list[Json] = []
        self.finished = False
        self.winners: list[str] = []
        self.carried = {"by-successes": spec.first_trump, "declared": "none"}.get(
            spec.trump, "diamonds"
        )

    def seat(self, index: int) -> tuple[str, str]:
        count = len(self.players)
        return self.players[index % count], self.players[(index + 1) % count]

    def computed_trump(self) -> str | None:
        """The coming deal's trump when no premium is made (None: turned up at the table)."""
        return None if self.spec.trump == "turn-up" else self.carried

    def play(self, deal: Json) -> None:
        spec = self.spec
        assert not self.finished
        hands = deal["hands"]
        read = {name: read_hand(spec, hands[name], name == "dummy") for name in self.hands}
        bidders = [name for name in self.hands if "premium" in hands[name]]
        if spec.trump == "turn-up" or (spec.trump == "declared" and bidders):
            trump = deal["trump"]
        else:
            trump = self.carried
        successes = sum(hand.made for hand in read.values())
        row = spec.bonus
        bonus = row[successes - 1] if 1 <= successes <= len(row) else 0
        points = {}
        for name in self.hands:
            points[name] = (hands[name]["tricks"] if spec.trick_points else 0) + (
                bonus if read[name].made else 0
            )
            if spec.long:
                points[name] -= read[name].miss
        failed = [name for name in bidders if not read[name].made]
        for name in bidders:
            value = PREMIUM[hands[name]["premium"]]
            if read[name].made:
                points[name] += value
            elif spec.long:
                points[name] -= value
        if spec.dummy and len(failed) == 2:
            points["dummy"] += 60
        elif failed and not spec.long:
            (loser,) = failed
            for name in self.hands:
                if name != loser:
                    points[name] += PREMIUM[hands[loser]["premium"]]
        if spec.dummy and spec.dummy_exact:
            dummy = hands["dummy"]
            if read["dummy"].bid == dummy["tricks"]:
                points["dummy"] += 30
        # The next deal's trump (§1.4).
        if spec.trump == "by-successes":
            self.carried = BY_COUNT[successes] if successes < 4 else "none"
        elif spec.trump == "by-deviation":
            self.carried = BY_COUNT[min(3, sum(hand.miss for hand in read.values()))]
        elif spec.trump == "declared":
            self.carried = trump
        for name in self.hands:
            self.totals[name] += points[name]
            self.game[name] += points[name]
        # How the session ends (§1.5).
        number = len(self.deals) + 1
        match = spec.match
        if match["type"] == "deals":
            self.finished = number == match["deals"]
        elif match["type"] == "target":
            # [ambiguous] The dummy's total does not end a session (it is never ranked).
            self.finished = any(self.totals[p] >= match["target"] for p in self.players)
        else:
            self.settle_game(points, read)
        if self.finished and not self.winners:
            # [ambiguous] In a rubber too the session's winners are the highest totals (the
            # "final ranking"), not necessarily whoever won the rubber.
            self.winners = best(self.totals, self.players)
        if self.finished and spec.game_points:  # [ambiguous] the shape of this entry
            self.games.append(
                {
                    "number": 1,
                    "winner": list(self.winners),
                    "scores": dict(self.totals),
                    "bonuses": dict.fromkeys(self.hands, 0),
                    "game_points": game_points(self.totals, self.players),
                }
            )
        dealer, leader = self.seat(number - 1)
        self.deals.append(
            {
                "number": number,
                "dealer": dealer,
                "leader": leader,
                "trump": trump,
                "hands": hands,
                "result": {
                    name: {"bid": read[name].bid, "made": read[name].made, "points": points[name]}
                    for name in self.hands
                },
                "totals": dict(self.totals),
            }
        )

    def settle_game(self, points: dict[str, int], read: dict[str, ReadHand]) -> None:
        kind = self.spec.match["type"]
        # [ambiguous] The dummy's game score neither ends a game nor wins one.
        reached = [p for p in self.players if self.game[p] >= 100]
        top = best(self.game, self.players)
        if not reached or (kind == "long" and len(top) > 1):
            return
        number = len(self.games) + 1
        bonuses = dict.fromkeys(self.hands, 0)
        if kind == "rubber":
            for player in self.players:
                if player in top or player in reached:
                    bonuses[player] += 100
            for player in top:
                self.wins[player] += 1
            champions = [p for p in self.players if self.wins[p] >= 3]
            for player in champions:
                bonuses[player] += 100 * max(0, 8 - number)
        elif kind == "game-bonus":
            for player in reached:
                if read[player].made:
                    bonuses[player] += 100
                    self.wins[player] += 1
            champions = [p for p in self.players if self.wins[p] >= 3]
        else:
            for player in top:
                self.wins[player] += 1
            champions = [p for p in self.players if self.wins[p] >= self.spec.match.get("games", 1)]
            self.winners = champions
        # [ambiguous] A game's "scores" are before its bonuses; its "winner" is its highest
        # scorer(s), in `game-bonus` too (where holding bonuses is what counts).
        self.games.append(
            {"number": number, "winner": top, "scores": dict(self.game), "bonuses": bonuses}
        )
        for name in self.hands:
            points[name] += bonuses[name]
            self.totals[name] += bonuses[name]
        self.game = dict.fromkeys(self.hands, 0)
        self.finished = bool(champions)

    def export(self) -> Json:
        count = len(self.deals)
        coming = None
        if not self.finished:
            dealer, leader = self.seat(count)
            coming = {
                "number": count + 1,
                "dealer": dealer,
                "leader": leader,
                "trump": self.computed_trump(),
            }
        data = {
            "deals": self.deals,
            "standings": rank_of(self.totals, self.players),
            "next": coming,
            "finished": self.finished,
            "winners": list(self.winners),
        }
        if self.spec.has_games:
            data["games"] = self.games
        return data


def game_points(totals: dict[str, int], players: list[str]) -> dict[str, int]:
    """Eighteen Ninety-Nine: 1st place a point per full 100; 2nd its own hundreds less 1;
    3rd 0. Tied players share the higher place."""
    points = {}
    for player in players:
        # [ambiguous] Places as in the standings: two tied first make the next one third.
        place = 1 + sum(totals[other] > totals[player] for other in players)
        hundreds = totals[player] // 100
        points[player] = hundreds if place == 1 else max(0, hundreds - 1) if place == 2 else 0
    return points


# Generated sessions


TRIPLES_BY_VALUE = {
    value: [list(t) for t in ALL_TRIPLES if sum(CODE[card] for card in t) == value]
    for value in range(10)
}


class Picks:
    """The choices inside a session, from a seed that hypothesis draws (drawing each choice
    through hypothesis is several times slower; the seed and the length still shrink)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def __call__(self, low: int, high: int) -> int:
        return self.random.randint(low, high)


def hand_for(pick: Picks, spec: Spec, name: str, tricks: int) -> Json:
    """A valid hand that won `tricks`: a bid as a number, as cards or both (often the one
    that makes it), a made mark alone, or failed with the bid hidden; sometimes with a made
    mark that agrees."""
    is_dummy = name == "dummy"
    top = 13 if spec.long else 10 if spec.zero_all_tricks and spec.tricks == 10 else 9
    forms = ["bid", "cards", "both"]
    if not is_dummy and tricks <= top:
        forms.append("made")
    if not is_dummy and not spec.all_bids:
        forms.append("hidden")
    form = forms[pick(0, len(forms) - 1)]
    if form == "made":
        return {"tricks": tricks, "made": True}
    if form == "hidden":
        return {"tricks": tricks, "made": False}
    near = [bid for bid in (tricks, tricks + 1, tricks - 1, tricks + 10) if 0 <= bid <= top]
    chosen = pick(0, len(near) + top)
    bid = near[chosen] if chosen < len(near) else chosen - len(near)
    choices = TRIPLES_BY_VALUE[bid - 10 if bid >= 10 else bid]
    hand: Json = {"tricks": tricks}
    if form in ("bid", "both"):
        hand["bid"] = bid
    if form in ("cards", "both"):
        hand["bid_cards"] = choices[pick(0, len(choices) - 1)]
    if pick(0, 3) == 0:
        hand["made"] = read_hand(spec, hand, is_dummy).made
    return hand


def deal_for(pick: Picks, model: Model) -> Json:
    """A valid next deal for the session `model` is scoring."""
    spec = model.spec
    names = model.hands
    tricks = []
    left = spec.tricks
    for _ in names[:-1]:
        won = pick(0, left)
        tricks.append(won)
        left -= won
    tricks.append(left)
    shift = pick(0, len(names) - 1)  # so that the last hand is not always the biggest
    tricks = tricks[shift:] + tricks[:shift]
    hands = {name: hand_for(pick, spec, name, won) for name, won in zip(names, tricks, strict=True)}
    shown = [p for p in model.players if "bid" in hands[p] or "bid_cards" in hands[p]]
    if shown and spec.premiums:
        for player in shown:
            if pick(0, 2 * len(shown)) == 0:
                hands[player]["premium"] = spec.premiums[pick(0, len(spec.premiums) - 1)]
                if not spec.dummy:
                    break
    premium = any("premium" in hand for hand in hands.values())
    deal: Json = {"hands": hands}
    if spec.trump == "turn-up" or (spec.trump == "declared" and premium):
        deal["trump"] = TRUMPS[pick(0, len(TRUMPS) - 1)]
    elif pick(0, 1):
        deal["trump"] = model.computed_trump()  # may be given if it equals the computed one
    return deal


SESSIONS = [
    ("parlett-classic", 3, {}),
    ("parlett-classic", 3, {"match": {"type": "target", "target": 150}}),
    ("parlett-jokerless", 3, {}),
    ("parlett-jokerless", 3, {"first_trump": "none", "match": {"type": "rubber"}}),
    ("parlett-jokerless", 3, {"match": {"type": "game-bonus"}}),
    ("encyclopaedia", 3, {}),
    ("encyclopaedia", 3, {"match": {"type": "long", "games": 2}}),
    ("declared", 3, {}),
    ("declared", 3, {"match": {"type": "rubber"}}),
    ("eighteen-ninety-nine", 3, {}),
    ("eighteen-ninety-nine", 3, {"match": {"type": "target", "target": 120}}),
    ("long", 3, {}),
    ("long", 3, {"match": {"type": "long", "games": 2}}),
    ("long", 3, {"match": {"type": "deals", "deals": 5}}),
    ("four", 4, {}),
    ("four", 4, {"zero_all_tricks": False, "first_trump": "diamonds"}),
    ("four", 4, {"bonus": [40, 30, 20, 10], "match": {"type": "rubber"}}),
    ("five", 5, {}),
    ("five", 5, {"bonus": [30, 20, 10], "match": {"type": "game-bonus"}}),
    ("two-dummy", 2, {}),
    ("two-dummy", 2, {"dummy_exact_declarer": False, "match": {"type": "rubber"}}),
    ("naughty-nun", 3, {}),
    ("oxford-whist", 3, {}),
    ("oxford-whist", 3, {"bonus": [10, 10, 10, 10], "match": {"type": "target", "target": 60}}),
]
CUSTOM = {
    "trump": "by-successes",
    "first_trump": "diamonds",
    "bonus": [30, 20, 10],
    "premiums": ["declare", "reveal"],
    "trick_points": True,
    "zero_all_tricks": False,
    "dummy_exact_declarer": False,
    "match": {"type": "deals", "deals": 9},
}
SESSIONS += [
    ("custom", 2, CUSTOM),
    ("custom", 3, CUSTOM | {"trump": "declared", "match": {"type": "game-bonus"}}),
    ("custom", 3, CUSTOM | {"trump": "by-deviation", "bonus": [100, 100], "trick_points": False}),
    ("custom", 3, CUSTOM | {"bonus": [100, 100], "match": {"type": "rubber"}}),
    ("custom", 4, CUSTOM | {"zero_all_tricks": True, "premiums": ["reveal"], "trump": "turn-up"}),
    ("custom", 5, CUSTOM | {"bonus": [], "trick_points": False, "match": {"type": "long"}}),
]


def sheet_data(preset: str, players: list[str], options: Json, deal_list: list[Json]) -> Json:
    return {
        "format": "ninety-nine-scoresheet",
        "version": 1,
        "family": "trick",
        "ruleset": preset,
        "options": options,
        "players": players,
        "deals": deal_list,
    }


def entries(deal_list: list[Json]) -> list[DealEntry]:
    def hand(data: Json) -> HandEntry:
        cards = data.get("bid_cards")
        return HandEntry(
            tricks=data["tricks"],
            bid=data.get("bid"),
            bid_cards=tuple(cards) if cards is not None else None,
            made=data.get("made"),
            premium=data.get("premium"),
        )

    return [
        DealEntry({name: hand(h) for name, h in deal["hands"].items()}, deal.get("trump"))
        for deal in deal_list
    ]


@pytest.mark.parametrize(
    ("preset", "count", "options"),
    SESSIONS,
    ids=[f"{preset}-{count}-{index}" for index, (preset, count, _) in enumerate(SESSIONS)],
)
@settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_the_app_agrees_with_the_reference_model(preset, count, options, data):
    check_session(preset, count, options, data)


CUSTOM_OPTIONS = st.fixed_dictionaries(
    {
        "trump": st.sampled_from(["turn-up", "by-successes", "declared", "by-deviation"]),
        "first_trump": st.sampled_from(["diamonds", "none"]),
        "bonus": st.lists(st.integers(0, 120), max_size=6),
        "premiums": st.sampled_from([[], ["declare"], ["reveal"], ["declare", "reveal"]]),
        "trick_points": st.booleans(),
        "zero_all_tricks": st.booleans(),
        "match": st.one_of(
            st.integers(1, 12).map(deals),
            st.integers(20, 300).map(lambda n: {"type": "target", "target": n}),
            st.sampled_from([{"type": "rubber"}, {"type": "game-bonus"}]),
            st.integers(1, 2).map(lambda n: {"type": "long", "games": n}),
        ),
    }
)


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(count=st.integers(2, 5), options=CUSTOM_OPTIONS, data=st.data())
def test_the_app_agrees_with_the_reference_model_for_any_custom_options(count, options, data):
    check_session("custom", count, options, data)


def check_session(preset: str, count: int, options: Json, data: st.DataObject) -> None:
    """Generate a valid session deal by deal with the model, then compare the whole export."""
    players = list(NAMES[:count])
    spec = spec_for(preset, count, options)
    model = Model(spec, players)
    length = data.draw(st.integers(0, 45 if spec.has_games else spec.match.get("deals", 30)))
    pick = Picks(data.draw(st.integers(0, 2**32), label="seed"))
    deal_list: list[Json] = []
    for _ in range(length):
        if model.finished:
            break
        deal = deal_for(pick, model)
        deal_list.append(deal)
        model.play(deal)

    file = sheet_data(preset, players, options, deal_list)
    exported = export_scoresheet(parse_scoresheet(file))
    expected = sheet_data(preset, players, options, []) | model.export()
    for index, (got, want) in enumerate(zip(exported["deals"], expected["deals"], strict=True)):
        assert got == want, f"deal {index + 1}"
    assert exported == expected
    # Importing the export gives the same session again.
    assert export_scoresheet(parse_scoresheet(exported)) == exported

    # The public API gives the same.
    rules = resolve_rules(preset, options, players)
    result = score_session(rules, entries(deal_list))
    assert result.finished == model.finished
    assert list(result.winners) == model.winners
    assert [(s.player, s.total, s.rank) for s in result.standings] == [
        (s["player"], s["total"], s["rank"]) for s in expected["standings"]
    ]
    if model.finished and deal_list:
        with pytest.raises(InvalidDeals):
            score_session(rules, entries([*deal_list, deal_list[-1]]))


# Hand-computed tables


def h(tricks: int, bid: int | None = None, **more: Any) -> Json:
    """A hand as written in the file: h(3, 3), h(5, made=False), h(0, cards=[...])."""
    hand: Json = {"tricks": tricks}
    if bid is not None:
        hand["bid"] = bid
    if "cards" in more:
        hand["bid_cards"] = more.pop("cards")
    return hand | more


def deal(trump: str | None = None, **hands: Json) -> Json:
    return {"hands": hands} | ({"trump": trump} if trump is not None else {})


def export(preset: str, players: list[str], options: Json, deal_list: list[Json]) -> Json:
    return export_scoresheet(parse_scoresheet(sheet_data(preset, players, options, deal_list)))


def points(data: Json) -> list[dict[str, int]]:
    return [
        {name: hand["points"] for name, hand in item["result"].items()} for item in data["deals"]
    ]


def invalid(preset: str, players: list[str], options: Json, deal_list: list[Json]) -> list[str]:
    with pytest.raises(ValueError) as caught:  # InvalidScoresheet
        parse_scoresheet(sheet_data(preset, players, options, deal_list))
    return [problem.path for problem in caught.value.problems]  # type: ignore[attr-defined]


P3 = ["Ann", "Ben", "Cat"]


def test_the_worked_example_of_rules_1_3_and_format_4():
    ann_made = deal(
        Ann=h(4, 4, premium="reveal"), Ben=h(5, made=False), Cat=h(0, cards=["diamonds"] * 3)
    )
    data = export("parlett-jokerless", P3, {}, [ann_made])
    (first,) = data["deals"]
    assert [first[key] for key in ("number", "dealer", "leader", "trump")] == [
        1,
        "Ann",
        "Ben",
        "diamonds",
    ]
    assert first["result"] == {
        "Ann": {"bid": 4, "made": True, "points": 84},
        "Ben": {"bid": None, "made": False, "points": 5},
        "Cat": {"bid": 0, "made": True, "points": 20},
    }
    assert first["totals"] == {"Ann": 84, "Ben": 5, "Cat": 20}
    assert data["standings"] == [
        {"player": "Ann", "total": 84, "rank": 1},
        {"player": "Cat", "total": 20, "rank": 2},
        {"player": "Ben", "total": 5, "rank": 3},
    ]
    assert data["next"] == {"number": 2, "dealer": "Ben", "leader": "Cat", "trump": "hearts"}
    assert data["finished"] is False
    assert data["winners"] == []
    assert "games" not in data
    ann_failed = deal(Ann=h(3, 4, premium="reveal"), Ben=h(6, made=False), Cat=h(0, 0))
    assert points(export("parlett-jokerless", P3, {}, [ann_failed])) == [
        {"Ann": 3, "Ben": 66, "Cat": 90}
    ]
    best = deal(Ann=h(9, 9, premium="reveal"), Ben=h(0, made=False), Cat=h(0, made=False))
    assert points(export("parlett-jokerless", P3, {}, [best])) == [{"Ann": 99, "Ben": 0, "Cat": 0}]


def test_turn_up_leaves_the_next_trump_to_the_table():
    data = export("parlett-classic", P3, {}, [deal("none", Ann=h(3, 3), Ben=h(3, 3), Cat=h(3, 3))])
    assert data["deals"][0]["trump"] == "none"
    assert data["next"] == {"number": 2, "dealer": "Ben", "leader": "Cat", "trump": None}
    assert points(data) == [{"Ann": 13, "Ben": 13, "Cat": 13}]


CUSTOM_RUBBER = CUSTOM | {"bonus": [100, 100, 100], "match": {"type": "rubber"}}


def test_a_rubber_with_tied_game_winners():
    tie_ab = deal(Ann=h(3, 3), Ben=h(3, 3), Cat=h(3, 4))
    ann = deal(Ann=h(4, 4), Ben=h(3, 2), Cat=h(2, 3))
    cat_over_ann = deal(Ann=h(2, 2), Ben=h(3, 4), Cat=h(4, 4))
    tie_ab_again = deal(Ann=h(3, 3), Ben=h(3, 3), Cat=h(3, 2))
    data = export("custom", P3, CUSTOM_RUBBER, [tie_ab, ann, cat_over_ann, tie_ab_again])
    assert points(data) == [
        {"Ann": 203, "Ben": 203, "Cat": 3},  # both win game 1: both +100
        {"Ann": 204, "Ben": 3, "Cat": 2},
        {"Ann": 202, "Ben": 3, "Cat": 204},  # Cat wins game 3; Ann on 100 gets +100 too
        {"Ann": 603, "Ben": 203, "Cat": 3},  # Ann's third game: +100 and 100 × (8 − 4)
    ]
    assert [item["trump"] for item in data["deals"]] == ["diamonds", "hearts", "spades", "hearts"]
    assert data["games"] == [
        {
            "number": 1,
            "winner": ["Ann", "Ben"],
            "scores": {"Ann": 103, "Ben": 103, "Cat": 3},
            "bonuses": {"Ann": 100, "Ben": 100, "Cat": 0},
        },
        {
            "number": 2,
            "winner": ["Ann"],
            "scores": {"Ann": 104, "Ben": 3, "Cat": 2},
            "bonuses": {"Ann": 100, "Ben": 0, "Cat": 0},
        },
        {
            "number": 3,
            "winner": ["Cat"],
            "scores": {"Ann": 102, "Ben": 3, "Cat": 104},
            "bonuses": {"Ann": 100, "Ben": 0, "Cat": 100},
        },
        {
            "number": 4,
            "winner": ["Ann", "Ben"],
            "scores": {"Ann": 103, "Ben": 103, "Cat": 3},
            "bonuses": {"Ann": 500, "Ben": 100, "Cat": 0},
        },
    ]
    assert data["deals"][-1]["totals"] == {"Ann": 1212, "Ben": 412, "Cat": 212}
    assert data["finished"] is True
    assert data["next"] is None
    assert data["winners"] == ["Ann"]
    assert invalid("custom", P3, CUSTOM_RUBBER, [tie_ab, ann, cat_over_ann, tie_ab_again, ann])


@pytest.mark.parametrize(
    ("order", "bonus"),
    [("AAA", 500), ("ABAA", 400), ("ABCBA A", 200), ("ABCBCAA", 100)],
)
def test_the_rubber_bonus_is_100_for_each_game_fewer_than_8(order, bonus):
    alone = {
        "A": deal(Ann=h(3, 3), Ben=h(3, 4), Cat=h(3, 4)),
        "B": deal(Ann=h(3, 4), Ben=h(3, 3), Cat=h(3, 4)),
        "C": deal(Ann=h(3, 4), Ben=h(3, 4), Cat=h(3, 3)),
    }
    order = order.replace(" ", "")
    data = export("custom", P3, CUSTOM_RUBBER, [alone[game] for game in order])
    assert len(data["games"]) == len(order)
    assert data["games"][-1]["bonuses"] == {"Ann": 100 + bonus, "Ben": 0, "Cat": 0}
    assert points(data)[-1] == {"Ann": 3 + 100 + 100 + bonus, "Ben": 3, "Cat": 3}
    assert data["finished"] is True


def test_a_rubber_at_standard_values():
    reveal = deal(Ann=h(9, 9, premium="reveal"), Ben=h(0, made=False), Cat=h(0, made=False))
    alone = deal(Ann=h(3, 3), Ben=h(3, 4), Cat=h(3, 4))
    data = export("parlett-jokerless", P3, {"match": {"type": "rubber"}}, [reveal, alone] * 3)
    # 99, then 33 more: a game of 132 and a bonus of 100, three times; then +500.
    assert points(data) == [
        {"Ann": 99, "Ben": 0, "Cat": 0},
        {"Ann": 133, "Ben": 3, "Cat": 3},
    ] * 2 + [
        {"Ann": 99, "Ben": 0, "Cat": 0},
        {"Ann": 633, "Ben": 3, "Cat": 3},
    ]
    assert data["winners"] == ["Ann"]
    assert data["deals"][-1]["totals"] == {"Ann": 4 * 99 + 2 * 133 + 633 - 99, "Ben": 9, "Cat": 9}


def test_game_bonus_ends_when_someone_holds_three_game_bonuses():
    reveal = deal(Ann=h(9, 9, premium="reveal"), Ben=h(0, made=False), Cat=h(0, made=False))
    made = deal(Ann=h(3, 3), Ben=h(3, 4), Cat=h(3, 2))  # Ann 33
    failed = deal(Ann=h(3, 4), Ben=h(3, 3), Cat=h(3, 2))  # Ann 3 (over 100, but failed); Ben 33
    session = [reveal, made, reveal, failed, reveal, made, reveal, made]
    data = export("encyclopaedia", P3, {}, session)
    assert points(data) == [
        {"Ann": 99, "Ben": 0, "Cat": 0},
        {"Ann": 133, "Ben": 3, "Cat": 3},
        {"Ann": 99, "Ben": 0, "Cat": 0},
        {"Ann": 3, "Ben": 33, "Cat": 3},
        {"Ann": 99, "Ben": 0, "Cat": 0},
        {"Ann": 133, "Ben": 3, "Cat": 3},
        {"Ann": 99, "Ben": 0, "Cat": 0},
        {"Ann": 133, "Ben": 3, "Cat": 3},
    ]
    assert [item["trump"] for item in data["deals"]] == ["none"] + ["spades"] * 7
    won = {"scores": {"Ann": 132, "Ben": 3, "Cat": 3}, "bonuses": {"Ann": 100, "Ben": 0, "Cat": 0}}
    assert data["games"] == [
        {"number": 1, "winner": ["Ann"]} | won,
        {
            "number": 2,
            "winner": ["Ann"],
            "scores": {"Ann": 102, "Ben": 33, "Cat": 3},
            "bonuses": {"Ann": 0, "Ben": 0, "Cat": 0},
        },
        {"number": 3, "winner": ["Ann"]} | won,
        {"number": 4, "winner": ["Ann"]} | won,
    ]
    assert data["finished"] is True
    assert data["winners"] == ["Ann"]
    assert data["deals"][-1]["totals"] == {"Ann": 798, "Ben": 42, "Cat": 12}
    assert invalid("encyclopaedia", P3, {}, [*session, made]) == ["deals[8]"]


def test_long_gives_the_benefit_of_the_doubt_and_goes_negative():
    session = [
        # Ann's three diamonds mean 0 or 10; Ben's 12 also means 2; Cat misses 3 by 2.
        deal(Ann=h(10, cards=["diamonds"] * 3), Ben=h(2, 12), Cat=h(1, 3)),
        # Ann's 1 (or 11) misses 6 by 5; Ben's 3 (or 13) misses 7 by 4.
        deal(Ann=h(6, cards=["spades", "diamonds", "diamonds"]), Ben=h(7, 3), Cat=h(0, 0)),
        # A failed declaration costs the declarer alone: −1 − 30.
        deal(Ann=h(4, 5, premium="declare"), Ben=h(4, 4), Cat=h(5, 5)),
    ]
    data = export("long", P3, {}, session)
    assert points(data) == [
        {"Ann": 20, "Ben": 20, "Cat": -2},
        {"Ann": -5, "Ben": -4, "Cat": 30},
        {"Ann": -31, "Ben": 20, "Cat": 20},
    ]
    assert [item["result"]["Ann"]["bid"] for item in data["deals"]] == [10, 1, 5]
    assert [item["result"]["Ben"]["made"] for item in data["deals"]] == [True, False, True]
    assert [item["trump"] for item in data["deals"]] == ["diamonds", "hearts", "clubs"]
    assert data["next"] == {"number": 4, "dealer": "Ann", "leader": "Ben", "trump": "spades"}
    assert data["standings"] == [
        {"player": "Cat", "total": 48, "rank": 1},
        {"player": "Ben", "total": 36, "rank": 2},
        {"player": "Ann", "total": -16, "rank": 3},
    ]
    assert data["games"] == []
    # Every bid is shown at the end in Long Ninety-Nine.
    hidden = deal(Ann=h(4, 4), Ben=h(4, made=False), Cat=h(5, 5))
    assert invalid("long", P3, {}, [hidden]) == ["deals[0].hands.Ben.bid"]


def test_long_plays_on_while_the_leaders_are_tied():
    ann = deal(Ann=h(5, 5, premium="reveal"), Ben=h(4, 0), Cat=h(4, 0))  # 90, −4, −4
    ben = deal(Ann=h(4, 0), Ben=h(5, 5, premium="reveal"), Cat=h(4, 0))
    both = deal(Ann=h(5, 5), Ben=h(5, 5), Cat=h(3, 0))  # 20, 20, −3: 106, 106
    ann_alone = deal(Ann=h(4, 4), Ben=h(5, 0), Cat=h(4, 0))  # 30, −5, −4
    data = export("long", P3, {}, [ann, ben, both])
    assert data["deals"][-1]["totals"] == {"Ann": 106, "Ben": 106, "Cat": -11}
    assert data["finished"] is False
    assert data["games"] == []
    data = export("long", P3, {}, [ann, ben, both, ann_alone])
    assert data["finished"] is True
    assert data["winners"] == ["Ann"]
    assert data["games"] == [
        {
            "number": 1,
            "winner": ["Ann"],
            "scores": {"Ann": 136, "Ben": 101, "Cat": -15},
            "bonuses": {"Ann": 0, "Ben": 0, "Cat": 0},
        }
    ]
    assert points(data)[-1] == {"Ann": 30, "Ben": -5, "Cat": -4}  # no game bonus in long


@pytest.mark.parametrize(("exact", "dummy_first"), [(True, 53), (False, 23)])
def test_two_players_with_a_dummy(exact, dummy_first):
    session = [
        # The dummy wins exactly its bid: it succeeds (and, with the option, +30).
        deal(Ann=h(3, 3), Ben=h(3, 2), dummy=h(3, 3)),
        # Both live declarers fail: the dummy scores 60, they get nothing from each other.
        deal(
            Ann=h(3, 4, premium="declare"),
            Ben=h(3, 2, premium="declare"),
            dummy=h(3, cards=["hearts", "hearts", "spades"]),
        ),
        # Ben's declaration fails: 30 to Ann and 30 to the dummy; the dummy went over its bid.
        deal(Ann=h(3, 3, premium="declare"), Ben=h(2, 4, premium="declare"), dummy=h(4, 3)),
    ]
    data = export("two-dummy", ["Ann", "Ben"], {"dummy_exact_declarer": exact}, session)
    assert points(data) == [
        {"Ann": 23, "Ben": 3, "dummy": dummy_first},
        {"Ann": 3, "Ben": 3, "dummy": 93},
        {"Ann": 93, "Ben": 2, "dummy": 34},
    ]
    assert [item["result"]["dummy"]["made"] for item in data["deals"]] == [True, True, False]
    assert [(item["dealer"], item["leader"]) for item in data["deals"]] == [
        ("Ann", "Ben"),
        ("Ben", "Ann"),
        ("Ann", "Ben"),
    ]
    assert [item["trump"] for item in data["deals"]] == ["none", "hearts", "spades"]
    assert data["next"] == {"number": 4, "dealer": "Ben", "leader": "Ann", "trump": "spades"}
    assert data["standings"] == [
        {"player": "Ann", "total": 119, "rank": 1},
        {"player": "Ben", "total": 8, "rank": 2},
    ]
    # Nobody reveals with a dummy; the dummy never bids a premium and never hides its bid.
    assert invalid(
        "two-dummy",
        ["Ann", "Ben"],
        {},
        [deal(Ann=h(3, 3, premium="reveal"), Ben=h(3, 3), dummy=h(3, 3))],
    ) == ["deals[0].hands.Ann.premium"]
    assert invalid(
        "two-dummy", ["Ann", "Ben"], {}, [deal(Ann=h(3, 3), Ben=h(3, 3), dummy=h(3, made=True))]
    ) == ["deals[0].hands.dummy.bid"]


def test_four_players_zero_bid_by_all_tricks_and_four_successes():
    four = ["Ann", "Ben", "Cat", "Dan"]
    zero = deal(
        Ann=h(10, 0),  # all ten tricks make a 0 bid
        Ben=h(0, 0),
        Cat=h(0, 10, cards=["diamonds"] * 3),  # 10 is the same bid as 0
        Dan=h(0, made=True),
    )
    data = export("four", four, {}, [zero])
    assert points(data) == [{"Ann": 10, "Ben": 0, "Cat": 0, "Dan": 0}]  # 4 succeed: bonus 0
    assert {
        name: hand["bid"] for name, hand in data["deals"][0]["result"].items()
    } == dict.fromkeys(four, 0)
    assert data["deals"][0]["trump"] == "none"
    assert data["next"]["trump"] == "none"  # 4 succeeded
    exact = deal(Ann=h(1, 1), Ben=h(2, 2), Cat=h(3, 3), Dan=h(4, 4))
    assert points(export("four", four, {"bonus": [30, 20, 10, 10]}, [exact])) == [
        {"Ann": 11, "Ben": 12, "Cat": 13, "Dan": 14}
    ]
    without = deal(Ann=h(10, 0), Ben=h(0, 0), Cat=h(0, cards=["diamonds"] * 3), Dan=h(0, 0))
    data = export("four", four, {"zero_all_tricks": False}, [without])
    assert points(data) == [{"Ann": 10, "Ben": 10, "Cat": 10, "Dan": 10}]
    assert data["next"]["trump"] == "clubs"
    assert invalid("four", four, {"zero_all_tricks": False}, [zero]) == ["deals[0].hands.Cat.bid"]


@pytest.mark.parametrize(
    ("successes", "bonus", "trump"),
    [
        (0, 0, "diamonds"),
        (1, 50, "spades"),
        (2, 40, "hearts"),
        (3, 30, "clubs"),
        (4, 20, "none"),
        (5, 10, "none"),
    ],
)
def test_five_players_bonus_row(successes, bonus, trump):
    five = list(NAMES)
    tricks = [1, 2, 3, 3, 0]
    hands = {
        name: h(won, won if seat < successes else won + 1)
        for seat, (name, won) in enumerate(zip(five, tricks, strict=True))
    }
    data = export("five", five, {}, [{"hands": hands}])
    assert points(data) == [
        {
            name: won + (bonus if seat < successes else 0)
            for seat, (name, won) in enumerate(zip(five, tricks, strict=True))
        }
    ]
    assert data["deals"][0]["trump"] == "none"
    assert data["next"] == {"number": 2, "dealer": "Ben", "leader": "Cat", "trump": trump}


def test_declared_trump_carries_over():
    quiet = deal(Ann=h(3, 3), Ben=h(3, 2), Cat=h(3, made=False))
    ann_hearts = deal("hearts", Ann=h(3, 3, premium="declare"), Ben=h(3, 2), Cat=h(3, made=False))
    ben_clubs = deal("clubs", Ann=h(3, 2), Ben=h(3, 3, premium="reveal"), Cat=h(3, 4))
    session = [quiet, ann_hearts, quiet, quiet | {"trump": "hearts"}, ben_clubs]
    data = export("declared", P3, {}, session)
    assert [item["trump"] for item in data["deals"]] == [
        "none",
        "hearts",
        "hearts",
        "hearts",
        "clubs",
    ]
    assert points(data)[1] == {"Ann": 63, "Ben": 3, "Cat": 3}
    assert points(data)[4] == {"Ann": 3, "Ben": 93, "Cat": 3}
    assert data["next"] == {"number": 6, "dealer": "Cat", "leader": "Ann", "trump": "clubs"}
    result = score_session(resolve_rules("declared", {}, P3), entries(session))
    assert result.next is not None and result.next.unless_declared
    # A trump entered without a premium must be the one that holds.
    assert invalid("declared", P3, {}, [quiet, ann_hearts, quiet | {"trump": "spades"}]) == [
        "deals[2].trump"
    ]
    # The premium bidder's trump must be entered.
    assert invalid(
        "declared", P3, {}, [deal(Ann=h(3, 3, premium="declare"), Ben=h(3, 2), Cat=h(3, 4))]
    ) == ["deals[0].trump"]


def reveal_by(name: str) -> Json:
    return {
        "hands": {
            other: h(9, 9, premium="reveal") if other == name else h(0, made=False) for other in P3
        },
        "trump": "spades",
    }


@pytest.mark.parametrize(
    ("revealers", "game_points", "winner"),
    [
        ("AAAABBBCCC", {"Ann": 3, "Ben": 1, "Cat": 1}, ["Ann"]),  # 396; 297 and 297 share 2nd
        ("AAABBBC", {"Ann": 2, "Ben": 2, "Cat": 0}, ["Ann", "Ben"]),  # 297, 297 share 1st; 99
        ("AAAABBB", {"Ann": 3, "Ben": 1, "Cat": 0}, ["Ann"]),
        ("AAB", {"Ann": 1, "Ben": 0, "Cat": 0}, ["Ann"]),  # second's 0 hundreds less 1: not below 0
        ("CCAAAAAAAABBBBBBBB", {"Ann": 7, "Ben": 7, "Cat": 0}, ["Ann", "Ben"]),  # 18 deals; Cat 3rd
    ],
)
def test_eighteen_ninety_nine_game_points(revealers, game_points, winner):
    by = {"A": "Ann", "B": "Ben", "C": "Cat"}
    session = [reveal_by(by[letter]) for letter in revealers]
    options = {} if len(session) == 18 else {"match": {"type": "deals", "deals": len(session)}}
    data = export("eighteen-ninety-nine", P3, options, session)
    totals = {name: 99 * revealers.count(letter) for letter, name in by.items()}
    assert data["deals"][-1]["totals"] == totals
    assert data["finished"] is True
    assert data["next"] is None
    assert data["winners"] == winner
    assert data["games"] == [
        {
            "number": 1,
            "winner": winner,
            "scores": totals,
            "bonuses": {"Ann": 0, "Ben": 0, "Cat": 0},
            "game_points": game_points,
        }
    ]


def test_eighteen_ninety_nine_lists_no_game_before_the_end():
    data = export("eighteen-ninety-nine", P3, {}, [reveal_by("Ann")])
    assert data["games"] == []
    assert data["next"]["trump"] is None


def test_oxford_whist_flat_ten():
    all_three = deal("clubs", Ann=h(3, 3), Ben=h(3, 3), Cat=h(3, 3))
    one = deal("none", Ann=h(5, 5), Ben=h(4, 3), Cat=h(0, made=False))
    data = export("oxford-whist", P3, {}, [all_three, one])
    assert points(data) == [{"Ann": 13, "Ben": 13, "Cat": 13}, {"Ann": 15, "Ben": 4, "Cat": 0}]
    assert "games" not in data
    premium = deal("clubs", Ann=h(3, 3, premium="declare"), Ben=h(3, 3), Cat=h(3, 3))
    assert invalid("oxford-whist", P3, {}, [premium]) == ["deals[0].hands.Ann.premium"]


def test_a_match_with_games_lists_them_from_the_start():
    data = export("encyclopaedia", P3, {}, [])
    assert data["games"] == []
    assert data["deals"] == []
    assert data["next"] == {"number": 1, "dealer": "Ann", "leader": "Ben", "trump": "none"}
    assert data["standings"] == [{"player": name, "total": 0, "rank": 1} for name in P3]
