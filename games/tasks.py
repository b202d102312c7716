"""Celery tasks: thin wrappers over games.services."""
from celery import shared_task
from celery.signals import worker_ready

from games import services


@shared_task(name="games.play_computer_turns", acks_late=True)
def play_computer_turns_task(table_id: int, version: int) -> int:
    return services.play_computer_turns(table_id, version)


@shared_task(name="games.turn_timeout", acks_late=True)
def turn_timeout_task(table_id: int, deadline_iso: str) -> int:
    return services.turn_timed_out(table_id, deadline_iso)


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
