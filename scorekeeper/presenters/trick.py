"""How the trick game's results are shown: the table, the grids, messages, sheets and pads.

Everything here shapes what the rules computed (a `SessionResult`, or `TrickRules` for a
printed sheet) into rows and words for the templates in `templates/trick/`. Nothing here
scores: each function takes the result it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scorekeeper.models import Change, GameSession
from scorekeeper.presenters.charts import Chart, running_chart
from scorekeeper.presenters.common import (
    RECENT_ROWS,
    Board,
    BoardRow,
    StripCell,
    signed,
    winner_news,
)
from scorekeeper.presenters.sheets import (
    PAD_MAX_ROWS,
    PAD_ROWS,
    PadColumn,
    PadRow,
    row_size,
    shown,
)
from scorekeeper.rules import trick
from scorekeeper.rules.common import InvalidRules, join_names
from scorekeeper.rules.trick import prose
from scorekeeper.scoresheet import read_deal

FAMILY = trick.ID  # the family this module presents
TEMPLATES = "trick"  # the folder of this family's templates


def trump_words(trump: str | None) -> str:
    """A trump as people read it, in the active language: '♦ Diamonds', 'No trump'."""
    return shown(trick.trump_label(trump))


def hand_name(name: str) -> str:
    """A hand as people read it, in the active language: the player's name, or "Dummy"."""
    return _(trick.DUMMY_LABEL) if name == trick.DUMMY else name


def _made_it(made: Sequence[str]) -> str:
    """'Ann made it', 'Ann and Ben made it' (say 'nobody' elsewhere)."""
    return ngettext("%(names)s made it", "%(names)s made it", len(made)) % {
        "names": join_names(made)
    }


@dataclass(frozen=True)
class Cell:
    """One hand in the deal grid, its words worked out here once (the grid is the table page's
    most repeated markup: each lookup in a template costs more than the whole of this)."""

    points: str  # "+23", "0", "-2"
    bid_tricks: str  # bid/tricks won: "3/3", "?/6" (bid kept hidden)
    made: bool
    premium: str  # the premium bid, or ""
    premium_letter: str  # what the grid shows of it: "R"
    total: str  # the running total, as shown (a number in a template goes through its formats)

    @classmethod
    def of(cls, hand: trick.HandResult, total: int) -> Cell:
        bid = "?" if hand.bid is None else str(hand.bid)
        premium = hand.premium_bid or ""
        return cls(
            points=signed(hand.points),
            bid_tricks=f"{bid}/{hand.tricks}",
            made=hand.made,
            premium=premium,
            premium_letter=premium[:1].upper(),
            total=str(total),
        )


@dataclass(frozen=True)
class Row:
    number: str  # the deal's number, as shown and linked
    dealer_label: str  # "Ann deals"
    correct_label: str  # "Correct deal 3", the deal number's link for a scorer
    trump_label: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class GameRow:
    number: int
    last_deal: int
    winner_label: str
    bonus_label: str
    points_label: str


def _scores_label(scores: dict[str, int] | None) -> str:
    return ", ".join(f"{name} {value}" for name, value in (scores or {}).items() if value)


def deal_rows(deals: Sequence[trick.DealResult]) -> list[Row]:
    """One row per deal: each hand's result with the running total, in seat order."""
    return [
        Row(
            number=str(deal.number),
            dealer_label=_("%(dealer)s deals") % {"dealer": deal.dealer},
            correct_label=_("Correct deal %(number)s") % {"number": deal.number},
            trump_label=trump_words(deal.trump),
            cells=tuple(Cell.of(hand, deal.totals[hand.player]) for hand in deal.hands),
        )
        for deal in deals
    ]


def game_rows(result: trick.SessionResult) -> list[GameRow]:
    return [
        GameRow(
            number=game.number,
            last_deal=game.last_deal,
            winner_label=join_names(game.winner),
            bonus_label=_scores_label(game.bonuses),
            points_label=_scores_label(game.game_points),
        )
        for game in result.games
    ]


def table_context(result: trick.SessionResult) -> dict[str, object]:
    """Everything the table, live and watch pages show, from the rules' result."""
    rules = result.rules
    return {
        "result": result,
        "preset": rules.preset,
        "rows": deal_rows(result.deals[-RECENT_ROWS:]),
        "row_count": len(result.deals),
        "columns": hand_columns(result),
        "games": game_rows(result),
        "winners_label": join_names(result.winners),
        "next_trump": trump_words(result.next.trump) if result.next else "",
        "subtitle": _subtitle(rules),
        "rules_title": rules.title,
        "dummy_total": result.totals.get(trick.DUMMY) if rules.dummy else None,
        "dummy_label": _(trick.DUMMY_LABEL),
        "games_won": _games_won_label(result),
        "chart": chart(result),
        "strip": strip(result),
        "strip_label": _("Total points, and the last deal's"),
        **_last_deal(result),
    }


def strip(result: trick.SessionResult) -> list[StripCell]:
    """The players in seat order: their total, and the points of the last deal."""
    last = {h.player: h.points for h in result.deals[-1].hands} if result.deals else {}
    ranks = {standing.player: standing.rank for standing in result.standings}
    return [
        StripCell(
            name=name,
            value=str(result.totals[name]),
            change=signed(last[name]) if name in last else "",
            leads=bool(result.deals) and ranks[name] == 1,
        )
        for name in result.rules.players
    ]


def _games_won_label(result: trick.SessionResult) -> str:
    """ "Games won: Ann 1, Ben 2" (or game bonuses held), for the current match state."""
    won = ", ".join(f"{s.player} {s.games_won}" for s in result.standings if s.games_won)
    if not won:
        return ""
    if result.rules.match.type == "game-bonus":
        return _("Game bonuses held: %(scores)s") % {"scores": won}
    return _("Games won: %(scores)s") % {"scores": won}


def _last_deal(result: trick.SessionResult) -> dict[str, object]:
    if not result.deals:
        return {"last_deal": None}
    deal = result.deals[-1]
    made = [hand_name(h.player) for h in deal.hands if h.made]
    return {
        "last_deal": deal,
        "last_deal_made": _made_it(made) if made else _("nobody made it"),
        "last_deal_rows": [
            {"label": hand_name(h.player), "hand": h, "text": breakdown(h)} for h in deal.hands
        ],
    }


def hand_columns(result: trick.SessionResult) -> list[str]:
    """Column headings of the deal grid: the players in seat order, then the dummy."""
    return [hand_name(name) for name in result.rules.hands]


def deal_saved_message(deal: trick.DealResult, *, again: bool = False) -> str:
    """What the table hears after a deal: who made it, the points, and any game news.
    `again`: the form had already been stored (it was sent a second time, after an answer
    that never reached the phone): the same news, saying that it is stored once."""
    made = [hand_name(h.player) for h in deal.hands if h.made]
    words = {
        "number": deal.number,
        "names": join_names(made),
        "points": ", ".join(f"{hand_name(h.player)} {signed(h.points)}" for h in deal.hands),
    }
    if made and again:
        saved = ngettext(
            "Deal %(number)s saved (sent again, stored once). %(names)s made it: %(points)s.",
            "Deal %(number)s saved (sent again, stored once). %(names)s made it: %(points)s.",
            len(made),
        )
    elif made:
        saved = ngettext(
            "Deal %(number)s saved. %(names)s made it: %(points)s.",
            "Deal %(number)s saved. %(names)s made it: %(points)s.",
            len(made),
        )
    elif again:
        saved = _("Deal %(number)s saved (sent again, stored once). Nobody made it: %(points)s.")
    else:
        saved = _("Deal %(number)s saved. Nobody made it: %(points)s.")
    return " ".join([saved % words, *deal.announcements])


def breakdown(hand: trick.HandResult) -> str:
    """How a hand's points for a deal were made up, e.g. "4 tricks + 20 bonus + 60 premium"."""
    parts = [
        (value, words)
        for value, words in [
            (
                hand.trick_points,
                ngettext("%(count)s trick", "%(count)s tricks", abs(hand.trick_points)),
            ),
            (hand.bonus, _("%(count)s bonus")),
            (hand.premium, _("%(count)s premium")),
            (hand.miss, _("%(count)s missed")),
            (hand.game_bonus, _("%(count)s game bonus")),
            (hand.rubber_bonus, _("%(count)s rubber bonus")),
        ]
        if value
    ]
    if not parts:
        return "0"
    text = ""
    for position, (value, words) in enumerate(parts):
        part = words % {"count": abs(value)}
        if position == 0:
            text = f"{'−' if value < 0 else ''}{part}"
        else:
            text += f" {'−' if value < 0 else '+'} {part}"
    return text


def describe_changes(
    before: trick.SessionResult, after: trick.SessionResult, number: int
) -> list[str]:
    """What a correction of deal `number` changed, in plain sentences."""
    lines = [_("Deal %(number)s corrected.") % {"number": number}]
    trumps = [
        _("deal %(number)s %(old)s → %(new)s")
        % {"number": new.number, "old": trump_words(old.trump), "new": trump_words(new.trump)}
        for old, new in zip(before.deals, after.deals, strict=True)
        if old.trump != new.trump
    ]
    if trumps:
        lines.append(_("Trump changed: %(changes)s.") % {"changes": "; ".join(trumps)})
    totals = [
        f"{hand_name(name)} {before.totals[name]} → {after.totals[name]}"
        for name in after.rules.hands
        if before.totals[name] != after.totals[name]
    ]
    if totals:
        lines.append(_("Totals now: %(totals)s.") % {"totals": ", ".join(totals)})
    else:
        lines.append(_("Totals unchanged."))
    if before.finished != after.finished or before.winners != after.winners:
        if after.finished:
            lines.append(
                _("The session is now won by %(names)s.") % {"names": join_names(after.winners)}
            )
        else:
            lines.append(_("The session is no longer finished."))
    return lines


def chart(result: trick.SessionResult) -> Chart | None:
    series = {hand_name(n): [deal.totals[n] for deal in result.deals] for n in result.rules.hands}
    return running_chart(series, "deal")


def csv_rows(result: trick.SessionResult) -> list[list[object]]:
    """The session as a table for spreadsheets: a header, then a row per deal. Per hand: the
    bid (blank when kept hidden), tricks, "made" or "failed", the premium bid made, points."""
    names = [hand_name(n) for n in result.rules.hands]
    header: list[object] = [_("deal"), _("dealer"), _("leader"), _("trump")]
    for name in names:
        words = {"name": name}
        header += [
            _("%(name)s bid") % words,
            _("%(name)s tricks") % words,
            _("%(name)s made") % words,
            _("%(name)s premium") % words,
            _("%(name)s points") % words,
        ]
    header += [_("%(name)s total") % {"name": name} for name in names]
    rows = [header]
    for deal in result.deals:
        row: list[object] = [deal.number, deal.dealer, deal.leader, deal.trump]
        for hand in deal.hands:
            bid = "" if hand.bid is None else hand.bid
            made = _("made") if hand.made else _("failed")
            row += [bid, hand.tricks, made, hand.premium_bid or "", hand.points]
        row += [deal.totals[name] for name in result.rules.hands]
        rows.append(row)
    return rows


def change_label(change: Change) -> str:
    """A change in the history, as a heading: 'Entered deal 3', 'Extended'."""
    if not change.number:
        return str(change.get_action_display())
    words = {"number": change.number, "action": change.get_action_display()}
    if change.action == "added":
        return _("Entered deal %(number)s") % words
    if change.action == "edited":
        return _("Corrected deal %(number)s") % words
    if change.action == "deleted":
        return _("Deal %(number)s undone") % words
    return _("%(action)s deal %(number)s") % words


def change_words(change: Change, rules: trick.TrickRules) -> tuple[list[str], list[str]]:
    """A change's before and after in words, for the history: a line per hand of the deal, or
    how the session ends for an extension."""
    return _stored_words(change.before, rules), _stored_words(change.after, rules)


def _stored_words(data: object, rules: trick.TrickRules) -> list[str]:
    if data is None:
        return []
    deal = read_deal(data)
    if deal is not None:
        return entry_words(deal)
    if isinstance(data, dict):  # an extension keeps the options before and after
        try:
            match = trick.resolve_rules(rules.preset.id, data, rules.players).match
        except InvalidRules:
            return []
        return [_("Match: %(match)s") % {"match": match.describe()}]
    return []


def entry_words(deal: trick.DealEntry) -> list[str]:
    """A deal as entered, in words: 'Trump: ♥ Hearts', 'Ann: 3 tricks, bid 3', …"""
    lines = [_("Trump: %(trump)s") % {"trump": trump_words(deal.trump)}] if deal.trump else []
    return lines + [
        _("%(hand)s: %(words)s") % {"hand": hand_name(name), "words": hand_words(h)}
        for name, h in deal.hands.items()
    ]


def hand_words(hand: trick.HandEntry) -> str:
    """'3 tricks, bid 3', '0 tricks, bid ♦♦♦ (0)', '3 tricks, failed (bid kept hidden)'."""
    parts = [ngettext("%(count)s trick", "%(count)s tricks", hand.tricks) % {"count": hand.tricks}]
    if hand.bid_cards:
        cards = trick.cards_text(trick.letters_from_cards(hand.bid_cards))
        parts.append(
            _("bid %(cards)s (%(bid)s)")
            % {"cards": cards, "bid": trick.bid_from_cards(hand.bid_cards)}
        )
    elif hand.bid is not None:
        parts.append(_("bid %(bid)s") % {"bid": hand.bid})
    elif hand.made is not None:
        parts.append(_("made (bid kept hidden)") if hand.made else _("failed (bid kept hidden)"))
    if hand.premium == "declare":
        parts.append(_("Declare premium"))
    elif hand.premium == "reveal":
        parts.append(_("Reveal premium"))
    elif hand.premium:
        premium = trick.PREMIUM_LABELS.get(hand.premium, hand.premium)
        parts.append(_("%(premium)s premium") % {"premium": _(premium)})
    return ", ".join(parts)


def played(result: trick.SessionResult) -> tuple[trick.DealResult, ...]:
    """What the grid has a row for: every deal played."""
    return result.deals


def grid_context(
    deals: Sequence[trick.DealResult], result: trick.SessionResult
) -> dict[str, object]:
    """One page of the deal grid."""
    return {"rows": deal_rows(deals), "columns": hand_columns(result)}


def outcome(result: trick.SessionResult) -> str:
    """The line a saved deal adds to the page (see deal_saved_message)."""
    return deal_saved_message(result.deals[-1])


def standing_words(result: trick.SessionResult, name: str) -> str:
    """What a seat holds now, in words: '123 points', '123 points, 45 in this game'."""
    total = result.totals[name]
    if result.current_game_scores is not None and not result.finished:
        return ngettext(
            "%(total)s point, %(game)s in this game",
            "%(total)s points, %(game)s in this game",
            total,
        ) % {"total": total, "game": result.current_game_scores[name]}
    return ngettext("%(total)s point", "%(total)s points", total) % {"total": total}


# Rule sheets and score pads


def sheet_context(rules: trick.TrickRules) -> dict[str, object]:
    """What the rule sheet (templates/trick/sheet.html) prints, from the rules' own prose."""
    return {
        "rules": rules,
        "deck_line": prose.deck_line(rules),
        "table_line": prose.table_line(rules),
        "bid_cards": [replace(suit, title=shown(suit.title)) for suit in trick.BID_SUITS],
        "bid_examples": prose.bid_examples(),
        "bonus_cells": prose.bonus_cells(rules),
        "flat_bonus": len(set(rules.bonus)) == 1,
        "premiums": prose.premium_rows(rules),
        "declare_points": trick.PREMIUM_POINTS["declare"],
        "dummy_points": trick.DUMMY_DECLARER_POINTS,
        "best": prose.best_deal(rules),
        "trump_lines": prose.trump_lines(rules),
        "trump_chain": prose.trump_chain(rules),
        "match_lines": prose.match_lines(rules),
        "deal_line": prose.deal_line(rules),
        "rotation": prose.rotation(rules),
    }


def pad_context(rules: trick.TrickRules) -> dict[str, object]:
    """One row per deal: who deals (by seat), the trump where the rules know it, the premium
    bid and what the next trump depends on; per hand: bid, tricks won, points (up to four
    hands; five do not fit on the page) and running total."""
    wanted = rules.match.deals if rules.match.type == "deals" and rules.match.deals else PAD_ROWS
    deal_columns = [
        PadColumn(_("Dealer"), _("Seat of the dealer"), "m"),
        PadColumn(_("Trump"), _("Trump"), "m"),
    ]
    if rules.premiums:
        deal_columns.append(PadColumn(_("Premium"), _("Who declared (D) or revealed (R)"), "l"))
    if rules.trump == "by-successes":
        deal_columns.append(PadColumn(_("Made"), _("How many made their bid"), "m"))
    elif rules.trump == "by-deviation":
        deal_columns.append(PadColumn(_("Missed"), _("Tricks missed, all players"), "m"))
    first_trump = {"by-successes": rules.first_trump, "by-deviation": trick.TRUMP_BY_COUNT[0]}
    rows = []
    for index in range(min(wanted, PAD_MAX_ROWS)):
        dealer, _leader = trick.seat(rules, index)
        trump = first_trump.get(rules.trump) if index == 0 else None
        shown = trick.symbol(trump) or _("NT") if trump else ""
        cells = [str(rules.players.index(dealer) + 1), shown]
        rows.append(PadRow(index + 1, (*cells, *[""] * (len(deal_columns) - 2))))
    hand_columns = [
        PadColumn(_("Bid"), _("Bid"), "s"),
        PadColumn(pgettext("pad column: tricks won", "Won"), _("Tricks won"), "s"),
    ]
    if len(rules.hands) <= 4:
        hand_columns.append(PadColumn(_("Pts"), _("Points this deal"), "m"))
    hand_columns.append(PadColumn(_("Total"), _("Running total")))
    hands = [("", False)] * len(rules.players) + (
        [(_(trick.DUMMY_LABEL), True)] if rules.dummy else []
    )
    footers = []
    if rules.match.has_games:
        footers.append(_("Game bonuses") if rules.match.type == "game-bonus" else _("Games won"))
    if rules.preset.game_points:
        footers.append(_("Game points"))
    return {
        "summary": prose.pad_lines(rules),
        "rows": rows,
        "more": max(0, wanted - PAD_MAX_ROWS),
        "deal_columns": deal_columns,
        "hand_columns": hand_columns,
        "hands": hands,
        "footers": footers,
        "row_noun": _("Deal"),
        "start": "",
        "row_size": row_size(len(rows)),
    }


# The table display


def board(result: trick.SessionResult) -> Board:
    """The standings in big numbers (the table display): totals, and the deal to come."""
    rules, coming = result.rules, result.next
    rows = tuple(
        BoardRow(
            rank=standing.rank,
            name=standing.player,
            figure=str(standing.total),
            note=""
            if standing.game_score is None
            else _("Game %(number)s: %(score)s")
            % {"number": result.current_game, "score": standing.game_score},
            won=standing.player in result.winners,
        )
        for standing in result.standings
    )
    if result.finished:
        return Board(_("Total"), rows, news=winner_news(result.winners))
    if coming is None:
        return Board(_("Total"), rows)
    deals = rules.match.deals if rules.match.type == "deals" else None
    trump = trump_words(coming.trump)
    facts = (
        (
            _("Deal"),
            _("%(number)s of %(deals)s") % {"number": coming.number, "deals": deals}
            if deals
            else str(coming.number),
        ),
        (_("Dealer"), coming.dealer),
        (_("Leads"), coming.leader),
        (
            _("Trump"),
            _("%(trump)s unless someone declares") % {"trump": trump}
            if coming.unless_declared
            else trump,
        ),
    )
    return Board(_("Total"), rows, facts)


def _subtitle(rules: trick.TrickRules) -> str:
    """ "Classic Ninety-Nine · 9 deals; the highest total wins.", or with house rules "Classic
    Ninety-Nine, house rules: trump named by the declarer · 9 deals; …" (a changed match is
    said once, among the house rules)."""
    if "match" in rules.overrides_data():
        return rules.title
    return f"{rules.title} · {rules.match.describe()}"


def counter_context(
    session: GameSession, result: trick.SessionResult, ask: str = ""
) -> dict[str, object]:
    """The adding game's count assistant has no counterpart here: nothing to show."""
    return {}


def stale(session: GameSession, result: trick.SessionResult, since: str) -> bool:
    """Whether a scoring phone's page, drawn at version `since`, is behind the session."""
    return since not in ("", str(session.version))
