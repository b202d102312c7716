"""A real Celery worker process plays computer turns (production settings only)."""
import time

import pytest

from games import services
from games.engine import Rules
from games.models import Seat, Table


def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.worker
def test_worker_process_plays_computer_turns_and_survives_a_kill(celery_worker_process, django_user_model):
    host = django_user_model.objects.create_user("host", password="pw-long-enough-1")
    table = services.create_table(host, Rules(target=60), seat_bots=[None, "easy", "easy", "easy"], seed=5)
    Seat.objects.filter(table=table, number=0).update(standing_in=True)
    services.start_table(table.pk)

    assert wait_for(lambda: Table.objects.get(pk=table.pk).version > 20), "the worker made moves"
    celery_worker_process.kill()
    stopped_at = Table.objects.get(pk=table.pk).version
    time.sleep(1)
    assert Table.objects.get(pk=table.pk).version == stopped_at, "nobody moves while the worker is down"
    celery_worker_process.start()  # recovers the pending turn on worker_ready
    assert wait_for(lambda: Table.objects.get(pk=table.pk).status == Table.Status.FINISHED, timeout=120)
    assert Table.objects.get(pk=table.pk).version > stopped_at
