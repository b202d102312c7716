"""Celery tasks: thin wrappers over games.services."""
from celery import shared_task
from celery.signals import worker_ready

from games import services


# Tasks are sent before the scheduling transaction commits; one that arrives first retries.
RETRY = {"bind": True, "acks_late": True, "max_retries": 50, "default_retry_delay": 0.1}


@shared_task(name="games.play_computer_turns", **RETRY)
def play_computer_turns_task(self, table_id: int, version: int) -> int:
    try:
        return services.play_computer_turns(table_id, version)
    except services.NotYetCommitted as error:
        raise self.retry(exc=error)


@shared_task(name="games.turn_timeout", **RETRY)
def turn_timeout_task(self, table_id: int, deadline_iso: str, version: int = 0) -> int:
    try:
        return services.turn_timed_out(table_id, deadline_iso, version)
    except services.NotYetCommitted as error:
        raise self.retry(exc=error)


@shared_task(name="games.recover_stalled_tables")
def recover_stalled_tables_task() -> int:
    return services.recover_stalled_tables()


@worker_ready.connect
def _recover_on_worker_start(sender=None, **kwargs):
    recover_stalled_tables_task.delay()


@shared_task(name="games.stand_in_if_gone", acks_late=True)
def stand_in_task(table_id: int, seat_number: int, left_at_iso: str = "") -> bool:
    return services.stand_in_if_gone(table_id, seat_number, left_at_iso)


@shared_task(name="games.recover_absent_seats")
def recover_absent_seats_task() -> int:
    return services.recover_absent_seats()


@shared_task(name="games.match_players", acks_late=True)
def match_players_task(table_size: int) -> int:
    from games import matchmaking

    return len(matchmaking.match_players(table_size))


@worker_ready.connect
def _recover_absent_seats_on_worker_start(sender=None, **kwargs):
    recover_absent_seats_task.delay()


@shared_task(name="games.sweep_dead_connections")
def sweep_dead_connections_task() -> int:
    """Close the sockets of server processes that died (games.live_server); every live
    server sweeps too, on its heartbeat."""
    return services.sweep_dead_connections()


@worker_ready.connect
def _sweep_dead_connections_on_worker_start(sender=None, **kwargs):
    sweep_dead_connections_task.delay()
