"""Leaderboards and player pages. Public: anyone may look."""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, render

from ratings import selectors
from ratings.charts import rating_history_svg
from ratings.models import PROVISIONAL_GAMES, TABLE_SIZES

DEFAULT_TABLE_SIZE = 4
RECENT_GAMES = 20


def _table_size(request, default: int = DEFAULT_TABLE_SIZE) -> int:
    """``?players=3..6``; anything else means the default."""
    try:
        size = int(request.GET.get("players", default))
    except (TypeError, ValueError):
        return default
    return size if size in TABLE_SIZES else default


def leaderboard(request):
    table_size = _table_size(request)
    mine = None
    if request.user.is_authenticated:
        mine = selectors.rating_for(request.user, table_size)
        mine.position = selectors.leaderboard_position(mine)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "table_size": table_size,
            "table_sizes": TABLE_SIZES,
            "rows": selectors.leaderboard(table_size),
            "provisional_rows": selectors.provisional_players(table_size),
            "provisional_games": PROVISIONAL_GAMES,
            "mine": mine,
        },
    )


def player(request, username: str):
    person = get_object_or_404(get_user_model(), username=username)
    ratings = selectors.player_ratings(person)
    for rating in ratings:
        rating.position = selectors.leaderboard_position(rating)
    by_size = {rating.table_size: rating for rating in ratings}
    most_played = max(ratings, key=lambda r: (r.games, -r.table_size)).table_size if ratings else DEFAULT_TABLE_SIZE
    table_size = _table_size(request, default=most_played)
    history = selectors.rating_history(person, table_size)
    chart = rating_history_svg(
        [change.display_after for change in history],
        provisional_games=PROVISIONAL_GAMES,
        label=f"{person.public_name}'s rating at {table_size} players, after each rated game",
    )
    return render(
        request,
        "ratings/player.html",
        {
            "person": person,
            "cards": [(n, by_size.get(n)) for n in TABLE_SIZES],
            "current": selectors.rating_for(person, table_size),
            "table_size": table_size,
            "table_sizes": TABLE_SIZES,
            "chart": chart,
            "recent": list(reversed(history[-RECENT_GAMES:])),
            "stats": selectors.player_statistics(person),
            "provisional_games": PROVISIONAL_GAMES,
        },
    )
