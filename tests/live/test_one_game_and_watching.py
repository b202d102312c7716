"""Rules of conduct on the live app's side (``games.table.conduct``): one live game at a time per
person, in rooms as in the queue, and only listed games offered to watchers."""
import itertools

import pytest
from django.urls import reverse

from games import services
from games.table import conduct
from games.engine import Rules
from games.models import Table
from live import rooms
from live.views import WATCHABLE, games_to_watch
from tests.live.conftest import seat_people

pytestmark = pytest.mark.django_db


@pytest.fixture
def eve(django_user_model, subscribe):
    person = django_user_model.objects.create_user("eve", display_name="Eve")
    subscribe(person)
    return person


def test_someone_playing_a_live_game_cannot_sit_at_another_live_table(people, eve):
    ann, bob, cat, dan = people
    playing = seat_people(people)
    room = services.create_table(eve, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4)
    with pytest.raises(services.ActionRejected) as refused:
        rooms.take_seat(room.pk, bob)
    assert refused.value.code == "in_game" and "one at a time" in str(refused.value)
    assert not room.seats.filter(user=bob).exists()
    # Someone who left their game for good is free to play another.
    rooms.resign(playing.pk, bob)
    assert rooms.take_seat(room.pk, bob).user == bob
    # A solo game is no live game.
    solo = services.create_table(cat, Rules(), seat_bots=[None, "easy", "easy", "easy"])
    services.start_table(solo.pk)
    assert not rooms.live_games_in_progress([cat], besides=playing.pk)


def test_a_room_does_not_start_while_one_of_its_people_plays_another_live_game(people, eve, django_user_model,
                                                                               client):
    ann, bob, cat, dan = people
    room = services.create_table(eve, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4)
    rooms.take_seat(room.pk, bob)  # seated in the waiting room, then matched elsewhere
    seat_people(people)
    rooms.fill_empty_seats(room.pk, eve)
    with pytest.raises(services.ActionRejected) as refused:
        rooms.start_live_table(room.pk, eve)
    assert refused.value.code == "in_game" and "Bob is playing another live game" in str(refused.value)
    room.refresh_from_db()
    assert room.status == Table.Status.WAITING
    client.force_login(eve)
    page = client.post(reverse("live:start", args=[room.code]), follow=True).content.decode()
    assert "Bob is playing another live game" in page


def test_an_unlisted_room_is_not_offered_to_watchers_a_listed_one_is(people, eve):
    unlisted = seat_people(people)
    assert unlisted.kind == Table.Kind.FRIENDS and not unlisted.listed
    assert [game["table"] for game in games_to_watch(eve)] == []
    Table.objects.filter(pk=unlisted.pk).update(listed=True)
    assert [game["table"].pk for game in games_to_watch(eve)] == [unlisted.pk]
    # The room's link still lets a subscriber watch an unlisted game.


@pytest.mark.parametrize("kind, listed", list(itertools.product(Table.Kind.values, [False, True])))
def test_the_watch_list_query_is_the_rule(people, kind, listed):
    table = services.create_table(people[0], Rules(), kind=kind, seat_bots=[None, "easy", "easy", "easy"])
    Table.objects.filter(pk=table.pk).update(listed=listed)
    assert Table.objects.filter(WATCHABLE, pk=table.pk).exists() == conduct.listed_for_watching(kind, listed)


def test_ratings_are_shown_beside_names_at_a_rated_table_and_in_the_lobby(people, eve, client):
    from games import presenters, storage
    from ratings.models import Rating
    from ratings.skill import display_rating

    ann, bob, cat, dan = people
    Rating.objects.create(user=bob, table_size=4, mu=27.0, sigma=3.0, games=12, display=display_rating(27.0))
    table = services.create_table(ann, Rules(passing="none"), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4,
                                  rated=True, listed=True)
    for number, person in enumerate(people[1:], start=1):
        rooms.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    html = presenters.render_table(storage.load(table.pk), 0)
    assert 'Bob <span class="plate-rating" title="Rating">1548</span>' in html
    assert 'Cat <span class="plate-rating" title="Rating, provisional">1500?</span>' in html
    assert '<strong>You</strong> <span class="plate-rating" title="Your rating">1500?</span>' in html
    client.force_login(eve)
    lobby = client.get(reverse("live:lobby")).content.decode()
    assert "Ann (1500?), Bob (1548), Cat (1500?), Dan (1500?)" in lobby
