"""A player's record across their owner's sessions, read from what is stored for them: their
record (the outcomes of every session they held a seat in, added up as each changed), their
head to head, and the sessions left out.

Each figure comes from the rules' results of the sessions (`club.outcomes`), so a corrected
deal changes the record too; what each family counts (deals and bids, or rounds and tokens)
is its rules' `player_counts`.
"""

from __future__ import annotations

from collections import Counter

from scorekeeper.club_models import Outcome, PlayerRecord, Rivalry
from scorekeeper.models import GameSession, Player
from scorekeeper.presenters.common import HeadToHead, Record

BID = "bid:"  # a shown bid's count, as `player_counts` names it: "bid:3"


def player_record(player: Player) -> Record:
    """The player's record. A player who left a seat is credited with the deals or rounds
    they played in it; the session's end (finished, won, head to head) counts for whoever
    held the seat at the end. Head to head counts only the sessions that ended (finished, or
    stopped after at least one deal or round). A session whose stored rules are no longer
    accepted is left out, and listed as such."""
    stored = PlayerRecord.objects.filter(player=player).first()
    counts: dict[str, int] = dict(stored.counts) if stored else {}
    record = Record(
        sessions=stored.sessions if stored else 0,
        finished=stored.finished if stored else 0,
        won=stored.won if stored else 0,
        deals=counts.get("deals", 0),
        points=counts.get("points", 0),
        made=counts.get("made", 0),
        bids=Counter(
            {int(name.removeprefix(BID)): n for name, n in counts.items() if name.startswith(BID)}
        ),
        premiums_tried=counts.get("premiums_tried", 0),
        premiums_made=counts.get("premiums_made", 0),
        rounds=counts.get("rounds", 0),
        tokens_lost=counts.get("tokens_lost", 0),
        eliminated=counts.get("eliminated", 0),
    )
    for rivalry in Rivalry.objects.filter(player=player).select_related("opponent"):
        name = rivalry.opponent.name
        record.head_to_head[name] = HeadToHead(
            name, rivalry.sessions, rivalry.ahead, rivalry.behind, rivalry.level
        )
    left_out = Outcome.objects.filter(player=player, readable=False).values("session")
    record.left_out = list(GameSession.objects.filter(pk__in=left_out))
    return record
