"""What both families' presenters share: signs, grid pages, and safe spreadsheet cells."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext as _

from scorekeeper.models import GameSession
from scorekeeper.rules.common import join_names

# The table page shows the latest deals or rounds; a page of its own shows them all, so that
# what a page costs is bounded by what it shows (RULES.md §3, Bounds).
RECENT_ROWS = 12
GRID_PAGE_ROWS = 100
COINS_DRAWN = 12  # more tokens than this are told in words only

# A cell a spreadsheet would read as a formula starts with = + - @, a tab or a carriage return
# (OWASP, "CSV Injection"). A spreadsheet may also cut the file at every "," or ";" (most
# European ones split CSV on ";"), tab, line break or quote, and trim the spaces in front of a
# cell. So a ' goes before such a first character wherever a cell could begin: at the start of
# the text, or after one of those cutting characters, spaces between aside. Spreadsheets show a
# ' in front as text.
_FORMULA_START = re.compile(r"""(?:^|(?<=[,;\t\r\n"]))( *+)(?=[=+\-@\t\r])""")


@dataclass(frozen=True)
class StripCell:
    """One player in the standings strip at the top of a table page: a name, the score as the
    game counts it, and what the last deal or round changed."""

    name: str
    value: str  # "84", or "4" tokens left, or "out"
    change: str  # "+33", "-1", or "" when nothing changed
    leads: bool  # first place (shared places too)
    out: bool = False


def signed(points: int) -> str:
    """'+4', '0', '-2'."""
    return f"+{points}" if points > 0 else str(points)


def winner_news(winners: Sequence[str]) -> str:
    """The news of a finished session: 'Winner: Ann', 'Shared win: Ann and Ben'."""
    names = {"names": join_names(winners)}
    if len(winners) > 1:
        return _("Shared win: %(names)s") % names
    return _("Winner: %(names)s") % names


def grid_page[T](rows: Sequence[T], number: str | None) -> Page[T]:
    """One page of a whole grid, GRID_PAGE_ROWS rows; the last page unless asked."""
    paginator = Paginator(rows, GRID_PAGE_ROWS)
    return paginator.get_page(number or paginator.num_pages)


def spreadsheet_safe(rows: list[list[object]]) -> list[list[object]]:
    """The rows with a ' in every text cell before what could start a formula, however the
    file is split (numbers, negative ones too, stay numbers)."""
    return [
        [_FORMULA_START.sub(r"\1'", cell) if isinstance(cell, str) else cell for cell in row]
        for row in rows
    ]


# The table display: the standings in big numbers, for a tablet in the middle of the table.
# Each family's presenter fills one `Board` from its result (`board(result)`); the display's
# templates read nothing else, so they serve both families alike.


@dataclass(frozen=True)
class BoardRow:
    """One player on the table display."""

    rank: int
    name: str
    figure: str  # the big number: a total, tokens left, or "out"
    note: str = ""  # a small line under it: "Game 2: 45", "in round 3"
    won: bool = False
    out: bool = False


@dataclass(frozen=True)
class Board:
    """What the table display shows: where the game is, then every player, best first."""

    figure_label: str  # what the big numbers are: "Total", "Tokens left"
    rows: tuple[BoardRow, ...]
    facts: tuple[tuple[str, str], ...] = ()  # ("Deal", "5 of 9"), ("Dealer", "Ben") …
    news: str = ""  # "Winner: Ann" once the session is over


# A player's record across their owner's sessions (presenters/records.py reads it from what
# is stored for the player; each family's rules count its own figures, `player_counts`).


@dataclass
class HeadToHead:
    opponent: str
    sessions: int = 0
    ahead: int = 0  # sessions where the player finished above the opponent
    behind: int = 0
    level: int = 0


@dataclass
class Record:
    """What the player page shows; averages are None when there is nothing to average."""

    sessions: int = 0
    finished: int = 0
    won: int = 0
    # Trick game
    deals: int = 0
    points: int = 0
    made: int = 0
    bids: Counter[int] = field(default_factory=Counter)
    premiums_tried: int = 0
    premiums_made: int = 0
    # Adding game
    rounds: int = 0
    tokens_lost: int = 0
    eliminated: int = 0
    head_to_head: dict[str, HeadToHead] = field(default_factory=dict)
    # Sessions left out: their stored rules are no longer accepted (a value stored before the
    # bounds existed), so nothing in them can be counted.
    left_out: list[GameSession] = field(default_factory=list)

    @property
    def points_per_deal(self) -> float | None:
        return self.points / self.deals if self.deals else None

    @property
    def success_rate(self) -> float | None:
        return self.made / self.deals if self.deals else None

    @property
    def common_bids(self) -> list[tuple[int, int]]:
        """The most common shown bids, (bid, times), most common first (ties: lower bid)."""
        return sorted(self.bids.items(), key=lambda item: (-item[1], item[0]))[:3]

    @property
    def tokens_per_round(self) -> float | None:
        return self.tokens_lost / self.rounds if self.rounds else None

    def rivals(self) -> list[HeadToHead]:
        return sorted(self.head_to_head.values(), key=lambda h: (-h.sessions, h.opponent))
