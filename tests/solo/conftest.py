import pytest

from games import services, storage
from games.engine import Rules


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("ann", password="pw-long-enough-1")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("zed", password="pw-long-enough-1")


@pytest.fixture
def ann(client, player):
    client.force_login(player)
    return client


def make_table(host, *, seed=7, bots=("easy", "easy", "easy"), kind="solo", **rules):
    rules.setdefault("players", len(bots) + 1)
    table = services.create_table(host, Rules(**rules), kind=kind, seat_bots=[None, *bots], seed=seed)
    services.start_table(table.pk)
    table.refresh_from_db()
    return table


@pytest.fixture
def solo(player):
    return make_table(player)


def seat_zero_takes_every_card(host, rules: Rules, level: str = "medium"):
    """A started 4-player table where seat 0 (``host``) holds every club, leads them all and
    takes every card of the first deal: a moon. Returns the table once seat 0 has played out
    the deal (the moon choice pending, or the deal scored)."""
    deck = [rank + suit for suit in "DSH" for rank in "23456789TJQKA"]
    hands = [[rank + "C" for rank in "23456789TJQKA"], deck[0:13], deck[13:26], deck[26:39]]
    table = services.create_table(host, rules, seat_bots=[None, level, level, level], seed=1)
    services.start_table(table.pk, hands=hands)
    for _ in range(13):
        table.refresh_from_db()
        game = storage.game_of(table)
        if game.phase != "play":
            break
        services.submit_action(table.pk, 0, str(game.legal(0)[0]), user=host)
    table.refresh_from_db()
    return table
