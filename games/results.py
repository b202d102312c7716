"""What a finished or abandoned game leaves behind: ratings (rated games) and statistics.

Both functions run inside the transaction that ends the table, so a game is rated exactly
once: ``ratings.services`` keys everything on ``table:<id>`` and ignores a second call.

Rules (see ``ratings.services`` for the rating side):

* A rated game that finishes is rated from the final scores; a person whose seat a computer
  was playing at the end (they left) is rated last.
* An unrated live game only adds to players' statistics; solo and learning games add nothing.
* An abandoned rated game rates only the people who had left, as losing to those still seated.
"""
from games.engine import Game
from ratings.services import SeatResult, apply_abandoned_game, apply_game_result, record_game_stats


def record_finished_game(table, game: Game) -> None:
    """Called inside the transaction that marks ``table`` finished."""
    results = seat_results(table, game)
    key = game_key(table)
    if table.rated:
        apply_game_result(key, table.players, results)
    elif table.is_live:
        record_game_stats(key, table.players, results)


def record_abandoned_game(table, game: Game) -> None:
    """Called inside the transaction that marks ``table`` abandoned."""
    if table.rated:
        apply_abandoned_game(game_key(table), table.players, seat_results(table, game))


def game_key(table) -> str:
    return f"table:{table.pk}"


def seat_results(table, game: Game) -> list[SeatResult]:
    moons = moons_by_seat(game.to_dict(), game.players)
    deals = deals_scored(game)
    winners = set(game.winners)
    return [
        SeatResult(
            user_id=seat.user_id,
            final_score=game.scores[seat.number],
            won=seat.number in winners,
            dropped=seat.standing_in,
            left_at=seat.left_at if seat.standing_in else None,
            moons=moons[seat.number] if seat.user_id else 0,
            deals=deals if seat.user_id else 0,
        )
        for seat in table.seats.all()
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
