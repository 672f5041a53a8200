"""Shape rules results for templates: plain rows and labels, no scoring here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.core.paginator import Page, Paginator

from scorekeeper.rules import adding, trick
from scorekeeper.rules.common import join_names

# The table page shows the latest deals or rounds; a page of its own shows them all, so that
# what a page costs is bounded by what it shows (RULES.md §3, Bounds).
RECENT_ROWS = 12
GRID_PAGE_ROWS = 100
CHART_POINTS = 60  # the most points a chart line draws
COINS_DRAWN = 12  # more tokens than this are told in words only

SUIT_SYMBOLS = {"clubs": "♣", "hearts": "♥", "spades": "♠", "diamonds": "♦", "none": ""}
TRUMP_NAMES = {
    "clubs": "Clubs",
    "hearts": "Hearts",
    "spades": "Spades",
    "diamonds": "Diamonds",
    "none": "No trump",
}


@dataclass(frozen=True)
class Cell:
    hand: trick.HandResult
    total: int

    @property
    def bid_label(self) -> str:
        return "?" if self.hand.bid is None else str(self.hand.bid)


@dataclass(frozen=True)
class Row:
    deal: trick.DealResult
    cells: tuple[Cell, ...]

    @property
    def trump_label(self) -> str:
        return trump_label(self.deal.trump)


@dataclass(frozen=True)
class GameRow:
    number: int
    last_deal: int
    winner_label: str
    bonus_label: str
    points_label: str


def _scores_label(scores: dict[str, int] | None) -> str:
    return ", ".join(f"{name} {value}" for name, value in (scores or {}).items() if value)


def trump_label(trump: str | None) -> str:
    if trump is None:
        return "Table decides"
    symbol = SUIT_SYMBOLS[trump]
    return f"{symbol} {TRUMP_NAMES[trump]}" if symbol else TRUMP_NAMES[trump]


def deal_rows(deals: Sequence[trick.DealResult]) -> list[Row]:
    """One row per deal: each hand's result with the running total, in seat order."""
    return [
        Row(deal, tuple(Cell(hand, deal.totals[hand.player]) for hand in deal.hands))
        for deal in deals
    ]


def grid_page(rows: Sequence[T], number: str | None) -> Page:
    """One page of a whole grid, GRID_PAGE_ROWS rows; the last page unless asked."""
    paginator = Paginator(rows, GRID_PAGE_ROWS)
    return paginator.get_page(number or paginator.num_pages)


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


def session_context(result: trick.SessionResult) -> dict[str, object]:
    """Everything the session page shows, from the rules' result."""
    rules = result.rules
    return {
        "result": result,
        "preset": rules.preset,
        "rows": deal_rows(result.deals[-RECENT_ROWS:]),
        "row_count": len(result.deals),
        "columns": hand_columns(result),
        "games": game_rows(result),
        "winners_label": join_names(result.winners),
        "next_trump": trump_label(result.next.trump) if result.next else "",
        "dummy_total": result.totals.get(trick.DUMMY) if rules.dummy else None,
        "games_won": _games_won_label(result),
        "chart": trick_chart(result),
        **_last_deal(result),
    }


def _games_won_label(result: trick.SessionResult) -> str:
    """ "Games won: Ann 1, Ben 2" (or game bonuses held), for the current match state."""
    won = ", ".join(f"{s.player} {s.games_won}" for s in result.standings if s.games_won)
    if not won:
        return ""
    heading = "Game bonuses held" if result.rules.match.type == "game-bonus" else "Games won"
    return f"{heading}: {won}"


def _last_deal(result: trick.SessionResult) -> dict[str, object]:
    if not result.deals:
        return {"last_deal": None}
    deal = result.deals[-1]
    made = [hand_label(h.player) for h in deal.hands if h.made]
    return {
        "last_deal": deal,
        "last_deal_made": f"{join_names(made)} made it" if made else "nobody made it",
        "last_deal_rows": [
            {"label": hand_label(h.player), "hand": h, "text": breakdown(h)} for h in deal.hands
        ],
    }


def hand_columns(result: trick.SessionResult) -> list[str]:
    """Column headings of the deal grid: the players in seat order, then the dummy."""
    return list(result.rules.hands)


def hand_label(name: str) -> str:
    return "Dummy" if name == trick.DUMMY else name


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def deal_saved_message(deal: trick.DealResult) -> str:
    """What the table hears after a deal: who made it, the points, and any game news."""
    made = [hand_label(h.player) for h in deal.hands if h.made]
    who = f"{join_names(made)} made it" if made else "Nobody made it"
    points = ", ".join(f"{hand_label(h.player)} {_signed(h.points)}" for h in deal.hands)
    return " ".join([f"Deal {deal.number} saved. {who}: {points}.", *deal.announcements])


def breakdown(hand: trick.HandResult) -> str:
    """How a hand's points for a deal were made up, e.g. "4 tricks + 20 bonus + 60 premium"."""
    parts = [
        (value, name)
        for value, name in [
            (hand.trick_points, "tricks"),
            (hand.bonus, "bonus"),
            (hand.premium, "premium"),
            (hand.miss, "missed"),
            (hand.game_bonus, "game bonus"),
            (hand.rubber_bonus, "rubber bonus"),
        ]
        if value
    ]
    if not parts:
        return "0"
    text = ""
    for position, (value, name) in enumerate(parts):
        sign = "−" if value < 0 else "+"
        if position == 0:
            text = f"{'−' if value < 0 else ''}{abs(value)} {name}"
        else:
            text += f" {sign} {abs(value)} {name}"
    return text


def describe_changes(
    before: trick.SessionResult, after: trick.SessionResult, number: int
) -> list[str]:
    """What a correction of deal `number` changed, in plain sentences."""
    lines = [f"Deal {number} corrected."]
    trumps = [
        f"deal {new.number} {trump_label(old.trump)} → {trump_label(new.trump)}"
        for old, new in zip(before.deals, after.deals, strict=True)
        if old.trump != new.trump
    ]
    if trumps:
        lines.append("Trump changed: " + "; ".join(trumps) + ".")
    totals = [
        f"{hand_label(name)} {before.totals[name]} → {after.totals[name]}"
        for name in after.rules.hands
        if before.totals[name] != after.totals[name]
    ]
    lines.append(("Totals now: " + ", ".join(totals) + ".") if totals else "Totals unchanged.")
    if before.finished != after.finished or before.winners != after.winners:
        if after.finished:
            lines.append(f"The session is now won by {join_names(after.winners)}.")
        else:
            lines.append("The session is no longer finished.")
    return lines


def entry_initial(rules: trick.TrickRules, entry: trick.DealEntry) -> dict[str, object]:
    """A stored deal as the entry form's initial values."""
    letters = {"diamonds": "D", "spades": "S", "hearts": "H", "clubs": "C"}
    initial: dict[str, object] = {"trump": entry.trump or ""}
    for index, name in enumerate(rules.hands):
        hand = entry.hands[name]
        initial[f"h{index}-tricks"] = hand.tricks
        initial[f"h{index}-bid"] = hand.bid
        initial[f"h{index}-cards"] = "".join(letters[s] for s in hand.bid_cards or ())
        initial[f"h{index}-made"] = {True: "made", False: "failed", None: ""}[hand.made]
        initial[f"h{index}-premium"] = hand.premium or ""
    return initial


# The adding game


def event_label(rules: adding.AddingRules, event: adding.Event) -> str:
    """'Hit 33', 'Bust', 'Adjust +2' …"""
    if event.event == "adjust":
        return f"Adjust {_signed(event.tokens or 0)}"
    for rule in adding.events_for(rules):
        if (rule.event, rule.target) == (event.event, event.target):
            return rule.label
    return event.event


def last_tap_message(result: adding.AddingResult) -> str:
    """What the last tap did, to everyone: 'Ben: Hit 33. Ann −1, Cat −1. Cat is out.'"""
    rules, effect = result.rules, result.rounds[-1].events[-1]
    parts = [f"{effect.event.player}: {event_label(rules, effect.event)}."]
    changes = ", ".join(
        f"{name} {_signed(delta)}" for name, delta in effect.changes.items() if delta
    )
    if changes:
        parts.append(changes + ".")
    if effect.eliminated:
        verb = "is" if len(effect.eliminated) == 1 else "are"
        parts.append(f"{join_names(effect.eliminated)} {verb} out.")
    if effect.wins:
        parts.append(f"{join_names(effect.wins)} {'wins' if len(effect.wins) == 1 else 'win'}!")
    elif effect.ends_round:
        parts.append("The round is over.")
    return " ".join(parts)


@dataclass(frozen=True)
class SeatRow:
    """One player's row at the adding-game table."""

    index: int
    name: str
    standing: adding.Standing
    tokens_label: str
    coins: tuple[bool, ...]  # tokens held (True) and lost (False), for the coin picture
    folds: int  # dollar bill: folds made so far
    buttons: tuple[tuple[str, str], ...]  # (value, label) of the event buttons


def adding_context(
    result: adding.AddingResult, rounds: list[adding.RoundEntry]
) -> dict[str, object]:
    """Everything the adding-game table shows, from the rules' result."""
    rules = result.rules
    standings = {standing.player: standing for standing in result.standings}
    allowed = adding.allowed_events(rules, rounds)
    seats = []
    for index, name in enumerate(rules.players):
        standing = standings[name]
        held = standing.tokens if standing.tokens is not None else 0
        start = rules.tokens or 0
        buttons = tuple(
            (f"{index}:{rule.event}:{rule.target or ''}", rule.label)
            for rule in allowed.get(name, ())
            if rule.event != "adjust"
        )
        seats.append(
            SeatRow(
                index=index,
                name=name,
                standing=standing,
                tokens_label=_standing_label(rules, standing),
                coins=_coins(held, start) if rules.uses_tokens else (),
                folds=max(0, start - held),
                buttons=buttons,
            )
        )
    last = result.rounds[-1] if result.rounds else None
    return {
        "result": result,
        "preset": rules.preset,
        "seats": seats,
        "round_rows": round_rows(rules, result.rounds[-RECENT_ROWS:]),
        "row_count": len(result.rounds),
        "winners_label": join_names(result.winners),
        "last_round": last,
        "can_adjust": not result.finished,
        "chart": adding_chart(result),
    }


def _coins(held: int, start: int) -> tuple[bool, ...]:
    """Tokens held (True) and lost (False) for the coin picture; none past COINS_DRAWN (the
    label says how many)."""
    count = max(start, held)
    return tuple(i < held for i in range(count)) if count <= COINS_DRAWN else ()


def _standing_label(rules: adding.AddingRules, standing: adding.Standing) -> str:
    if standing.out:
        return f"out in round {standing.out_in_round}"
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
            f"{effect.event.player}: {event_label(rules, effect.event)}" for effect in played.events
        ],
        "after": [after.get(name) for name in rules.players],
    }


def describe_round_changes(
    before: adding.AddingResult, after: adding.AddingResult, number: int
) -> list[str]:
    """What a correction of round `number` changed, in plain sentences."""
    lines = [f"Round {number} corrected."]
    old = {s.player: _standing_label(before.rules, s) for s in before.standings}
    new = {s.player: _standing_label(after.rules, s) for s in after.standings}
    changed = [
        f"{name} {old[name]} → {new[name]}"
        for name in after.rules.players
        if old[name] != new[name]
    ]
    lines.append(("Now: " + "; ".join(changed) + ".") if changed else "Standings unchanged.")
    if before.winners != after.winners:
        lines.append(
            f"The game is now won by {join_names(after.winners)}."
            if after.finished
            else "The game is no longer over."
        )
    return lines


T = TypeVar("T")


# Running totals as a chart (server-rendered SVG)

CHART_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#a16900", "#56b4e9", "#6a3d9a")
CHART_DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4")


@dataclass(frozen=True)
class Line:
    name: str
    points: str  # the SVG polyline's points
    colour: str
    dash: str
    last: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, int], ...]  # (y, value)
    x_ticks: tuple[tuple[float, int], ...]  # (x, deal or round)
    zero_y: float
    unit: str  # "deal" or "round"
    left: int
    right: int
    top: int
    bottom: int


def running_chart(series: dict[str, list[int]], unit: str, start: int = 0) -> Chart | None:
    """A line per player through their running figure after each deal or round, from `start`
    (0 points, or the tokens everyone starts with). A long session is drawn through at most
    CHART_POINTS points of each line, the last one always among them."""
    count = max((len(values) for values in series.values()), default=0)
    if count == 0:
        return None
    width, height, left, right, top, bottom = 340, 200, 40, 8, 8, 24
    step_by = -(-count // CHART_POINTS)  # draw every deal, or every 2nd, 3rd …
    drawn = sorted({*range(0, count + 1, step_by), count})
    values = [v for line in series.values() for v in line] + [start]
    step = _nice_step(max(values) - min(values))
    low = (min(values) // step) * step
    high = -(-max(values) // step) * step
    if low == high:
        high = low + step
    span_x = (width - left - right) / count
    span_y = (height - top - bottom) / (high - low)

    def x(index: int) -> float:
        return round(left + index * span_x, 1)

    def y(value: int) -> float:
        return round(height - bottom - (value - low) * span_y, 1)

    lines = []
    for position, (name, line) in enumerate(series.items()):
        figures = [start, *line]
        points = " ".join(f"{x(i)},{y(figures[i])}" for i in drawn)
        lines.append(
            Line(
                name=name,
                points=points,
                colour=CHART_COLOURS[position % len(CHART_COLOURS)],
                dash=CHART_DASHES[position % len(CHART_DASHES)],
                last=line[-1] if line else 0,
            )
        )
    ticks = range(low, high + step, step)
    every = max(1, count // 6)
    return Chart(
        width=width,
        height=height,
        lines=tuple(lines),
        y_ticks=tuple((y(v), v) for v in ticks if low <= v <= high),
        x_ticks=tuple((x(i), i) for i in range(0, count + 1, every)),
        zero_y=y(0),
        unit=unit,
        left=left,
        right=width - right,
        top=top,
        bottom=height - bottom,
    )


def _nice_step(span: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about four gridlines; whole
    numbers throughout, so that no total is too large for it."""
    power = 1
    while True:
        for times in (1, 2, 5):
            if times * power * 4 >= span:
                return times * power
        power *= 10


def trick_chart(result: trick.SessionResult) -> Chart | None:
    series = {hand_label(n): [deal.totals[n] for deal in result.deals] for n in result.rules.hands}
    return running_chart(series, "deal")


def adding_chart(result: adding.AddingResult) -> Chart | None:
    def figure(played: adding.RoundResult, name: str) -> int:
        after = played.tokens or played.totals or played.tally or {}
        return after.get(name, 0)

    series = {n: [figure(r, n) for r in result.rounds] for n in result.rules.players}
    return running_chart(series, "round")


# A cell a spreadsheet would read as a formula starts with one of these (OWASP, "CSV
# Injection"): such a cell is written with a ' in front, which spreadsheets show as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(rows: list[list[object]]) -> list[list[object]]:
    """The rows with every text cell that could start a formula quoted as text (numbers,
    negative ones too, stay numbers)."""
    return [
        [f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
         for cell in row]
        for row in rows
    ]  # fmt: skip


def csv_rows(result: trick.SessionResult | adding.AddingResult) -> list[list[object]]:
    """The session as a table for spreadsheets: a header, then a row per deal or round."""
    if isinstance(result, trick.SessionResult):
        names = [hand_label(n) for n in result.rules.hands]
        header: list[object] = ["deal", "dealer", "leader", "trump"]
        for name in names:
            header += [f"{name} bid", f"{name} tricks", f"{name} made", f"{name} points"]
        header += [f"{name} total" for name in names]
        rows = [header]
        for deal in result.deals:
            row: list[object] = [deal.number, deal.dealer, deal.leader, deal.trump]
            for hand in deal.hands:
                row += ["" if hand.bid is None else hand.bid, hand.tricks, hand.made, hand.points]
            row += [deal.totals[name] for name in result.rules.hands]
            rows.append(row)
        return rows
    rules = result.rules
    rows = [["round", "dealer", "events", *(f"{name} after" for name in rules.players)]]
    for played in result.rounds:
        after = played.tokens or played.totals or played.tally or {}
        events = "; ".join(
            f"{effect.event.player}: {event_label(rules, effect.event)}" for effect in played.events
        )
        rows.append(
            [played.number, played.dealer, events, *(after.get(n, "") for n in rules.players)]
        )
    return rows
