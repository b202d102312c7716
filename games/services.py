"""Every change to a table goes through here: people's moves, computer moves and timeouts alike.

One code path: :func:`submit_action` locks the table row, checks the version the move was made
against, lets the engine apply it, stores the new state and the log entry, then plans what
happens next (computer turns, the turn timer) and tells connected clients — after commit.
"""
import logging
import random
from dataclasses import dataclass, field
from datetime import datetime
from datetime import timezone as dt_timezone

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from games import bots, storage
from games.table import conduct, protocol
from games.engine import Card, Game, IllegalAction, Rules
from games.models import Action, Seat, Table
from games.realtime import notify_table
from games.results import record_abandoned_game, record_finished_game, seats_counted_as_left
from hearts_site.taskrunner import schedule, task_batch

log = logging.getLogger(__name__)

# A seat that cannot be decided by its person (timeout) is played by this level.
TIMEOUT_BOT_LEVEL = "medium"


class ActionRejected(ValueError):
    """A move that was not applied. ``str()`` is the message for the player; nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class ActionOutcome:
    version: int
    events: list = field(default_factory=list)


# --------------------------------------------------------------------------- tables


def create_table(
    host,
    rules: Rules,
    *,
    kind: str = Table.Kind.SOLO,
    seat_bots: list[str | None] | None = None,
    rated: bool = False,
    turn_timer_seconds: int = 0,
    seed: int | None = None,
    autoplay_forced: bool = False,
    listed: bool = False,
    chat: bool = True,
) -> Table:
    """Create a table with the host in seat 0.

    ``seat_bots`` gives, per seat, a bot level or ``None`` for a place left for a person; for a
    solo game it is ``[None, "medium", "medium", "medium"]`` (the host is seat 0).
    """
    if turn_timer_seconds not in (0, 30, 60):
        raise ValueError("The turn timer is none, 30 or 60 seconds.")
    seat_bots = seat_bots or [None] + [None] * (rules.players - 1)
    if len(seat_bots) != rules.players:
        raise ValueError(f"A {rules.players}-player table has {rules.players} seats.")
    with transaction.atomic():
        table = Table.objects.create(
            kind=kind,
            host=host,
            rules=rules.to_dict(),
            seed=seed if seed is not None else random.SystemRandom().randrange(2**62),
            rated=rated,
            turn_timer_seconds=turn_timer_seconds,
            autoplay_forced=autoplay_forced,
            listed=listed and kind == Table.Kind.FRIENDS,
            chat=chat,
        )
        for number, level in enumerate(seat_bots):
            Seat.objects.create(
                table=table,
                number=number,
                user=host if number == 0 else None,
                bot_level=(level or "") if number != 0 else "",
            )
    return table


def start_table(table_id: int, *, hands=None) -> Table:
    """Deal the first hand. Every seat must be taken (a person or a computer)."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "This game has already started.")
        if any(seat.is_empty for seat in table.seats.all()):
            raise ActionRejected("seats_empty", "Every seat needs a player or a computer before the game starts.")
        rules = Rules.from_dict(table.rules)
        game = Game.new(rules, seed=table.seed, hands=hands)
        storage.record_start(table, game)
        table.status = Table.Status.PLAYING
        table.started_at = timezone.now()
        table.version += 1
        plan_next(table, game)
        table.save()
        notify_after_commit(table, [{"type": "game_started"}])
    return table


def hand_over_guest_games(sender, guest, account, **kwargs) -> None:
    """A guest logged in to ``account`` (``accounts.guests.guest_claimed``): the tables they
    host and the seats they hold become the account's."""
    Table.objects.filter(host=guest).update(host=account)
    Seat.objects.filter(user=guest).update(user=account)


# --------------------------------------------------------------------------- moves


def submit_action(
    table_id: int,
    seat_number: int,
    action,
    *,
    expected_version: int | None = None,
    user=None,
    actor: str = Action.Actor.PERSON,
) -> ActionOutcome:
    """Apply one move for one seat, or raise :class:`ActionRejected` and change nothing.

    ``action`` is the engine's (a card, three cards to pass, a moon choice), as
    :func:`games.table.protocol.parse_move` reads it from a client; the engine refuses anything else.

    ``user``, when given, must be the person in that seat. ``expected_version`` is the table
    version the move was made against: a duplicate or stale move is rejected.
    """
    try:
        return _apply_action(table_id, seat_number, action, expected_version, user, actor)
    except ActionRejected as error:
        # Never log the action itself: a card tried reveals part of a hidden hand.
        log.info(
            "action_rejected table=%s seat=%s actor=%s code=%s user=%s",
            table_id, seat_number, actor, error.code, getattr(user, "pk", None),
        )
        raise


def _apply_action(table_id, seat_number, action, expected_version, user, actor) -> ActionOutcome:
    with task_batch(), transaction.atomic():
        locked = storage.lock(table_id)
        _check_move(locked, seat_number, action, expected_version, user)
        before = locked.snapshot()
        game = before.game.copy()
        try:
            events = game.apply(seat_number, action)
        except IllegalAction as error:
            raise ActionRejected("illegal", str(error))
        table = locked.table
        table.version += 1
        seats, _, wakes = conducted(table, locked.seats, game, conduct.Moved(
            seat_number, actor, to_act=tuple(game.to_act), passing=game.phase == "pass", ply=game.ply))
        if game.phase == "over":
            seats = _finish(table, game, seats, unsaved=(seat_number, actor))
        else:
            wakes += computer_wakes(table, game, seats)
        storage.save_move(before, table, seats, game, events, actor)
        wake(wakes)
        notify_after_commit(table, events)
    return ActionOutcome(version=table.version, events=events)


def _check_move(locked: storage.Locked, seat_number: int, action, expected_version: int | None, user) -> None:
    """Refuse a move (:class:`ActionRejected`) that ``locked``'s table cannot take: its game is
    not under way, the move was made on an earlier position that no longer stands, or the seat
    is not there, not the user's, or left."""
    table = locked.table
    if table.status == Table.Status.WAITING:
        raise ActionRejected("not_started", "The game has not started yet.")
    if table.status != Table.Status.PLAYING:
        raise ActionRejected("game_over", "This game is over.")
    if expected_version is not None and expected_version != table.version and not _same_passing_round(
        table, expected_version, seat_number, action
    ):
        raise ActionRejected(
            "stale",
            "That move was made on an earlier position of the table; "
            f"it is now at move {table.version}. Here is the current table.",
        )
    seat = next((seat for seat in locked.seats if seat.number == seat_number), None)
    if seat is None:
        raise ActionRejected("no_seat", f"There is no seat {seat_number} at this table.")
    if user is not None and seat.user_id != user.pk:
        raise ActionRejected("not_your_seat", "You can only play for your own seat.")
    if user is not None and seat.resigned:
        raise ActionRejected("resigned", "You left this game: a computer plays your seat to the end.")


def _same_passing_round(table: Table, expected_version: int, seat_number: int, action) -> bool:
    """A move made at ``expected_version`` that still stands (``protocol.still_current``)."""
    if not isinstance(action, list) or not 0 < expected_version < table.version:
        return False
    return protocol.still_current(seat_number, action, storage.moves_since(table, expected_version))


def plan_next(table: Table, game: Game, seats: list[Seat] | None = None) -> None:
    """Who must act has changed other than by a move (the game began, a computer took a
    seat over or gave it back): schedule the computers' turns and set the clock
    (``games.table.conduct``). The caller holds the table's row lock and saves it."""
    seats = list(table.seats.all()) if seats is None else seats
    seats, _ = apply_conduct(table, seats, game, conduct.Began(
        to_act=tuple(game.to_act), passing=game.phase == "pass", ply=game.ply))
    plan_computers(table, game, seats)


def plan_computers(table: Table, game: Game, seats: list[Seat]) -> None:
    """Schedule the turns of the computers that must act now, and a person's only legal card
    where the table plays it for them (:func:`computer_wakes`)."""
    wake(computer_wakes(table, game, seats))


@dataclass(frozen=True)
class Wake:
    """A task to run for a table ``countdown`` seconds after the transaction commits
    (``hearts_site.taskrunner.schedule``)."""

    task: str
    args: tuple
    countdown: float = 0.0


def wake(wakes) -> None:
    """Schedule each of ``wakes``."""
    for each in wakes:
        schedule(each.task, *each.args, countdown=each.countdown)


def computer_wakes(table: Table, game: Game, seats: list[Seat]) -> list[Wake]:
    """The turns of the computers that must act now, and a person's only legal card where
    the table plays it for them (:func:`forced_card`), each after the table's pace."""
    by_number = {seat.number: seat for seat in seats}
    pause = settings.BOT_DELAY_SECONDS * protocol.PACES.get(table.pace, 1.0)
    if table.autoplay_forced and game.forced_to_end_of_deal():
        pause = 0  # nobody has a choice left this deal: it is played out at once
    wakes = []
    if any(by_number[number].computer_plays for number in game.to_act):
        wakes.append(Wake("games.play_computer_turns", (table.pk, table.version), 0 if game.phase == "pass" else pause))
    if forced_card(table, game, by_number) is not None:
        wakes.append(Wake("games.play_forced_card", (table.pk, table.version), pause))
    return wakes


# --------------------------------------------------------------------------- conduct


def life_of(table: Table, seats: list[Seat], game: Game | None, *, kept: dict[int, int] | None = None) -> conduct.TableLife:
    """The table's life as the rules of conduct see it (``games.table.conduct.TableLife``), from its
    rows and its game (None before the start, or when the command does not need to know who
    must act: ``games.table.conduct.needs_who_acts``); ``kept``, the seats a rematch's room keeps
    (``live.rooms``)."""
    return conduct.TableLife(
        seats=tuple(
            conduct.SeatState.of(
                seat.number, seat.user_id, standing_in=seat.standing_in, resigned=seat.resigned,
                connected=seat.connected, timeouts_in_a_row=seat.timeouts_in_a_row,
                gone_since=seat.left_at.timestamp() if seat.left_at else None,
                empty=seat.is_empty,
            )
            for seat in sorted(seats, key=lambda seat: seat.number)
        ),
        to_act=tuple(game.to_act) if game else (),
        passing=game is not None and game.phase == "pass",
        ply=game.ply if game else table.ply,
        live=table.is_live,
        playing=table.status == Table.Status.PLAYING,
        waiting=table.status == Table.Status.WAITING,
        finished=table.status == Table.Status.FINISHED,
        deadline=table.turn_deadline.timestamp() if table.turn_deadline else None,
        timing=conduct.Timing(
            turn=table.turn_timer_seconds,
            arrival_grace=settings.LIVE_ARRIVAL_GRACE_SECONDS,
            reconnect_grace=settings.LIVE_RECONNECT_GRACE_SECONDS,
        ),
        host=table.host_id,
        kept=tuple(sorted(kept.items())) if kept is not None else None,
        rematch=rematch_of(table),
    )


def rematch_of(table: Table) -> conduct.Rematch | None:
    """The rematch offered after ``table``'s game, from its ``rematch`` column (None if none)."""
    offer = table.rematch
    if not offer:
        return None
    return conduct.Rematch(
        first=offer["first"], until=datetime.fromisoformat(offer["until"]).timestamp(), state=offer["state"],
        answers=tuple((int(person), answer) for person, answer in offer["answers"].items()),
    )


def store_rematch(table: Table, offer: conduct.Rematch, code: str) -> None:
    """Keep ``offer`` of the new room ``code`` in ``table``'s ``rematch`` column (the caller
    saves the row)."""
    table.rematch = {
        "code": code, "state": offer.state, "first": offer.first,
        "answers": {str(person): answer for person, answer in offer.answers}, "until": _moment(offer.until).isoformat(),
    }


def conduct_step(table: Table, seats: list[Seat], game: Game | None, command, *,
                 kept: dict[int, int] | None = None) -> tuple[conduct.TableLife, conduct.Step]:
    """The table's life before ``command`` and the step it takes now (``games.table.conduct.step``);
    a command the rules refuse raises :class:`ActionRejected`."""
    before = life_of(table, seats, game, kept=kept)
    try:
        return before, conduct.step(before, command, timezone.now().timestamp())
    except conduct.Refused as refusal:
        raise ActionRejected(refusal.code, str(refusal)) from None


def apply_conduct(table: Table, seats: list[Seat], game: Game | None, command, *,
                  kept: dict[int, int] | None = None) -> tuple[list[Seat], tuple[dict, ...]]:
    """Apply a command of the table's life now (:func:`conducted`) and schedule what it wakes.
    Returns the seats and the events to announce."""
    seats, events, wakes = conducted(table, seats, game, command, kept=kept)
    wake(wakes)
    return seats, events


def conducted(table: Table, seats: list[Seat], game: Game | None, command, *,
              kept: dict[int, int] | None = None) -> tuple[list[Seat], tuple[dict, ...], list[Wake]]:
    """A command of the table's life (:func:`conduct_step`) applied now: the seats that changed
    are written and ``table.turn_deadline`` set (the caller holds the row's lock and saves it).
    Returns the seats (read again when someone sat, stood up or their presence changed; a
    socket's opening or closing alone is not read back), the events to announce and what must
    wake the table (:func:`deadline_wakes`), for the caller to schedule."""
    before, after = conduct_step(table, seats, game, command, kept=kept)
    changed = [new for old, new in zip(before.seats, after.life.seats) if old != new]
    read_again = False
    for seat in changed:
        was = before.seat(seat.number)
        fields = dict(
            standing_in=seat.presence is not conduct.Presence.PRESENT,
            resigned=seat.presence is conduct.Presence.LEFT,
            connected=seat.connected,
            timeouts_in_a_row=seat.timeouts_in_a_row,
            left_at=_moment(seat.gone_since),
        )
        if (was.person, was.empty) != (seat.person, seat.empty):
            fields.update(user_id=seat.person, bot_level="")  # someone sat down or stood up
        read_again = read_again or was.presence is not seat.presence or "user_id" in fields
        Seat.objects.filter(table_id=table.pk, number=seat.number).update(**fields)
        if seat.presence is conduct.Presence.AWAY and was.presence is conduct.Presence.PRESENT:
            log.info("away table=%s seat=%s", table.pk, seat.number)
    if after.life.deadline != before.deadline:
        table.turn_deadline = _moment(after.life.deadline)
    wakes = deadline_wakes(table, after.life, after.deadlines, timezone.now().timestamp())
    return (storage.read_seats(table) if read_again else seats), after.events, wakes


def schedule_deadlines(table: Table, life: conduct.TableLife, deadlines, now: float) -> None:
    """Wake the table at each of ``deadlines`` (``games.table.conduct.Deadline``) of its ``life``
    (:func:`deadline_wakes`)."""
    wake(deadline_wakes(table, life, deadlines, now))


def deadline_wakes(table: Table, life: conduct.TableLife, deadlines, now: float) -> list[Wake]:
    """What wakes the table at each of ``deadlines`` of its ``life``: its clock
    (``table.turn_deadline``) runs out, the reconnect grace of an absence is over
    (``live.presence.stand_in_if_gone``, told when the absence began), or the time to answer
    its rematch (kept in ``table.rematch``)."""
    wakes = []
    for deadline in deadlines:
        countdown = max(deadline.at - now, 0.0)
        if deadline.kind == "turn":
            wakes.append(Wake("games.turn_timeout", (table.pk, table.turn_deadline.isoformat()), countdown))
        elif deadline.kind == "rematch":
            wakes.append(Wake("games.rematch_expired", (table.pk, table.rematch["code"]), countdown))
        else:
            left_at = _moment(life.seat(deadline.seat).gone_since).isoformat()
            wakes.append(Wake("games.stand_in_if_gone", (table.pk, deadline.seat, left_at), countdown))
    return wakes


def apply_conduct_and_announce(table: Table, seats: list[Seat], game: Game | None, command) -> tuple[dict, ...]:
    """:func:`apply_conduct`, and when it has news (a stand-in, a seat handed back, someone
    leaving, a clock started again): a new version, the computers' turns planned (given the
    game), the row saved and the events announced after commit. Returns the events."""
    seats, events = apply_conduct(table, seats, game, command)
    if events:
        table.version += 1
        if game is not None:
            plan_computers(table, game, seats)
        table.save()
        notify_after_commit(table, list(events))
    return events


def _moment(seconds: float | None):
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=dt_timezone.utc)


def set_pace(table_id: int, user, pace: str) -> None:
    """The solo player of ``table_id`` chose how fast the computers play (``protocol.PACES``);
    from the next computer card on. Live tables keep one pace for everyone."""
    table = Table.objects.filter(pk=table_id).only("kind", "pace").first()
    if table is None or table.is_live:
        raise ActionRejected("not_solo", "Live tables keep one pace for everyone.")
    if not Seat.objects.filter(table_id=table_id, user=user).exists():
        raise ActionRejected("no_seat", "You have no seat at this table.")
    Table.objects.filter(pk=table_id).update(pace=pace)


def hurry(table_id: int, user) -> bool:
    """The solo player of ``table_id`` asked the computers not to wait: the ones to act now
    play at once (their planned turn is then stale). True when a computer was to act."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.is_live or table.status != Table.Status.PLAYING:
            return False
        seats = {seat.number: seat for seat in table.seats.all()}
        if not any(seat.user_id == user.pk for seat in seats.values()):
            return False
        game = storage.game_of(table)
        if not any(seats[number].computer_plays for number in game.to_act):
            return False
        schedule("games.play_computer_turns", table.pk, table.version, countdown=0)
    return True


def abandon_table(table_id: int, reason: str, *, before_start: bool = False) -> bool:
    """End a game that cannot go on (staff action, everyone left), or with ``before_start`` a
    room whose game has not started. Returns False if it had ended (or started)."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if not table.is_active or (before_start and table.status != Table.Status.WAITING):
            return False
        table.status = Table.Status.ABANDONED
        table.finished_at = timezone.now()
        table.turn_deadline = None
        table.end_reason = reason[:200]
        table.version += 1
        if table.has_game:
            record_abandoned_game(table, storage.game_of(table))
        table.save()
        notify_after_commit(table, [{"type": "game_abandoned", "reason": table.end_reason}])
    log.info("table_abandoned table=%s reason=%s", table_id, reason)
    return True


def _finish(table: Table, game: Game, seats: list[Seat], *, unsaved: tuple[int, str]) -> list[Seat]:
    """The game of ``table`` is over (``unsaved``: the seat and actor of its last move, not
    stored yet): the result (``games.table.conduct.standings``, those counted as left ranked last)
    is kept on the row and its seats, and rated, in the same transaction. Returns the seats
    as they now are."""
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    table.turn_deadline = None
    left = seats_counted_as_left(table, seats, unsaved=unsaved)
    table.winners = list(conduct.standings(game.scores, left).winners)
    if left:
        Seat.objects.filter(table_id=table.pk, number__in=left).update(counted_as_left=True)
        seats = storage.read_seats(table)  # the snapshot kept after commit shows the result
    record_finished_game(table, game, seats, left)  # ratings and statistics
    return seats


# --------------------------------------------------------------------------- computer turns


def computer_action(game_view, level: str, table: Table, seat_number: int):
    """What a computer player does now, decided from that seat's view only."""
    return bots.choose_action(game_view, level, seed=bots.decision_seed(table.seed, table.version, seat_number))


def play_computer_turns(table_id: int, version: int) -> int:
    """Play every computer seat that must act at ``version``; stale calls do nothing.

    Returns the number of moves made. Each move is an ordinary :func:`submit_action`.
    """
    moves = 0
    while True:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING or table.version != version:
            return moves
        game = storage.game_of(table)
        seats = {seat.number: seat for seat in table.seats.all()}
        computer_seats = [number for number in game.to_act if seats[number].computer_plays]
        if not computer_seats:
            return moves
        number = computer_seats[0]
        seat = seats[number]
        level = seat.bot_level if seat.is_bot else TIMEOUT_BOT_LEVEL
        choice = computer_action(game.view(number), level, table, number)
        actor = Action.Actor.BOT if seat.is_bot else Action.Actor.STANDIN
        try:
            outcome = submit_action(table_id, number, choice, expected_version=version, actor=actor)
        except ActionRejected as error:
            if error.code == "stale":
                return moves  # someone else moved first; the newer version has its own task
            raise
        moves += 1
        if game.phase != "pass":
            return moves  # the next play gets its own task, after a pause people can follow
        version = outcome.version


def forced_card(table: Table, game: Game, seats: dict[int, Seat]) -> tuple[int, Card] | None:
    """``(seat number, card)`` when the table plays a person's only legal card for them
    (``autoplay_forced``) and the person to play now has just one; else None."""
    if not table.autoplay_forced or game.phase != "play":
        return None
    number = game.to_act[0]
    legal = game.legal(number)
    if seats[number].computer_plays or len(legal) != 1:
        return None
    return number, legal[0]


def play_forced_card(table_id: int, version: int) -> bool:
    """Play the person's only legal card (:func:`forced_card`) if the table is still at
    ``version``. Returns True when a card was played."""
    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.PLAYING or table.version != version:
        return False
    forced = forced_card(table, storage.game_of(table), {seat.number: seat for seat in table.seats.all()})
    if forced is None:
        return False
    number, card = forced
    try:
        submit_action(table_id, number, card, expected_version=version, actor=Action.Actor.FORCED)
    except ActionRejected as error:
        if error.code == "stale":
            return False  # the person played it first
        raise
    return True


turn_timer_due = Signal()
"""Sent with ``table`` and ``seats`` (the people to act) when a turn timer falls due, before a
computer plays for them. A receiver that knows the people cannot be playing (live play: their
server process is silent, ``games.table.conduct`` rule 6, ``live.server.hold_timer_in_outage``) starts the clock again and returns True;
the timer then does not fire."""


def turn_timed_out(table_id: int, deadline_iso: str) -> int:
    """The turn timer ran out: the Medium bot plays for each person still to act.

    Ignored unless the table still waits on that same deadline (the move was made, or a
    newer timer replaced this one). Returns the number of moves made.
    """
    moves = 0
    for _attempt in range(10):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING or table.turn_deadline is None:
            return moves
        if table.turn_deadline.isoformat() != deadline_iso or table.turn_deadline > timezone.now():
            return moves
        game = storage.game_of(table)
        seats = {seat.number: seat for seat in table.seats.all()}
        people = [number for number in game.to_act if not seats[number].computer_plays]
        if not people:
            return moves
        if any(held for _, held in turn_timer_due.send(sender=Table, table=table, seats=people)):
            log.info("turn_timeout_held table=%s seats=%s", table_id, people)
            return moves
        number = people[0]
        choice = computer_action(game.view(number), TIMEOUT_BOT_LEVEL, table, number)
        try:
            submit_action(table_id, number, choice, expected_version=table.version, actor=Action.Actor.TIMEOUT)
            moves += 1
            log.info("turn_timeout table=%s seat=%s", table_id, number)
        except ActionRejected as error:
            if error.code != "stale":
                raise
        if game.phase != "pass":
            return moves
    return moves


def replan_playing_tables() -> int:
    """Schedule again what every playing table waits for: the computers' turns or a forced
    card, its clock and the reconnect graces that run (``games.table.conduct.pending_deadlines``).
    Returns how many tables wait for something.

    Part of the re-planning of every start and every worker connection
    (``live.tasks.replan_task``), so a worker killed, or cut off from the broker, with tasks
    in hand loses nothing (a task sent twice finds its work done, or not yet due).
    """
    count = 0
    now = timezone.now().timestamp()
    for table in Table.objects.filter(status=Table.Status.PLAYING):
        game = storage.game_of(table)
        seats = list(table.seats.all())
        life = life_of(table, seats, game)
        # The computers' turns were due when planned: they play now.
        turns = [Wake(each.task, each.args) for each in computer_wakes(table, game, seats)]
        wakes = deadline_wakes(table, life, conduct.pending_deadlines(life), now) + turns
        wake(wakes)
        count += bool(wakes)
    return count


# --------------------------------------------------------------------------- notifications


def notify_after_commit(table: Table, events) -> None:
    table_id, version = table.pk, table.version
    public_events = [event for event in events if _is_public(event)]
    transaction.on_commit(lambda: notify_table(table_id, version, public_events))


def _is_public(event) -> bool:
    """Events that are safe for every seat (passes are private until revealed)."""
    kind = event.get("type") if isinstance(event, dict) else getattr(event, "type", None)
    return kind not in {"cards_passed", "cards_received"}
