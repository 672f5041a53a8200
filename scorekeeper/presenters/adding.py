"""How the adding game's results are shown: the table, the grids, messages, sheets and pads.

Everything here shapes what the rules computed (an `AddingResult`, or `AddingRules` for a
printed sheet) into rows and words for the templates in `templates/adding/`. Nothing here
scores: each function takes the result it shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from scorekeeper.models import Change, GameSession
from scorekeeper.presenters.charts import Chart, running_chart
from scorekeeper.presenters.common import (
    COINS_DRAWN,
    RECENT_ROWS,
    Board,
    BoardRow,
    StripCell,
    signed,
    winner_news,
)
from scorekeeper.presenters.sheets import PAD_ROWS, PadColumn, PadRow, shown
from scorekeeper.rules import adding
from scorekeeper.rules.adding import prose
from scorekeeper.rules.common import join_names
from scorekeeper.scoresheet import read_change

FAMILY = adding.ID  # the family this module presents
TEMPLATES = "adding"  # the folder of this family's templates


def rule_label(rule: adding.EventRule) -> str:
    """An event's button, in the active language: 'Hit 33', 'Bust' (the event's words, then
    its target)."""
    words = adding.EVENT_LABELS.get(rule.event)
    if words is None:
        return _(rule.label)
    return _(words) if rule.target is None else f"{_(words)} {rule.target}"


def event_label(rules: adding.AddingRules, event: adding.Event) -> str:
    """'Hit 33', 'Bust', 'Adjust +2' …"""
    if event.event == "adjust":
        return _("Adjust %(tokens)s") % {"tokens": signed(event.tokens or 0)}
    for rule in adding.events_for(rules):
        if (rule.event, rule.target) == (event.event, event.target):
            return rule_label(rule)
    return event.event


def _said(player: str, event: str) -> str:
    """'Ben: Hit 33'."""
    return _("%(player)s: %(event)s") % {"player": player, "event": event}


def event_said(rules: adding.AddingRules, event: adding.Event) -> str:
    """An event with its player, as the correction page lists it: 'Ben: Hit 33'."""
    return _said(event.player, event_label(rules, event))


def last_tap_message(result: adding.AddingResult) -> str:
    """What the last tap did, to everyone: 'Ben: Hit 33. Ann −1, Cat −1. Cat is out.'"""
    rules, effect = result.rules, result.rounds[-1].events[-1]
    parts = [
        _("%(player)s: %(event)s.")
        % {"player": effect.event.player, "event": event_label(rules, effect.event)}
    ]
    changes = ", ".join(
        f"{name} {signed(delta)}" for name, delta in effect.changes.items() if delta
    )
    if changes:
        parts.append(changes + ".")
    if effect.eliminated:
        out = ngettext("%(names)s is out.", "%(names)s are out.", len(effect.eliminated))
        parts.append(out % {"names": join_names(effect.eliminated)})
    if effect.wins:
        wins = ngettext("%(names)s wins!", "%(names)s win!", len(effect.wins))
        parts.append(wins % {"names": join_names(effect.wins)})
    elif effect.ends_round:
        parts.append(_("The round is over."))
    return " ".join(parts)


# A tap button's value: the seat (from 0), the event and its target, "1:hit:33" ("0:bust:").
TAP = re.compile(r"(\d{1,2}):([a-z]{1,10}):(\d{0,4})", re.ASCII)


def seat_anchor(index: int) -> str:
    """The id of the row of the player at seat `index`: a tap's answer is said there, and the
    page comes back to it."""
    return f"seat-{index + 1}"


def tap_value(index: int, rule: adding.EventRule) -> str:
    """The value of the button that records `rule`'s event for the player at seat `index`."""
    return f"{index}:{rule.event}:{rule.target or ''}"


def read_tap(value: str, players: Sequence[str]) -> tuple[int, adding.Event] | None:
    """The seat and the event a tap button's value names, or None when the value is no
    button's of a table of these players: not of tap_value's shape, or a seat nobody sits in.
    Whether the rules allow that event now is theirs to say."""
    found = TAP.fullmatch(value)
    if found is None or int(found[1]) >= len(players):
        return None
    seat, event, target = int(found[1]), found[2], found[3]
    return seat, adding.Event(
        player=players[seat], event=event, target=int(target) if target else None
    )


@dataclass(frozen=True)
class EventCell:
    """One event's place on a row: its button's value ("1:hit:33") and label, and whether the
    player may tap it now (if not, the place stays, empty, as wide and high as the button)."""

    value: str
    label: str
    open: bool


@dataclass(frozen=True)
class SeatRow:
    """One player's row at the adding-game table."""

    index: int
    name: str
    standing: adding.Standing
    tokens_label: str
    coins: tuple[bool, ...]  # tokens held (True) and lost (False), for the coin picture
    folds: int  # dollar bill: folds made so far
    # One cell per event of the session, in the same order on every row: a button where this
    # player may record that event now, else its empty place. Every row keeps its cells, so
    # that no button moves when a player goes out or sits out, or the game ends (every cell
    # empty then: the undo button below stays under the thumb that ended it).
    cells: tuple[EventCell, ...]

    @property
    def anchor(self) -> str:
        return seat_anchor(self.index)

    @property
    def buttons(self) -> tuple[EventCell, ...]:
        """The buttons this player may tap now."""
        return tuple(cell for cell in self.cells if cell.open)


# A row shows this many event buttons at most beside the player's name and tokens; a preset
# with more shows them below, on lines of their own.
BUTTONS_BESIDE = 2


def table_context(result: adding.AddingResult) -> dict[str, object]:
    """Everything the table, live and watch pages show, from the rules' result."""
    rules = result.rules
    standings = {standing.player: standing for standing in result.standings}
    allowed = {} if result.finished else result.allowed
    events = adding.events_for(rules)
    allowance = _allowance(result)
    seats = []
    for index, name in enumerate(rules.players):
        standing = standings[name]
        held = standing.tokens if standing.tokens is not None else 0
        start = rules.tokens or 0
        label = _standing_label(rules, standing)
        if allowance is not None:
            label = _("%(left)s this round, score %(score)s") % {
                "left": rules.amount(allowance[name]),
                "score": standing.total or 0,
            }
        may = {(rule.event, rule.target) for rule in allowed.get(name, ())}
        cells = tuple(
            EventCell(
                tap_value(index, rule),
                rule_label(rule),
                (rule.event, rule.target) in may,
            )
            for rule in events
            if rule.event != "adjust"
        )
        seats.append(
            SeatRow(
                index=index,
                name=name,
                standing=standing,
                tokens_label=label,
                coins=_coins(held, start) if rules.uses_tokens else (),
                folds=max(0, start - held),
                cells=cells,
            )
        )
    last = result.rounds[-1] if result.rounds else None
    return {
        "result": result,
        "preset": rules.preset,
        "seats": seats,
        "buttons_beside": len(seats[0].cells) <= BUTTONS_BESIDE,
        "round_rows": round_rows(rules, result.rounds[-RECENT_ROWS:]),
        "count_noun": count_noun(rules),
        "row_count": len(result.rounds),
        "winners_label": join_names(result.winners),
        "last_round": last,
        "can_adjust": not result.finished,
        "chart": chart(result),
        "strip": strip(result),
        "strip_label": _("%(counted)s, and the last round's change")
        % {"counted": capfirst(count_noun(rules))},
        "subtitle": _("%(title)s · to %(limit)s") % {"title": rules.title, "limit": rules.limit},
        "rules_title": rules.title,
        "state": adding.table_state(result.rounds),
    }


def _allowance(result: adding.AddingResult) -> dict[str, int] | None:
    """Wilson: the game points each player has left in the round being played (all of them,
    for the round to come), which their score gains only when the round ends; None for the
    other scorings, and once the game is over (the scores say it all)."""
    rules = result.rules
    if rules.scoring != "wilson" or result.finished:
        return None
    last = result.rounds[-1] if result.rounds else None
    if last is not None and not last.complete and last.points is not None:
        return dict(last.points)
    return dict.fromkeys(rules.players, rules.tokens or 0)


def strip(result: adding.AddingResult) -> list[StripCell]:
    """The players in seat order: their tokens (or score), and what the last round changed."""
    change: dict[str, int] = {}
    for effect in result.rounds[-1].events if result.rounds else ():
        for name, delta in effect.changes.items():
            change[name] = change.get(name, 0) + delta
    standings = {standing.player: standing for standing in result.standings}
    cells = []
    for name in result.rules.players:
        standing = standings[name]
        value = standing.tokens if standing.tokens is not None else standing.total or 0
        cells.append(
            StripCell(
                name=name,
                value=_("out") if standing.out else str(value),
                change=signed(change[name]) if change.get(name) else "",
                leads=bool(result.rounds) and standing.rank == 1 and not standing.out,
                out=standing.out,
            )
        )
    return cells


def _coins(held: int, start: int) -> tuple[bool, ...]:
    """Tokens held (True) and lost (False) for the coin picture; none past COINS_DRAWN (the
    label says how many)."""
    count = max(start, held)
    return tuple(i < held for i in range(count)) if count <= COINS_DRAWN else ()


def _standing_label(rules: adding.AddingRules, standing: adding.Standing) -> str:
    if standing.out:
        return _("out in round %(number)s") % {"number": standing.out_in_round}
    if standing.tokens is not None:
        return adding.show_tokens(rules, standing.tokens)
    return rules.amount(standing.total or 0)


def round_rows(
    rules: adding.AddingRules, rounds: Sequence[adding.RoundResult]
) -> list[dict[str, object]]:
    return [_round_row(rules, played) for played in rounds]


def _round_row(rules: adding.AddingRules, played: adding.RoundResult) -> dict[str, object]:
    after = played.tokens or played.totals or played.tally or {}
    return {
        "round": played,
        "events": [
            _said(effect.event.player, event_label(rules, effect.event)) for effect in played.events
        ],
        "after": [after.get(name) for name in rules.players],
    }


def describe_round_changes(
    before: adding.AddingResult, after: adding.AddingResult, number: int
) -> list[str]:
    """What a correction of round `number` changed, in plain sentences."""
    lines = [_("Round %(number)s corrected.") % {"number": number}]
    old = {s.player: _standing_label(before.rules, s) for s in before.standings}
    new = {s.player: _standing_label(after.rules, s) for s in after.standings}
    changed = [
        f"{name} {old[name]} → {new[name]}"
        for name in after.rules.players
        if old[name] != new[name]
    ]
    if changed:
        lines.append(_("Now: %(changes)s.") % {"changes": "; ".join(changed)})
    else:
        lines.append(_("Standings unchanged."))
    if before.winners != after.winners:
        lines.append(
            _("The game is now won by %(names)s.") % {"names": join_names(after.winners)}
            if after.finished
            else _("The game is no longer over.")
        )
    return lines


def describe_edit(
    rules: adding.AddingRules,
    shown: Sequence[adding.Event],
    remove: int | None,
    add: adding.Event | None,
    at: int | None,
) -> str:
    """What a correction did to the round's events (`shown`, as its page listed them): 'Event
    1: Ben: Bust → Cat: Bust.', 'Removed event 2: Ann: Hit 33.', 'Added as event 1: …'."""

    def said(event: adding.Event) -> str:
        return _said(event.player, event_label(rules, event))

    if remove is not None and add is not None:
        return _("Event %(number)s: %(before)s → %(after)s.") % {
            "number": remove + 1,
            "before": said(shown[remove]),
            "after": said(add),
        }
    if add is not None:
        place = len(shown) if at is None else min(at, len(shown))
        return _("Added as event %(number)s: %(event)s.") % {
            "number": place + 1,
            "event": said(add),
        }
    assert remove is not None
    return _("Removed event %(number)s: %(event)s.") % {
        "number": remove + 1,
        "event": said(shown[remove]),
    }


def chart(result: adding.AddingResult) -> Chart | None:
    """Each player's tokens (or running score, drinks, rounds won) after each round, from where
    everyone starts: the starting tokens, or 0."""

    def figure(played: adding.RoundResult, name: str) -> int:
        after = played.tokens or played.totals or played.tally or {}
        return after.get(name, 0)

    rules = result.rules
    series = {n: [figure(r, n) for r in result.rounds] for n in rules.players}
    start = rules.tokens if rules.uses_tokens and rules.tokens is not None else 0
    return running_chart(series, "round", start)


def csv_rows(result: adding.AddingResult) -> list[list[object]]:
    """The session as a table for spreadsheets: a header, then a row per round."""
    rules = result.rules
    rows: list[list[object]] = [
        [
            _("round"),
            _("dealer"),
            _("events"),
            *(_("%(name)s after") % {"name": name} for name in rules.players),
        ]
    ]
    for played in result.rounds:
        after = played.tokens or played.totals or played.tally or {}
        events = "; ".join(
            _said(effect.event.player, event_label(rules, effect.event)) for effect in played.events
        )
        rows.append(
            [played.number, played.dealer, events, *(after.get(n, "") for n in rules.players)]
        )
    return rows


def change_label(change: Change) -> str:
    """A change in the history, as a heading: 'Event in round 3', 'Corrected round 2'."""
    words = {"number": change.number, "action": change.get_action_display()}
    if change.action == "added":
        return _("Event in round %(number)s") % words
    if change.action == "deleted":
        return _("Event undone in round %(number)s") % words
    if change.action == "edited":
        return _("Corrected round %(number)s") % words
    return _("%(action)s round %(number)s") % words


def change_words(change: Change, rules: adding.AddingRules) -> tuple[list[str], list[str]]:
    """A change's before and after in words, for the history: a line per event."""
    return _stored_words(change.before, rules), _stored_words(change.after, rules)


def _stored_words(data: object, rules: adding.AddingRules) -> list[str]:
    events = None if data is None else read_change(data)
    if events is None:
        return []
    if not events:
        return [_("No events (the round was just dealt)")]
    return [_said(event.player, event_label(rules, event)) for event in events]


def played(result: adding.AddingResult) -> tuple[adding.RoundResult, ...]:
    """What the grid has a row for: every round played."""
    return result.rounds


def grid_context(
    rounds: Sequence[adding.RoundResult], result: adding.AddingResult
) -> dict[str, object]:
    """One page of the rounds grid."""
    return {"round_rows": round_rows(result.rules, rounds), "count_noun": count_noun(result.rules)}


def count_noun(rules: adding.AddingRules) -> str:
    """What the grid's columns count, in words: 'tokens left', 'folds left', 'game points'."""
    if rules.uses_tokens:
        return _("folds left") if rules.display == "dollar-bill" else _("tokens left")
    return {
        "wilson": _("game points"),
        "drinks": _("drinks"),
        "rounds": _("rounds won"),
    }.get(rules.scoring) or _(rules.units[1])


def outcome(result: adding.AddingResult) -> str:
    """The line a tap adds to the page (see last_tap_message)."""
    return last_tap_message(result)


def standing_words(result: adding.AddingResult, name: str) -> str:
    """What a seat holds now, in words: '7 tokens', '2 folds left', 'out in round 3'."""
    standing = next(standing for standing in result.standings if standing.player == name)
    return _standing_label(result.rules, standing)


# Rule sheets and score pads


@dataclass(frozen=True)
class SheetTable:
    """A card table as the cheat sheet prints it, in the active language."""

    name: str
    cells: tuple[tuple[str, str], ...]  # (rank, what it does)
    notes: str


def sheet_table(table: adding.CardTable) -> SheetTable:
    """The card table's name, rows and notes in the active language (the rules mark them)."""
    return SheetTable(
        name=shown(table.name),
        cells=tuple((shown(rank), shown(effect)) for rank, effect in table.cells),
        notes=shown(table.notes),
    )


def sheet_context(rules: adding.AddingRules) -> dict[str, object]:
    """What the rule sheet (templates/adding/sheet.html) prints, from the rules' own prose."""
    return {
        "rules": rules,
        "cards_held": prose.cards_held(rules.preset),
        "deck_line": prose.deck_line(rules),
        "card_table": sheet_table(adding.CARD_TABLES[rules.card_table]),
        "token_lines": prose.token_lines(rules),
        "fold_steps": prose.fold_steps(rules),
        "events": [prose.describe_event(rules, rule) for rule in adding.events_for(rules)],
        "round_lines": prose.round_lines(rules),
        "bust_line": prose.bust_line(rules),
        "on_69": prose.on_69_line(rules),
    }


def pad_context(rules: adding.AddingRules) -> dict[str, object]:
    """One row per round: who dealt and what happened; per player what they hold after it
    (Wilson: the round's points and the running score; the 98s: this round's drinks or win)."""
    if rules.scoring == "wilson":
        hand_columns = [
            PadColumn(_("Round"), _("Game points left this round")),
            PadColumn(_("Score"), ""),
        ]
    elif rules.scoring == "drinks":
        hand_columns = [PadColumn(_("Drinks"), _("Drinks this round"))]
    elif rules.scoring == "rounds":
        won = pgettext("pad column: the round's winner", "Won")
        hand_columns = [PadColumn(won, _("Tick the round's winner"))]
    elif rules.display == "dollar-bill":
        hand_columns = [PadColumn(_("Left"), _("Folds left after the round"))]
    else:
        hand_columns = [PadColumn(_("Left"), _("Tokens left after the round"))]
    deal_columns = [
        PadColumn(_("Dealer"), _("Who dealt"), "l"),
        PadColumn(_("Events"), _("What happened: bust, hit 33 …"), "xl"),
    ]
    rows = [PadRow(number, ("", "")) for number in range(1, PAD_ROWS + 1)]
    return {
        "summary": prose.pad_lines(rules),
        "rows": rows,
        "more": 0,
        "deal_columns": deal_columns,
        "hand_columns": hand_columns,
        "hands": [("", False)] * len(rules.players),
        "footers": [_("Total")] if rules.scoring in ("drinks", "rounds") else [],
        "row_noun": _("Round"),
        "row_size": "",
        "start": str(rules.tokens) if rules.uses_tokens else "",
    }


# The table display


def board(result: adding.AddingResult) -> Board:
    """The standings in big numbers (the table display): tokens left (or totals), who is
    out, and the round to come."""
    rules = result.rules
    rows = tuple(
        BoardRow(
            rank=standing.rank,
            name=standing.player,
            figure=_("out")
            if standing.out
            else str(standing.tokens if standing.tokens is not None else standing.total or 0),
            note=_("in round %(number)s") % {"number": standing.out_in_round}
            if standing.out
            else "",
            won=standing.player in result.winners,
            out=standing.out,
        )
        for standing in result.standings
    )
    if not rules.uses_tokens:
        label = _("Total")
    elif rules.display == "dollar-bill":
        label = _("Folds left")
    else:
        label = _("Tokens left")
    if result.finished:
        return Board(label, rows, news=winner_news(result.winners))
    if result.next is None:
        return Board(label, rows)
    facts = ((_("Round"), str(result.next.number)), (_("Dealer"), result.next.dealer))
    return Board(label, rows, facts)


# The count assistant (rules/adding/count.py; its writes are services/count.py)

# The panel lists the round's last SHOWN_CARDS cards and says how many came before, so that
# what a page costs is bounded by what it shows, not by how long the round has gone on.
SHOWN_CARDS = 12

DIRECTIONS = {
    adding.count.CLOCKWISE: ("↻", gettext_noop("Clockwise")),
    adding.count.COUNTER_CLOCKWISE: ("↺", gettext_noop("Counter-clockwise")),
}


@dataclass(frozen=True)
class CounterCard:
    """One button of the card grid: the card's id (what the button sends), its label in the
    active language ("K", "R" in French) and whether it asks."""

    id: str
    label: str
    asks: bool


@dataclass(frozen=True)
class CounterPlay:
    """One card played this round, as the panel lists it."""

    card: str  # "10 (−10)", "A (11)", "5 → Cy"
    player: str
    total: int
    reset: bool


@dataclass(frozen=True)
class Counter:
    """The count as a page shows it: large total, direction, whose turn, the round's last
    SHOWN_CARDS cards and how many came before them; for a scorer, the card grid, the
    question a card asks, and the events proposed."""

    round: int | None
    dealer: str
    total: int
    arrow: str
    direction: str
    turn: str  # "Ben to play", "Ben plays 2 cards in a row", or "" once nobody is left
    plays: tuple[CounterPlay, ...]  # the last SHOWN_CARDS cards of the round
    proposals: tuple[tuple[int, str], ...]  # (index, sentence)
    refused: str | None
    cards: tuple[CounterCard, ...]
    question: str = ""  # the question of the card asked about ("A: count it as?")
    asked: str = ""  # that card, in the active language ("R")
    choices: tuple[tuple[str, str], ...] = ()  # (button value "A|11", label "11")
    wide: bool = False  # many choices (a total from 0 to 100): a denser grid
    earlier: int = 0  # the cards of the round before those listed


def _play_label(table: adding.CardTable, play: adding.count.Play) -> str:
    """ "K", "A (11)", "10 (+10)" where the card may take away, "5 → Cat" (who plays next)."""
    words = adding.cards.card_words(play.card)
    if play.choice is None:
        return words
    if isinstance(play.choice, str):
        return f"{words} → {play.choice}"
    card = table.card(play.card)
    signed = card is not None and any(value < 0 for value in card.effect.values)
    return f"{words} ({adding.cards.number_words(play.choice, signed)})"


def _question(card: str, words: str) -> str:
    """ "A: count it as?", "5: who plays next?" (`words` in the active language)."""
    asked = {"card": card, "question": f"{words[0].lower()}{words[1:]}"}
    if words.endswith("?"):
        return _("%(card)s: %(question)s") % asked
    return _("%(card)s: %(question)s?") % asked


def counter(
    rules: adding.AddingRules,
    count: adding.Count | None,
    proposals: Sequence[adding.Proposal] = (),
    refused: str | None = None,
    ask: str = "",
) -> Counter:
    """Shape the count for the page; `ask`: the card whose one more input is asked for."""
    table = adding.CARD_TABLES[rules.card_table]
    cards = tuple(
        CounterCard(card.id, adding.cards.card_words(card.id), card.effect.asks is not None)
        for card in table.cards
    )
    listed = tuple(enumerate(proposal.sentence for proposal in proposals))
    if count is None:
        return Counter(None, "", 0, "", "", "", (), listed, refused, cards)
    arrow, direction = DIRECTIONS[count.direction]
    turn = count.turn
    turn_words = ""
    if turn is not None:
        turn_words = (
            ngettext(
                "%(player)s plays %(count)s card in a row",
                "%(player)s plays %(count)s cards in a row",
                count.owes,
            )
            % {"player": turn, "count": count.owes}
            if count.owes > 1
            else turn
        )
    plays = tuple(
        CounterPlay(_play_label(table, play), play.player, play.total, play.reset)
        for play in count.plays[-SHOWN_CARDS:]
    )
    shown = Counter(
        count.round,
        count.dealer,
        count.total,
        arrow,
        _(direction),
        turn_words,
        plays,
        listed,
        refused,
        cards,
        earlier=max(len(count.plays) - SHOWN_CARDS, 0),
    )
    found = table.card(ask) if ask else None
    if found is None or found.effect.asks is None or turn is None:
        return shown
    offered = adding.card_choices(rules, count, found.id)
    if len(offered) < 2:
        return shown
    return replace(
        shown,
        question=_question(
            adding.cards.card_words(found.id), _(adding.cards.QUESTIONS[found.effect.asks])
        ),
        asked=adding.cards.card_words(found.id),
        choices=tuple((f"{found.id}|{value}", label) for value, label in offered),
        wide=len(offered) > 12,
    )


def counter_context(
    session: GameSession, result: adding.AddingResult, ask: str = ""
) -> dict[str, object]:
    """The count of a session whose table has used the counter, for its pages (the table,
    the live region, the table display); {} for one whose table has not. The rules are the
    result's: those it was scored with, at the session's version."""
    if session.counter is None:
        return {}
    now = adding.read_pile(session.counter, result.rules, result)
    return {
        "counter": counter(result.rules, now.count, now.proposals, now.refused, ask),
        "counter_template": "adding/counter_display.html",
    }


def stale(session: GameSession, result: adding.AddingResult, since: str) -> bool:
    """Whether a scoring phone's page, drawn at table state `since` (its tap form's), is
    behind the events recorded since. A card counted on another phone is not: the counter
    follows it live (the live region brings it out of band)."""
    return since not in ("", adding.table_state(result.rounds))
