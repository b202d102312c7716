"""A Celery worker outlives a dead daphne: a turn timer that falls due while every server
process holding the acting person's sockets is silent (before the sweep notices the outage)
does not charge them — their clock starts again whole (games.table.conduct rule 6)."""
import datetime as dt

import pytest
from django.utils import timezone

from games import services, storage
from games.models import Action, Table
from live.models import LiveServer, TableConnection
from live.server import SERVER_NAME
from tests.live.conftest import seat_people

pytestmark = pytest.mark.django_db

TIMER = 30


def due_table(people, servers):
    """A live table whose turn timer is due, the person to act holding a socket on each of
    ``servers`` (name → seconds since its heartbeat)."""
    table = seat_people(people, timer=TIMER)
    game = storage.game_of(table)
    person = table.seats.get(number=game.to_act[0]).user
    now = timezone.now()
    for index, (name, silent) in enumerate(servers.items()):
        LiveServer.objects.create(name=name, heartbeat_at=now - dt.timedelta(seconds=silent))
        TableConnection.objects.create(channel_name=f"specific.{name}!{index}", table=table, user=person, server=name)
    past = now - dt.timedelta(seconds=1)
    Table.objects.filter(pk=table.pk).update(turn_deadline=past)
    table.refresh_from_db()
    return table, past


@pytest.mark.parametrize("servers", [{"web-1": 16}, {"web-1": 25, "web-2": 40}])
def test_a_due_timer_of_a_person_cut_off_by_a_silent_server_restarts_the_clock(people, settings, servers):
    settings.LIVE_SERVER_HEARTBEAT_SECONDS = 10
    table, past = due_table(people, servers)
    assert services.turn_timed_out(table.pk, past.isoformat()) == 0
    after = Table.objects.get(pk=table.pk)
    assert not Action.objects.filter(table=table, actor=Action.Actor.TIMEOUT).exists()
    whole = TIMER + settings.LIVE_ARRIVAL_GRACE_SECONDS
    assert whole - 3 < (after.turn_deadline - timezone.now()).total_seconds() <= whole
    assert after.version == table.version + 1, "the new clock is published"


@pytest.mark.parametrize("servers", [{"web-1": 2}, {"web-1": 12}, {"web-1": 40, "web-2": 3}, {}, {SERVER_NAME: 40}])
def test_a_due_timer_fires_when_the_person_could_play(people, settings, servers):
    """A live server (on one socket at least; a heartbeat late by less than half the timeout
    is a busy machine's), no socket at all, or a socket of the very process the timer runs
    in (the embedded default): the ordinary timeout."""
    settings.LIVE_SERVER_HEARTBEAT_SECONDS = 10
    table, past = due_table(people, servers)
    assert services.turn_timed_out(table.pk, past.isoformat()) == 1
    assert Action.objects.filter(table=table, actor=Action.Actor.TIMEOUT).count() == 1
