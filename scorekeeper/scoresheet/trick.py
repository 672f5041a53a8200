"""The scoresheet file of the trick game (FORMAT.md §1, §2, §4): deals in, deals out.

Pure Python, no Django. `parse()` reads a file whose header was checked and gives a
TrickSheet, or raises InvalidScoresheet listing every problem as a path into the file
("deals[3].hands.Ben.tricks: …", 0-based); `export()` gives the dict to write: the input fields
as entered, then the computed fields.
"""

from dataclasses import dataclass

from scorekeeper.rules.common import is_whole
from scorekeeper.rules.i18n import _
from scorekeeper.rules.trick import (
    ID,
    DealEntry,
    DealResult,
    GameResult,
    HandEntry,
    SessionResult,
    TrickRules,
    check_deals,
    resolve_rules,
    score_session,
)
from scorekeeper.scoresheet.reading import Add, SheetBase, header, read_sheet

# Keys of a deal and of a hand; the computed ones (FORMAT.md §4) are ignored on import.
DEAL_KEYS = ("trump", "hands")
DEAL_COMPUTED_KEYS = ("number", "dealer", "leader", "result", "totals")
HAND_KEYS = ("tricks", "bid", "bid_cards", "made", "premium")
HAND_COMPUTED_KEYS = ("points",)


@dataclass(frozen=True)
class TrickSheet(SheetBase):
    """One session of the trick game, as entered at the table."""

    deals: tuple[DealEntry, ...]
    rules: TrickRules

    family = ID
    entries_field = "deals"

    resolve_rules = staticmethod(resolve_rules)


SHEET = TrickSheet  # the registry finds a family's sheet class here


# Reading


def parse(data: dict[object, object]) -> TrickSheet:
    """Read a file of this family whose header was checked; raise InvalidScoresheet with every
    problem."""
    return read_sheet(TrickSheet, data, "parlett-jokerless", _read_deal, resolve_rules, check_deals)


def _read_deal(value: object, path: str, add: Add) -> DealEntry | None:
    if not isinstance(value, dict):
        add(path, _('must be an object with "hands" (and "trump" where it is entered)'))
        return None
    ok = True
    for key in value:
        if key not in DEAL_KEYS and key not in DEAL_COMPUTED_KEYS:
            add(f"{path}.{key}", _("unknown key"))
            ok = False
    trump = value.get("trump")
    if trump is not None and not isinstance(trump, str):
        add(f"{path}.trump", _("must be clubs, hearts, spades, diamonds or none"))
        ok = False
    raw_hands = value.get("hands")
    hands: dict[str, HandEntry] = {}
    if raw_hands is None:
        add(f"{path}.hands", _("missing; give a hand for every player"))
        ok = False
    elif not isinstance(raw_hands, dict):
        add(f"{path}.hands", _("must be an object with a hand for every player"))
        ok = False
    else:
        for name, raw_hand in raw_hands.items():
            hand = _read_hand(raw_hand, f"{path}.hands.{name}", add)
            if not isinstance(name, str):
                add(f"{path}.hands", _("player names must be text"))
                ok = False
            elif hand is None:
                ok = False
            else:
                hands[name] = hand
    if not ok:
        return None
    return DealEntry(hands=hands, trump=trump if isinstance(trump, str) else None)


def _read_hand(value: object, path: str, add: Add) -> HandEntry | None:
    if not isinstance(value, dict):
        add(path, _('must be an object such as {"tricks": 3, "bid": 3}'))
        return None
    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        add(f"{path}.{key}", message)
        ok = False

    for key in value:
        if key not in HAND_KEYS and key not in HAND_COMPUTED_KEYS:
            bad(str(key), _("unknown key"))
    tricks = value.get("tricks")
    if tricks is None:
        bad("tricks", _("missing; give the tricks won"))
    elif not (is_whole(tricks) and tricks >= 0):
        bad("tricks", _("must be a whole number ≥ 0"))
    bid = value.get("bid")
    if bid is not None and not (is_whole(bid) and bid >= 0):
        bad("bid", _("must be a whole number ≥ 0"))
    cards = value.get("bid_cards")
    if cards is not None and not (
        isinstance(cards, list) and all(isinstance(card, str) for card in cards)
    ):
        bad("bid_cards", _('must be a list of three suits, e.g. ["clubs", "diamonds", "diamonds"]'))
    made = value.get("made")
    if made is not None and not isinstance(made, bool):
        bad("made", _("must be true or false"))
    premium = value.get("premium")
    if premium is not None and not isinstance(premium, str):
        bad("premium", _('must be "declare" or "reveal"'))
    if not ok or not is_whole(tricks):
        return None
    return HandEntry(
        tricks=tricks,
        bid=bid if is_whole(bid) else None,
        bid_cards=tuple(cards) if isinstance(cards, list) else None,
        made=made if isinstance(made, bool) else None,
        premium=premium if isinstance(premium, str) else None,
    )


# Writing


def export(sheet: TrickSheet, result: SessionResult | None = None) -> dict[str, object]:
    """The file's content: the input fields as entered, then the computed fields (FORMAT.md §4).

    Keys come in a fixed order (in a deal: number, dealer, leader, trump, hands, result, totals),
    so exporting, importing and exporting again gives the same text.
    """
    if result is None:
        result = score_session(sheet.rules, sheet.deals)
    data = header(ID, sheet.ruleset, sheet.options, sheet.title, sheet.played_on, sheet.players)
    data["deals"] = [
        _export_deal(entry, deal) for entry, deal in zip(sheet.deals, result.deals, strict=True)
    ]
    data["standings"] = [
        {"player": standing.player, "total": standing.total, "rank": standing.rank}
        for standing in result.standings
    ]
    coming = result.next
    data["next"] = None
    if coming is not None:
        data["next"] = {
            "number": coming.number,
            "dealer": coming.dealer,
            "leader": coming.leader,
            "trump": coming.trump,
        }
    data["finished"] = result.finished
    data["winners"] = list(result.winners)
    if sheet.rules.has_games:
        data["games"] = [_export_game(game) for game in result.games]
    return data


def _export_deal(entry: DealEntry, deal: DealResult) -> dict[str, object]:
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "leader": deal.leader,
        "trump": deal.trump,
        "hands": {hand.player: _export_hand(entry.hands[hand.player]) for hand in deal.hands},
        "result": {
            hand.player: {"bid": hand.bid, "made": hand.made, "points": hand.points}
            for hand in deal.hands
        },
        "totals": dict(deal.totals),
    }


def deal_data(entry: DealEntry) -> dict[str, object]:
    """A deal's input fields as the file writes them (FORMAT.md §2), e.g. for a history."""
    data: dict[str, object] = {}
    if entry.trump is not None:
        data["trump"] = entry.trump
    data["hands"] = {player: _export_hand(hand) for player, hand in entry.hands.items()}
    return data


entry_data = deal_data  # the registry writes an entry's input fields with this


def read_deal(data: object) -> DealEntry | None:
    """A deal that `deal_data()` wrote (a history's before or after), or None if it does not
    read as one."""
    return _read_deal(data, "deal", _ignore)


def _ignore(path: str, message: str) -> None:
    """An `Add` for reading data this app wrote itself: a problem just means "not a deal"."""


def _export_hand(hand: HandEntry) -> dict[str, object]:
    """Only the fields that were entered."""
    data: dict[str, object] = {"tricks": hand.tricks}
    if hand.bid is not None:
        data["bid"] = hand.bid
    if hand.bid_cards is not None:
        data["bid_cards"] = list(hand.bid_cards)
    if hand.made is not None:
        data["made"] = hand.made
    if hand.premium is not None:
        data["premium"] = hand.premium
    return data


def _export_game(game: GameResult) -> dict[str, object]:
    data: dict[str, object] = {
        "number": game.number,
        "winner": list(game.winner),
        "scores": dict(game.scores),
        "bonuses": dict(game.bonuses),
    }
    if game.game_points is not None:
        data["game_points"] = dict(game.game_points)
    return data
