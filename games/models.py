"""A table is one game of Hearts: its rules, seats and the game's action log.

The engine (``games.engine``) owns every rule. A game is stored once: the table keeps how it
began (``rules``, ``seed``, ``setup``) and its :class:`Action` rows are its log, from which
``games.storage`` rebuilds it; ``ply``, ``deal_number``, ``scores`` and ``winners`` only
summarise where it stands, for lists and the admin. ``version`` counts every change of the
table shown to its clients (moves, and also seats changing hands), so an action made against
an older version is recognised as stale; it is not the game's ``ply``.
"""
import secrets

from django.conf import settings
from django.db import models

from games import bots
from games.table.protocol import PACES


def new_room_code() -> str:
    return secrets.token_urlsafe(8)


class Table(models.Model):
    class Kind(models.TextChoices):
        SOLO = "solo", "Solo"
        LEARN = "learn", "Learn to play"
        FRIENDS = "friends", "Friend room"
        MATCHED = "matched", "Matchmaking"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SOLO)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    code = models.CharField(max_length=20, unique=True, default=new_room_code)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    rules = models.JSONField(help_text="games.engine.Rules.to_dict()")
    seed = models.BigIntegerField()
    setup = models.JSONField(
        null=True, blank=True,
        help_text="How the game began (the engine's setup: dealer, scores, fixed hands); empty until it starts.",
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Changes of the table so far (moves, seats changing hands); every update carries it.",
    )
    ply = models.PositiveIntegerField(default=0, help_text="Actions in the game's log (its action rows).")
    deal_number = models.PositiveSmallIntegerField(default=0, help_text="The deal being played (0 before the start).")
    scores = models.JSONField(default=list, blank=True, help_text="Each seat's total, after the deals scored so far.")
    winners = models.JSONField(default=list, blank=True, help_text="The winning seats, once the game is over.")
    rated = models.BooleanField(default=False)
    listed = models.BooleanField(default=False, help_text="A friend room anyone may find in the lobby and join.")
    chat = models.BooleanField(default=True, help_text="The people at a live table may chat.")
    watchers = models.PositiveIntegerField(default=0, help_text="People with no seat watching the game now.")
    rematch = models.JSONField(
        null=True, blank=True,
        help_text="After a live game: the rematch offered (live.rooms.answer_rematch): the new room's code, "
                  "its state (open, started, closed), each person's answer (yes, no, late) and until when it is open.",
    )
    turn_timer_seconds = models.PositiveSmallIntegerField(default=0, help_text="0 means no timer")
    autoplay_forced = models.BooleanField(
        default=False, help_text="A person's only legal card is played for them (a solo player's choice)."
    )
    pace = models.CharField(
        max_length=8, choices=[(name, name.title()) for name in PACES], default="normal",
        help_text="How fast the computers play (a solo player's choice, games.table.protocol.PACES).",
    )
    turn_deadline = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=200, blank=True)
    offline_id = models.CharField(
        max_length=40, blank=True, default="",
        help_text="A game played offline in the host's browser and sent here when it ended: its id there.",
    )

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["kind", "status"])]
        constraints = [
            models.UniqueConstraint(fields=["host", "offline_id"], condition=~models.Q(offline_id=""),
                                    name="one_table_per_offline_game"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} table {self.pk} ({self.get_status_display()})"

    @property
    def players(self) -> int:
        return int(self.rules["players"])

    @property
    def has_game(self) -> bool:
        """The game has been dealt (an abandoned room may never have been)."""
        return self.setup is not None

    @property
    def is_live(self) -> bool:
        return self.kind in (self.Kind.FRIENDS, self.Kind.MATCHED)

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.WAITING, self.Status.PLAYING)


class Seat(models.Model):
    """A place at a table: a person, a computer player, or a computer standing in for a person."""

    #: the computers' levels (``Seat.BotLevel.HARD`` …), as the bots name them
    BotLevel = models.TextChoices("BotLevel", [(level.upper(), (level, name)) for level, name in bots.LEVEL_NAMES.items()])

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    standing_in = models.BooleanField(
        default=False, help_text="A computer plays for the seat's person, who left; they may reclaim it."
    )
    resigned = models.BooleanField(
        default=False, help_text="The person left the game for good: a computer plays the seat to the end."
    )
    counted_as_left = models.BooleanField(
        default=False,
        help_text="The result ranks the person below everyone who stayed (games.table.conduct, rule 3): they left, "
                  "a computer was playing for them at the end, or it made most of their moves.",
    )
    timeouts_in_a_row = models.PositiveSmallIntegerField(
        default=0, help_text="Turns in a row the timer ran out on for the person, since they last played or came back "
                             "(games.table.conduct.after_turn: at 2 a computer plays for them until they are back).",
    )
    connected = models.BooleanField(default=False)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number")]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}: {self.occupant_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level) and self.user_id is None

    @property
    def computer_plays(self) -> bool:
        return self.is_bot or self.standing_in

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def occupant_name(self) -> str:
        if self.user_id:
            return self.user.public_name
        if self.bot_level:
            return f"CPU ({self.get_bot_level_display()})"
        return "Empty seat"


class Action(models.Model):
    """One applied action: the game's log, in ``ply`` order (the game's own count, from 1).
    ``version`` is the table's version the action made."""

    class Actor(models.TextChoices):
        PERSON = "person", "Person"
        BOT = "bot", "Computer player"
        TIMEOUT = "timeout", "Computer after the turn timer ran out"
        STANDIN = "standin", "Computer standing in for a person who left"
        FORCED = "forced", "The person's only legal card, played by itself"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    ply = models.PositiveIntegerField(help_text="The game's ply after this action: 1 for its first.")
    version = models.PositiveIntegerField(help_text="The table's version after this action.")
    deal = models.PositiveSmallIntegerField(help_text="The deal the action belongs to.")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(help_text='A card ("QS"), three passed cards, or "add"/"subtract" for a moon.')
    actor = models.CharField(max_length=10, choices=Actor.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "ply"]
        constraints = [models.UniqueConstraint(fields=["table", "ply"], name="one_action_per_ply")]

    def __str__(self) -> str:
        return f"table {self.table_id} ply {self.ply}: seat {self.seat} {self.action}"

