import pytest

from games import services
from games.engine import Rules
from games.models import Table


@pytest.fixture
def ann(django_user_model):
    return django_user_model.objects.create_user("ann", display_name="Ann")  # no password: fast


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", display_name="Bob")


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("root", email="root@example.com", password="pw-long-enough-1")


@pytest.fixture
def solo_table(ann):
    table = services.create_table(ann, Rules(), seat_bots=[None, "easy", "easy", "easy"], seed=7)
    services.start_table(table.pk)
    table.refresh_from_db()
    return table


@pytest.fixture
def route_samples(solo_table, ann):
    """Values for URL kwargs so every route can be built (real objects where it matters)."""
    room = Table.objects.create(kind=Table.Kind.FRIENDS, host=ann, rules=Rules().to_dict(), seed=1)
    return {
        "table_id": [str(solo_table.pk)],
        "code": [room.code],
        "username": [ann.username],
        "object_id": [str(solo_table.pk)],
    }
