"""A live table's chats: short lines from the people at the table to everyone at it, and, once
the game has started, from those watching it to the other watchers (the players never see the
watchers' chat, as on Lichess; someone who left a game in progress is a watcher). Kept with
the table for the staff (``ChatMessage``), rate-limited, with a report for someone else's line.
The text is checked by ``games.table.protocol.parse_chat``; sockets send the lines (``live.consumers``).
"""
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.table import conduct
from games.models import Seat, Table
from games.realtime import notify_chat
from games.services import ActionRejected
from live.models import ChatMessage

CHAT_BURST = 5
CHAT_BURST_SECONDS = 15
"""A person may post at most CHAT_BURST chat messages at a table in any CHAT_BURST_SECONDS."""


def audience(table: Table, user) -> str | None:
    """Which chat of ``table`` ``user`` takes part in (``games.table.conduct.chat_audience``):
    ``"players"``, ``"watchers"`` or None. Whether a watcher may watch at all is the caller's
    question (``accounts.selectors.has_live_access``)."""
    seat = Seat.objects.filter(table_id=table.pk, user=user).only("resigned").first()
    return conduct.chat_audience(seat is not None, seat is not None and seat.resigned, table.status)


def post_chat(table_id: int, user, text: str) -> ChatMessage:
    """``user`` says ``text`` (already checked: ``protocol.parse_chat``) in the chat of a live
    table they take part in (:func:`audience`)."""
    table = Table.objects.filter(pk=table_id).only("kind", "chat", "status").first()
    if table is None or not table.is_live:
        raise ActionRejected("no_chat", "Chat is for live tables.")
    if not table.chat:
        raise ActionRejected("chat_off", "Chat is turned off at this table.")
    among = audience(table, user)
    if among is None:
        raise ActionRejected("no_seat", "Only the people at the table can chat.")
    since = timezone.now() - timedelta(seconds=CHAT_BURST_SECONDS)
    if ChatMessage.objects.filter(table_id=table_id, user=user, created_at__gte=since).count() >= CHAT_BURST:
        raise ActionRejected("slow_down", f"Slow down: at most {CHAT_BURST} messages in {CHAT_BURST_SECONDS} seconds.")
    message = ChatMessage.objects.create(table_id=table_id, user=user, text=text, watchers=among == "watchers")
    line = chat_line(message, user)
    transaction.on_commit(lambda: notify_chat(table_id, line))
    return message


def chat_line(message: ChatMessage, user) -> dict:
    """A chat message as sockets send it (no more of its author than their public name)."""
    return {"id": message.pk, "author": user.pk, "name": user.public_name, "text": message.text,
            "at": message.created_at.isoformat(), "watchers": message.watchers}


def chat_lines(table_id: int, limit: int = 50, *, watchers: bool = False) -> list[dict]:
    """The last ``limit`` messages of a table's players' chat (or its watchers'), oldest first."""
    recent = (ChatMessage.objects.filter(table_id=table_id, watchers=watchers).select_related("user")
              .order_by("-created_at", "-pk")[:limit])
    return [chat_line(message, message.user) for message in reversed(recent)]


def report_chat(table_id: int, message_id: int, user) -> bool:
    """Someone in a table's chat reports a message of that chat to the staff. False if it was
    not theirs to report (not in that chat, their own message, already reported)."""
    table = Table.objects.filter(pk=table_id).only("status").first()
    among = audience(table, user) if table is not None else None
    if among is None:
        return False
    return bool(ChatMessage.objects.filter(pk=message_id, table_id=table_id, reported_at__isnull=True,
                                           watchers=among == "watchers")
                .exclude(user=user).update(reported_by=user, reported_at=timezone.now()))
