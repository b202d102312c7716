"""Live play needs live access (a subscription) at every entry point to a NEW game or seat —
the pages and the websocket — while a lapsed subscription lets a game in progress finish."""
import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games.models import Seat, Table
from live.models import QueueEntry
from tests.live.conftest import Player, seat_people
from games import storage


@pytest.fixture
def users(people):
    return people


ROOM_POST = {"players": 4, "target": "100", "passing": "standard", "odd_cards": "remove", "hearts_lead": "broken",
             "lead": "lowest_club", "moon": "others_26", "ties": "continue", "first_trick_points": "no",
             "jack_of_diamonds": "no", "black_maria": "no", "turn_timer_seconds": 0}


@pytest.mark.django_db
@pytest.mark.parametrize("plan", ["none", "expired", "active"])
def test_pages_that_start_a_new_live_game_need_live_access(client, people, subscribe, plan):
    ann, bob = people[:2]
    if plan != "none":
        subscribe(ann, days=30 if plan == "active" else -1)
    client.force_login(ann)
    room = client.post(reverse("live:create_room"), ROOM_POST)
    queue = client.post(reverse("live:queue_join"), {"table_size": 4})
    other = seat_people([bob], rules=None, start=False)
    seat = client.post(reverse("live:take_seat", args=[other.code]))
    if plan == "active":
        assert room.status_code == 302 and Table.objects.filter(host=ann, kind="friends").exists()
        assert queue.status_code == 302 and QueueEntry.objects.filter(user=ann).exists()
        assert seat.status_code == 302 and Seat.objects.filter(table=other, user=ann).exists()
    else:
        for response in (room, queue, seat):
            assert response.status_code == 402
            assert b"subscription" in response.content.lower()
        assert not Table.objects.filter(host=ann).exists()
        assert not QueueEntry.objects.exists()
        assert not Seat.objects.filter(user=ann).exists()


@pytest.mark.django_db
def test_the_lobby_tells_a_player_without_live_access_why(client, people):
    client.force_login(people[0])
    response = client.get(reverse("live:lobby"))
    assert response.status_code == 200
    assert b"Live play needs a subscription" in response.content
    assert b'<a href="/accounts/pricing/">See plans</a>' in response.content, "the way to a plan is a link"


@pytest.mark.django_db
def test_the_lobby_sends_a_player_whose_payment_failed_to_their_payment_details(client, people, subscribe):
    import datetime as dt

    from django.utils import timezone

    from accounts.models import SubscriptionStatus

    subscription = subscribe(people[0], status=SubscriptionStatus.PAST_DUE)
    subscription.past_due_since = timezone.now() - dt.timedelta(days=60)
    subscription.save()
    client.force_login(people[0])
    page = client.get(reverse("live:lobby")).content.decode()
    assert "your last payment failed" in page
    assert f'<a href="{reverse("accounts:profile")}#subscription">Update your payment</a>' in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("plan", ["none", "expired", "active"])
async def test_watching_a_waiting_room_over_the_websocket_needs_live_access(people, subscribe, plan):
    table = await sync_to_async(seat_people)(people[:2], start=False)
    eve = people[3]
    if plan != "none":
        await sync_to_async(subscribe)(eve, days=30 if plan == "active" else -1)
    player = await Player.create(eve, table.pk)
    assert await player.connect()
    frame = await player.receive()
    if plan == "active":
        assert frame["type"] == "state" and frame["state"]["seat"] is None
        await player.close()
    else:
        assert frame["type"] == "error" and frame["code"] == "subscription_required"
        assert "subscription" in frame["message"]
        assert (await player.comm.receive_output(2))["code"] == 4403


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_lapsed_subscription_lets_a_game_in_progress_finish(people, subscribe):
    """Seated at a started game with an expired plan: reconnecting and playing still work."""
    table = await sync_to_async(seat_people)(people)
    for user in people:
        await sync_to_async(subscribe)(user, days=-1)

    game = await sync_to_async(storage.game_of)(table)
    seat = game.to_act[0]
    player = await Player.create(people[seat], table.pk)
    assert await player.connect()
    state = await player.receive()
    assert state["type"] == "state" and state["state"]["seat"] == seat
    await player.send({"action": "play", "card": str(game.legal(seat)[0]), "version": table.version})
    ack = await player.receive_until(lambda f: f["type"] in ("ack", "error"))
    assert ack["type"] == "ack"
    await player.close()
