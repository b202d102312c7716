"""Reads: ratings, leaderboards, rating history and statistics. Nothing here writes.

Matchmaking uses :func:`rating_for` / :func:`ratings_for`; a player with no rated game at a
table size gets an unsaved default :class:`~ratings.models.Rating` (display 1500, provisional).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, QuerySet

from ratings.models import PROVISIONAL_GAMES, TABLE_SIZES, PlayerStats, Rating, RatingChange


def _user_id(user) -> int:
    return user if isinstance(user, int) else user.pk


def rating_for(user, table_size: int) -> Rating:
    """``user``'s rating at ``table_size`` (a user or a user id). Creates nothing: a player new to
    that table size gets an unsaved Rating at the defaults. Use ``.display``, ``.provisional``,
    ``.mu``, ``.sigma``, ``.games``."""
    return ratings_for([user], table_size)[_user_id(user)]


def ratings_for(users: Iterable, table_size: int) -> dict[int, Rating]:
    """Ratings of several players at once, by user id (defaults for players with none)."""
    if table_size not in TABLE_SIZES:
        raise ValueError(f"Ratings are kept for 3, 4, 5 or 6 players, not {table_size}.")
    ids = [_user_id(u) for u in users]
    found = {r.user_id: r for r in Rating.objects.filter(user_id__in=ids, table_size=table_size)}
    return {i: found.get(i) or Rating(user_id=i, table_size=table_size) for i in ids}


def _ranked(table_size: int) -> QuerySet[Rating]:
    return (
        Rating.objects.filter(table_size=table_size, games__gt=0)
        .select_related("user")
        .order_by("-mu", "-games", "user__username")
    )


def leaderboard(table_size: int, limit: int = 50, include_provisional: bool = False) -> list[Rating]:
    """The best players at ``table_size``, best first: established players only, unless
    ``include_provisional`` (then check ``.provisional`` on each)."""
    qs = _ranked(table_size)
    if not include_provisional:
        qs = qs.filter(games__gte=PROVISIONAL_GAMES)
    return list(qs[:limit])


def provisional_players(table_size: int, limit: int = 20) -> list[Rating]:
    """Players with some, but fewer than ``PROVISIONAL_GAMES``, rated games at ``table_size``."""
    return list(_ranked(table_size).filter(games__lt=PROVISIONAL_GAMES)[:limit])


def leaderboard_position(rating: Rating) -> int | None:
    """1-based place of an established rating on its leaderboard; None while provisional."""
    if rating.pk is None or rating.provisional:
        return None
    better = (
        _ranked(rating.table_size)
        .filter(games__gte=PROVISIONAL_GAMES, mu__gt=rating.mu)
        .count()
    )
    return better + 1


def player_ratings(user) -> list[Rating]:
    """Every table size ``user`` has played rated games at, smallest first."""
    return list(Rating.objects.filter(user_id=_user_id(user), games__gt=0).order_by("table_size"))


_same_place = RatingChange.objects.filter(game_id=OuterRef("game_id"), rank=OuterRef("rank")).exclude(pk=OuterRef("pk"))


def changes_of_game(game_key: str) -> dict[int, RatingChange]:
    """What the game ``game_key`` did to each player's rating, by user id (empty when it was
    not rated, or has not been processed)."""
    return {change.user_id: change for change in RatingChange.objects.filter(game__game_key=game_key)}


def rating_history(user, table_size: int) -> list[RatingChange]:
    """``user``'s rating changes at ``table_size``, oldest first; ``.tied`` marks a shared place."""
    return list(
        RatingChange.objects.filter(user_id=_user_id(user), table_size=table_size)
        .select_related("game")
        .annotate(tied=Exists(_same_place))
        .order_by("id")
    )


@dataclass
class StatsLine:
    """Statistics summed over some PlayerStats rows."""

    label: str
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    left_early: int = 0
    points: int = 0
    deals: int = 0
    moons: int = 0

    def add(self, row: PlayerStats) -> None:
        for name in ("games", "wins", "shared_wins", "left_early", "points", "deals", "moons"):
            setattr(self, name, getattr(self, name) + getattr(row, name))

    @property
    def points_per_deal(self) -> float | None:
        return self.points / self.deals if self.deals else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


@dataclass
class PlayerStatistics:
    rated_by_size: list[StatsLine] = field(default_factory=list)  # one per table size played rated
    rated: StatsLine = field(default_factory=lambda: StatsLine("All rated games"))
    all_games: StatsLine = field(default_factory=lambda: StatsLine("All live games"))


def player_statistics(user) -> PlayerStatistics:
    """``user``'s statistics: rated games per table size, all rated games, all live games."""
    result = PlayerStatistics()
    by_size: dict[int, StatsLine] = {}
    for row in PlayerStats.objects.filter(user_id=_user_id(user)).order_by("table_size"):
        result.all_games.add(row)
        if row.rated:
            result.rated.add(row)
            by_size.setdefault(row.table_size, StatsLine(f"Rated, {row.table_size} players")).add(row)
    result.rated_by_size = [by_size[n] for n in sorted(by_size)]
    return result
