"""Everything stored above an owner's tables, worked out again from their history in one go:
for a server whose history was kept before these rows were (`manage.py rebuild_club`), and
for a benchmark's scratch history stored in bulk. The pages and the writes never need it:
they keep the rows in step change by change."""

from __future__ import annotations

from collections import Counter

from django.db import transaction

from scorekeeper import live
from scorekeeper.club import nights, outcomes, ratings, seasons
from scorekeeper.club.locks import lock_owner
from scorekeeper.club_models import (
    NightLine,
    Outcome,
    PlayerRating,
    PlayerRecord,
    RatingsBehind,
    Rivalry,
    SeasonLine,
)
from scorekeeper.models import GameSession, UnreadableRules
from scorekeeper.night_models import Night, Season


def rebuild(owner_id: int) -> int:
    """Work out every outcome, record, head to head, rating, night's leaderboard and season of
    the owner again from their sessions; the number of sessions read."""
    with transaction.atomic():
        lock_owner(owner_id)
        for model in (Outcome, PlayerRating, RatingsBehind):
            model.objects.filter(owner_id=owner_id).delete()
        PlayerRecord.objects.filter(player__owner_id=owner_id).delete()
        Rivalry.objects.filter(player__owner_id=owner_id).delete()
        NightLine.objects.filter(night__owner_id=owner_id).delete()
        SeasonLine.objects.filter(season__owner_id=owner_id).delete()
        sessions = GameSession.objects.filter(owner_id=owner_id).not_deleted().with_seats()
        records: dict[int, PlayerRecord] = {}
        met: Counter[tuple[int, int, str]] = Counter()
        rows = []
        read = 0
        for session in sessions.iterator(chunk_size=500):
            read += 1
            try:
                result = live.result(session)
                played = len(session.entries())
            except UnreadableRules:
                result, played = None, 0
            parts = outcomes.parts_of(session, result, played)
            met.update(outcomes.meetings(parts))
            for player, part in parts.items():
                record = records.setdefault(player, PlayerRecord(player_id=player))
                outcomes.add_to_record(record, part)
                rows.append(outcomes.outcome_row(session, player, part))
        Outcome.objects.bulk_create(rows, batch_size=1000)
        PlayerRecord.objects.bulk_create(records.values(), batch_size=1000)
        Rivalry.objects.bulk_create(outcomes.rivalries(met), batch_size=1000)
        for family in set(
            Outcome.objects.filter(owner_id=owner_id).values_list("family", flat=True)
        ):
            first = (
                Outcome.objects.filter(owner_id=owner_id, family=family)
                .order_by(*Outcome.order_by)
                .first()
            )
            if first is not None:
                ratings.replay(owner_id, family, first.key)
        for night in Night.objects.select_for_update().filter(owner_id=owner_id):
            nights.refresh(night)
        for season in Season.objects.select_for_update().filter(owner_id=owner_id):
            seasons.refresh(season)
            seasons.rate(season)
        return read
