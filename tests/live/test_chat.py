"""The table's chat: short lines to everyone at the table, escaped, rate-limited, a room option,
kept with the table for the staff, with a report button; a mute in the browser."""
import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import services
from games.table import protocol
from games.engine import Rules
from games.models import Table
from live import chat, rooms
from live.models import ChatMessage
from tests.live.conftest import Player, connect_all, seat_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def chat_frames(frames):
    return [frame for frame in frames if isinstance(frame, dict) and frame.get("type") == "chat"]


async def test_a_line_reaches_everyone_at_the_table_escaped_and_is_kept(people):
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
    await sync_to_async(chat.post_chat)(table.pk, people[3], "first")
    html = await Player.create(people[2], table.pk, fmt="html")
    assert await html.connect()
    await html.receive()  # the table
    log = await html.receive()
    assert log.startswith('<div id="chat-log" class="chat-log" aria-live="polite">'), "the chat so far"
    assert "first" in log
    for player in players:
        await player.receive_until(lambda f: f.get("type") == "chat")

    await players[0].send({"action": "chat", "text": "  <b>hi</b>   all  "})
    for player in players:
        line = await player.receive_until(lambda f: f.get("type") == "chat")
        assert (line["name"], line["text"], line["author"]) == ("Ann", "<b>hi</b> all", people[0].pk)
    frame = await html.receive_until(lambda f: isinstance(f, str) and "chat-line" in f)
    assert frame.startswith('<div id="chat-log" class="chat-log" hx-swap-oob="beforeend"')
    assert "&lt;b&gt;hi&lt;/b&gt; all" in frame and "<b>hi</b>" not in frame
    message = await sync_to_async(ChatMessage.objects.get)(user=people[0])
    assert (message.table_id, message.user_id, message.text) == (table.pk, people[0].pk, "<b>hi</b> all")
    for player in players + [html]:
        await player.close()


async def test_too_long_too_fast_or_turned_off_is_refused_with_a_reason(people):
    table = await sync_to_async(seat_people)(people)
    (ann,) = await connect_all(people[:1], table.pk)
    await ann.receive()
    await ann.send({"action": "chat", "text": "x" * (protocol.CHAT_MAX_CHARACTERS + 1)})
    error = await ann.receive_until(lambda f: f.get("type") == "error")
    assert error["message"] == "A chat message is at most 200 characters."
    for number in range(chat.CHAT_BURST):
        await ann.send({"action": "chat", "text": f"line {number}"})
        await ann.receive_until(lambda f: f.get("type") == "chat")
    await ann.send({"action": "chat", "text": "one more"})
    error = await ann.receive_until(lambda f: f.get("type") == "error")
    assert error["code"] == "slow_down"
    assert await sync_to_async(ChatMessage.objects.count)() == chat.CHAT_BURST
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(chat=False)
    with pytest.raises(services.ActionRejected) as refused:
        await sync_to_async(chat.post_chat)(table.pk, people[1], "hello")
    assert refused.value.code == "chat_off"
    await ann.close()


async def test_a_line_can_be_reported_to_the_staff_who_see_it_in_the_admin(people, django_user_model):
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people[:2], table.pk)
    for player in players:
        await player.receive()
    await players[1].send({"action": "chat", "text": "rude words"})
    line = await players[0].receive_until(lambda f: f.get("type") == "chat")
    await players[0].send({"action": "report", "message": line["id"]})
    answer = await players[0].receive_until(lambda f: f.get("type") == "error")
    assert answer["code"] == "reported"
    message = await sync_to_async(ChatMessage.objects.get)(pk=line["id"])
    assert message.reported_by_id == people[0].pk and message.reported_at is not None
    await players[1].send({"action": "report", "message": line["id"]})  # one's own: no
    assert (await players[1].receive_until(lambda f: f.get("type") == "error"))["code"] == "not_reported"
    for player in players:
        await player.close()

    def admin_page():
        from django.test import Client

        staff = django_user_model.objects.create_superuser("staff", "staff@example.com", "pw")
        client = Client()
        client.force_login(staff)
        return client.get(reverse("admin:live_chatmessage_changelist") + "?reported=yes").content.decode()

    page = await sync_to_async(admin_page)()
    assert "rude words" in page


async def test_the_room_page_shows_the_chat_to_the_people_at_the_table_when_it_is_on(people):
    def pages():
        from django.test import Client

        table = services.create_table(people[0], Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4)
        rooms.take_seat(table.pk, people[1])
        quiet = services.create_table(people[0], Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4, chat=False)
        chat.post_chat(table.pk, people[1], "see you at the table")
        client = Client()
        client.force_login(people[0])
        seated = client.get(reverse("live:room", args=[table.code])).content.decode()
        off = client.get(reverse("live:room", args=[quiet.code])).content.decode()
        client.force_login(people[2])
        visitor = client.get(reverse("live:room", args=[table.code])).content.decode()
        return seated, off, visitor

    seated, off, visitor = await sync_to_async(pages)()
    assert 'id="chat"' in seated and "see you at the table" in seated and "Good game!" in seated
    assert 'id="chat"' not in off and 'id="chat"' not in visitor


async def test_a_visitor_of_the_waiting_room_is_not_sent_the_chat(people, subscribe):
    table = await sync_to_async(seat_people)(people, start=False)
    await sync_to_async(rooms.leave_seat)(table.pk, people[3])
    await sync_to_async(subscribe)(people[3])
    visitor = await Player.create(people[3], table.pk)
    assert await visitor.connect()
    assert (await visitor.receive())["state"]["seat"] is None
    await sync_to_async(chat.post_chat)(table.pk, people[0], "just between us")
    frames = await visitor.drain()
    assert not chat_frames(frames), frames
    await visitor.close()


async def test_watchers_have_a_chat_of_their_own_that_the_players_never_see(people, django_user_model, subscribe):
    def watchers():
        found = []
        for name in ("eve", "fay"):
            person = django_user_model.objects.create_user(name, display_name=name.title())
            subscribe(person)
            found.append(person)
        return found

    eve, fay = await sync_to_async(watchers)()
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    watching = await connect_all([eve, fay], table.pk)
    for socket in players + watching:
        await socket.receive()
    await watching[0].send({"action": "chat", "text": "Ann holds the queen, surely"})
    line = await watching[1].receive_until(lambda f: f.get("type") == "chat")
    assert (line["name"], line["watchers"]) == ("Eve", True)
    await players[1].send({"action": "chat", "text": "good luck"})
    for player in players:
        line = await player.receive_until(lambda f: f.get("type") == "chat")
        assert line["text"] == "good luck", "the players hear only their own chat"
    await watching[1].send({"action": "chat", "text": "agreed"})
    heard = [await watching[0].receive_until(lambda f: f.get("type") == "chat") for _ in range(2)]
    assert [line["text"] for line in heard] == ["Ann holds the queen, surely", "agreed"], "her own line, then Fay's"
    for player in players:
        assert not chat_frames(await player.drain()), "no watchers' line reached a player"
    assert [line["text"] for line in await sync_to_async(chat.chat_lines)(table.pk)] == ["good luck"]
    assert [line["text"] for line in await sync_to_async(chat.chat_lines)(table.pk, watchers=True)] == [
        "Ann holds the queen, surely", "agreed"]
    # A watcher's page shows the watchers' chat, with what was said there.
    html = await Player.create(fay, table.pk, fmt="html")
    assert await html.connect()
    await html.receive()
    log = await html.receive()
    assert "Ann holds the queen" in log and "good luck" not in log
    for socket in players + watching + [html]:
        await socket.close()


async def test_a_refused_line_is_explained_in_the_chat_where_the_player_is_looking(people):
    table = await sync_to_async(seat_people)(people)
    html = await Player.create(people[0], table.pk, fmt="html")
    assert await html.connect()
    await html.receive()
    for number in range(chat.CHAT_BURST):
        await html.send({"action": "chat", "text": f"line {number}"})
        await html.receive_until(lambda f: isinstance(f, str) and f"line {number}" in f)
    await html.send({"action": "chat", "text": "one too many"})
    notice = await html.receive_until(lambda f: isinstance(f, str) and "Slow down" in f)
    assert notice.startswith('<div id="chat-notice" class="chat-notice" role="status" data-code="slow_down">')
    assert "live-error" not in notice
    await html.close()
