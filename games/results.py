"""What a finished or abandoned game leaves behind: ratings (rated games) and statistics.

Both functions run inside the transaction that ends the table, so a game is rated exactly
once: ``ratings.services`` keys everything on ``table:<id>`` and ignores a second call.

Rules (see ``ratings.services`` for the rating side):

* A rated game that finishes is rated from its result (``games.table.conduct.standings``): a person
  counted as having left (``games.table.conduct.counts_as_left``: they left, a computer was playing
  for them at the end, or it made most of their moves) is rated last and never wins. The
  same result is shown at the table and in My games.
* An unrated live game only adds to players' statistics; solo and learning games add nothing.
* An abandoned rated game rates only the people who had left, as losing to those still seated.
"""
from collections import defaultdict

from games.table import conduct
from games.engine import Game
from games.models import Action
from ratings.services import SeatResult, apply_abandoned_game, apply_game_result, record_game_stats


def seats_counted_as_left(table, seats, *, unsaved: tuple[int, str] | None = None) -> set[int]:
    """The numbers of the seats of ``table`` whose person counts as having left
    (``games.table.conduct.counts_as_left``), from the seats' flags and the actors of their moves;
    ``unsaved`` is ``(seat, actor)`` of a move applied but not stored yet. Solo tables: none."""
    if not table.is_live:
        return set()
    actors = defaultdict(list)
    for seat, actor in Action.objects.filter(table_id=table.pk).order_by("ply").values_list("seat", "actor"):
        actors[seat].append(actor)
    if unsaved is not None:
        actors[unsaved[0]].append(unsaved[1])
    return {
        seat.number for seat in seats
        if seat.user_id and conduct.counts_as_left(
            conduct.presence_of(standing_in=seat.standing_in, resigned=seat.resigned), actors[seat.number])
    }


def record_finished_game(table, game: Game, seats=None, left: set[int] = frozenset()) -> None:
    """Called inside the transaction that marks ``table`` finished; ``left``: the seats
    counted as having left (:func:`seats_counted_as_left`)."""
    results = seat_results(table, game, seats, left)
    key = game_key(table)
    if table.rated:
        apply_game_result(key, table.players, results)
    elif table.is_live:
        record_game_stats(key, table.players, results)


def record_abandoned_game(table, game: Game) -> None:
    """Called inside the transaction that marks ``table`` abandoned."""
    if table.rated:
        seats = list(table.seats.all())
        left = seats_counted_as_left(table, seats)
        apply_abandoned_game(game_key(table), table.players, seat_results(table, game, seats, left))


def game_key(table) -> str:
    return f"table:{table.pk}"


def seat_results(table, game: Game, seats=None, left: set[int] = frozenset()) -> list[SeatResult]:
    """Each seat's result: ``left`` are the seats counted as having left; the places are
    those of ``games.table.conduct.standings`` (none while the game is not over)."""
    moons = moons_by_seat(game.to_dict(), game.players)
    deals = deals_scored(game)
    places = conduct.standings(game.scores, left).places if game.phase == "over" else None
    return [
        SeatResult(
            user_id=seat.user_id,
            final_score=game.scores[seat.number],
            place=places[seat.number] if places else None,
            dropped=seat.number in left,
            left_at=(seat.left_at or table.finished_at) if seat.number in left else None,
            moons=moons[seat.number] if seat.user_id else 0,
            deals=deals if seat.user_id else 0,
        )
        for seat in (table.seats.all() if seats is None else seats)
    ]


def deals_scored(game: Game) -> int:
    return game.deal_number if game.phase == "over" else game.deal_number - 1


def moons_by_seat(saved: dict, players: int) -> list[int]:
    """How many moons each seat shot, read by replaying a saved game (``Game.to_dict()``)."""
    moons = [0] * players
    previous_deal = None
    for position in Game.replay(saved):
        # A deal has just been scored when the next one starts or the game ends.
        scored = previous_deal is not None and (position.deal_number != previous_deal or position.phase == "over")
        if scored and position.moon_shooter is not None:
            moons[position.moon_shooter] += 1
        if position.phase == "over":
            break
        previous_deal = position.deal_number
    return moons
