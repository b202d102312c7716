from django.apps import AppConfig


class LiveConfig(AppConfig):
    """Live play: rooms, matchmaking, the table socket (solo and live), presence, chat."""

    name = "live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The Celery tasks that live play schedules by name (hearts_site.taskrunner),
        # registered here for every runner.
        from live import tasks  # noqa: F401
        from games.services import turn_timer_due
        from live.server import hold_timer_in_outage

        turn_timer_due.connect(hold_timer_in_outage, dispatch_uid="live.hold_timer_in_outage")
