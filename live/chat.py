"""A live table's chat: short lines from the people at the table to everyone at it, kept with
the table for the staff (``ChatMessage``), rate-limited, with a report for someone else's line.
The text is checked by ``games.protocol.parse_chat``; sockets send the lines (``live.consumers``).
"""
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Seat, Table
from games.realtime import notify_chat
from games.services import ActionRejected
from live.models import ChatMessage

CHAT_BURST = 5
CHAT_BURST_SECONDS = 15
"""A person may post at most CHAT_BURST chat messages at a table in any CHAT_BURST_SECONDS."""


def post_chat(table_id: int, user, text: str) -> ChatMessage:
    """``user``, seated at a live table whose chat is on, says ``text`` (already checked:
    ``protocol.parse_chat``) to everyone at it."""
    table = Table.objects.filter(pk=table_id).only("kind", "chat", "status").first()
    if table is None or not table.is_live:
        raise ActionRejected("no_chat", "Chat is for live tables.")
    if not table.chat:
        raise ActionRejected("chat_off", "Chat is turned off at this table.")
    seat = Seat.objects.filter(table_id=table_id, user=user).only("resigned").first()
    if seat is None:
        raise ActionRejected("no_seat", "Only the people at the table can chat.")
    if seat.resigned and table.status == Table.Status.PLAYING:
        raise ActionRejected("left_game", "You left this game, so you cannot chat with its players until it is over.")
    since = timezone.now() - timedelta(seconds=CHAT_BURST_SECONDS)
    if ChatMessage.objects.filter(table_id=table_id, user=user, created_at__gte=since).count() >= CHAT_BURST:
        raise ActionRejected("slow_down", f"Slow down: at most {CHAT_BURST} messages in {CHAT_BURST_SECONDS} seconds.")
    message = ChatMessage.objects.create(table_id=table_id, user=user, text=text)
    line = chat_line(message, user)
    transaction.on_commit(lambda: notify_chat(table_id, line))
    return message


def chat_line(message: ChatMessage, user) -> dict:
    """A chat message as sockets send it (no more of its author than their public name)."""
    return {"id": message.pk, "author": user.pk, "name": user.public_name, "text": message.text,
            "at": message.created_at.isoformat()}


def chat_lines(table_id: int, limit: int = 50) -> list[dict]:
    """The last ``limit`` chat messages of a table, oldest first."""
    recent = ChatMessage.objects.filter(table_id=table_id).select_related("user").order_by("-created_at", "-pk")[:limit]
    return [chat_line(message, message.user) for message in reversed(recent)]


def report_chat(table_id: int, message_id: int, user) -> bool:
    """A person at the table reports a chat message to the staff. False if it was not theirs
    to report (not at the table, their own message, already reported)."""
    if not Seat.objects.filter(table_id=table_id, user=user).exists():
        return False
    return bool(ChatMessage.objects.filter(pk=message_id, table_id=table_id, reported_at__isnull=True)
                .exclude(user=user).update(reported_by=user, reported_at=timezone.now()))
