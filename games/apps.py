from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from accounts.services import guest_claimed
        from games.services import hand_over_guest_games

        guest_claimed.connect(hand_over_guest_games, dispatch_uid="games.hand_over_guest_games")
