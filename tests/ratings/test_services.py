import datetime as dt
import threading
import time

import pytest
from django.db import connection, transaction
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.table.conduct import standings
from ratings import skill
from ratings.models import PROVISIONAL_GAMES, PlayerStats, RatedGame, Rating, RatingChange
from ratings.selectors import leaderboard, rating_for
from ratings.services import SeatResult, apply_abandoned_game, apply_game_result, record_game_stats


def results_for(seats):
    places = standings([score for _, score in seats]).places
    return [SeatResult(u.pk if u else None, score, place=place, deals=8) for (u, score), place in zip(seats, places)]


def test_a_rated_game_updates_every_player_once(players, rate_game):
    a, b, c, d = players[:4]
    changes = rate_game([(a, 40), (b, 101), (c, 62), (d, 75)])
    assert [ch.user_id for ch in changes] == [a.pk, b.pk, c.pk, d.pk]  # seat order
    assert [ch.rank for ch in changes] == [1, 4, 2, 3]
    assert [ch.score for ch in changes] == [40, 101, 62, 75]
    expected = skill.rate([skill.Skill()] * 4, [1, 4, 2, 3])
    for change, new in zip(changes, expected):
        rating = Rating.objects.get(user_id=change.user_id, table_size=4)
        assert (rating.mu, rating.sigma, rating.games) == (new.mu, new.sigma, 1)
        assert rating.display == change.display_after == new.display
        assert change.display_before == 1500 and change.mu_before == skill.INITIAL_MU
    assert Rating.objects.get(user=a, table_size=4).display > Rating.objects.get(user=b, table_size=4).display
    assert not Rating.objects.filter(table_size=3).exists()


def test_second_call_for_the_same_game_changes_nothing(players, rate_game):
    seats = [(players[0], 30), (players[1], 100), (players[2], 55)]
    first = rate_game(seats, key="table:7")
    snapshot = list(Rating.objects.values_list("user_id", "mu", "sigma", "games", "display"))
    stats = list(PlayerStats.objects.values())
    assert rate_game(seats, key="table:7") is None
    assert rate_game([(players[0], 100), (players[1], 0), (players[2], 55)], key="table:7") is None
    assert len(first) == 3
    assert RatedGame.objects.count() == 1 and RatingChange.objects.count() == 3
    assert list(Rating.objects.values_list("user_id", "mu", "sigma", "games", "display")) == snapshot
    assert list(PlayerStats.objects.values()) == stats


def test_a_duplicate_inside_one_transaction_leaves_it_usable(players):
    seats = results_for([(players[0], 20), (players[1], 100), (None, 50)])
    with transaction.atomic():
        assert apply_game_result("table:8", 3, seats)
        assert apply_game_result("table:8", 3, seats) is None
        assert Rating.objects.count() == 2  # the savepoint rolled back; the transaction goes on


def test_a_racing_second_call_that_loses_the_insert_changes_nothing(players, monkeypatch):
    """Simulates two workers on one connection: the second cannot see the first's row (as if
    uncommitted when it looked), so only the unique key stops it when it inserts."""
    seats = results_for([(players[0], 20), (players[1], 100), (players[2], 60)])
    with transaction.atomic():
        apply_game_result("table:9", 3, seats)
    hidden = QuerySet(RatedGame).none()
    monkeypatch.setattr(RatedGame.objects, "get_queryset", lambda: hidden)
    assert not RatedGame.objects.filter(game_key="table:9").exists()  # invisible to reads now
    with transaction.atomic():
        assert apply_game_result("table:9", 3, seats) is None
    monkeypatch.undo()
    assert RatedGame.objects.count() == 1 and RatingChange.objects.count() == 3
    assert set(Rating.objects.values_list("games", flat=True)) == {1}
    assert set(PlayerStats.objects.values_list("games", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_concurrent_calls_for_one_game_rate_it_once(make_user):
    """Two threads, two database connections: the first holds its transaction open while the
    second tries the same game; the second must wait for the unique key and get None."""
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith("file:memorydb"):
        pytest.skip("in-memory SQLite shares one cache between threads and cannot make a thread wait")
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    seats = results_for([(a, 20), (b, 100), (c, 60)])
    first_applied, release = threading.Event(), threading.Event()
    outcome = {}

    def first():
        try:
            with transaction.atomic():
                outcome["first"] = apply_game_result("table:10", 3, seats)
                first_applied.set()
                release.wait(10)
        finally:
            connection.close()

    def second():
        first_applied.wait(10)
        try:
            with transaction.atomic():
                outcome["second"] = apply_game_result("table:10", 3, seats)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    first_applied.wait(10)
    time.sleep(0.3)  # let the second thread reach the database and wait there
    assert "second" not in outcome
    release.set()
    for t in threads:
        t.join(20)
    assert len(outcome["first"]) == 3 and outcome["second"] is None
    assert RatingChange.objects.count() == 3
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_must_be_called_inside_a_transaction(make_user):
    a, b = make_user("a"), make_user("b")
    with pytest.raises(RuntimeError, match="transaction.atomic"):
        apply_game_result("table:11", 3, results_for([(a, 10), (b, 100), (None, 50)]))
    assert not RatedGame.objects.exists()


def test_rating_rows_are_locked_for_update(players, rate_game):
    if not connection.features.has_select_for_update:
        pytest.skip(f"{connection.vendor} has no SELECT ... FOR UPDATE (it locks the whole database)")
    with CaptureQueriesContext(connection) as queries:
        rate_game([(players[0], 10), (players[1], 100), (players[2], 50)])
    assert any("FOR UPDATE" in q["sql"] and "ratings_rating" in q["sql"] for q in queries.captured_queries)


def test_computer_seats_are_not_rated_and_not_ranked(players, rate_game):
    a, b = players[:2]
    changes = rate_game([(None, 20), (a, 60), (None, 30), (b, 100)])
    assert [(ch.user_id, ch.rank) for ch in changes] == [(a.pk, 1), (b.pk, 2)]
    assert Rating.objects.count() == 2
    heads_up = skill.rate([skill.Skill(), skill.Skill()], [1, 2])  # exactly a two-person ranking
    assert Rating.objects.get(user=a).mu == heads_up[0].mu
    assert Rating.objects.get(user=b).mu == heads_up[1].mu


def test_a_dropped_player_is_rated_last_whatever_the_score(players, rate_game):
    a, b, c = players[:3]
    changes = rate_game([(a, 12), (b, 100), (c, 70)], dropped={a})
    by_user = {ch.user_id: ch for ch in changes}
    assert (by_user[a.pk].rank, by_user[a.pk].dropped) == (3, True)
    assert by_user[c.pk].rank == 1 and by_user[b.pk].rank == 2
    expected = skill.rate([skill.Skill()] * 3, [3, 2, 1])
    assert Rating.objects.get(user=a).mu == expected[0].mu < skill.INITIAL_MU


def test_several_dropped_players_tie_for_last(players, rate_game):
    a, b, c, d = players[:4]
    changes = rate_game([(a, 30), (b, 100), (c, 60), (d, 80)], dropped={a, b})
    assert [ch.rank for ch in changes] == [3, 3, 1, 2]
    assert changes[0].mu_after == changes[1].mu_after  # started equal, tied: identical


def test_fewer_than_two_people_rates_nothing_but_counts_statistics(players, rate_game):
    a = players[0]
    assert rate_game([(a, 20), (None, 100), (None, 50), (None, 70)], key="table:12") == []
    assert rate_game([(a, 20), (None, 100), (None, 50), (None, 70)], key="table:12") is None
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert RatedGame.objects.get().status == RatedGame.Status.TOO_FEW_PLAYERS
    stats = PlayerStats.objects.get(user=a)
    assert (stats.rated, stats.games, stats.wins) == (False, 1, 1)


def test_when_every_person_left_whoever_stayed_longest_ranks_first(players, rate_game):
    """Rule 5, everyone gone (it used to rate nobody): the order of leaving ranks them,
    whatever the computers made of their scores."""
    a, b, c = players[:3]
    now = timezone.now()
    left = {a: now - dt.timedelta(minutes=1), b: now - dt.timedelta(minutes=9), c: now - dt.timedelta(minutes=9)}
    changes = rate_game([(a, 100), (b, 20), (c, 40), (None, 50)], dropped={a, b, c}, left_at=left)
    assert [change.rank for change in changes] == [1, 2, 2]
    assert rating_for(a, 4).display > rating_for(b, 4).display == rating_for(c, 4).display
    # A moment unknown (an older record): they share the place.
    d, e = players[3:5]
    changes = rate_game([(d, 20), (e, 100), (None, 50)], dropped={d, e}, left_at={d: now})
    assert [change.rank for change in changes] == [1, 1]


def test_provisional_until_ten_rated_games(players, rate_game):
    a, b, c = players[:3]
    for _ in range(PROVISIONAL_GAMES - 1):
        rate_game([(a, 30), (b, 100), (c, 60)])
    assert rating_for(a, 3).provisional and rating_for(a, 3).games == PROVISIONAL_GAMES - 1
    assert leaderboard(3) == []
    rate_game([(a, 30), (b, 100), (c, 60)])
    assert not rating_for(a, 3).provisional
    assert [r.user for r in leaderboard(3)] == [a, c, b]
    assert rating_for(a, 4).provisional  # table sizes are rated apart


def test_a_shared_win_gives_both_winners_the_same_update(players, rate_game):
    a, b, c, d = players[:4]
    changes = rate_game([(c, 80), (a, 45), (d, 101), (b, 45)])
    by_user = {ch.user_id: ch for ch in changes}
    assert by_user[a.pk].rank == by_user[b.pk].rank == 1
    assert (by_user[a.pk].mu_after, by_user[a.pk].sigma_after) == (by_user[b.pk].mu_after, by_user[b.pk].sigma_after)
    a_first = skill.rate([skill.Skill()] * 4, [1, 2, 3, 4])[0].mu
    b_first = skill.rate([skill.Skill()] * 4, [2, 1, 3, 4])[0].mu
    assert by_user[a.pk].mu_after == pytest.approx((a_first + b_first) / 2, abs=1e-9)


def test_statistics_of_rated_games(players, rate_game):
    a, b, c = players[:3]
    rate_game([(a, 40), (b, 101), (c, 62)], moons={a.pk: 1}, deals=9)
    rate_game([(a, 55), (b, 55), (c, 100)], moons={c.pk: 2}, deals=11)  # a and b share the win
    rate_game([(a, 20), (b, 104), (c, 70)], dropped={a}, moons={a.pk: 1}, deals=6)  # a left early
    stats = PlayerStats.objects.get(user=a, table_size=3, rated=True)
    assert (stats.games, stats.wins, stats.shared_wins, stats.left_early, stats.moons) == (3, 2, 1, 1, 2)
    assert (stats.points, stats.deals) == (40 + 55, 9 + 11)  # the game left early is not theirs
    assert stats.points_per_deal == pytest.approx(95 / 20)
    b_stats = PlayerStats.objects.get(user=b, table_size=3, rated=True)
    assert (b_stats.wins, b_stats.shared_wins, b_stats.points, b_stats.deals) == (1, 1, 101 + 55 + 104, 26)
    assert PlayerStats.objects.get(user=c).moons == 2


def test_abandoned_game_rates_only_the_players_who_left(players):
    a, b, c, d = players[:4]
    results = [
        SeatResult(a.pk, 30, dropped=True, deals=3),
        SeatResult(b.pk, 50, deals=5),
        SeatResult(c.pk, 40, deals=5),
        SeatResult(None, 20, deals=5),
    ]
    with transaction.atomic():
        changes = apply_abandoned_game("table:13", 4, results)
        assert apply_abandoned_game("table:13", 4, results) is None
    assert [(ch.user_id, ch.rank) for ch in changes] == [(a.pk, 3)]
    expected = skill.rate([skill.Skill()] * 3, [3, 1, 1])
    assert Rating.objects.get(user=a, table_size=4).mu == expected[0].mu < skill.INITIAL_MU
    assert not Rating.objects.filter(user__in=[b, c], games__gt=0).exists()
    assert rating_for(b, 4).display == 1500
    assert RatedGame.objects.get().status == RatedGame.Status.ABANDONED
    assert list(PlayerStats.objects.values_list("user_id", "games", "left_early")) == [(a.pk, 1, 1)]


def test_abandoned_game_with_nobody_gone_rates_nothing(players):
    a, b, c = players[:3]
    with transaction.atomic():
        assert apply_abandoned_game("table:14", 3, results_for([(a, 10), (b, 20), (c, 30)])) == []
    assert not RatingChange.objects.exists() and not PlayerStats.objects.exists()


def test_record_game_stats_counts_unrated_games_once(players):
    a, b = players[:2]
    results = [SeatResult(a.pk, 30, place=1, moons=1, deals=7), SeatResult(b.pk, 100, place=3, deals=7),
               SeatResult(None, 60, place=2)]
    with transaction.atomic():
        assert record_game_stats("table:15", 3, results) is True
        assert record_game_stats("table:15", 3, results) is False
        assert apply_game_result("table:15", 3, results) is None  # one key, one processing
    stats = PlayerStats.objects.get(user=a)
    assert (stats.rated, stats.games, stats.wins, stats.moons, stats.points, stats.deals) == (False, 1, 1, 1, 30, 7)
    assert not Rating.objects.exists()


@pytest.mark.parametrize(
    "table_size, results, message",
    [
        (7, [SeatResult(None, 0)] * 7, "3, 4, 5 or 6"),
        (4, [SeatResult(None, 0)] * 3, "needs 4 seat results"),
        (3, [SeatResult(1, 0), SeatResult(1, 10), SeatResult(None, 5)], "only one seat"),
        (3, [SeatResult(None, 0, moons=-1)] * 3, "negative"),
        (3, [SeatResult(1, 0, place=1), SeatResult(2, 10), SeatResult(None, 5, place=2)], "each seat's place"),
    ],
)
def test_bad_results_are_refused(db, table_size, results, message):
    with transaction.atomic(), pytest.raises(ValueError, match=message):
        apply_game_result("table:16", table_size, results)
    assert not RatedGame.objects.exists()
