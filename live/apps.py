from django.apps import AppConfig


class LiveConfig(AppConfig):
    """Live play: rooms, matchmaking, the table socket (solo and live), presence, chat."""

    name = "live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The Celery tasks that live play schedules by name (hearts_site.taskrunner),
        # registered here for every runner.
        from live import tasks  # noqa: F401
