"""Live play's own rows: who waits in the matchmaking queue, which sockets are open, which
server processes hold them, and what the people at a table said.

They moved here from the games app and keep their database tables (``db_table``; see
migration ``live.0001_from_games``).
"""
from django.conf import settings
from django.db import models


class QueueEntry(models.Model):
    """One player waiting for a rated live game of ``table_size`` players.

    ``rating`` is read from the ratings app when the player joins. The allowed rating gap
    widens the longer they wait (see :mod:`live.matchmaking`). When a table is found,
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
        db_table = "games_queueentry"

    def __str__(self) -> str:
        where = f"matched to table {self.table_id}" if self.table_id else "waiting"
        return f"{self.user} for {self.table_size} players ({self.rating}), {where}"


class LiveServer(models.Model):
    """A server process (daphne) holding table sockets, known by its heartbeat.

    A process that crashes cannot say goodbye: its sockets' ``TableConnection`` rows would stay
    and their seats look connected forever. So every process writes ``heartbeat_at`` every
    ``LIVE_SERVER_HEARTBEAT_SECONDS``; a process silent for ``LIVE_SERVER_TIMEOUT_SECONDS`` is
    dead, and the sweep (:func:`live.presence.sweep_dead_connections`) closes its connections
    the ordinary way. See :mod:`live.server`.
    """

    name = models.CharField(max_length=200, unique=True, help_text="host:pid:random, new at every start")
    started_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-heartbeat_at"]
        db_table = "games_liveserver"

    def __str__(self) -> str:
        return f"{self.name} (heartbeat {self.heartbeat_at:%Y-%m-%d %H:%M:%S})"


class TableConnection(models.Model):
    """One open websocket of a person at a table (a person may have several tabs open).

    It belongs to the person at the table, not to a seat: a person who leaves a seat, or
    takes another, keeps their sockets and the rows follow them. A seat counts as connected
    while its person has at least one row at its table; when the last one closes the reconnect
    grace period starts (see :func:`live.presence.connection_closed`). ``server`` is the
    :class:`LiveServer` holding the socket: when that process dies, the sweep closes it.
    """

    channel_name = models.CharField(max_length=200, unique=True)
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_connections")
    server = models.CharField(
        max_length=200, blank=True, db_index=True, default="",
        help_text="LiveServer.name of the process holding the socket (no row, or a stale one: closed)",
    )
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "user"])]
        db_table = "games_tableconnection"

    def __str__(self) -> str:
        return f"{self.channel_name}: {self.user} at table {self.table_id}"


class ChatMessage(models.Model):
    """One line of a live table's chat, kept with the table (staff read it in the admin, and
    see the ones a player reported)."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=200)
    watchers = models.BooleanField(
        default=False, help_text="Said among the people watching the game (the players do not see it).")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="A player at the table who reported this message to the staff.",
    )
    reported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["table", "user", "created_at"])]
        db_table = "games_chatmessage"

    def __str__(self) -> str:
        return f"{self.user} at table {self.table_id}: {self.text[:40]}"
