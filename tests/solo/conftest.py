import pytest

from games import services
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
