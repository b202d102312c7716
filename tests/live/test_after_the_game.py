"""The end of a live game: places that agree with the ratings, each person's rating change,
and somewhere to go next."""
import re

import pytest
from django.urls import reverse

from games import presenters, services, snapshots
from games.engine import Rules
from games.models import Table
from ratings.models import RatingChange

pytestmark = pytest.mark.django_db


def play_to_the_end(table_id, people, skip=()):
    """Each person plays the first legal card on their turn (a computer plays ``skip`` seats)."""
    for _ in range(2000):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        game = services.load_game(table)
        seat = game.to_act[0]
        if seat in skip:
            raise AssertionError("a computer plays that seat: it is never left waiting")
        action = "add" if game.phase == "moon_choice" else game.legal(seat)[:3] if game.phase == "pass" else game.legal(seat)[0]
        services.submit_action(table_id, seat, action, expected_version=table.version, user=people[seat])
    raise AssertionError("the game did not end")


def test_equal_scores_share_a_place():
    assert presenters.standing_places([26, 13, 13, 0]) == [4, 2, 2, 1]
    assert presenters.standing_places([5, 5, 5]) == [1, 1, 1]


def test_each_person_sees_the_places_their_rating_change_and_where_to_go_next(people):
    table = services.create_table(people[0], Rules(target=30), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4,
                                  rated=True, seed=4)
    for number, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    table = play_to_the_end(table.pk, people)
    assert table.status == Table.Status.FINISHED
    changes = {change.user_id: change for change in RatingChange.objects.all()}
    assert len(changes) == 4
    game = services.load_game(table)
    places = presenters.standing_places(game.scores)

    snapshot = snapshots.load(table.pk)
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
    table = services.create_table(people[0], Rules(target=30), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4,
                                  rated=False, seed=4)
    for number, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    play_to_the_end(table.pk, people)
    html = presenters.render_table(snapshots.load(table.pk), 0)
    assert "Game over" in html and "Your rating" not in html and "<th>Rating</th>" not in html


def test_a_person_leaves_a_game_in_progress_a_computer_plays_at_once_and_they_are_rated_last(client, people, subscribe):
    ann, bob, cat, dan = people
    table = services.create_table(ann, Rules(target=30, passing="none"), kind=Table.Kind.FRIENDS,
                                  seat_bots=[None] * 4, rated=True, seed=4)
    for number, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    page = client_for(client, ann).get(reverse("live:room", args=[table.code])).content.decode()
    assert "Leave game</button>" in page and "you are rated below everyone who stays" in page

    leaver = services.load_game(Table.objects.get(pk=table.pk)).to_act[0]  # it is their turn
    version = Table.objects.get(pk=table.pk).version
    response = client_for(client, people[leaver]).post(reverse("live:resign", args=[table.code]))
    assert response["Location"] == reverse("live:lobby")
    table.refresh_from_db()
    seat = table.seats.get(number=leaver)
    assert seat.resigned and seat.standing_in and seat.left_at is not None
    assert table.version > version + 1, "the computer played the leaver's turn at once"
    # They cannot play again, nor take the seat back by coming back to the table.
    game = services.load_game(table)
    with pytest.raises(services.ActionRejected) as refused:
        services.submit_action(table.pk, leaver, game.hands[leaver][0], user=people[leaver])
    assert refused.value.code == "resigned"
    assert not services.reclaim_seat(table.pk, people[leaver])
    assert not services.resign(table.pk, people[leaver]), "once"

    stayed = [person for number, person in enumerate(people) if number != leaver]
    table = play_to_the_end(table.pk, people, skip={leaver})
    changes = {change.user_id: change for change in RatingChange.objects.all()}
    assert changes[people[leaver].pk].dropped
    assert changes[people[leaver].pk].rank == 4 and all(changes[p.pk].rank < 4 for p in stayed)
    html = presenters.render_table(snapshots.load(table.pk), leaver)
    assert "left, rated last" in html


def client_for(client, user):
    client.force_login(user)
    return client
