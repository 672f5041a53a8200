"""The scoresheet file (FORMAT.md): read one from decoded JSON, and build one for export.

Pure Python, no Django. `parse_scoresheet()` takes what `json.loads` returned and gives a sheet,
or raises InvalidScoresheet listing every problem as a path into the file ("deals[3].hands.Ben.
tricks: …", 0-based). `export_scoresheet()` gives the dict to write: the input fields as entered,
then the computed fields. Each game family has its own sheet class and parser: the trick
family ("deals") here, the adding family ("rounds") in scoresheet_adding, which builds on the
readers here and is imported where it is used.
"""

import copy
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from scorekeeper.rules.bounds import (
    MAX_DEALS,
    MAX_FILE_BYTES,
    MAX_NESTING,
    MAX_PLAYERS,
    MAX_TITLE_LENGTH,
    number,
    text_problem,
)
from scorekeeper.rules.common import InvalidRules, Problem, is_whole
from scorekeeper.rules.trick import (
    DealEntry,
    DealResult,
    GameResult,
    HandEntry,
    TrickRules,
    check_deals,
    resolve_rules,
    score_session,
)

if TYPE_CHECKING:
    from scorekeeper.scoresheet_adding import AddingSheet

FORMAT_ID = "ninety-nine-scoresheet"
FORMAT_VERSION = 1

# Keys of a deal and of a hand; the computed ones (FORMAT.md §4) are ignored on import.
DEAL_KEYS = ("trump", "hands")
DEAL_COMPUTED_KEYS = ("number", "dealer", "leader", "result", "totals")
HAND_KEYS = ("tricks", "bid", "bid_cards", "made", "premium")
HAND_COMPUTED_KEYS = ("points",)

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TOP_KEYS = ("ruleset", "options", "title", "played_on", "players", "deals")


class InvalidScoresheet(ValueError):
    """The file cannot be imported; `problems` lists everything wrong with it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


@dataclass(frozen=True)
class TrickSheet:
    """One session of the trick game, as entered at the table."""

    ruleset: str
    options: dict[str, object]  # the overrides, as given
    title: str | None
    played_on: date | None
    players: tuple[str, ...]
    deals: tuple[DealEntry, ...]
    rules: TrickRules

    @classmethod
    def build(
        cls,
        *,
        ruleset: str,
        options: Mapping[str, object],
        players: Sequence[str],
        deals: Sequence[DealEntry] = (),
        title: str | None = None,
        played_on: date | None = None,
    ) -> "TrickSheet":
        """A sheet with its rules resolved (raises InvalidRules); the deals are not checked."""
        rules = resolve_rules(ruleset, options, players)
        overrides = copy.deepcopy(dict(options))
        return cls(ruleset, overrides, title, played_on, rules.players, tuple(deals), rules)


# Reading


def loads_scoresheet(text: str) -> "TrickSheet | AddingSheet":
    """Decode the JSON text and parse it; bad JSON is reported as an InvalidScoresheet too.

    The size and the nesting depth are checked before the text is parsed, so that no file can
    make the reader work long or recurse deep (RULES.md §3, Bounds).
    """
    if len(text) > MAX_FILE_BYTES:
        message = f"The file is too big for a scoresheet (over {MAX_FILE_BYTES // 1_000_000} MB)."
        raise InvalidScoresheet([Problem("", message)])
    depth, unpaired = _nesting(text)
    if depth > MAX_NESTING and not unpaired:  # unpaired: the JSON reader says where it fails
        message = (
            f"Values are nested {depth} levels deep; a scoresheet nests at most {MAX_NESTING}."
        )
        raise InvalidScoresheet([Problem("", message)])
    try:
        data = json.loads(text, object_pairs_hook=_object_without_repeats)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise InvalidScoresheet(
            [Problem("", f"This is not valid JSON ({where}): {error.msg}.")]
        ) from None
    except _RepeatedKey as error:
        message = f'The key "{error.key}" appears twice in the same object.'
        raise InvalidScoresheet([Problem("", message)]) from None
    except (ValueError, RecursionError) as error:
        raise InvalidScoresheet([Problem("", f"This is not valid JSON: {error}.")]) from None
    return parse_scoresheet(data)


# A JSON string (skipped whole, so brackets inside it do not count) or a bracket.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _nesting(text: str) -> tuple[int, bool]:
    """How deep the text's arrays and objects nest, read without parsing, and whether their
    brackets fail to pair up (then it is not JSON at all)."""
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
            if depth < 0:
                return deepest, True
    return deepest, depth != 0


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _object_without_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            raise _RepeatedKey(key)
        data[key] = value
    return data


def parse_scoresheet(data: object) -> "TrickSheet | AddingSheet":
    """Check a decoded scoresheet and read it; raise InvalidScoresheet with every problem."""
    if not isinstance(data, dict):
        message = f"A scoresheet file holds one JSON object {{…}}, not {_describe(data)}."
        raise InvalidScoresheet([Problem("", message)])
    family = _read_header(data)
    return _PARSERS[family](data)


def _read_header(data: dict[object, object]) -> str:
    """The family of a scoresheet; raise if the file cannot be read as one at all."""
    problems: list[Problem] = []
    if "format" not in data:
        problems.append(Problem("format", f'missing; a scoresheet has "format": "{FORMAT_ID}"'))
    elif data["format"] != FORMAT_ID:
        problems.append(Problem("format", f'must be "{FORMAT_ID}"'))
    version = data.get("version")
    if is_whole(version) and version > FORMAT_VERSION:
        message = f"this file is version {version}; this app reads version {FORMAT_VERSION}"
        problems.append(Problem("version", message))
    elif not (is_whole(version) and version == FORMAT_VERSION):
        problems.append(Problem("version", f"must be {FORMAT_VERSION}"))
    family = data.get("family")
    if not isinstance(family, str) or family not in _PARSERS:
        problems.append(Problem("family", 'must be "trick" or "adding"'))
    if problems:
        raise InvalidScoresheet(problems)
    return str(family)


def _parse_trick(data: dict[object, object]) -> TrickSheet:
    problems: list[Problem] = []

    def add(path: str, message: str) -> None:
        problems.append(Problem(path, message))

    ruleset = _read_ruleset(data.get("ruleset"), add)
    options = _read_options(data.get("options"), add)
    title = _read_title(data.get("title"), add)
    played_on = _read_date(data.get("played_on"), add)
    players = _read_players(data.get("players"), add)
    deals = _read_deals(data.get("deals"), add)

    rules = None
    if ruleset is not None and options is not None and players is not None:
        try:
            rules = resolve_rules(ruleset, options, players)
        except InvalidRules as error:
            problems += error.problems
    if rules is not None:
        problems += [
            Problem(problem.path, problem.message) for problem in check_deals(rules, deals)
        ]
    if problems or rules is None or options is None:
        raise InvalidScoresheet(sorted(problems, key=_file_order))
    return TrickSheet(
        ruleset=rules.preset.id,
        options=options,
        title=title,
        played_on=played_on,
        players=rules.players,
        deals=tuple(deal for deal in deals if deal is not None),
        rules=rules,
    )


def _parse_adding(data: dict[object, object]) -> "AddingSheet":
    from scorekeeper.scoresheet_adding import parse_adding_sheet

    return parse_adding_sheet(data)


_PARSERS: dict[str, Callable[[dict[object, object]], "TrickSheet | AddingSheet"]] = {
    "trick": _parse_trick,
    "adding": _parse_adding,
}

_Add = Callable[[str, str], None]


def _read_ruleset(value: object, add: _Add) -> str | None:
    if isinstance(value, str):
        return value
    if value is None:
        add("ruleset", "missing; give a ruleset id such as parlett-jokerless")
    else:
        add("ruleset", "must be text: a ruleset id such as parlett-jokerless")
    return None


def _read_options(value: object, add: _Add) -> dict[str, object] | None:
    if value is None:
        return {}
    if not isinstance(value, dict):
        add("options", "must be an object of option overrides, e.g. {}")
        return None
    options: dict[str, object] = {}
    for name, option in value.items():
        if not isinstance(name, str):
            add("options", "option names must be text")
            return None
        options[name] = copy.deepcopy(option)
    return options


def _read_title(value: object, add: _Add) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        add("title", "must be text")
        return None
    wrong = text_problem(value, "A title", MAX_TITLE_LENGTH)
    if wrong is not None:
        add("title", wrong)
        return None
    return value


def _read_date(value: object, add: _Add) -> date | None:
    if value is None:
        return None
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    add("played_on", 'must be a date written like "2026-11-20"')
    return None


def _read_players(value: object, add: _Add) -> list[str] | None:
    if value is None:
        add("players", "missing; list the players in seat order")
        return None
    if not isinstance(value, list):
        add("players", "must be a list of player names in seat order")
        return None
    if len(value) > MAX_PLAYERS:
        add(
            "players", f"at most {MAX_PLAYERS} players sit at a table; this file has {len(value):,}"
        )
        return None
    players: list[str] = []
    for index, name in enumerate(value):
        if isinstance(name, str):
            players.append(name)
        else:
            add(f"players[{index}]", "must be text")
    return players if len(players) == len(value) else None


def _read_deals(value: object, add: _Add) -> list[DealEntry | None]:
    """The deals; None for a deal that cannot be read (its problems are added)."""
    if value is None:
        add("deals", "missing; use [] for a session with no deals yet")
        return []
    if not isinstance(value, list):
        add("deals", "must be a list of deals")
        return []
    if len(value) > MAX_DEALS:
        add("deals", too_many("deals", len(value)))
        return []
    return [_read_deal(deal, f"deals[{index}]", add) for index, deal in enumerate(value)]


def too_many(what: str, count: int) -> str:
    """The problem with a file of more deals or rounds than a session may hold."""
    return f"a session has at most {number(MAX_DEALS)} {what}; this file has {count:,}"


def _read_deal(value: object, path: str, add: _Add) -> DealEntry | None:
    if not isinstance(value, dict):
        add(path, 'must be an object with "hands" (and "trump" where it is entered)')
        return None
    ok = True
    for key in value:
        if key not in DEAL_KEYS and key not in DEAL_COMPUTED_KEYS:
            add(f"{path}.{key}", "unknown key")
            ok = False
    trump = value.get("trump")
    if trump is not None and not isinstance(trump, str):
        add(f"{path}.trump", "must be clubs, hearts, spades, diamonds or none")
        ok = False
    raw_hands = value.get("hands")
    hands: dict[str, HandEntry] = {}
    if raw_hands is None:
        add(f"{path}.hands", "missing; give a hand for every player")
        ok = False
    elif not isinstance(raw_hands, dict):
        add(f"{path}.hands", "must be an object with a hand for every player")
        ok = False
    else:
        for name, raw_hand in raw_hands.items():
            hand = _read_hand(raw_hand, f"{path}.hands.{name}", add)
            if not isinstance(name, str):
                add(f"{path}.hands", "player names must be text")
                ok = False
            elif hand is None:
                ok = False
            else:
                hands[name] = hand
    if not ok:
        return None
    return DealEntry(hands=hands, trump=trump if isinstance(trump, str) else None)


def _read_hand(value: object, path: str, add: _Add) -> HandEntry | None:
    if not isinstance(value, dict):
        add(path, 'must be an object such as {"tricks": 3, "bid": 3}')
        return None
    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        add(f"{path}.{key}", message)
        ok = False

    for key in value:
        if key not in HAND_KEYS and key not in HAND_COMPUTED_KEYS:
            bad(str(key), "unknown key")
    tricks = value.get("tricks")
    if tricks is None:
        bad("tricks", "missing; give the tricks won")
    elif not (is_whole(tricks) and tricks >= 0):
        bad("tricks", "must be a whole number ≥ 0")
    bid = value.get("bid")
    if bid is not None and not (is_whole(bid) and bid >= 0):
        bad("bid", "must be a whole number ≥ 0")
    cards = value.get("bid_cards")
    if cards is not None and not (
        isinstance(cards, list) and all(isinstance(card, str) for card in cards)
    ):
        bad("bid_cards", 'must be a list of three suits, e.g. ["clubs", "diamonds", "diamonds"]')
    made = value.get("made")
    if made is not None and not isinstance(made, bool):
        bad("made", "must be true or false")
    premium = value.get("premium")
    if premium is not None and not isinstance(premium, str):
        bad("premium", 'must be "declare" or "reveal"')
    if not ok or not is_whole(tricks):
        return None
    return HandEntry(
        tricks=tricks,
        bid=bid if is_whole(bid) else None,
        bid_cards=tuple(cards) if isinstance(cards, list) else None,
        made=made if isinstance(made, bool) else None,
        premium=premium if isinstance(premium, str) else None,
    )


def _file_order(problem: Problem) -> tuple[int, int]:
    """Sort key putting problems in the order of the file: top-level keys, then deal by deal."""
    top = problem.path.partition(".")[0].partition("[")[0]
    deal = re.match(r"deals\[(\d+)\]", problem.path)
    return _TOP_KEYS.index(top), int(deal.group(1)) if deal else -1


def _describe(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "null" if value is None else type(value).__name__


# Writing


def export_scoresheet(sheet: "TrickSheet | AddingSheet") -> dict[str, object]:
    """The file's content: the input fields as entered, then the computed fields (FORMAT.md §4).

    Keys come in a fixed order (in a deal: number, dealer, leader, trump, hands, result, totals),
    so exporting, importing and exporting again gives the same text.
    """
    if not isinstance(sheet, TrickSheet):
        from scorekeeper.scoresheet_adding import export_adding_sheet

        return export_adding_sheet(sheet)
    result = score_session(sheet.rules, sheet.deals)
    data: dict[str, object] = {
        "format": FORMAT_ID,
        "version": FORMAT_VERSION,
        "family": "trick",
        "ruleset": sheet.ruleset,
        "options": copy.deepcopy(sheet.options),
    }
    if sheet.title is not None:
        data["title"] = sheet.title
    if sheet.played_on is not None:
        data["played_on"] = sheet.played_on.isoformat()
    data["players"] = list(sheet.players)
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


def dumps_scoresheet(sheet: "TrickSheet | AddingSheet") -> str:
    """The file's text: the export as indented JSON, with a final newline."""
    return json.dumps(export_scoresheet(sheet), indent=2, ensure_ascii=False) + "\n"


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
