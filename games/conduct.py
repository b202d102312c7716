"""The conduct of a table: who may see a seat's cards, who acts for it, when its person counts
as away or as having left, how the result is ranked, and who may sit or watch.

Pure, like :mod:`games.engine`: plain values in, plain values out, no Django. The move path
(``games.services``), presence and rooms (``live``), results (``games.results``) and the drawing
(``games.drawing``) ask it; none of them decides these things on its own.

Rules
-----
1. **A seat's private view** (its hand, the cards passed to it, its legal moves) goes only to
   its person, and only while they hold it: someone who left the game sees the table as a
   watcher does (:func:`private_seat`).
2. **Presence.** A person's seat is ``PRESENT`` (they play it), ``AWAY`` (a computer plays it
   at once until they act again: they dropped and the grace period ran out, or their turn timer
   ran out :data:`AWAY_AFTER_TIMEOUTS` times in a row, :func:`after_turn`) or ``LEFT`` (for
   good: a computer plays it to the end and they cannot take it back).
3. **Counted as left** (:func:`counts_as_left`): a person who left, for whom a computer was
   playing at the end, or whose seat's moves were made mostly by a computer (stand-ins and
   timeouts: dropping is not rewarded).
4. **The result** (:func:`standings`): the seats that stayed (computers always stay) are
   ranked by score, lowest first, equal scores sharing a place; everyone counted as left
   shares the place after them and never wins. The game-over panel, My games, statistics and
   ratings all take this one result.
5. **One live game at a time** (:func:`busy_elsewhere`): a person who holds a seat they have
   not left at a live game in progress cannot sit at another live table.
6. **The clock waits for the people** (:func:`first_clock_waits`): at a live game's first
   move, while a person seated there has not opened its table yet (sent from the queue, or
   from the finished game to its rematch), the turn has an arrival grace on top, and the whole
   turn starts again when the last one arrives. An outage is not charged to the players
   either: when the server process that held a table's sockets is found gone (a restart, a
   crash), the clock starts again with the whole turn and the arrival grace while browsers
   reconnect (``live.presence.restart_clock_after_outage``). A turn timer that falls due
   while every server process holding the acting person's sockets has gone silent, before
   the outage is noticed, does not fire: that is the outage noticed early, and the clock
   starts again the same way (:func:`cut_off_by_outage`).
7. **Watching** (:func:`listed_for_watching`): matched games and friend rooms listed in the
   lobby are offered to watchers; an unlisted room is watched only by those given its link.
8. **Two chats** (:func:`chat_audience`): the players talk among themselves; watchers, and
   someone who left a game still being played, talk in the watchers' chat, which the players
   do not see. In the waiting room there is no chat for visitors without a seat.
9. **A rematch keeps the places** (:func:`rematch_place`): while its offer is open, the new
   room keeps a seat for each person who stayed to the end of the finished game, turned so that
   the one who opened it sits first; someone who left gets no place kept.

>>> seats = [SeatState(0, person=7), SeatState(1, person=8, presence=Presence.LEFT), SeatState(2), SeatState(3)]
>>> private_seat(seats, 7), private_seat(seats, 8), private_seat(seats, 9)
(0, None, None)
>>> standings([40, 12, 60, 101], left={1})
Standings(places=(1, 4, 2, 3), winners=(0,))
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum


class Presence(str, Enum):
    """Where a seat's person is (a computer's own seat is always ``PRESENT``)."""

    PRESENT = "present"
    AWAY = "away"
    LEFT = "left"


AWAY_AFTER_TIMEOUTS = 2
"""Turns in a row the timer ran out on before a person is taken as away (rule 2)."""

COMPUTER_FOR_A_PERSON = frozenset({"timeout", "standin"})
"""The actors of a move a computer made in a person's seat (``games.models.Action.Actor``)."""


@dataclass(frozen=True)
class SeatState:
    """One seat: its number, its person's id (None for a computer's seat) and presence."""

    number: int
    person: int | None = None
    presence: Presence = Presence.PRESENT

    @classmethod
    def of(cls, number: int, person: int | None, *, standing_in: bool = False, resigned: bool = False) -> "SeatState":
        """The seat as ``games.models.Seat`` stores it.

        >>> SeatState.of(2, 5, standing_in=True).presence
        <Presence.AWAY: 'away'>
        """
        return cls(number, person, presence_of(standing_in=standing_in, resigned=resigned))


def presence_of(*, standing_in: bool, resigned: bool) -> Presence:
    """Presence from the stored flags: ``resigned`` is LEFT, ``standing_in`` alone AWAY."""
    if resigned:
        return Presence.LEFT
    return Presence.AWAY if standing_in else Presence.PRESENT


def private_seat(seats: Iterable[SeatState], person: int | None) -> int | None:
    """The seat whose private view ``person`` may be sent (rule 1): the one they hold and have
    not left; None for anyone else (a watcher, a leaver)."""
    if person is None:
        return None
    for seat in seats:
        if seat.person == person:
            return seat.number if seat.presence is not Presence.LEFT else None
    return None


def after_turn(timeouts_in_a_row: int, actor: str) -> tuple[int, bool]:
    """A person's seat has made a move (``actor``, as ``games.models.Action.Actor`` spells
    it): the turns in a row their timer ran out on since (counted from the last time they
    played or came back), and whether they are away now (rule 2).

    >>> after_turn(0, "timeout"), after_turn(1, "timeout"), after_turn(1, "person")
    ((1, False), (2, True), (0, False))
    """
    count = timeouts_in_a_row + 1 if actor == "timeout" else 0
    return count, count >= AWAY_AFTER_TIMEOUTS


def counts_as_left(presence_at_end: Presence, actors: Sequence[str]) -> bool:
    """Whether a person's result counts as leaving (rule 3): ``presence_at_end`` as the game
    ended, ``actors`` the actors of their seat's moves.

    >>> counts_as_left(Presence.PRESENT, ["person"] * 10 + ["standin"] * 10)
    False
    >>> counts_as_left(Presence.PRESENT, ["person"] * 9 + ["standin"] * 11)
    True
    >>> counts_as_left(Presence.AWAY, ["person"] * 30)
    True
    """
    if presence_at_end is not Presence.PRESENT:
        return True
    by_computer = sum(actor in COMPUTER_FOR_A_PERSON for actor in actors)
    return by_computer * 2 > len(actors)


@dataclass(frozen=True)
class Standings:
    """Each seat's place (1 is best, by seat number) and the winning seats."""

    places: tuple[int, ...]
    winners: tuple[int, ...]


def standings(scores: Sequence[int], left: Collection[int] = ()) -> Standings:
    """The result of a finished game (rule 4): ``scores`` by seat, ``left`` the seats
    counted as left.

    >>> standings([26, 13, 13, 0])
    Standings(places=(4, 2, 2, 1), winners=(3,))
    >>> standings([26, 13, 13, 0], left={3})
    Standings(places=(3, 1, 1, 4), winners=(1, 2))
    >>> standings([10, 20], left={0, 1})
    Standings(places=(1, 1), winners=())
    """
    stayed = [score for seat, score in enumerate(scores) if seat not in left]
    places = tuple(
        1 + len(stayed) if seat in left else 1 + sum(other < score for other in stayed)
        for seat, score in enumerate(scores)
    )
    if not stayed:
        return Standings(tuple(1 for _ in scores), ())
    return Standings(places, tuple(seat for seat, place in enumerate(places) if place == 1 and seat not in left))


def busy_elsewhere(person: int, seats_in_live_games: Iterable[tuple[int, int, Presence]], table: int | None) -> int | None:
    """A live game in progress other than ``table`` where ``person`` holds a seat they have
    not left (rule 5), from ``(table, person, presence)`` of the seats of live games in
    progress; None when there is none."""
    for other, holder, presence in seats_in_live_games:
        if holder == person and other != table and presence is not Presence.LEFT:
            return other
    return None


def first_clock_waits(ply: int, people_not_here: int) -> bool:
    """Whether a live game's clock waits for people still on their way (rule 6): ``ply``
    moves made so far, ``people_not_here`` seated people who have not opened the table.

    >>> first_clock_waits(0, 1), first_clock_waits(0, 0), first_clock_waits(1, 1)
    (True, False, False)
    """
    return ply == 0 and people_not_here > 0


def cut_off_by_outage(seconds_since_heartbeats: Sequence[float], heartbeat_every: float, timeout: float) -> bool:
    """Whether a person is cut off by an outage (rule 6): every server process holding one of
    their sockets (``seconds_since_heartbeats``: one per such process) has been silent for
    half the time after which it is taken for gone, and at least a heartbeat and a half —
    late enough not to be a busy machine's late heartbeat. Someone with no socket at all is
    not cut off but gone, and the ordinary rules of a drop apply.

    >>> cut_off_by_outage([16.0], 10, 30), cut_off_by_outage([16.0, 2.0], 10, 30), cut_off_by_outage([], 10, 30)
    (True, False, False)
    >>> cut_off_by_outage([12.0], 10, 30), cut_off_by_outage([2.5], 1, 5)
    (False, False)
    """
    silent = max(1.5 * heartbeat_every, timeout / 2)
    return bool(seconds_since_heartbeats) and all(s > silent for s in seconds_since_heartbeats)


def listed_for_watching(kind: str, listed: bool) -> bool:
    """Whether a live game is offered to watchers in the lobby (rule 7): ``kind`` as
    ``games.models.Table.Kind`` spells it."""
    return kind == "matched" or (kind == "friends" and listed)


def chat_audience(seated: bool, left: bool, status: str) -> str | None:
    """Which chat a person at a live table takes part in (rule 8): ``"players"``,
    ``"watchers"``, or None (no chat); ``status`` as ``games.models.Table.Status`` spells it.

    >>> chat_audience(True, False, "playing"), chat_audience(True, True, "playing"), chat_audience(True, True, "finished")
    ('players', 'watchers', 'players')
    >>> chat_audience(False, False, "playing"), chat_audience(False, False, "waiting")
    ('watchers', None)
    """
    if seated and not (left and status == "playing"):
        return "players"
    return "watchers" if status != "waiting" else None


def rematch_place(seat: int, first: int, players: int, *, person: bool, left: bool) -> int | None:
    """The seat kept in a rematch's room for whoever sat at ``seat`` of the finished game,
    when the one who opened the rematch sat at ``first`` (rule 9); None for a computer's seat
    or someone who left.

    >>> [rematch_place(seat, 2, 4, person=True, left=False) for seat in range(4)]
    [2, 3, 0, 1]
    >>> rematch_place(1, 0, 4, person=True, left=True), rematch_place(1, 0, 4, person=False, left=False)
    (None, None)
    """
    if not person or left:
        return None
    return (seat - first) % players
