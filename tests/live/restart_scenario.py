"""Tables left waiting by a server process that stopped, for the restart tests: built with
no task run (the process that would have run them is gone).

* a solo game waiting on a computer's card;
* a live game waiting on a person whose turn timer ran out while no server was up;
* a live game waiting on a person who dropped long enough ago to have a computer standing in
  by now.

Run in the test process (production settings) or through ``manage.py shell`` against a
daphne's SQLite file (embedded default): :func:`build` returns the table ids.
"""
import json
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

from django.utils import timezone

from games import services
from games.engine import Card, Game, Rules
from games.models import Seat, Table
from live import rooms

TWO_OF_CLUBS = Card.parse("2C")


def seed_where(seat: int, rules: Rules) -> int:
    """A seed whose deal gives the two of clubs (the first lead) to ``seat``."""
    return next(seed for seed in range(1, 1000) if TWO_OF_CLUBS in Game.new(rules, seed=seed).hands[seat])


@contextmanager
def tasks_lost():
    """What the scenario schedules is never run, as in a process killed before running it."""
    with mock.patch.object(services, "schedule"):
        yield


def build(usernames=("ann", "bob")) -> dict:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    ann, bob = (User.objects.get_or_create(username=name, defaults={"display_name": name.title()})[0] for name in usernames)
    rules = Rules(passing="none")
    with tasks_lost():
        solo = services.create_table(ann, rules, seat_bots=[None, "medium", "medium", "medium"], seed=seed_where(1, rules))
        services.start_table(solo.pk)
        timer = services.create_table(
            ann, rules, kind=Table.Kind.FRIENDS, seat_bots=[None, "medium", "medium", "medium"],
            seed=seed_where(0, rules), turn_timer_seconds=30,
        )
        services.start_table(timer.pk)
        dropped = services.create_table(
            ann, rules, kind=Table.Kind.FRIENDS, seat_bots=[None, None, "medium", "medium"], seed=seed_where(1, rules),
        )
        rooms.take_seat(dropped.pk, bob, 1)
        services.start_table(dropped.pk)
    now = timezone.now()
    Table.objects.filter(pk=timer.pk).update(turn_deadline=now - timedelta(seconds=1))
    Seat.objects.filter(table=dropped).update(connected=False, left_at=now - timedelta(minutes=5))
    return {"solo": solo.pk, "timer": timer.pk, "dropped": dropped.pk}


if __name__ == "__main__":  # manage.py shell -c "import runpy; runpy.run_module(...)"
    print("TABLES=" + json.dumps(build()))
