"""The end of a live game: places that agree with the ratings, each person's rating change,
and somewhere to go next."""
import re

import pytest

from games import presenters, services, snapshots
from games.engine import Rules
from games.models import Table
from ratings.models import RatingChange

pytestmark = pytest.mark.django_db


def play_to_the_end(table_id, people):
    for _ in range(2000):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        game = services.load_game(table)
        seat = game.to_act[0]
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
