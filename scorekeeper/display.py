"""Shape rules results for templates: plain rows and labels, no scoring here."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import trick
from scorekeeper.rules.common import join_names

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


def deal_rows(result: trick.SessionResult) -> list[Row]:
    """One row per deal: each hand's result with the running total, in seat order."""
    return [
        Row(deal, tuple(Cell(hand, deal.totals[hand.player]) for hand in deal.hands))
        for deal in result.deals
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


def session_context(result: trick.SessionResult) -> dict[str, object]:
    """Everything the session page shows, from the rules' result."""
    rules = result.rules
    return {
        "result": result,
        "preset": rules.preset,
        "rows": deal_rows(result),
        "columns": hand_columns(result),
        "games": game_rows(result),
        "winners_label": join_names(result.winners),
        "next_trump": trump_label(result.next.trump) if result.next else "",
        "dummy_total": result.totals.get(trick.DUMMY) if rules.dummy else None,
    }


def hand_columns(result: trick.SessionResult) -> list[str]:
    """Column headings of the deal grid: the players in seat order, then the dummy."""
    return list(result.rules.hands)
