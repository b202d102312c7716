"""Celery tasks of a table's moves: thin wrappers over games.services. (Live play's tasks, and
the re-planning when a worker connects, are in live.tasks.)

Each is sent after the move that planned it has committed (``hearts_site.taskrunner``) and
checks the table's version or deadline, so a late or repeated one does nothing."""
from celery import shared_task

from games import services


@shared_task(name="games.play_computer_turns", acks_late=True)
def play_computer_turns_task(table_id: int, version: int) -> int:
    return services.play_computer_turns(table_id, version)


@shared_task(name="games.turn_timeout", acks_late=True)
def turn_timeout_task(table_id: int, deadline_iso: str, *sent_by_earlier_releases) -> int:
    return services.turn_timed_out(table_id, deadline_iso)


@shared_task(name="games.play_forced_card", acks_late=True)
def play_forced_card_task(table_id: int, version: int) -> bool:
    return services.play_forced_card(table_id, version)
