from django.apps import AppConfig


class SoloConfig(AppConfig):
    """Solo play's pages: the home page, a new game, the table page, learn to play, my games
    and statistics, replays, and how strong the computers are."""

    name = "solo"
    default_auto_field = "django.db.models.BigAutoField"
