"""Live play's own rows: who waits in the matchmaking queue, and which sockets are open.

Imported at the end of :mod:`games.models`, so ``from games.models import QueueEntry`` works.
"""
from django.conf import settings
from django.db import models


class QueueEntry(models.Model):
    """One player waiting for a rated live game of ``table_size`` players.

    ``rating`` is read from the ratings app when the player joins. The allowed rating gap
    widens the longer they wait (see :mod:`games.matchmaking`). When a table is found,
    ``table`` is set; the player's next poll takes them there and removes the entry.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry")
    table_size = models.PositiveSmallIntegerField()
    rating = models.IntegerField()
    joined_at = models.DateTimeField()
    last_seen = models.DateTimeField(help_text="The waiting page polls; a player who stopped polling has left.")
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="queue_entries"
    )

    class Meta:
        ordering = ["joined_at", "pk"]
        indexes = [models.Index(fields=["table_size", "table", "joined_at"])]
        verbose_name_plural = "queue entries"

    def __str__(self) -> str:
        where = f"matched to table {self.table_id}" if self.table_id else "waiting"
        return f"{self.user} for {self.table_size} players ({self.rating}), {where}"


class SeatConnection(models.Model):
    """One open websocket of a seated person (a person may have several tabs open).

    A seat counts as connected while it has at least one; when the last one closes the
    reconnect grace period starts (see :func:`games.services.seat_disconnected`).
    """

    channel_name = models.CharField(max_length=200, unique=True)
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="connections")
    opened_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.channel_name} on {self.seat}"
