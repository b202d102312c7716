"""Play live: a queue of players waiting for a rated table of a chosen size.

Each waiting player has a :class:`live.models.QueueEntry` with their rating for that table
size. Players are compatible when their ratings differ by no more than the allowed gap of
*either* of them; the gap starts at :data:`BASE_GAP` and widens by :data:`GAP_STEP` for every
:data:`STEP_SECONDS` waited, so nobody waits forever for a perfect match.

Matching runs when someone joins and on every poll of the waiting page (and from the
``games.match_players`` task); it is safe to run concurrently: entries are locked and a
matched entry is never matched again. Nobody is seated while they play a live game: they
cannot join the queue then, and one already waiting is left waiting until it is over.
"""
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import services
from games.engine import Rules
from games.models import Table
from hearts_site.taskrunner import schedule
from live import presence, rooms
from live.models import QueueEntry
from ratings.selectors import rating_for

log = logging.getLogger(__name__)

BASE_GAP = 100
GAP_STEP = 50
STEP_SECONDS = 10
TABLE_SIZES = (3, 4, 5, 6)
STALE_AFTER_SECONDS = 30
"""A waiting player whose page has not polled for this long has left the queue."""


def matched_turn_timer() -> int:
    return int(getattr(settings, "LIVE_MATCHED_TURN_TIMER_SECONDS", 30))


def rating_of(user, table_size: int) -> int:
    """The player's displayed rating for that table size."""
    rating = rating_for(user, table_size)
    return int(getattr(rating, "display", 1500))


def allowed_gap(entry: QueueEntry, now=None) -> int:
    """How far from their rating this player may be matched, after waiting so long."""
    now = now or timezone.now()
    waited = max((now - entry.joined_at).total_seconds(), 0)
    return BASE_GAP + GAP_STEP * int(waited // STEP_SECONDS)


def compatible(a: QueueEntry, b: QueueEntry, now=None) -> bool:
    return abs(a.rating - b.rating) <= min(allowed_gap(a, now), allowed_gap(b, now))


def join_queue(user, table_size: int) -> QueueEntry:
    """Put ``user`` in the queue (again, from now) and try to match at once.

    The caller checks live access first (a new game). Someone playing a live game cannot
    join (``ActionRejected`` "in_game")."""
    if table_size not in TABLE_SIZES:
        raise services.ActionRejected("malformed", "Live tables have 3, 4, 5 or 6 players.")
    if rooms.live_games_in_progress([user]):
        raise services.ActionRejected("in_game", "You are playing a live game: finish it before you join the queue.")
    now = timezone.now()
    entry, _ = QueueEntry.objects.update_or_create(
        user=user,
        defaults={"table_size": table_size, "rating": rating_of(user, table_size), "joined_at": now,
                  "last_seen": now, "table": None},
    )
    match_players(table_size)
    entry.refresh_from_db()
    if entry.table_id is None:
        # Try again once the allowed gaps have widened (the waiting page's poll also does).
        if settings.TASK_RUNNER != "eager":
            schedule("games.match_players", table_size, countdown=STEP_SECONDS)
    return entry


def leave_queue(user) -> bool:
    """Cancel: leave the queue (a player already matched keeps their table)."""
    deleted, _ = QueueEntry.objects.filter(user=user, table__isnull=True).delete()
    return bool(deleted)


def poll(user) -> QueueEntry | None:
    """The waiting page asks: still waiting, or matched? Also runs matching."""
    QueueEntry.objects.filter(user=user, table__isnull=True).update(last_seen=timezone.now())
    entry = QueueEntry.objects.filter(user=user).first()
    if entry is None:
        return None
    if entry.table_id is None:
        match_players(entry.table_size)
        entry.refresh_from_db()
    return entry


def find_group(entries: list[QueueEntry], size: int, now=None) -> list[QueueEntry] | None:
    """The first group of ``size`` mutually compatible players, longest waiting first.

    The longest-waiting player anchors the group; the others are added closest rating first
    when they are compatible with everyone already in it.
    """
    now = now or timezone.now()
    for anchor in entries:
        group = [anchor]
        others = sorted((e for e in entries if e is not anchor), key=lambda e: (abs(e.rating - anchor.rating), e.joined_at))
        for candidate in others:
            if all(compatible(candidate, member, now) for member in group):
                group.append(candidate)
                if len(group) == size:
                    return group
    return None


def match_players(table_size: int) -> list[Table]:
    """Seat every group of compatible waiting players at a new rated table. Returns the tables."""
    tables = []
    for _round in range(50):  # bounded: each round seats one table
        table = _match_one(table_size)
        if table is None:
            break
        tables.append(table)
    return tables


def _match_one(table_size: int) -> Table | None:
    now = timezone.now()
    fresh = now - timedelta(seconds=STALE_AFTER_SECONDS)
    with transaction.atomic():
        QueueEntry.objects.filter(table__isnull=True, last_seen__lt=fresh).delete()
        waiting = list(
            QueueEntry.objects.select_for_update(skip_locked=True)
            .filter(table_size=table_size, table__isnull=True)
            .select_related("user")
            .order_by("joined_at", "pk")[:500]
        )
        playing = rooms.live_games_in_progress([entry.user for entry in waiting])
        group = find_group([entry for entry in waiting if entry.user_id not in playing], table_size, now)
        if group is None:
            return None
        people = [entry.user for entry in group]
        table = services.create_table(
            people[0], Rules(players=table_size), kind=Table.Kind.MATCHED,
            seat_bots=[None] * table_size, rated=True, turn_timer_seconds=matched_turn_timer(),
        )
        for person in people[1:]:
            rooms.take_seat(table.pk, person)
        QueueEntry.objects.filter(pk__in=[entry.pk for entry in group]).update(table=table)
        services.start_table(table.pk)
    presence.start_grace_for_absent(table.pk)
    log.info("matched table=%s size=%s ratings=%s", table.pk, table_size, [entry.rating for entry in group])
    return table


def wait_status(entry: QueueEntry, now=None) -> dict:
    now = now or timezone.now()
    waited = int(max((now - entry.joined_at).total_seconds(), 0))
    waiting = QueueEntry.objects.filter(table_size=entry.table_size, table__isnull=True).count()
    return {"waited": waited, "gap": allowed_gap(entry, now), "waiting": waiting, "table_size": entry.table_size,
            "rating": entry.rating}
