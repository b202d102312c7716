"""The end of a live game: places that agree with the ratings, each person's rating change,
and somewhere to go next."""
import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import presenters, services, storage
from games.table import conduct
from games.engine import Rules
from games.models import Table
from live import presence, rooms
from ratings.models import RatingChange
from tests.live.conftest import play_people_until_over

pytestmark = pytest.mark.django_db


def finished_game(people, **options):
    table = services.create_table(people[0], Rules(target=30), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4,
                                  seed=4, **options)
    for number, person in enumerate(people[1:], start=1):
        rooms.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    return play_people_until_over(table.pk)


def test_equal_scores_share_a_place():
    assert conduct.standings([26, 13, 13, 0]).places == (4, 2, 2, 1)
    assert conduct.standings([5, 5, 5]).places == (1, 1, 1)


def test_each_person_sees_the_places_their_rating_change_and_where_to_go_next(people):
    table = finished_game(people, rated=True)
    assert table.status == Table.Status.FINISHED
    changes = {change.user_id: change for change in RatingChange.objects.all()}
    assert len(changes) == 4
    game = storage.game_of(table)
    places = conduct.standings(game.scores).places

    snapshot = storage.load(table.pk)
    assert snapshot.drawable
    for seat, person in enumerate(people):
        context = presenters.table_context(snapshot, seat)
        over = context["game_over"]
        assert over["rated"]
        rows = {row["name"]: row for row in over["standings"]}
        for other, other_person in enumerate(people):
            row = rows["You" if other == seat else other_person.display_name]
            assert row["place"] == places[other]
            assert row["rating"]["after"] == changes[other_person.pk].display_after
        change = changes[person.pk]
        html = presenters.render_table(snapshot, seat)
        mine = re.search(r'<p class="my-rating">Your rating: (\d+) → <strong>(\d+)</strong> \(([^)]*)\)', html)
        assert mine and (int(mine[1]), int(mine[2])) == (change.display_before, change.display_after)
        delta = change.display_after - change.display_before
        assert mine[3] == (f"{delta:+d}".replace("-", "−") if delta else "±0")
        assert "provisional, 1 of 10 rated games" in html
        assert 'href="/live/">Back to the lobby</a>' in html and "New room</a>" in html


def test_an_unrated_game_shows_no_ratings(people):
    table = finished_game(people, rated=False)
    html = presenters.render_table(storage.load(table.pk), 0)
    assert "Game over" in html and "Your rating" not in html and "<th>Rating</th>" not in html


def test_a_person_leaves_a_game_in_progress_a_computer_plays_at_once_and_they_are_rated_last(client, people, subscribe):
    ann, bob, cat, dan = people
    table = services.create_table(ann, Rules(target=30, passing="none"), kind=Table.Kind.FRIENDS,
                                  seat_bots=[None] * 4, rated=True, seed=4)
    for number, person in enumerate(people[1:], start=1):
        rooms.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    page = client_for(client, ann).get(reverse("live:room", args=[table.code])).content.decode()
    assert "Leave game</button>" in page and "you are rated below everyone who stays" in page

    leaver = storage.game_of(Table.objects.get(pk=table.pk)).to_act[0]  # it is their turn
    version = Table.objects.get(pk=table.pk).version
    response = client_for(client, people[leaver]).post(reverse("live:resign", args=[table.code]))
    assert response["Location"] == reverse("live:lobby")
    table.refresh_from_db()
    seat = table.seats.get(number=leaver)
    assert seat.resigned and seat.standing_in and seat.left_at is not None
    assert table.version > version + 1, "the computer played the leaver's turn at once"
    # They cannot play again, nor take the seat back by coming back to the table.
    game = storage.game_of(table)
    with pytest.raises(services.ActionRejected) as refused:
        services.submit_action(table.pk, leaver, game.hands[leaver][0], user=people[leaver])
    assert refused.value.code == "resigned"
    assert not presence.reclaim_seat(table.pk, people[leaver])
    assert not rooms.resign(table.pk, people[leaver]), "once"

    stayed = [person for number, person in enumerate(people) if number != leaver]
    table = play_people_until_over(table.pk)  # a move asked of the leaver would be refused
    changes = {change.user_id: change for change in RatingChange.objects.all()}
    assert changes[people[leaver].pk].dropped
    assert changes[people[leaver].pk].rank == 4 and all(changes[p.pk].rank < 4 for p in stayed)
    html = presenters.render_table(storage.load(table.pk), leaver)
    assert "· left the game" in html


def client_for(client, user):
    client.force_login(user)
    return client


def test_a_rematch_starts_once_everyone_says_yes_with_the_same_people_and_rules(people):
    ann, bob, cat, dan = people
    table = finished_game(people, rated=True, turn_timer_seconds=30)
    html = presenters.render_table(storage.load(table.pk), 1)
    assert '<button class="button" name="answer" value="yes">Rematch</button>' in html

    offer = rooms.answer_rematch(table.pk, bob, True)
    room = Table.objects.get(code=offer["code"])
    assert offer["state"] == "open" and room.status == Table.Status.WAITING
    assert (room.rules, room.rated, room.turn_timer_seconds) == (table.rules, True, 30)
    html = presenters.render_table(storage.load(table.pk), 2)
    assert "Rematch: Ann not yet · Bob ready · You not yet · Dan not yet" in html
    assert "Rematch: I'm in</button>" in html and "No thanks</button>" in html
    for person in (cat, dan):
        assert rooms.answer_rematch(table.pk, person, True)["state"] == "open"
    assert rooms.answer_rematch(table.pk, ann, True)["state"] == "started"
    room.refresh_from_db()
    assert room.status == Table.Status.PLAYING
    # The same people in the same order round the table, Bob (who asked first) in seat 0.
    assert [seat.user for seat in room.seats.order_by("number")] == [bob, cat, dan, ann]
    html = presenters.render_table(storage.load(table.pk), 0)
    # Everyone who said yes is taken there (games/table.js follows data-go).
    assert f'href="{reverse("live:room", args=[room.code])}" data-go>Go to the rematch</a>' in html
    with pytest.raises(services.ActionRejected):
        rooms.answer_rematch(table.pk, ann, True)


def test_a_rematchs_seats_are_kept_for_its_players_its_time_shown_and_its_first_clock_waits(
        people, django_user_model, settings):
    settings.LIVE_ARRIVAL_GRACE_SECONDS = 20
    ann, bob, cat, dan = people
    eve = django_user_model.objects.create_user("eve", display_name="Eve")
    table = finished_game(people, turn_timer_seconds=30)
    offer = rooms.answer_rematch(table.pk, cat, True)
    room = Table.objects.get(code=offer["code"])
    html = presenters.render_table(storage.load(table.pk), 0)
    shown = re.search(r'data-until="([^"]+)"[^>]*><span class="until-value">(\d+)</span> s to answer', html)
    assert shown and shown[1] == offer["until"] and 55 <= int(shown[2]) <= 60

    # A stranger with the link cannot take a kept seat; a player of the game gets their own.
    with pytest.raises(services.ActionRejected) as refused:
        rooms.take_seat(room.pk, eve)
    assert refused.value.code == "seat_kept"
    assert rooms.take_seat(room.pk, dan, 0).number == 1, "Dan's place after Cat, whatever he asked"
    for person in (dan, ann, bob):
        rooms.answer_rematch(table.pk, person, True)
    room.refresh_from_db()
    assert room.status == Table.Status.PLAYING
    for seat in range(4):
        going = presenters.table_context(storage.load(table.pk), seat)["game_over"]["rematch"]
        assert going["state"] == "started" and going["going"]
    # Nobody has opened the new table yet: the first clock waits for them.
    left = (room.turn_deadline - timezone.now()).total_seconds()
    assert 45 < left <= 50, "the turn and the time to arrive"
    version = room.version
    for number, person in enumerate(people):
        presence.connection_opened(room.pk, person, f"specific.r!{number}", "alive:1:aaaa")
    room.refresh_from_db()
    assert room.version == version + 1 and 25 < (room.turn_deadline - timezone.now()).total_seconds() <= 30


def test_a_no_or_no_answer_in_time_closes_the_rematch(people):
    ann, bob, cat, dan = people
    table = finished_game(people)
    offer = rooms.answer_rematch(table.pk, ann, True)
    rooms.answer_rematch(table.pk, bob, False)
    room = Table.objects.get(code=offer["code"])
    assert room.status == Table.Status.ABANDONED and room.end_reason == "Bob said no to the rematch."
    html = presenters.render_table(storage.load(table.pk), 2)
    assert "No rematch: Bob said no, You not yet, Dan not yet." in html and 'value="yes"' not in html

    other = finished_game(people)
    offer = rooms.answer_rematch(other.pk, cat, True)
    rooms.answer_rematch(other.pk, dan, True)
    assert not rooms.rematch_expired(other.pk, offer["code"]), "not before its time"
    other.refresh_from_db()
    other.rematch["until"] = (timezone.now() - dt.timedelta(seconds=1)).isoformat()
    other.save(update_fields=["rematch"])
    assert rooms.rematch_expired(other.pk, offer["code"])
    other.refresh_from_db()
    assert other.rematch["state"] == "closed"
    assert other.rematch["answers"] == {str(cat.pk): "yes", str(dan.pk): "yes", str(ann.pk): "late", str(bob.pk): "late"}
    assert Table.objects.get(code=offer["code"]).status == Table.Status.ABANDONED
    assert "No rematch: Ann did not answer, Bob did not answer." in presenters.render_table(storage.load(other.pk), 2)


def test_the_rematch_page_answers(client, people, subscribe):
    ann, bob, *_ = people
    table = finished_game(people)
    subscribe(ann)
    response = client_for(client, ann).post(reverse("live:rematch", args=[table.code]), {"answer": "maybe"})
    assert response["Location"] == reverse("live:room", args=[table.code])
    table.refresh_from_db()
    assert table.rematch is None
    client.post(reverse("live:rematch", args=[table.code]), {"answer": "yes"})
    table.refresh_from_db()
    assert table.rematch["answers"] == {str(ann.pk): "yes"}
