"""The conduct of a table: who may see a seat's cards, who acts for it, when its person counts
as away or as having left, how the result is ranked, and who may sit or watch.

Pure, like :mod:`games.engine`: plain values in, plain values out, no Django. The move path
(``games.services``), presence and rooms (``live``), results (``games.results``) and the drawing
(``games.table.drawing``) ask it; none of them decides these things on its own.

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
9. **A rematch** (:class:`RematchAnswered`): after a live game, each person who stayed to the
   end may ask for a rematch or accept it; the first yes opens it, for
   :data:`REMATCH_SECONDS`. It starts when every one of them has said yes; one no, or the time
   running out (:class:`RematchDue`), closes it. While it is open, the new room keeps a seat
   for each of them (:func:`rematch_place`), turned so that the one who opened it sits first;
   someone who left gets no place kept, and nobody else may sit there.
10. **Seats before the start** (:class:`Sat`, :class:`Stood`): a person sits in the seat they
   chose if it holds no person, else in the first empty seat, else in a computer's; sitting
   again gives back the seat held. Nobody sits once the game has started, nor while playing
   another live game (rule 5). The host keeps their seat; anyone else may stand up until the
   start.

The rules as a table lives them are :func:`step`: the table's life (:class:`TableLife`) and
one command give the life after it, the events to announce and the deadlines to be woken at,
or raise :class:`Refused` for a command the rules do not allow.

>>> seats = [SeatState(0, person=7), SeatState(1, person=8, presence=Presence.LEFT), SeatState(2), SeatState(3)]
>>> private_seat(seats, 7), private_seat(seats, 8), private_seat(seats, 9)
(0, None, None)
>>> standings([40, 12, 60, 101], left={1})
Standings(places=(1, 4, 2, 3), winners=(0,))
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum


class Refused(ValueError):
    """A command the rules of conduct do not allow: ``str()`` is the message for the person,
    ``code`` names the refusal. Nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


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
    """One seat: its number, its person's id (None for a computer's seat), their presence,
    whether a socket of theirs is open, the turns in a row their timer ran out on, and since
    when their last socket has been closed (seconds, as ``now``; None while connected). A seat
    with no person is a computer's, or ``empty`` in a room before its start."""

    number: int
    person: int | None = None
    presence: Presence = Presence.PRESENT
    connected: bool = True
    timeouts_in_a_row: int = 0
    gone_since: float | None = None
    empty: bool = False

    @classmethod
    def of(cls, number: int, person: int | None, *, standing_in: bool = False, resigned: bool = False,
           connected: bool = True, timeouts_in_a_row: int = 0, gone_since: float | None = None,
           empty: bool = False) -> "SeatState":
        """The seat as ``games.models.Seat`` stores it.

        >>> SeatState.of(2, 5, standing_in=True).presence
        <Presence.AWAY: 'away'>
        """
        return cls(number, person, presence_of(standing_in=standing_in, resigned=resigned), connected,
                   timeouts_in_a_row, gone_since, empty and person is None)

    @property
    def person_plays(self) -> bool:
        """A person holds the seat and plays it themself (no computer plays for them)."""
        return self.person is not None and self.presence is Presence.PRESENT


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


REMATCH_SECONDS = 60
"""How long the people of a finished live game have to answer a rematch (rule 9)."""


@dataclass(frozen=True)
class Rematch:
    """A rematch offered after a live game (rule 9): the seat of the person who opened it
    (``first``), until when it may be answered (seconds, as ``now``), its ``state``
    (``"open"``, ``"started"`` or ``"closed"``) and the answers given (``"yes"``, ``"no"``,
    ``"late"``) as ``(person, answer)`` pairs."""

    first: int
    until: float
    state: str = "open"
    answers: tuple[tuple[int, str], ...] = ()

    def answer_of(self, person: int) -> str | None:
        return dict(self.answers).get(person)


def stayed_to_the_end(seats: Iterable[SeatState]) -> tuple[int, ...]:
    """The people of a game who did not leave it: those a rematch is offered to (rule 9)."""
    return tuple(seat.person for seat in seats if seat.person is not None and seat.presence is not Presence.LEFT)


def kept_places(life: "TableLife") -> dict[int, int] | None:
    """The seat of the rematch's room kept for each person of the finished game ``life``
    while its rematch is open (rule 9), by person; None when no rematch is open.

    >>> seats = (SeatState(0, 7), SeatState(1, 8, Presence.LEFT), SeatState(2, 9), SeatState(3))
    >>> life = TableLife(seats, playing=False, finished=True, rematch=Rematch(first=2, until=60))
    >>> kept_places(life)
    {7: 2, 9: 0}
    """
    offer = life.rematch
    if offer is None or offer.state != "open":
        return None
    places = {seat.person: rematch_place(seat.number, offer.first, len(life.seats), person=seat.person is not None,
                                         left=seat.presence is Presence.LEFT)
              for seat in life.seats if seat.person is not None}
    return {person: place for person, place in places.items() if place is not None}


# --------------------------------------------------------------------------- the table's life
#
# The rules above, applied to one table as it goes: :func:`step` takes the table's life (its
# seats and its clock), one thing that happened, and the time, and gives the life after it,
# what to announce and the moments to be woken at. The Django side (``games.services`` and
# ``live.presence``) loads the life from its rows, saves what ``step`` gives and schedules its
# deadlines; it decides none of this itself.


@dataclass(frozen=True)
class Timing:
    """A table's times, in seconds: the turn (0: no clock), the arrival grace added to a clock
    that waits for people (rule 6), the reconnect grace of someone who dropped (rule 2)."""

    turn: float = 0
    arrival_grace: float = 0
    reconnect_grace: float = 0


@dataclass(frozen=True)
class TableLife:
    """What the rules of conduct know of a table: its seats, who must act now (``to_act``;
    ``passing`` while the deal's pass is being chosen), the moves made (``ply``), whether it
    is a live game, whether its game is still ``waiting`` to start, is being played
    (``playing``) or was played to the end (``finished``; none: given up), the moment its clock runs out (``deadline``, seconds as
    ``now``; None when no clock runs), its host, the seats a room keeps for the people of a
    rematch (``kept``: ``(person, seat)`` pairs, :func:`kept_places`; None in any other room) and the
    rematch offered after its game (``rematch``).

    >>> life = TableLife((SeatState(0, 7), SeatState(1)), to_act=(0,), timing=Timing(turn=30))
    >>> step(life, Moved(0, "person", to_act=(1,)), now=100).life.deadline is None
    True
    """

    seats: tuple[SeatState, ...]
    to_act: tuple[int, ...] = ()
    passing: bool = False
    ply: int = 0
    live: bool = True
    playing: bool = True
    deadline: float | None = None
    timing: Timing = Timing()
    waiting: bool = False
    finished: bool = False
    host: int | None = None
    kept: tuple[tuple[int, int], ...] | None = None
    rematch: Rematch | None = None

    def seat(self, number: int) -> SeatState:
        return self.seats[number]

    def with_seat(self, seat: SeatState) -> "TableLife":
        return replace(self, seats=tuple(seat if other.number == seat.number else other for other in self.seats))

    def seat_of(self, person: int) -> SeatState | None:
        """The seat ``person`` holds, if any."""
        return next((seat for seat in self.seats if seat.person == person), None)

    @property
    def people_to_act(self) -> tuple[int, ...]:
        """The seats to act now that their person plays (a clock runs only for them)."""
        return tuple(number for number in self.to_act if self.seats[number].person_plays)

    @property
    def people_not_here(self) -> int:
        """Seated people who play their seat but have no socket open to the table."""
        return sum(1 for seat in self.seats if seat.person_plays and not seat.connected)


@dataclass(frozen=True)
class Deadline:
    """A moment to be woken at: ``"turn"`` (the clock runs out), ``"grace"`` (``seat``'s
    reconnect grace is over) or ``"rematch"`` (the time to answer it is over)."""

    kind: str
    at: float
    seat: int | None = None


@dataclass(frozen=True)
class Step:
    """What :func:`step` gives: the life after the command, the events to announce (as the
    table's events are: dicts with a ``type``) and the deadlines to schedule."""

    life: TableLife
    events: tuple[dict, ...] = ()
    deadlines: tuple[Deadline, ...] = ()


@dataclass(frozen=True)
class Moved:
    """``seat`` made a move (``actor`` as ``games.models.Action.Actor`` spells it); then
    ``to_act`` must act, ``passing`` tells whether a pass is being chosen, ``ply`` moves made."""

    seat: int
    actor: str
    to_act: tuple[int, ...] = ()
    passing: bool = False
    ply: int = 0


@dataclass(frozen=True)
class SocketOpened:
    """A socket of ``seat``'s person opened to the table."""

    seat: int


@dataclass(frozen=True)
class SocketsClosed:
    """The last socket of ``seat``'s person to the table closed (or, as the game starts, none
    is open: ``live.presence.start_grace_for_absent``)."""

    seat: int


@dataclass(frozen=True)
class GraceOver:
    """The reconnect grace of ``seat``'s absence that began at ``since`` is over."""

    seat: int
    since: float


@dataclass(frozen=True)
class CameBack:
    """``seat``'s person, away, asked to play their seat again."""

    seat: int


@dataclass(frozen=True)
class Resigned:
    """``seat``'s person left the game for good."""

    seat: int


@dataclass(frozen=True)
class OutageNoticed:
    """The server process holding the table's sockets was found gone (rule 6)."""


@dataclass(frozen=True)
class Began:
    """The game began (or who acts changed by something else than a move): ``to_act``,
    ``passing`` and ``ply`` as in :class:`Moved`."""

    to_act: tuple[int, ...] = ()
    passing: bool = False
    ply: int = 0


@dataclass(frozen=True)
class Sat:
    """``person`` takes a seat before the start (rule 10): ``seat`` if they chose one;
    ``connected`` tells whether a socket of theirs is open to the table, ``elsewhere`` whether
    they hold a seat at another live game in progress (rule 5)."""

    person: int
    seat: int | None = None
    connected: bool = False
    elsewhere: bool = False


@dataclass(frozen=True)
class Stood:
    """``person`` gives up their seat before the start (rule 10)."""

    person: int


@dataclass(frozen=True)
class RematchAnswered:
    """``person`` of a finished live game asks for a rematch or accepts it (``yes``), or
    declines it (rule 9)."""

    person: int
    yes: bool


@dataclass(frozen=True)
class RematchDue:
    """The time to answer the rematch is over (rule 9)."""


Command = (Began | Moved | SocketOpened | SocketsClosed | GraceOver | CameBack | Resigned | OutageNoticed
           | Sat | Stood | RematchAnswered | RematchDue)


def step(life: TableLife, command: Command, now: float) -> Step:
    """The table's life after ``command`` at ``now`` (seconds): the rules of conduct in one
    place.

    >>> life = TableLife((SeatState(0, 7), SeatState(1, 8)), to_act=(0,), timing=Timing(turn=30, reconnect_grace=20))
    >>> life = step(life, Moved(1, "person", to_act=(0,), ply=1), now=0).life
    >>> life.deadline
    30
    >>> closed = step(life, SocketsClosed(0), now=5)
    >>> closed.deadlines
    (Deadline(kind='grace', at=25, seat=0),)
    >>> gone = step(closed.life, GraceOver(0, since=5), now=25)
    >>> gone.life.seat(0).presence, gone.events, gone.life.deadline
    (<Presence.AWAY: 'away'>, ({'type': 'stand_in', 'seat': 0},), None)
    >>> back = step(gone.life, SocketOpened(0), now=40)
    >>> back.life.seat(0).presence, back.events, back.life.deadline
    (<Presence.PRESENT: 'present'>, ({'type': 'seat_reclaimed', 'seat': 0},), 70)
    """
    if isinstance(command, Began):
        return _replanned(replace(life, to_act=command.to_act, passing=command.passing, ply=command.ply), now)
    if isinstance(command, Moved):
        return _moved(life, command, now)
    if isinstance(command, OutageNoticed):
        return _outage_noticed(life, now)
    if isinstance(command, Sat):
        return _sat(life, command)
    if isinstance(command, Stood):
        return _stood(life, command)
    if isinstance(command, RematchAnswered):
        return _rematch_answered(life, command, now)
    if isinstance(command, RematchDue):
        return _rematch_due(life, now)
    seat = life.seat(command.seat)
    if seat.person is None:
        return Step(life)
    if isinstance(command, SocketOpened):
        return _socket_opened(life, seat, now)
    if isinstance(command, SocketsClosed):
        if not seat.connected and seat.gone_since is not None:
            return Step(life)  # already recorded: the grace period that runs is kept
        life = life.with_seat(replace(seat, connected=False, gone_since=now))
        if seat.presence is not Presence.PRESENT or not life.playing:
            return Step(life)
        return Step(life, deadlines=(Deadline("grace", now + life.timing.reconnect_grace, seat.number),))
    if isinstance(command, GraceOver):
        if (not life.playing or seat.presence is not Presence.PRESENT or seat.connected or seat.gone_since != command.since
                or now - command.since < life.timing.reconnect_grace - GRACE_SLACK_SECONDS):
            return Step(life)
        return _replanned(life.with_seat(replace(seat, presence=Presence.AWAY)), now, {"type": "stand_in", "seat": seat.number})
    if isinstance(command, CameBack):
        return _came_back(life, seat, now)
    if isinstance(command, Resigned):
        if seat.presence is Presence.LEFT:
            return Step(life)
        seat = replace(seat, presence=Presence.LEFT, gone_since=seat.gone_since if seat.gone_since is not None else now)
        return _replanned(life.with_seat(seat), now, {"type": "resigned", "seat": seat.number})
    raise TypeError(f"not a command of a table's life: {command!r}")


def pending_deadlines(life: TableLife) -> tuple[Deadline, ...]:
    """The moments ``life`` waits for: its clock, and the end of each reconnect grace that
    runs. Scheduled again whenever scheduled wake-ups may have been lost (a worker or server
    started: ``live.tasks.replan_task``).

    >>> life = TableLife((SeatState(0, 7, connected=False, gone_since=5), SeatState(1, 8)),
    ...                  deadline=30, timing=Timing(turn=30, reconnect_grace=20))
    >>> pending_deadlines(life)
    (Deadline(kind='turn', at=30, seat=None), Deadline(kind='grace', at=25, seat=0))
    >>> pending_deadlines(replace(life, playing=False))
    ()
    """
    if not life.playing:
        return ()
    clock = (Deadline("turn", life.deadline),) if life.deadline is not None else ()
    return clock + tuple(
        Deadline("grace", seat.gone_since + life.timing.reconnect_grace, seat.number)
        for seat in life.seats
        if seat.person_plays and not seat.connected and seat.gone_since is not None
    )


def needs_who_acts(life: TableLife, command: Command) -> bool:
    """Whether :func:`step` may read who must act (``life.to_act``, ``passing``) for
    ``command``: a socket opening does only when it brings an away person back or ends the
    first clock's wait, a socket closing and an outage never do. The Django side reads the
    game of a table only when it is needed (every socket of a restarted server opens at once).

    >>> life = TableLife((SeatState(0, 7), SeatState(1, 8, Presence.AWAY)), ply=3)
    >>> needs_who_acts(life, SocketOpened(0)), needs_who_acts(life, SocketOpened(1)), needs_who_acts(life, Resigned(0))
    (False, True, True)
    """
    if isinstance(command, (SocketsClosed, OutageNoticed, Sat, Stood, RematchAnswered, RematchDue)):
        return False
    if isinstance(command, SocketOpened):
        return (life.seat(command.seat).presence is Presence.AWAY
                or (life.deadline is not None and life.live and first_clock_waits(life.ply, life.people_not_here)))
    return True


GRACE_SLACK_SECONDS = 0.5
"""A grace period's end may be announced this much early (timers are not exact)."""


def turn_deadline(life: TableLife, now: float) -> float | None:
    """When the table's clock runs out after a change at ``now`` (rule 2 and 6): no clock
    unless a person who plays their seat must act; a pass already timed keeps its deadline
    (everyone chooses theirs at once); otherwise the whole turn from now, and the arrival
    grace on top while a live game's first clock waits for people not here yet."""
    if not life.playing or not life.timing.turn or not life.people_to_act:
        return None
    if life.passing and life.deadline is not None:
        return life.deadline
    waits = life.live and first_clock_waits(life.ply, life.people_not_here)
    return now + life.timing.turn + (life.timing.arrival_grace if waits else 0)


def _replanned(life: TableLife, now: float, *events: dict) -> Step:
    """``life`` with its clock set again after a change of who plays a seat."""
    deadline = turn_deadline(life, now)
    changed = deadline != life.deadline
    life = replace(life, deadline=deadline)
    return Step(life, events, (Deadline("turn", deadline),) if changed and deadline is not None else ())


def _moved(life: TableLife, move: Moved, now: float) -> Step:
    seat = life.seat(move.seat)
    if seat.person is not None and move.actor in ("person", "timeout"):
        count, away = after_turn(seat.timeouts_in_a_row, move.actor)
        presence: Presence
        if move.actor == "person":
            presence = Presence.PRESENT if seat.presence is Presence.AWAY else seat.presence
        else:
            presence = Presence.AWAY if away and seat.presence is Presence.PRESENT else seat.presence
        life = life.with_seat(replace(seat, timeouts_in_a_row=count, presence=presence))
    life = replace(life, to_act=move.to_act, passing=move.passing, ply=move.ply)
    if life.passing and life.deadline is not None and life.people_to_act:
        return Step(life)  # the pass's clock runs on
    return _replanned(replace(life, deadline=None), now)


def _socket_opened(life: TableLife, seat: SeatState, now: float) -> Step:
    waited = life.live and first_clock_waits(life.ply, life.people_not_here)
    life = life.with_seat(replace(seat, connected=True, gone_since=None))
    events: tuple[dict, ...] = ()
    if (waited and not first_clock_waits(life.ply, life.people_not_here) and life.deadline is not None
            and life.deadline > now + life.timing.turn):
        # the last person the first clock waited for is here: the whole turn starts now
        life = replace(life, deadline=None)
        events = ({"type": "clock_started"},)
    if seat.presence is Presence.AWAY:
        return _came_back(life, life.seat(seat.number), now, *events)
    if events:
        return _replanned(life, now, *events)
    return Step(life)


def _came_back(life: TableLife, seat: SeatState, now: float, *events: dict) -> Step:
    if seat.presence is not Presence.AWAY:
        return Step(life, events)
    seat = replace(seat, presence=Presence.PRESENT, timeouts_in_a_row=0)
    return _replanned(life.with_seat(seat), now, *events, {"type": "seat_reclaimed", "seat": seat.number})


def _outage_noticed(life: TableLife, now: float) -> Step:
    if life.deadline is None or not life.playing:
        return Step(life)
    deadline = now + life.timing.turn + life.timing.arrival_grace
    return Step(replace(life, deadline=deadline), ({"type": "clock_restarted"},), (Deadline("turn", deadline),))


def _sat(life: TableLife, sat: Sat) -> Step:
    if life.seat_of(sat.person) is not None:
        return Step(life)  # sitting again gives back the seat held
    if not life.waiting:
        raise Refused("already_started", "This game has already started, so its seats are taken.")
    if life.live and sat.elsewhere:
        raise Refused("in_game", "You are playing a live game: one at a time. Finish it (or leave it) before you sit here.")
    number = sat.seat
    if life.kept is not None:
        kept = dict(life.kept)
        if sat.person not in kept:
            raise Refused("seat_kept", "This table's seats are kept for the players of the last game "
                                       "while they answer the rematch.")
        number = kept[sat.person]
    if number is not None:
        if not 0 <= number < len(life.seats) or life.seat(number).person is not None:
            raise Refused("seat_taken", f"Seat {number + 1} is not free; pick an empty seat.")
        chosen = life.seat(number)
    else:
        free = [seat for seat in life.seats if seat.empty] or [seat for seat in life.seats if seat.person is None]
        if not free:
            raise Refused("table_full", "Every seat at this table is taken.")
        chosen = free[0]
    seat = SeatState(chosen.number, sat.person, connected=sat.connected)
    return Step(life.with_seat(seat), ({"type": "seat_taken", "seat": seat.number},))


def _stood(life: TableLife, stood: Stood) -> Step:
    seat = life.seat_of(stood.person)
    if seat is None:
        return Step(life)
    if not life.waiting:
        raise Refused("already_started", "The game has started; a computer plays for you if you leave.")
    if life.host == stood.person:
        raise Refused("host_stays", "The host keeps their seat; close the room instead.")
    return Step(life.with_seat(SeatState(seat.number, None, connected=False, empty=True)),
                ({"type": "seat_left", "seat": seat.number},))


def _rematch_answered(life: TableLife, answer: RematchAnswered, now: float) -> Step:
    if not life.finished or not life.live:
        raise Refused("not_over", "A rematch is offered once a live game is over.")
    seat = life.seat_of(answer.person)
    if seat is None or seat.presence is Presence.LEFT:
        raise Refused("no_seat", "Only the people who played this game to the end can ask for a rematch.")
    offer = life.rematch
    if offer is not None and offer.state != "open":
        raise Refused("rematch_settled", "That rematch is settled; start a new room from the lobby.")
    if offer is None and not answer.yes:
        return Step(life)  # nothing to decline
    deadlines: tuple[Deadline, ...] = ()
    if offer is None:
        offer = Rematch(first=seat.number, until=now + REMATCH_SECONDS)
        deadlines = (Deadline("rematch", offer.until),)
    answers = dict(offer.answers)
    answers[answer.person] = "yes" if answer.yes else "no"
    if not answer.yes:
        state = "closed"
    elif all(answers.get(person) == "yes" for person in stayed_to_the_end(life.seats)):
        state = "started"
    else:
        state = "open"
    offer = replace(offer, state=state, answers=tuple(answers.items()))
    return Step(replace(life, rematch=offer), ({"type": "rematch", "state": state},), deadlines)


def _rematch_due(life: TableLife, now: float) -> Step:
    offer = life.rematch
    if offer is None or offer.state != "open" or now < offer.until:
        return Step(life)  # settled, or too early (a task runner that ignores countdowns)
    answers = dict(offer.answers)
    for person in stayed_to_the_end(life.seats):
        answers.setdefault(person, "late")
    offer = replace(offer, state="closed", answers=tuple(answers.items()))
    return Step(replace(life, rematch=offer), ({"type": "rematch", "state": "closed"},))
