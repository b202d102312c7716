import pytest

from games import results, services, storage
from games.engine import Game, Rules
from games.models import Seat, Table
from ratings.models import RatedGame, RatingChange
from tests.live.conftest import play_people_until_over


def test_moons_are_counted_per_seat_from_the_stored_game():
    game = Game.new(Rules(passing="none", target=50), seed=3)
    while game.phase != "over":
        seat = game.to_act[0]
        game.apply(seat, game.legal(seat)[0] if game.phase != "pass" else game.legal(seat)[:3])
    expected = [0] * 4
    replayed = list(Game.replay(game.to_dict()))
    for before, after in zip(replayed, replayed[1:]):
        if (after.deal_number != before.deal_number or after.phase == "over") and after.moon_shooter is not None:
            expected[after.moon_shooter] += 1
    assert results.moons_by_seat(game.to_dict(), 4) == expected


@pytest.mark.django_db
def test_a_finished_rated_game_is_rated_once_in_the_finishing_transaction(django_user_model):
    people = [django_user_model.objects.create_user(f"p{i}", password="pw-long-enough-1") for i in range(3)]
    table = services.create_table(
        people[0], Rules(target=26), kind=Table.Kind.FRIENDS, seat_bots=[None, None, None, "easy"], rated=True, seed=9
    )
    for number, person in enumerate(people[1:], start=1):
        Seat.objects.filter(table=table, number=number).update(user=person)
    Seat.objects.filter(table=table, number=2).update(standing_in=True)  # p2 left: rated last
    services.start_table(table.pk)
    table = play_people_until_over(table.pk)
    assert table.status == Table.Status.FINISHED
    rated = RatedGame.objects.get(game_key=f"table:{table.pk}")
    changes = {change.user.username: change for change in RatingChange.objects.filter(game=rated)}
    assert set(changes) == {"p0", "p1", "p2"}, "the computer seat is not rated"
    assert max(change.rank for change in changes.values()) == changes["p2"].rank, "the one who left ranks last"
    # recording again (a retried task, a duplicate event) changes nothing
    results.record_finished_game(table, storage.game_of(table))
    assert RatingChange.objects.filter(game=rated).count() == 3
