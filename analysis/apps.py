from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """Post-game analysis: Hard's verdict on each of a player's decisions (games.bots.analysis)."""

    name = "analysis"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The task the services schedule by name (hearts_site.taskrunner).
        from analysis import tasks  # noqa: F401
