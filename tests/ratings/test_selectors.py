import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings import selectors
from ratings.models import PROVISIONAL_GAMES, Rating


def make_rating(user, table_size=4, mu=25.0, sigma=5.0, games=PROVISIONAL_GAMES):
    from ratings.skill import display_rating

    return Rating.objects.create(
        user=user, table_size=table_size, mu=mu, sigma=sigma, games=games, display=display_rating(mu)
    )


def test_rating_for_a_new_player_is_a_default_and_creates_nothing(players):
    with CaptureQueriesContext(connection) as queries:
        rating = selectors.rating_for(players[0], 5)
    assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries.captured_queries)
    assert rating.pk is None and not Rating.objects.exists()
    assert (rating.display, rating.provisional, rating.games, rating.table_size) == (1500, True, 0, 5)


def test_rating_for_an_existing_player(players):
    saved = make_rating(players[0], table_size=3, mu=30, sigma=3)
    assert selectors.rating_for(players[0], 3) == saved
    assert selectors.rating_for(players[0].pk, 3).display == saved.display == 1500 + 24 * 5
    assert not selectors.rating_for(players[0], 3).provisional


def test_ratings_for_several_players(players):
    make_rating(players[0], mu=28)
    found = selectors.ratings_for(players[:3], 4)
    assert list(found) == [p.pk for p in players[:3]]
    assert found[players[0].pk].mu == 28 and found[players[1].pk].pk is None


def test_rating_for_refuses_other_table_sizes(players):
    with pytest.raises(ValueError, match="3, 4, 5 or 6"):
        selectors.rating_for(players[0], 2)


def test_leaderboard_orders_established_players_best_first(players):
    a, b, c, d, e, f = players
    make_rating(a, mu=26, sigma=4)  # ranked by the shown rating: the estimate itself
    make_rating(b, mu=30, sigma=3)
    make_rating(c, mu=24, sigma=2)
    make_rating(d, mu=40, sigma=4, games=PROVISIONAL_GAMES - 1)  # provisional: not ranked
    make_rating(e, mu=35, sigma=3, table_size=3)  # another table size
    make_rating(f, mu=20, sigma=8, games=0)  # no games yet
    assert [r.user for r in selectors.leaderboard(4)] == [b, a, c]
    assert [r.user for r in selectors.leaderboard(4, limit=2)] == [b, a]
    assert [r.user for r in selectors.leaderboard(4, include_provisional=True)] == [d, b, a, c]
    assert [r.user for r in selectors.provisional_players(4)] == [d]
    assert [r.user for r in selectors.leaderboard(3)] == [e]
    assert selectors.leaderboard_position(Rating.objects.get(user=a, table_size=4)) == 2
    assert selectors.leaderboard_position(Rating.objects.get(user=d)) is None


def test_rating_history_is_oldest_first(players, rate_game):
    a, b, c = players[:3]
    rate_game([(a, 10), (b, 100), (c, 50)])
    rate_game([(a, 100), (b, 10), (c, 50)])
    history = selectors.rating_history(a, 3)
    assert [h.rank for h in history] == [1, 3]
    assert history[0].display_after == history[1].display_before


def test_player_statistics_adds_up_table_sizes(players, rate_game):
    a, b, c, d = players[:4]
    rate_game([(a, 30), (b, 100), (c, 60)], deals=10, moons={a.pk: 1})
    rate_game([(a, 60), (b, 100), (c, 60), (d, 20)], deals=10)
    stats = selectors.player_statistics(a)
    assert [line.label for line in stats.rated_by_size] == ["Rated, 3 players", "Rated, 4 players"]
    assert (stats.rated.games, stats.rated.wins, stats.rated.moons) == (2, 1, 1)
    assert stats.rated.points_per_deal == pytest.approx(90 / 20)
    assert stats.all_games.games == 2
