"""Your statistics of solo play, and My games' rules, opponents, stop and delete."""
import pytest
from django.urls import reverse

from games import services
from games.engine import Rules
from games.models import Table
from solo.stats import solo_statistics
from .conftest import seat_zero_takes_every_card

pytestmark = pytest.mark.django_db


def shoot_the_moon_and_win(user) -> Table:
    """A moon in the first deal puts everyone else at 26, which ends a game to 26."""
    table = seat_zero_takes_every_card(user, Rules(passing="none", target=26))
    assert table.status == Table.Status.FINISHED
    return table


def test_statistics_count_games_wins_points_moons_and_queens_overall_and_split(ann, player):
    shoot_the_moon_and_win(player)
    stopped = services.create_table(player, Rules(players=3), seat_bots=[None, "easy", "easy"], seed=2)
    services.start_table(stopped.pk)
    ann.post(reverse("solo:abandon", args=[stopped.pk]))
    assert Table.objects.get(pk=stopped.pk).status == Table.Status.ABANDONED
    unfinished = services.create_table(player, Rules(), seat_bots=[None, "hard", "hard", "hard"], seed=3)
    services.start_table(unfinished.pk)

    stats = solo_statistics(player)
    overall = stats.overall
    assert (overall.games, overall.won, overall.moons, overall.queens) == (2, 1, 1, 1)
    assert overall.win_rate == 0.5 and overall.deals == 1 and overall.points == 0
    assert set(stats.by_level) == {"medium", "easy"} and stats.by_level["medium"].won == 1
    assert stats.by_level["easy"].games == 1 and stats.by_level["easy"].won == 0
    assert set(stats.by_players) == {3, 4}

    page = ann.get(reverse("solo:stats")).content.decode()
    assert "All games" in page and "Computers: Medium" in page and "Computers: Easy" in page
    assert "3 players" in page and "4 players" in page and "50%" in page


def test_statistics_page_for_a_player_with_no_finished_game(ann):
    assert "No finished solo game yet" in ann.get(reverse("solo:stats")).content.decode()


def test_my_games_shows_rules_and_opponents_and_can_stop_or_delete_an_unfinished_game(ann, player, stranger):
    table = services.create_table(player, Rules(black_maria=True, target=50), seat_bots=[None, "hard", "easy", "hard"], seed=4)
    services.start_table(table.pk)
    page = ann.get(reverse("solo:my_games")).content.decode()
    assert "4 players · to 50 · Black Maria" in page and "(Hard)" in page and "(Easy)" in page
    assert reverse("solo:abandon", args=[table.pk]) in page and reverse("solo:delete", args=[table.pk]) in page
    # nobody else may stop or delete it
    from django.test import Client

    other = Client()
    other.force_login(stranger)
    assert other.post(reverse("solo:delete", args=[table.pk])).status_code == 404
    assert other.post(reverse("solo:abandon", args=[table.pk])).status_code == 404
    assert ann.get(reverse("solo:delete", args=[table.pk])).status_code == 405
    ann.post(reverse("solo:delete", args=[table.pk]))
    assert not Table.objects.filter(pk=table.pk).exists()
