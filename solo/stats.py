"""A player's statistics of solo play, read from their stored games.

Every finished or abandoned solo game counts as played (an abandoned one as not won); a game
is replayed once through the engine (:func:`games.table.history.game_with_history`) for the
figures no column holds: points per deal, moons shot, queens of spades taken.
"""
from collections import defaultdict
from dataclasses import dataclass, field, fields

from games import storage
from games.table.history import game_with_history
from games.models import Table
from games.table.offline import verified

QUEEN_OF_SPADES = "QS"


@dataclass
class Tally:
    """The figures of a set of games."""

    games: int = 0
    won: int = 0
    deals: int = 0
    points: int = 0
    moons: int = 0
    queens: int = 0

    def add(self, other: "Tally") -> None:
        for figure in fields(self):
            setattr(self, figure.name, getattr(self, figure.name) + getattr(other, figure.name))

    @property
    def win_rate(self) -> float | None:
        return self.won / self.games if self.games else None

    @property
    def points_per_deal(self) -> float | None:
        return self.points / self.deals if self.deals else None


@dataclass
class Statistics:
    overall: Tally = field(default_factory=Tally)
    by_level: dict = field(default_factory=lambda: defaultdict(Tally))
    by_players: dict = field(default_factory=lambda: defaultdict(Tally))


def computer_level(seats, me: int) -> str:
    """The computers' level at a table: one of ``bots.LEVELS``, or "mixed"."""
    levels = {seat.bot_level for seat in seats if seat.number != me and seat.bot_level}
    return levels.pop() if len(levels) == 1 else "mixed"


def tally_of(table: Table, me: int, log: list[dict] | None = None) -> Tally:
    """What one ended game adds for the player in seat ``me`` (its log read unless given)."""
    game, steps = game_with_history(storage.saved_game(table, log))
    tally = Tally(games=1, won=int(table.status == Table.Status.FINISHED and me in table.winners))
    for step in steps:
        for event in step.events:
            if event["type"] == "deal_scored":
                tally.deals += 1
                tally.points += event["points"][me]
                tally.moons += event["moon_shooter"] == me
            elif event["type"] == "trick_won" and event["seat"] == me:
                tally.queens += QUEEN_OF_SPADES in event["cards"] or QUEEN_OF_SPADES in event.get("kitty", ())
    return tally


def solo_statistics(user) -> Statistics:
    """The statistics of every ended solo game ``user`` played."""
    stats = Statistics()
    tables = (
        Table.objects.filter(kind=Table.Kind.SOLO, seats__user=user, setup__isnull=False,
                             status__in=[Table.Status.FINISHED, Table.Status.ABANDONED])
        .distinct().prefetch_related("seats")
    )
    logs = storage.logs_of(tables)
    for table in tables:
        seats = list(table.seats.all())
        me = next(seat.number for seat in seats if seat.user_id == user.pk)
        if table.offline_id and not verified(computer_level(seats, me)):
            continue  # kept from the browser with moves the server could not check
        tally = tally_of(table, me, logs[table.pk])
        stats.overall.add(tally)
        stats.by_level[computer_level(seats, me)].add(tally)
        stats.by_players[table.players].add(tally)
    return stats
