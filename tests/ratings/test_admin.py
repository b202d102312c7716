import pytest
from django.contrib.auth import get_user_model

from ratings.models import RatedGame


@pytest.fixture
def staff_client(client, db):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-not-used-1")
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/admin/ratings/rating/",
        "/admin/ratings/rating/?table_size__exact=3&provisional=yes&q=ali",
        "/admin/ratings/rating/?provisional=no",
        "/admin/ratings/ratingchange/?q=alice&table_size__exact=3&dropped__exact=0",
        "/admin/ratings/ratedgame/?q=alice&status__exact=rated",
        "/admin/ratings/playerstats/?q=bob&rated__exact=1",
    ],
)
def test_admin_lists_and_searches(staff_client, players, rate_game, url):
    rate_game([(players[0], 10), (players[1], 100), (None, 50)], key="table:42")
    response = staff_client.get(url)
    assert response.status_code == 200


def test_admin_search_by_username_finds_the_rating(staff_client, players, rate_game):
    rate_game([(players[0], 10), (players[1], 100), (None, 50)], key="table:42")
    html = staff_client.get("/admin/ratings/rating/?q=alice").content.decode()
    assert "alice" in html and "bob" not in html


def test_admin_rated_game_shows_its_changes_inline(staff_client, players, rate_game):
    rate_game([(players[0], 10), (players[1], 100), (None, 50)], key="table:42")
    game = RatedGame.objects.get()
    html = staff_client.get(f"/admin/ratings/ratedgame/{game.pk}/change/").content.decode()
    assert "table:42" in html and "alice" in html and "bob" in html
