from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured

from hearts_site import compiled


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        stale = compiled.stale()
        if stale:
            raise ImproperlyConfigured(
                f"{', '.join(stale)} changed since it was compiled: run `python -m hearts_site.compiled` "
                "(make does) to compile it again, or `python -m hearts_site.compiled --remove` to run the source."
            )
        # Imported once the models are: receivers, and the Celery tasks that the services
        # schedule by name (hearts_site.taskrunner), registered here for every runner.
        from accounts.guests import guest_claimed
        from accounts.validators import reserve_computer_names
        from games import tasks  # noqa: F401
        from games.bots import COMPUTER_NAMES
        from games.services import hand_over_guest_games

        guest_claimed.connect(hand_over_guest_games, dispatch_uid="games.hand_over_guest_games")
        reserve_computer_names(COMPUTER_NAMES)
