"""Printable rule sheets and blank score pads for every ruleset, and the offline support.

Everything a sheet says comes from the rules package, the same data the scoring uses: the
presets, their options as `resolve_rules()` reads them, the constants (bid-card values, premium
points, game target), the card tables and `describe_event()`. The highest score of a deal is
found by scoring candidate deals with `trick.score_session()` itself. The views below only read
the query string, call the rules, and shape their answers into lines and rows for the templates.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from scorekeeper.display import SUIT_SYMBOLS, TRUMP_NAMES
from scorekeeper.http import AuthedRequest
from scorekeeper.models import Family, GameSession
from scorekeeper.rules import adding, trick
from scorekeeper.rules.common import InvalidRules, Problem
from scorekeeper.services import player_names

Rules = trick.TrickRules | adding.AddingRules
AnyPreset = trick.Preset | adding.AddingPreset

PLAYERS_PARAM = "players"  # ?players=N: the number of players, where the preset allows several
ADDING_PLAYERS = 4  # the sheet and pad of an adding game show this many players unless told
PAD_ROWS = 24  # rows of a score pad when the match does not fix the number of deals
PAD_MAX_ROWS = 24  # what fits on one printed page
# Fewer rows are taller, with more room to write: (at most this many rows, their class).
PAD_ROW_SIZES = ((12, "pad-spacious"), (18, "pad-roomy"))
# What the service worker stores when it is installed; sheets are stored as they are opened.
PRECACHED_STATIC = (
    "vendor/bootstrap-5.3.9/bootstrap.min.css",
    "css/app.css",
    "css/print.css",
    "js/print.js",
    "js/theme.js",
    "js/sw-register.js",
    "django_htmx/htmx-2.min.js",
    "icons/favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)

TRICK_LABELS = {
    "trump": "Trump",
    "first_trump": "First trump",
    "match": "Match",
    "bonus": "Success bonus",
    "premiums": "Premium bids",
    "trick_points": "Trick points",
    "zero_all_tricks": "0 bid made by all tricks",
    "dummy_exact_declarer": f"Dummy's exact bid scores {trick.DUMMY_DECLARER_POINTS}",
}
ADDING_LABELS = {
    "tokens": "Tokens each",
    "out": "Out",
    "on_69": "Exactly 69",
    "display": "Show tokens as",
    "card_table": "Card table",
    "bust": "Bust",
}
_BOOLEAN_OPTIONS = ("trick_points", "zero_all_tricks", "dummy_exact_declarer")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_NO_PREMIUMS = "none"
_CHOICE_LABELS = {
    "turn-up": "Turned up at the table",
    "by-successes": "By how many made it",
    "declared": "Named by the declarer",
    "by-deviation": "By the total miss",
    "diamonds": "♦ Diamonds",
    "none": "No trump",
    "at-zero": "At 0 tokens",
    "owing": "When you cannot pay",
    "nothing": "Nothing happens",
    "token": "Gain a token",
    "reset": "Total back to 0",
    "tokens": "Tokens",
    "dollar-bill": "Dollar bill folds",
    "ends-round": "Pay, the round ends",
    "out-of-round": "Out of the round",
}


# Helpers


def _get_session_for_user(request: AuthedRequest, public_id: str) -> GameSession:
    sessions = GameSession.objects.for_user(request.user).prefetch_related("seats__player")
    return get_object_or_404(sessions, public_id=public_id)


def _preset(family: str, preset_id: str) -> AnyPreset:
    presets: Mapping[str, AnyPreset]
    if family == Family.TRICK:
        presets = trick.PRESETS
    elif family == Family.ADDING:
        presets = adding.PRESETS
    else:
        raise Http404("No such game family")
    preset = presets.get(preset_id)
    if preset is None:
        raise Http404("No such ruleset")
    return preset


def _problem_text(problem: Problem) -> str:
    """'First trump: Choose one of: diamonds, none.' for a problem with an option."""
    path = problem.path.removeprefix("options.")
    name = path.split(".")[0]
    label = {**TRICK_LABELS, **ADDING_LABELS}.get(name)
    if label is None:
        return str(problem) if problem.path != "ruleset" else problem.message
    return f"{label} ({path}): {problem.message}"


# Options from the query string (the names of RULES.md §3; ?players=N besides)


def _query_value(name: str, text: str) -> object:
    """An option's value as the rules read it, from its text in the query string.

    Text that cannot be read is passed on as it is, so that `resolve_rules()` says what is
    wrong with it in its own words.
    """
    text = text.strip()
    if name in _BOOLEAN_OPTIONS:
        lowered = text.lower()
        return True if lowered in _TRUE else False if lowered in _FALSE else text
    if name == "tokens":
        return _number_or_text(text)
    if name == "bonus":
        if text.startswith("["):
            return _json_or_text(text)
        numbers = [_whole(part.strip()) for part in text.split(",") if part.strip()]
        return numbers if None not in numbers else text
    if name == "premiums":
        if text.startswith("["):
            return _json_or_text(text)
        if text.lower() == _NO_PREMIUMS:
            return []
        return [part.strip() for part in text.split(",") if part.strip()]
    if name == "match":
        return _match_value(text)
    return text


def _whole(text: str) -> int | None:
    """A whole number 0 or more written in digits (not too many of them), else None."""
    return int(text) if text.isdecimal() and len(text) <= 9 else None


def _number_or_text(text: str) -> int | str:
    number = _whole(text)
    return text if number is None else number


def _json_or_text(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _match_value(text: str) -> object:
    """'deals:9', 'target:300', 'rubber', 'game-bonus', 'long:2' (or the JSON of RULES.md §3)."""
    if text.startswith("{"):
        return _json_or_text(text)
    kind, _, number = text.partition(":")
    kind = kind.strip()
    setting = {"deals": "deals", "target": "target", "long": "games"}.get(kind)
    data: dict[str, object] = {"type": kind}
    if setting is not None and number.strip():
        data[setting] = _number_or_text(number.strip())
    elif number.strip():
        data["number"] = number.strip()  # the rules say this match type has no number
    return data


def _match_text(match: trick.Match) -> str:
    """The inverse of _match_value: 'deals:9'."""
    number = {"deals": match.deals, "target": match.target, "long": match.games}.get(match.type)
    return match.type if number is None else f"{match.type}:{number}"


def _option_text(name: str, value: object) -> str:
    """An option's value as the query string writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "match" and isinstance(value, Mapping):
        return _match_text(trick.Match.from_data(value))
    if name == "premiums" and isinstance(value, list | tuple):
        return ",".join(map(str, value)) or _NO_PREMIUMS
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "" if value is None else str(value)


def _query_options(query: QueryDict) -> dict[str, object]:
    """Every parameter but ?players is an option; unknown names are left to the rules to
    reject. An empty value (a blank form field) leaves the option at the preset's value."""
    return {
        name: _query_value(name, values[-1])
        for name, values in query.lists()
        if name != PLAYERS_PARAM and values[-1].strip()
    }


def _player_count(preset: AnyPreset, query: QueryDict) -> tuple[int, list[Problem]]:
    counts = preset.players
    if isinstance(preset, trick.Preset):
        default = 3 if 3 in counts else counts[0]
    else:
        default = ADDING_PLAYERS if ADDING_PLAYERS in counts else counts[0]
    text = query.get(PLAYERS_PARAM, "").strip()
    if not text:
        return default, []
    count = _whole(text)
    if count in counts:
        return count, []
    allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    message = f'Players: {preset.name} is for {allowed} players, not "{text}".'
    return default, [Problem("", message)]


def seat_names(count: int) -> list[str]:
    return [f"Seat {seat}" for seat in range(1, count + 1)]


def _resolve(
    family: str, preset: AnyPreset, options: Mapping[str, object], players: Sequence[str]
) -> Rules:
    if family == Family.TRICK:
        return trick.resolve_rules(preset.id, options, players)
    return adding.resolve_rules(preset.id, options, players)


def _rules_from_query(
    family: str, preset: AnyPreset, query: QueryDict
) -> tuple[Rules, list[str], dict[str, str]]:
    """The rules the query string asks for, the problems with it (then the preset's own rules
    are shown), and the options as query parameters for the links to the sheet and pad."""
    count, problems = _player_count(preset, query)
    names = seat_names(count)
    options = _query_options(query)
    try:
        rules = _resolve(family, preset, options, names)
    except InvalidRules as error:
        problems += error.problems
        rules = _resolve(family, preset, {}, names)
    params = {} if problems else _rules_params(rules, count, len(preset.players) > 1)
    return rules, [_problem_text(problem) for problem in problems], params


def _rules_params(rules: Rules, count: int, several_counts: bool) -> dict[str, str]:
    """The query parameters that give these rules: the options changed, and the players."""
    params = {name: _option_text(name, value) for name, value in rules.overrides_data().items()}
    if several_counts:
        params[PLAYERS_PARAM] = str(count)
    return params


# The form that changes the options (a GET form: it works without JavaScript)


@dataclass(frozen=True)
class Field:
    """One open option of the preset, as a form field."""

    name: str
    label: str
    value: str
    choices: tuple[tuple[str, str], ...]  # empty: a text field
    help: str = ""


def _fields(family: str, preset: AnyPreset, rules: Rules) -> list[Field]:
    fields: list[Field] = []
    if len(preset.players) > 1:
        counts = tuple((str(n), str(n)) for n in preset.players)
        fields.append(Field(PLAYERS_PARAM, "Players", str(len(rules.players)), counts))
    values = rules.options_data()
    names = trick.OPTION_NAMES if family == Family.TRICK else adding.OPTION_NAMES
    for name in names:
        if name in preset.open_options:
            fields.append(_field(preset, name, values[name]))
    return fields


def _field(preset: AnyPreset, name: str, value: object) -> Field:
    label = {**TRICK_LABELS, **ADDING_LABELS}[name]
    text = _option_text(name, value)
    if name in _BOOLEAN_OPTIONS:
        return Field(name, label, text, (("true", "Yes"), ("false", "No")))
    choices: tuple[str, ...] = ()
    if name == "trump":
        choices = trick.TRUMP_RULES
    elif name == "first_trump":
        choices = trick.FIRST_TRUMPS
    elif name == "premiums":
        both = ",".join(trick.PREMIUM_POINTS)
        options = (
            (both, "Declare and reveal"),
            ("declare", "Declare only"),
            ("reveal", "Reveal only"),
            (_NO_PREMIUMS, "None"),
        )
        return Field(name, label, text, options)
    elif name == "card_table":
        assert isinstance(preset, adding.AddingPreset)
        tables = preset.card_tables or tuple(adding.CARD_TABLES)
        return Field(name, label, text, tuple((t, adding.CARD_TABLES[t].name) for t in tables))
    elif name in ("out", "on_69", "display", "bust"):
        choices = {
            "out": adding.OUT_RULES,
            "on_69": adding.ON_69,
            "display": adding.DISPLAYS,
            "bust": adding.BUST_RULES,
        }[name]
    if choices:
        return Field(name, label, text, tuple((c, _CHOICE_LABELS.get(c, c)) for c in choices))
    helps = {
        "match": "deals:N, target:N, rubber, game-bonus or long:N (games to win)",
        "bonus": "points for 1, 2, 3 … players making their bids, e.g. 30,20,10,0",
        "tokens": "a whole number, 1 or more",
    }
    if name == "match" and isinstance(preset, trick.Preset):
        helps["match"] = ", ".join(_MATCH_HELP[kind] for kind in preset.match_types)
    return Field(name, label, text, (), helps.get(name, ""))


_MATCH_HELP = {
    "deals": "deals:N",
    "target": "target:N",
    "rubber": "rubber",
    "game-bonus": "game-bonus",
    "long": "long:N (games to win)",
}


# The trick game: what its sheet says


def suit(name: str) -> str:
    """'♦ Diamonds', 'No trump'."""
    symbol = SUIT_SYMBOLS[name]
    return f"{symbol} {TRUMP_NAMES[name]}" if symbol else TRUMP_NAMES[name]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class BidCard:
    symbol: str
    name: str
    value: int

    @property
    def red(self) -> bool:
        return self.name in ("hearts", "diamonds")


def bid_cards() -> list[BidCard]:
    """The bid-card codes, lowest first: ♦0 ♠1 ♥2 ♣3."""
    ordered = sorted(trick.BID_CARD_VALUES.items(), key=lambda item: item[1])
    return [BidCard(SUIT_SYMBOLS[name], TRUMP_NAMES[name], value) for name, value in ordered]


_EXAMPLE_BIDS = (
    ("diamonds", "diamonds", "diamonds"),
    ("spades", "diamonds", "diamonds"),
    ("clubs", "diamonds", "diamonds"),
    ("hearts", "spades", "diamonds"),
    ("spades", "spades", "spades"),
    ("clubs", "clubs", "hearts"),
    ("clubs", "clubs", "clubs"),
)


def bid_examples() -> list[tuple[str, int]]:
    """('♣♦♦', 3) …: three bid-cards and the bid they stand for."""
    return [
        ("".join(SUIT_SYMBOLS[card] for card in cards), trick.bid_from_cards(cards))
        for cards in _EXAMPLE_BIDS
    ]


def bonus_cells(rules: trick.TrickRules) -> list[tuple[int, int]]:
    """(players succeeding, bonus each) for 1 … every hand at the table."""
    return [
        (count, rules.bonus[count - 1] if count <= len(rules.bonus) else 0)
        for count in range(1, len(rules.hands) + 1)
    ]


@dataclass(frozen=True)
class PremiumRow:
    name: str
    points: int
    how: str


_PREMIUM_HOW = {
    "declare": "bid-cards shown face up before play",
    "reveal": "bid-cards face up and your whole hand played face up",
}


def premium_rows(rules: trick.TrickRules) -> list[PremiumRow]:
    return [
        PremiumRow(kind.capitalize(), trick.PREMIUM_POINTS[kind], _PREMIUM_HOW[kind])
        for kind in rules.premiums
    ]


@dataclass(frozen=True)
class BestDeal:
    """The most one player can score in a deal, as the rules score it, and how."""

    parts: tuple[tuple[int, str], ...]  # (points, what for), e.g. (9, "tricks")
    total: int
    how: str

    @property
    def sum(self) -> str:
        """'9 + 30 + 60 = 99'."""
        if len(self.parts) <= 1:
            return str(self.total)
        return " + ".join(str(points) for points, _ in self.parts) + f" = {self.total}"

    @property
    def legend(self) -> str:
        return " + ".join(what for _, what in self.parts)


def best_deal(rules: trick.TrickRules) -> BestDeal | None:
    """The highest score of one player in one deal (RULES.md §1.3: 9 + 30 + 60 = 99)."""
    key = json.dumps(rules.options_data(), sort_keys=True)
    return _best_deal(rules.preset.id, key, len(rules.players))


@lru_cache(maxsize=256)
def _best_deal(preset_id: str, options_key: str, count: int) -> BestDeal | None:
    rules = trick.resolve_rules(preset_id, json.loads(options_key), seat_names(count))
    best: tuple[int, trick.DealResult, trick.DealEntry] | None = None
    for entry in _candidate_deals(rules):
        try:
            deal = trick.score_session(rules, [entry]).deals[0]
        except trick.InvalidDeals:  # pragma: no cover - every candidate is a legal deal
            continue
        hand = deal.hands[0]
        points = hand.trick_points + hand.bonus + hand.premium + hand.miss
        if best is None or points > best[0]:
            best = (points, deal, entry)
    if best is None:  # pragma: no cover - there is always a legal deal
        return None
    points, deal, entry = best
    hand = deal.hands[0]
    own = entry.hands[hand.player].premium
    failed = [
        other.premium
        for name, other in entry.hands.items()
        if name != hand.player and other.premium is not None
    ]
    parts = [
        (hand.trick_points, "tricks"),
        (hand.bonus, "success bonus"),
        (hand.premium, "premiums" if own and failed else "premium"),
    ]
    shown = tuple((value, what) for value, what in parts if value)
    return BestDeal(shown, points, _how(rules, deal, own, failed))


def _how(
    rules: trick.TrickRules, deal: trick.DealResult, own: str | None, failed: Sequence[str]
) -> str:
    """The best deal in words: 'Win all 9 tricks as the only one to make your bid, and
    reveal.'"""
    hand = deal.hands[0]
    tricks = _plural(hand.tricks, "trick")
    text = f"Win {'all ' if hand.tricks == rules.tricks else ''}{tricks}"
    if hand.bid is not None and hand.bid != hand.tricks:
        text += f" on a bid of {hand.bid}"
    if deal.successes == 1:
        text += " as the only one to make your bid"
    else:
        text += f" as one of {deal.successes} making their bids"
    if own:
        text += f", and {own}"
    if failed:
        who = "the other player" if rules.dummy else "another player"
        text += f", while {who} {failed[0]}s and fails"
    return text + "."


def _candidate_deals(rules: trick.TrickRules) -> Iterator[trick.DealEntry]:
    """Deals among which one is the best for the first player: they make their bid with as
    many tricks as possible, the others make or miss theirs in every combination, and the
    premium bid (theirs, or another player's that fails) is each one allowed."""
    me, others = rules.players[0], rules.hands[1:]
    trump = "none" if rules.trump in ("turn-up", "declared") else None
    if rules.dummy:
        # Both live players may declare, and the dummy may make, miss or hit its bid exactly.
        live, kinds = others[0], [None, *rules.premiums]
        for mine, theirs, makes in itertools.product(kinds[::-1], kinds[::-1], (True, False)):
            for tricks in range(max(0, rules.tricks - 2), rules.tricks + 1):
                for dummy_tricks in range(rules.tricks - tricks + 1):
                    rest = rules.tricks - tricks - dummy_tricks
                    bids = {dummy_tricks, max(dummy_tricks - 1, 0), rules.bid_max}
                    for dummy_bid in sorted(bids):
                        hands = {
                            me: _made(rules, tricks, mine),
                            live: _hand(rules, rest, makes, theirs),
                            trick.DUMMY: trick.HandEntry(tricks=dummy_tricks, bid=dummy_bid),
                        }
                        yield trick.DealEntry(hands=hands, trump=trump)
        return
    # Your own premium first: on equal points, that is the example the sheet gives.
    holders: list[tuple[str | None, str | None]] = [
        *((holder, kind) for holder in (me, others[0]) for kind in reversed(rules.premiums)),
        (None, None),
    ]
    for holder, kind in holders:
        for tricks in sorted({rules.tricks, min(rules.tricks, rules.bid_max)}, reverse=True):
            for made in itertools.product((True, False), repeat=len(others)):
                hands = {me: _made(rules, tricks, kind if holder == me else None)}
                for position, (other, succeeds) in enumerate(zip(others, made, strict=True)):
                    won = rules.tricks - tricks if position == 0 else 0
                    premium = kind if holder == other else None
                    # Another player's premium only helps when it fails.
                    hands[other] = _hand(rules, won, succeeds and premium is None, premium)
                yield trick.DealEntry(hands=hands, trump=trump)


def _made(rules: trick.TrickRules, tricks: int, premium: str | None) -> trick.HandEntry:
    bid = tricks if tricks <= rules.bid_max else 0  # `zero_all_tricks`: 0 made by every trick
    return trick.HandEntry(tricks=tricks, bid=bid, premium=premium)


def _hand(
    rules: trick.TrickRules, tricks: int, made: bool, premium: str | None = None
) -> trick.HandEntry:
    """A hand that makes its bid, or misses it by one trick."""
    if made:
        return _made(rules, tricks, premium)
    bid = tricks + 1 if tricks < rules.bid_max else tricks - 1
    return trick.HandEntry(tricks=tricks, bid=bid, premium=premium)


def trump_lines(rules: trick.TrickRules) -> list[str]:
    """The trump rule in plain words (RULES.md §1.4)."""
    if rules.trump == "turn-up":
        return [
            "The table decides the trump of every deal, usually by turning up a card before "
            "play; no trump is possible. Tell the scorer which it is."
        ]
    if rules.trump == "by-successes":
        over = " over all three hands" if rules.dummy else ""
        return [
            f"First deal: {suit(rules.first_trump)}.",
            f"After that, by how many made their bid in the deal before{over}:",
        ]
    if rules.trump == "by-deviation":
        return [
            f"First deal: {suit(trick.TRUMP_BY_COUNT[0])}.",
            "After that, by the total number of tricks by which all players missed their bids "
            "in the deal before:",
        ]
    if not rules.premiums:
        return ["Nobody can make a premium bid here, so every deal is played at no trump."]
    return [
        "Whoever declares or reveals names the trump for that deal.",
        "A deal without a premium bid keeps the trump of the deal before; if the first deal "
        "has none, it is played at no trump.",
    ]


def trump_chain(rules: trick.TrickRules) -> list[tuple[str, str]]:
    """(count, trump) for the computed trump rules: ('0', '♦ Diamonds') … ('4 or more', …)."""
    if rules.trump == "by-deviation":
        last = len(trick.TRUMP_BY_COUNT) - 1
        return [
            (f"{count}{' or more' if count == last else ''}", suit(name))
            for count, name in enumerate(trick.TRUMP_BY_COUNT)
        ]
    if rules.trump != "by-successes":
        return []
    hands = len(rules.hands)
    chain = [
        (str(count), suit(name))
        for count, name in enumerate(trick.TRUMP_BY_COUNT)
        if count <= hands
    ]
    if hands >= len(trick.TRUMP_BY_COUNT):
        chain.append((f"{len(trick.TRUMP_BY_COUNT)} or more", suit("none")))
    return chain


def match_lines(rules: trick.TrickRules) -> list[str]:
    """How the session ends (RULES.md §1.5): `match.describe()` and what it leaves out."""
    lines = [rules.match.describe()]
    if rules.match.type == "rubber":
        games = trick.RUBBER_GAMES
        bonus = trick.GAME_BONUS * (trick.RUBBER_LENGTH - games)
        lines.append(
            f"The rubber's winner adds {trick.GAME_BONUS} for each game fewer than "
            f"{trick.RUBBER_LENGTH} that it took ({games} games: {bonus})."
        )
    if rules.match.type == "long":
        lines.append("No game bonus; a game's winner is its highest scorer.")
    if rules.match.has_games:
        lines.append("Game scores start again from 0 each game; totals run on.")
    if rules.preset.game_points:
        lines.append(
            "Then game points: first place 1 for each full 100 of their total; second place "
            "their own full hundreds less 1 (not below 0); the others 0."
        )
    return lines


def rotation(rules: trick.TrickRules) -> list[tuple[int, str, str]]:
    """(deal, dealer, leader) for one turn round the table."""
    return [(index + 1, *trick.seat(rules, index)) for index in range(len(rules.players))]


def trick_context(rules: trick.TrickRules) -> dict[str, object]:
    cards_each = rules.tricks + 3
    return {
        "rules": rules,
        "hands": len(rules.hands),
        "cards_each": cards_each,
        "pack": cards_each * len(rules.hands),
        "bid_cards": bid_cards(),
        "bid_examples": bid_examples(),
        "bonus_cells": bonus_cells(rules),
        "flat_bonus": len(set(rules.bonus)) == 1,
        "premiums": premium_rows(rules),
        "declare_points": trick.PREMIUM_POINTS["declare"],
        "dummy_points": trick.DUMMY_DECLARER_POINTS,
        "best": best_deal(rules),
        "trump_lines": trump_lines(rules),
        "trump_chain": trump_chain(rules),
        "match_lines": match_lines(rules),
        "rotation": rotation(rules),
    }


# The adding game: what its sheet says


def cards_held(preset: adding.AddingPreset) -> str:
    counts = [str(count) for count in preset.cards_held]
    text = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
    return f"{text} cards each" + (" (agree which before you start)" if len(counts) > 1 else "")


def token_lines(rules: adding.AddingRules) -> list[str]:
    """What the players hold and when they are out (RULES.md §2.2)."""
    preset = rules.preset
    if rules.scoring == "wilson":
        return [
            f"Every round each player starts with {rules.amount(rules.tokens or 0)}; each border "
            "costs one.",
            "When the round ends, what is left (it may be below 0) is added to your running "
            "score. Nobody is eliminated.",
        ]
    if rules.scoring == "drinks":
        return ["No tokens and nobody is eliminated: the scorer counts the drinks."]
    if rules.scoring == "rounds":
        return ["No tokens and nobody is eliminated: the scorer counts the rounds won."]
    lines = [f"Each player starts with {rules.amount(rules.tokens or 0)}."]
    over_four = preset.tokens_over_four
    if over_four is not None and rules.tokens == preset.defaults["tokens"]:
        lines[0] = lines[0][:-1] + f" ({over_four} each when more than 4 play)."
    if rules.out == "at-zero":
        lines.append(f"You are out as soon as you have no {rules.units[1]} left.")
    else:
        lines.append(
            f"At 0 you stay in, on your honour; you are out when you must pay "
            f"a {rules.units[0]} you do not have."
        )
    if any(rule.pays == "others" for rule in rules.events):
        lines.append(
            "When everyone else pays, they pay in seat order, starting left of the player."
        )
    lines.append("Costs are paid the moment they happen, so you can go out in mid-round.")
    return lines


def fold_steps(rules: adding.AddingRules) -> list[tuple[int, str]]:
    """A dollar bill's folds: (tokens left, what the bill shows), from the start down to 0."""
    if rules.display != "dollar-bill" or rules.tokens is None:
        return []
    return [(count, adding.show_tokens(rules, count)) for count in range(rules.tokens, -1, -1)]


def round_lines(rules: adding.AddingRules) -> list[str]:
    """Who deals, when a round ends, and how the game ends."""
    if rules.uses_tokens:
        lines = ["Seat 1 deals the first round; the deal passes to the next player still in."]
    else:
        lines = ["Seat 1 deals the first round; the deal passes to the left."]
    if rules.scoring == "wilson":
        lines.append(f"The round ends when the total passes {rules.limit} (the border at 99).")
        lines.append(
            f"When a round ends with anyone on {adding.WILSON_TARGET} or more, the highest "
            "running score wins (ties share the win)."
        )
        return lines
    enders = [rule.label.lower() for rule in rules.events if rule.ends_round]
    if enders:
        lines.append(f"A round ends with {_or_names(enders)}; the next starts again from 0.")
    events = {(rule.event, rule.target) for rule in rules.events}
    if ("cross", 66) in events and ("bust", None) in events:
        lines.append("One card that goes past 66 and over 99 at once is a cross 66 and a bust.")
    if rules.scoring == "drinks":
        lines.append("Nobody goes out; play until you stop. The fewest drinks leads.")
    elif rules.scoring == "rounds":
        lines.append(
            "A bust puts you out of that round only. Nobody goes out of the game; play until "
            "you stop. The most rounds won leads."
        )
    else:
        lines.append("The last player left wins.")
    return lines


def _or_names(words: Sequence[str]) -> str:
    """'bust', 'bust or trips', 'hit 99, bust or empty hand'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def bust_line(rules: adding.AddingRules) -> str:
    if any(rule.event == "bust" for rule in rules.events):
        return f"If you cannot play without taking the total over {rules.limit}, you bust."
    return f"Nobody busts: the round ends when the total passes {rules.limit}."


def on_69_line(rules: adding.AddingRules) -> str | None:
    if rules.on_69 == "token":
        return f"Make the total exactly 69 and you gain 1 {rules.units[0]}."
    if rules.on_69 == "reset":
        return "Make the total exactly 69 and it goes back to 0."
    return None


def adding_context(rules: adding.AddingRules) -> dict[str, object]:
    return {
        "rules": rules,
        "cards_held": cards_held(rules.preset),
        "card_table": adding.CARD_TABLES[rules.card_table],
        "token_lines": token_lines(rules),
        "fold_steps": fold_steps(rules),
        "events": [adding.describe_event(rules, rule) for rule in adding.events_for(rules)],
        "round_lines": round_lines(rules),
        "bust_line": bust_line(rules),
        "on_69": on_69_line(rules),
    }


# Score pads


@dataclass(frozen=True)
class PadColumn:
    label: str
    title: str  # what to write in it, for the header's tooltip
    width: str = "auto"  # a width class of print.css: "s" (a digit or two), "m", "l", "xl"


@dataclass(frozen=True)
class PadRow:
    number: int
    cells: tuple[str, ...]  # one per deal column, mostly blank


def trick_pad(rules: trick.TrickRules) -> dict[str, object]:
    """One row per deal: who deals (by seat), the trump where the rules know it, the premium
    bid and what the next trump depends on; per hand: bid, tricks won, points (up to four
    hands; five do not fit on the page) and running total."""
    wanted = rules.match.deals if rules.match.type == "deals" and rules.match.deals else PAD_ROWS
    deal_columns = [
        PadColumn("Dealer", "Seat of the dealer", "m"),
        PadColumn("Trump", "Trump", "m"),
    ]
    if rules.premiums:
        deal_columns.append(PadColumn("Premium", "Who declared (D) or revealed (R)", "l"))
    if rules.trump == "by-successes":
        deal_columns.append(PadColumn("Made", "How many made their bid", "m"))
    elif rules.trump == "by-deviation":
        deal_columns.append(PadColumn("Missed", "Tricks missed, all players", "m"))
    first_trump = {"by-successes": rules.first_trump, "by-deviation": trick.TRUMP_BY_COUNT[0]}
    rows = []
    for index in range(min(wanted, PAD_MAX_ROWS)):
        dealer, _ = trick.seat(rules, index)
        trump = first_trump.get(rules.trump) if index == 0 else None
        cells = [str(rules.players.index(dealer) + 1), SUIT_SYMBOLS[trump] or "NT" if trump else ""]
        rows.append(PadRow(index + 1, (*cells, *[""] * (len(deal_columns) - 2))))
    hand_columns = [PadColumn("Bid", "Bid", "s"), PadColumn("Won", "Tricks won", "s")]
    if len(rules.hands) <= 4:
        hand_columns.append(PadColumn("Pts", "Points this deal", "m"))
    hand_columns.append(PadColumn("Total", "Running total"))
    hands = [("", False)] * len(rules.players) + ([("Dummy", True)] if rules.dummy else [])
    footers = []
    if rules.match.has_games:
        footers.append("Game bonuses" if rules.match.type == "game-bonus" else "Games won")
    if rules.preset.game_points:
        footers.append("Game points")
    return {
        "rows": rows,
        "more": max(0, wanted - PAD_MAX_ROWS),
        "deal_columns": deal_columns,
        "hand_columns": hand_columns,
        "hands": hands,
        "footers": footers,
        "row_noun": "Deal",
        "start": "",
        "row_size": next((name for most, name in PAD_ROW_SIZES if len(rows) <= most), ""),
    }


def adding_pad(rules: adding.AddingRules) -> dict[str, object]:
    """One row per round: who dealt and what happened; per player what they hold after it
    (Wilson: the round's points and the running score; the 98s: this round's drinks or win)."""
    if rules.scoring == "wilson":
        hand_columns = [PadColumn("Round", "Game points left this round"), PadColumn("Score", "")]
    elif rules.scoring == "drinks":
        hand_columns = [PadColumn("Drinks", "Drinks this round")]
    elif rules.scoring == "rounds":
        hand_columns = [PadColumn("Won", "Tick the round's winner")]
    else:
        hand_columns = [PadColumn("Left", f"{rules.units[1].capitalize()} left after the round")]
    deal_columns = [
        PadColumn("Dealer", "Who dealt", "l"),
        PadColumn("Events", "What happened: bust, hit 33 …", "xl"),
    ]
    rows = [PadRow(number, ("", "")) for number in range(1, PAD_ROWS + 1)]
    return {
        "rows": rows,
        "more": 0,
        "deal_columns": deal_columns,
        "hand_columns": hand_columns,
        "hands": [("", False)] * len(rules.players),
        "footers": ["Total"] if rules.scoring in ("drinks", "rounds") else [],
        "row_noun": "Round",
        "row_size": "",
        "start": str(rules.tokens) if rules.uses_tokens else "",
    }


# Views


def _sheet_links(family: str, preset: AnyPreset, params: Mapping[str, str]) -> dict[str, str]:
    query = f"?{urlencode(params)}" if params else ""
    return {
        "sheet_url": reverse("rule_sheet", args=[family, preset.id]) + query,
        "pad_url": reverse("score_pad", args=[family, preset.id]) + query,
    }


def _sheet_context(family: str, rules: Rules) -> dict[str, object]:
    if isinstance(rules, trick.TrickRules):
        return {"family": family, **trick_context(rules)}
    return {"family": family, **adding_context(rules)}


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    ctx = {"trick_presets": trick.PRESETS.values(), "adding_presets": adding.PRESETS.values()}
    return render(request, "cheatsheets/index.html", ctx)


@require_GET
def sheet(request: HttpRequest, family: str, preset_id: str) -> HttpResponse:
    preset = _preset(family, preset_id)
    rules, problems, params = _rules_from_query(family, preset, request.GET)
    ctx = {
        **_sheet_context(family, rules),
        **_sheet_links(family, preset, params),
        "preset": preset,
        "problems": problems,
        "fields": _fields(family, preset, rules),
    }
    return render(request, "cheatsheets/sheet.html", ctx, status=400 if problems else 200)


@require_GET
def pad(request: HttpRequest, family: str, preset_id: str) -> HttpResponse:
    preset = _preset(family, preset_id)
    rules, problems, params = _rules_from_query(family, preset, request.GET)
    if isinstance(rules, trick.TrickRules):
        grid = trick_pad(rules)
        summary = _trick_summary(rules)
    else:
        grid = adding_pad(rules)
        summary = _adding_summary(rules)
    ctx = {
        **grid,
        **_sheet_links(family, preset, params),
        "family": family,
        "rules": rules,
        "preset": preset,
        "problems": problems,
        "summary": summary,
    }
    return render(request, "cheatsheets/pad.html", ctx, status=400 if problems else 200)


def _trick_summary(rules: trick.TrickRules) -> list[str]:
    """The numbers a scorer needs beside the pad, in a few short lines."""
    lines = []
    bonus = ", ".join(f"{count}: {points}" for count, points in bonus_cells(rules))
    if rules.scoring == "long":
        lines.append(f"Made: {bonus} (by how many made it). Missed: minus the miss.")
    else:
        tricks = "1 a trick, to everyone. " if rules.trick_points else "No trick points. "
        lines.append(f"{tricks}Success bonus by how many made it: {bonus}.")
    if rules.premiums:
        premiums = ", ".join(f"{row.name.lower()} {row.points}" for row in premium_rows(rules))
        failed = "the bidder loses it" if rules.scoring == "long" else "each other hand gets it"
        lines.append(f"Premiums: {premiums}; failed, {failed}.")
    chain = trump_chain(rules)
    trump = " ".join(trump_lines(rules))
    if chain:
        trump += " " + ", ".join(f"{count} → {name}" for count, name in chain) + "."
    lines.append(f"Trump: {trump}")
    lines.append(" ".join(match_lines(rules)))
    return lines


def _adding_summary(rules: adding.AddingRules) -> list[str]:
    events = [adding.describe_event(rules, rule) for rule in rules.events]
    return [
        f"Limit {rules.limit}. {cards_held(rules.preset).capitalize()}.",
        *token_lines(rules)[:2],
        " ".join(events),
        round_lines(rules)[-1],
    ]


@login_required
@require_GET
def session_sheet(request: AuthedRequest, public_id: str) -> HttpResponse:
    game = _get_session_for_user(request, public_id)
    names = player_names(game)
    preset = _preset(game.family, game.ruleset)
    problems: list[str] = []
    try:
        rules = _resolve(game.family, preset, game.options, names)
    except InvalidRules as error:
        problems = [_problem_text(problem) for problem in error.problems]
        rules = _resolve(game.family, preset, {}, seat_names(len(names)))
    params = _rules_params(rules, len(rules.players), len(preset.players) > 1)
    ctx = {
        **_sheet_context(game.family, rules),
        **_sheet_links(game.family, preset, params),
        "preset": preset,
        "problems": problems,
        "game": game,
        "names": names,
    }
    response = render(request, "cheatsheets/sheet.html", ctx)
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "cheatsheets/offline.html")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker script, at the site root so that its scope is the whole site."""
    assets = [*PRECACHED_STATIC]
    if settings.DEBUG:
        assets.append("django_htmx/django-htmx.js")  # {% htmx_script %} adds it in DEBUG
    ctx = {
        "version": _version(assets, [static(path) for path in assets]),
        "static_paths": assets,
        "page_urls": [reverse("offline"), reverse("rules")],
        "offline_url": reverse("offline"),
        "cached_prefixes": [reverse("rules"), reverse("offline"), reverse("manifest")],
    }
    response = render(request, "cheatsheets/sw.js", ctx, content_type="text/javascript")
    patch_cache_control(response, no_cache=True)
    return response


def _version(paths: Sequence[str], urls: Sequence[str]) -> str:
    """Changes whenever a stored static file may have: in production their URLs carry a hash
    of their content; in development the files' modification times stand in for it."""
    digest = hashlib.sha256("\n".join(urls).encode())
    for path in paths:
        found = finders.find(path)
        if isinstance(found, str):
            digest.update(str(os.stat(found).st_mtime_ns).encode())
    for folder in settings.STATICFILES_DIRS:
        for root, _, files in os.walk(str(folder)):
            for name in sorted(files):
                digest.update(str(os.stat(os.path.join(root, name)).st_mtime_ns).encode())
    return digest.hexdigest()[:12]
