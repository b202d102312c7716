"""Celery tasks of a table's moves: thin wrappers over games.services. (Live play's tasks, and
the re-planning when a worker connects, are in live.tasks.)"""
from celery import shared_task

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


@shared_task(name="games.play_forced_card", **RETRY)
def play_forced_card_task(self, table_id: int, version: int) -> bool:
    try:
        return services.play_forced_card(table_id, version)
    except services.NotYetCommitted as error:
        raise self.retry(exc=error)


@shared_task(name="games.recover_stalled_tables")
def recover_stalled_tables_task() -> int:
    return services.recover_stalled_tables()
