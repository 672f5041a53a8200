"""What a session holds in the database right now, read afresh (for assertions)."""

from scorekeeper import live
from scorekeeper.models import GameSession
from scorekeeper.rules import adding, trick


def deal_entries(session: GameSession) -> list[trick.DealEntry]:
    """Each deal stored, as entered."""
    return GameSession.objects.with_seats().get(pk=session.pk).entries()


def round_entries(session: GameSession) -> list[adding.RoundEntry]:
    """Each round stored, as entered."""
    return GameSession.objects.with_seats().get(pk=session.pk).entries()


def compute(session: GameSession) -> trick.SessionResult:
    """The session's result as the app computes it, read afresh."""
    return live.result(GameSession.objects.with_seats().get(pk=session.pk))
