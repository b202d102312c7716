from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Imported once the models are: receivers, and the Celery tasks that the services
        # schedule by name (hearts_site.taskrunner), registered here for every runner.
        from accounts.guests import guest_claimed
        from accounts.validators import reserve_computer_names
        from games import tasks  # noqa: F401
        from games.bots import COMPUTER_NAMES
        from games.services import hand_over_guest_games

        guest_claimed.connect(hand_over_guest_games, dispatch_uid="games.hand_over_guest_games")
        reserve_computer_names(COMPUTER_NAMES)
