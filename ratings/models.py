"""Ratings per table size, the games that changed them, and per-player statistics.

Writes go through :mod:`ratings.services`, reads through :mod:`ratings.selectors`.
"""
from django.conf import settings
from django.db import models

from ratings import skill

TABLE_SIZES = (3, 4, 5, 6)
TABLE_SIZE_CHOICES = [(n, f"{n} players") for n in TABLE_SIZES]

# A rating is provisional until its player has this many rated games at that table size.
PROVISIONAL_GAMES = 10


class Rating(models.Model):
    """One player's rating at one table size (3, 4, 5 or 6 players)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    table_size = models.PositiveSmallIntegerField(choices=TABLE_SIZE_CHOICES)
    mu = models.FloatField(default=skill.INITIAL_MU, help_text="Skill estimate (openskill Plackett-Luce).")
    sigma = models.FloatField(default=skill.INITIAL_SIGMA, help_text="Uncertainty of the estimate.")
    display = models.IntegerField(
        default=skill.display_rating(skill.INITIAL_MU),
        help_text="round(1500 + 24 × (mu − 25)): what players see (ratings.skill).",
    )
    games = models.PositiveIntegerField(default=0, help_text="Rated games at this table size.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table_size", "-display"]
        constraints = [
            models.UniqueConstraint(fields=["user", "table_size"], name="one_rating_per_user_and_table_size"),
        ]
        indexes = [models.Index(fields=["table_size", "games", "display"])]

    def __str__(self) -> str:
        mark = "?" if self.provisional else ""
        return f"{self.user} at {self.table_size} players: {self.display}{mark}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def skill(self) -> skill.Skill:
        return skill.Skill(self.mu, self.sigma)

class RatedGame(models.Model):
    """A finished game the ratings app has processed. ``game_key`` is unique: once only.

    Not every processed game changed ratings: ``status`` says what happened.
    """

    class Status(models.TextChoices):
        RATED = "rated", "Rated"
        TOO_FEW_PLAYERS = "too_few", "Not rated: fewer than two people to rate"
        ABANDONED = "abandoned", "Abandoned: only players who left were rated"
        UNRATED = "unrated", "Unrated game: statistics only"

    game_key = models.CharField(max_length=100, unique=True, help_text="The games app's id for the game.")
    table_size = models.PositiveSmallIntegerField(choices=TABLE_SIZE_CHOICES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RATED)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.game_key} ({self.table_size} players, {self.get_status_display()})"


class RatingChange(models.Model):
    """What one game did to one player's rating."""

    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    table_size = models.PositiveSmallIntegerField(choices=TABLE_SIZE_CHOICES)
    rank = models.PositiveSmallIntegerField(help_text="Place among the rated players: 1 is best, ties share.")
    score = models.IntegerField(help_text="Final game score (points; lower is better).")
    dropped = models.BooleanField(default=False, help_text="Left the game; a computer finished it. Rated last.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    display_before = models.IntegerField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_after = models.IntegerField()
    games_after = models.PositiveIntegerField(help_text="Rated games at this table size, this one included.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_change_per_game_and_user")]
        indexes = [models.Index(fields=["user", "table_size", "id"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.game.game_key}: {self.display_before} → {self.display_after}"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before


class PlayerStats(models.Model):
    """Running totals for one player at one table size, rated games and unrated games apart."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_stats")
    table_size = models.PositiveSmallIntegerField(choices=TABLE_SIZE_CHOICES)
    rated = models.BooleanField(help_text="Rated games (True) or unrated live games (False).")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="Wins, shared wins included.")
    shared_wins = models.PositiveIntegerField(default=0)
    left_early = models.PositiveIntegerField(default=0, help_text="Games left before the end (a computer finished them).")
    points = models.IntegerField(default=0, help_text="Points of games played to the end.")
    deals = models.PositiveIntegerField(default=0, help_text="Deals of games played to the end.")
    moons = models.PositiveIntegerField(default=0, help_text="Times shot the moon.")

    class Meta:
        verbose_name_plural = "player stats"
        ordering = ["user", "table_size", "-rated"]
        constraints = [
            models.UniqueConstraint(fields=["user", "table_size", "rated"], name="one_stats_row_per_user_size_rated"),
        ]

    def __str__(self) -> str:
        kind = "rated" if self.rated else "unrated"
        return f"{self.user}: {kind} games at {self.table_size} players"

    @property
    def points_per_deal(self) -> float | None:
        return self.points / self.deals if self.deals else None
