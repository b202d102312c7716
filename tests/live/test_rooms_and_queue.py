"""Friend rooms (create, link, seats, computers, start) and the matchmaking queue."""
import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import Rules
from games.models import Seat, Table
from live import matchmaking, presence, rooms
from live.models import QueueEntry
from tests.live.test_gating import ROOM_POST

pytestmark = pytest.mark.django_db


@pytest.fixture
def subscribed(people, subscribe):
    for user in people:
        subscribe(user)
    return people


def login(client, user):
    client.force_login(user)
    return client


def test_host_creates_a_room_friends_take_seats_computers_fill_the_rest_and_it_starts(client, subscribed):
    ann, bob = subscribed[:2]
    response = login(client, ann).post(reverse("live:create_room"), dict(ROOM_POST, turn_timer_seconds=30, rated="on", target="50"))
    table = Table.objects.get(host=ann)
    assert response["Location"] == reverse("live:room", args=[table.code]) == f"/live/room/{table.code}/"
    assert table.kind == "friends" and table.rated and table.turn_timer_seconds == 30 and table.rules["target"] == 50
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert table.code.encode() in page.content and b'ws-connect="/ws/table/' in page.content

    login(client, bob).post(reverse("live:take_seat", args=[table.code]))
    assert Seat.objects.get(table=table, number=1).user == bob
    # bob cannot start or seat computers
    client.post(reverse("live:start", args=[table.code]))
    client.post(reverse("live:fill_seats", args=[table.code]), {"level": "hard"})
    table.refresh_from_db()
    assert table.status == "waiting" and not Seat.objects.filter(table=table, bot_level="hard").exists()

    login(client, ann)
    started = client.post(reverse("live:start", args=[table.code]), follow=True)
    assert b"Every seat needs a player" in started.content
    client.post(reverse("live:fill_seats", args=[table.code]), {"level": "easy"})
    assert [s.occupant_name for s in table.seats.all()] == [ann.public_name, bob.public_name, "CPU (Easy)", "CPU (Easy)"]
    client.post(reverse("live:start", args=[table.code]))
    table.refresh_from_db()
    assert table.status == "playing"
    page = client.get(reverse("live:room", args=[table.code]))
    assert b'id="table"' in page.content


def test_a_room_seats_no_expert_computers(client, subscribed):
    ann = subscribed[0]
    login(client, ann).post(reverse("live:create_room"), ROOM_POST)
    table = Table.objects.get(host=ann)
    room = client.get(reverse("live:room", args=[table.code])).content.decode()
    assert '<option value="hard">Hard</option>' in room and 'value="expert"' not in room
    refused = client.post(reverse("live:fill_seats", args=[table.code]), {"level": "expert"}, follow=True)
    assert "Computer players in a live room are easy, medium or hard." in refused.content.decode()
    assert not Seat.objects.filter(table=table).exclude(bot_level="").exists()


def test_a_room_link_for_a_full_or_started_game(client, subscribed):
    table = services.create_table(subscribed[0], services.Rules(players=3), kind="friends", seat_bots=[None] * 3)
    rooms.fill_empty_seats(table.pk, subscribed[0])
    services.start_table(table.pk)
    page = login(client, subscribed[3]).get(reverse("live:room", args=[table.code]))
    assert b"You are watching" in page.content, "someone allowed live play may watch it"
    response = client.post(reverse("live:take_seat", args=[table.code]), follow=True)
    assert b"already started" in response.content
    assert not Seat.objects.filter(user=subscribed[3]).exists()


def test_a_friend_leaves_before_the_start_but_the_host_stays(client, subscribed):
    ann, bob = subscribed[:2]
    table = services.create_table(ann, services.Rules(), kind="friends", seat_bots=[None] * 4)
    version = Table.objects.get(pk=table.pk).version
    rooms.take_seat(table.pk, bob)
    assert rooms.take_seat(table.pk, bob).number == 1, "taking a seat twice keeps the same one"
    assert Table.objects.get(pk=table.pk).version == version + 1
    login(client, bob).post(reverse("live:leave_seat", args=[table.code]))
    assert not Seat.objects.filter(table=table, user=bob).exists()
    with pytest.raises(services.ActionRejected):
        rooms.leave_seat(table.pk, ann)


def test_a_person_may_take_a_computers_seat_before_the_start(subscribed):
    ann, bob = subscribed[:2]
    table = services.create_table(ann, services.Rules(players=3), kind="friends", seat_bots=[None] * 3)
    rooms.fill_empty_seats(table.pk, ann)
    assert rooms.take_seat(table.pk, bob).number == 1
    assert Seat.objects.get(table=table, number=1).bot_level == ""


# --------------------------------------------------------------------------- matchmaking


def entry(user, rating, waited=0, size=4):
    now = timezone.now()
    return QueueEntry.objects.create(user=user, table_size=size, rating=rating,
                                     joined_at=now - dt.timedelta(seconds=waited), last_seen=now)


def test_the_allowed_gap_widens_with_waiting(people):
    now = timezone.now()
    fresh = QueueEntry(user=people[0], table_size=4, rating=1500, joined_at=now, last_seen=now)
    assert matchmaking.allowed_gap(fresh, now) == 100
    assert matchmaking.allowed_gap(fresh, now + dt.timedelta(seconds=25)) == 200


def test_players_far_apart_wait_until_their_gaps_widen(people):
    a, b, c, d = people
    entries = [entry(a, 1500), entry(b, 1550), entry(c, 1600), entry(d, 1800)]
    assert matchmaking.match_players(4) == []
    # after a minute everyone accepts ±400
    QueueEntry.objects.update(joined_at=timezone.now() - dt.timedelta(seconds=60))
    tables = matchmaking.match_players(4)
    assert len(tables) == 1
    table = tables[0]
    assert table.kind == "matched" and table.rated and table.turn_timer_seconds == 30
    table.refresh_from_db()
    assert table.status == "playing"
    assert {seat.user for seat in table.seats.all()} == set(people)
    assert all(QueueEntry.objects.get(pk=e.pk).table_id == table.pk for e in entries)


def test_the_closest_ratings_are_matched_and_others_keep_waiting(django_user_model):
    users = [django_user_model.objects.create_user(f"p{i}") for i in range(6)]
    ratings = [1500, 1510, 1990, 1520, 1530, 2400]
    for user, rating in zip(users, ratings):
        entry(user, rating)
    (table,) = matchmaking.match_players(4)
    seated = {seat.user.username for seat in table.seats.all()}
    assert seated == {"p0", "p1", "p3", "p4"}
    assert QueueEntry.objects.filter(table__isnull=True).count() == 2


def test_the_queue_page_shows_the_wait_then_sends_everyone_to_the_table(client, subscribed):
    for user in subscribed[:3]:
        login(client, user).post(reverse("live:queue_join"), {"table_size": 4})
    page = client.get(reverse("live:queue"))
    assert b"Finding a 4-player game" in page.content and b"Cancel" in page.content
    status = client.get(reverse("live:queue_status"), HTTP_HX_REQUEST="true")
    assert b"3 waiting" in status.content
    response = login(client, subscribed[3]).post(reverse("live:queue_join"), {"table_size": 4})
    table = Table.objects.get(kind="matched")
    assert response["Location"] == reverse("live:room", args=[table.code])
    login(client, subscribed[0])
    status = client.get(reverse("live:queue_status"), HTTP_HX_REQUEST="true")
    assert status["HX-Redirect"] == reverse("live:room", args=[table.code])
    assert not QueueEntry.objects.filter(user=subscribed[0]).exists()


def test_nobody_is_seated_at_a_second_table_while_playing_a_live_game(client, subscribed, django_user_model):
    """Reported: the same four were seated at two rated tables at once (matched, then they
    joined the queue again from the lobby while the first game was on)."""
    for user in subscribed:
        entry(user, 1500)
    (first,) = matchmaking.match_players(4)
    # From the lobby, during the game: sent back to the game, not queued.
    response = login(client, subscribed[0]).post(reverse("live:queue_join"), {"table_size": 4})
    assert response["Location"] == reverse("live:room", args=[first.code])
    assert "finish it before you join the queue" in client.get(response["Location"]).content.decode()
    with pytest.raises(services.ActionRejected) as refused:
        matchmaking.join_queue(subscribed[1], 4)
    assert refused.value.code == "in_game"
    # One who was already waiting when the game began stays waiting until it is over.
    others = [django_user_model.objects.create_user(f"q{i}") for i in range(3)]
    for user in others:
        entry(user, 1500)
    QueueEntry.objects.filter(user=subscribed[2]).update(table=None)
    assert matchmaking.match_players(4) == []
    services.abandon_table(first.pk, "test over")
    (second,) = matchmaking.match_players(4)
    assert {seat.user for seat in second.seats.all()} == {subscribed[2], *others}


def test_cancel_leaves_the_queue(client, subscribed):
    login(client, subscribed[0]).post(reverse("live:queue_join"), {"table_size": 3})
    assert QueueEntry.objects.filter(user=subscribed[0]).exists()
    client.post(reverse("live:queue_cancel"))
    assert not QueueEntry.objects.exists()
    assert client.get(reverse("live:queue")).status_code == 302


def test_a_player_who_stopped_polling_is_dropped_from_the_queue(people):
    stale = entry(people[0], 1500)
    QueueEntry.objects.filter(pk=stale.pk).update(last_seen=timezone.now() - dt.timedelta(minutes=5))
    for user in people[1:]:
        entry(user, 1500)
    assert matchmaking.match_players(4) == []
    assert not QueueEntry.objects.filter(pk=stale.pk).exists()


def test_match_task_runs_matching(people):
    from live.tasks import match_players_task

    for user in people:
        entry(user, 1500)
    assert match_players_task.apply(args=(4,)).get() == 1


@pytest.mark.parametrize("seat", ["²", "-1", "abc", "4", "99999999999", "1.0"])
def test_a_seat_that_is_not_one_says_so_and_takes_nothing(client, subscribed, seat):
    ann, bob = subscribed[:2]
    table = services.create_table(ann, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4)
    response = login(client, bob).post(reverse("live:take_seat", args=[table.code]), {"seat": seat}, follow=True)
    assert response.status_code == 200
    assert "seats are numbered from 0 to 3" in response.content.decode()
    assert not Seat.objects.filter(table=table, user=bob).exists()
    assert Table.objects.get(pk=table.pk).version == 0
    response = client.post(reverse("live:take_seat", args=[table.code]), {"seat": "2"})
    assert Seat.objects.get(table=table, user=bob).number == 2


def test_the_room_shows_its_rules_before_you_sit_and_the_lobby_lists_rooms_with_free_seats(client, subscribed):
    ann, bob, cat, dan = subscribed
    login(client, ann).post(reverse("live:create_room"), dict(ROOM_POST, target="custom", target_custom="75",
                                                             jack_of_diamonds="yes", listed="on"))
    room = Table.objects.get(kind="friends")
    private = services.create_table(cat, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4)  # link only
    page = login(client, bob).get(reverse("live:room", args=[room.code])).content.decode()
    assert "Rules at this table" in page and "reaches 75 points" in page and "J♦" in page
    lobby = client.get(reverse("live:lobby")).content.decode()
    listed = re.search(r'<section class="live-panel" id="open-rooms">(.*?)</section>', lobby, re.S)[1]
    assert reverse("live:room", args=[room.code]) in listed and "Ann</strong>'s room" in listed
    assert "4 players · game to 75 · 3 seats free" in listed and "reaches 75 points" in listed
    assert reverse("live:room", args=[private.code]) not in lobby and "Cat</strong>" not in lobby
    # A full room (friends and computers) is not listed; nor is one that has started.
    rooms.fill_empty_seats(room.pk, ann)
    assert reverse("live:room", args=[room.code]) not in client.get(reverse("live:lobby")).content.decode()


def test_the_host_closes_a_waiting_room_and_the_others_are_told(client, subscribed):
    ann, bob, *_ = subscribed
    login(client, ann).post(reverse("live:create_room"), ROOM_POST)
    room = Table.objects.get(kind="friends")
    rooms.take_seat(room.pk, bob)
    assert login(client, bob).post(reverse("live:close_room", args=[room.code])).status_code == 302
    room.refresh_from_db()
    assert room.status == Table.Status.WAITING, "only the host closes the room"
    response = login(client, ann).post(reverse("live:close_room", args=[room.code]))
    assert response["Location"] == reverse("live:lobby")
    room.refresh_from_db()
    assert room.status == Table.Status.ABANDONED and room.end_reason == "The host closed the room."
    page = login(client, bob).get(reverse("live:room", args=[room.code])).content.decode()
    assert "The host closed the room." in page and 'id="take-seat"' not in page
    # A room whose game has started cannot be closed: the game is left to its players.
    login(client, ann).post(reverse("live:create_room"), ROOM_POST)
    started = Table.objects.filter(kind="friends", status="waiting").get()
    rooms.fill_empty_seats(started.pk, ann)
    rooms.start_live_table(started.pk, ann)
    client.post(reverse("live:close_room", args=[started.code]))
    started.refresh_from_db()
    assert started.status == Table.Status.PLAYING


def test_a_matched_games_first_clock_waits_for_everyone_to_open_the_table(people, settings):
    """Reported: the first turn's 30 s ran while the matched players were still being sent from
    the queue to the table."""
    settings.LIVE_ARRIVAL_GRACE_SECONDS = 20
    for user in people:
        entry(user, 1500)
    (table,) = matchmaking.match_players(4)
    table.refresh_from_db()
    left = (table.turn_deadline - timezone.now()).total_seconds()
    assert 45 < left <= 50, "the turn and the time to arrive"
    version = table.version
    for number, person in enumerate(people[:3]):
        presence.connection_opened(table.pk, person, f"specific.x!{number}", "alive:1:aaaa")
    table.refresh_from_db()
    assert table.version == version, "nothing changes while someone is still on the way"
    presence.connection_opened(table.pk, people[3], "specific.x!3", "alive:1:aaaa")
    table.refresh_from_db()
    left = (table.turn_deadline - timezone.now()).total_seconds()
    assert table.version == version + 1 and 25 < left <= 30, "the whole turn, from when the last one arrived"
    # Once everyone is here, coming and going does not touch the clock again.
    presence.connection_opened(table.pk, people[0], "specific.x!9", "alive:1:aaaa")
    assert Table.objects.get(pk=table.pk).version == version + 1
