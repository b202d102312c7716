"""Every change to a table goes through here: people's moves, computer moves and timeouts alike.

One code path: :func:`submit_action` locks the table row, checks the version the move was made
against, lets the engine apply it, stores the new state and the log entry, then plans what
happens next (computer turns, the turn timer) and tells connected clients — after commit.
"""
import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import bots, snapshots
from games.engine import Card, Game, IllegalAction, Rules
from games.faults import describe
from games.models import Action, LiveServer, Seat, Table, TableConnection
from games.realtime import notify_presence, notify_table
from games.results import record_abandoned_game, record_finished_game
from hearts_site.taskrunner import TaskBrokerUnavailable, schedule, task_batch

log = logging.getLogger(__name__)

# A seat that cannot be decided by its person (timeout) is played by this level.
TIMEOUT_BOT_LEVEL = "medium"


class NotYetCommitted(Exception):
    """A task arrived before the move that scheduled it was committed: try again shortly."""


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
        table.state = game.to_dict()
        table.status = Table.Status.PLAYING
        table.started_at = timezone.now()
        table.version += 1
        _plan_next(table, game)
        table.save()
        _count_watchers(table.pk)  # those who watched the room go on watching the game
        _notify_after_commit(table, [{"type": "game_started"}])
    return table


def load_game(table: Table) -> Game:
    """The game of ``table`` as read, a copy the caller may change."""
    return snapshots.game_of(table)


def hand_over_guest_games(sender, guest, account, **kwargs) -> None:
    """A guest logged in to ``account`` (``accounts.services.guest_claimed``): the tables they
    host and the seats they hold become the account's."""
    Table.objects.filter(host=guest).update(host=account)
    Seat.objects.filter(user=guest).update(user=account)


# --------------------------------------------------------------------------- moves


def parse_action(action):
    """Turn what a client sent ("QS", ["2C","3C","4C"], "add") into an engine action.

    Raises :class:`ActionRejected` for anything that is not a card, three cards or a moon choice.
    """
    if isinstance(action, Card):
        return action
    if isinstance(action, str):
        if action in ("add", "subtract"):
            return action
        try:
            return Card.parse(action)
        except ValueError:
            raise ActionRejected("malformed", f"{action[:10]!r} is not a card. Cards look like QS, TH or 2C.")
    if isinstance(action, (list, tuple)):
        if len(action) > 13:
            raise ActionRejected("malformed", "Pass exactly 3 cards.")
        cards = [parse_action(item) for item in action]
        if not all(isinstance(card, Card) for card in cards):
            raise ActionRejected("malformed", "Pass exactly 3 cards.")
        return cards
    raise ActionRejected("malformed", "Send a card (like QS), three cards to pass, or add/subtract.")


def action_to_json(action):
    if isinstance(action, Card):
        return str(action)
    if isinstance(action, (list, tuple)):
        return [str(card) for card in action]
    return action


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

    ``user``, when given, must be the person in that seat. ``expected_version`` is the table
    version the move was made against: a duplicate or stale move is rejected.
    """
    try:
        return _submit_action(table_id, seat_number, action, expected_version, user, actor)
    except ActionRejected as error:
        # Never log the action itself: a card tried reveals part of a hidden hand.
        log.info(
            "action_rejected table=%s seat=%s actor=%s code=%s user=%s",
            table_id, seat_number, actor, error.code, getattr(user, "pk", None),
        )
        raise


def _submit_action(table_id, seat_number, action, expected_version, user, actor) -> ActionOutcome:
    try:
        return _apply_action(table_id, seat_number, action, expected_version, user, actor)
    except TaskBrokerUnavailable as error:
        log.warning("broker_unavailable table=%s seat=%s error=%s", table_id, seat_number, describe(error))
        raise ActionRejected(
            "unavailable", "The game server is briefly unavailable, so your move was not made. Try again in a moment."
        )


def _apply_action(table_id, seat_number, action, expected_version, user, actor) -> ActionOutcome:
    parsed = parse_action(action)
    with task_batch(), transaction.atomic():
        # The stored state is read only when this process has no snapshot of the row.
        table = snapshots.lock_row(table_id)
        if table.status == Table.Status.WAITING:
            raise ActionRejected("not_started", "The game has not started yet.")
        if table.status != Table.Status.PLAYING:
            raise ActionRejected("game_over", "This game is over.")
        if expected_version is not None and expected_version != table.version and not _same_passing_round(
            table, expected_version, seat_number, parsed
        ):
            raise ActionRejected(
                "stale",
                "That move was made on an earlier position of the table; "
                f"it is now at move {table.version}. Here is the current table.",
            )
        seats = snapshots.read_seats(table)
        seat = next((seat for seat in seats if seat.number == seat_number), None)
        if seat is None:
            raise ActionRejected("no_seat", f"There is no seat {seat_number} at this table.")
        if user is not None and seat.user_id != user.pk:
            raise ActionRejected("not_your_seat", "You can only play for your own seat.")
        if user is not None and seat.resigned:
            raise ActionRejected("resigned", "You left this game: a computer plays your seat to the end.")
        before = snapshots.of_row(table, seats, keep=False)
        game = before.game.copy()
        try:
            events = game.apply(seat_number, parsed)
        except IllegalAction as error:
            raise ActionRejected("illegal", str(error))
        table.state = game.to_dict()
        table.version += 1
        Action.objects.create(
            table=table, ply=table.version, seat=seat_number, action=action_to_json(parsed), actor=actor
        )
        if game.phase == "over":
            _finish(table, game)
        else:
            _plan_next(table, game, seats)
        table.save(update_fields=MOVE_FIELDS)
        after = before.after(table, seats, game, events)
        transaction.on_commit(lambda: snapshots.remember(after))  # before the clients hear of it
        _notify_after_commit(table, events)
    return ActionOutcome(version=table.version, events=events)


MOVE_FIELDS = ["state", "version", "status", "turn_deadline", "finished_at", "updated_at"]
"""The table's columns a move may change (finishing the game included)."""


def _same_passing_round(table: Table, expected_version: int, seat_number: int, action) -> bool:
    """Passing is simultaneous: a pass is not stale because other seats passed meanwhile.

    True when ``action`` is a pass and every move since ``expected_version`` was another
    seat's pass, so the player chose from the hand they still hold. A second copy of the
    seat's own pass stays stale.
    """
    if not isinstance(action, list) or not 0 < expected_version < table.version:
        return False
    since = Action.objects.filter(table=table, ply__gt=expected_version).values_list("seat", "action")
    return all(isinstance(move, list) and seat != seat_number for seat, move in since)


def _plan_next(table: Table, game: Game, seats: list[Seat] | None = None) -> None:
    """Schedule computer turns and (re)start the turn timer for whoever must act now."""
    seats = {seat.number: seat for seat in (table.seats.all() if seats is None else seats)}
    waiting_on = [seats[number] for number in game.to_act]
    if any(seat.computer_plays for seat in waiting_on):
        delay = 0 if game.phase == "pass" else settings.BOT_DELAY_SECONDS
        schedule("games.play_computer_turns", table.pk, table.version, countdown=delay)
    people = [seat for seat in waiting_on if not seat.computer_plays]
    if forced_card(table, game, seats) is not None:
        schedule("games.play_forced_card", table.pk, table.version, countdown=settings.BOT_DELAY_SECONDS)
    if table.turn_timer_seconds and people:
        turn_starts = game.phase != "pass" or table.turn_deadline is None
        if turn_starts:
            seconds = table.turn_timer_seconds
            if _awaiting_arrivals(table, game, seats.values()):
                seconds += settings.LIVE_ARRIVAL_GRACE_SECONDS  # see connection_opened
            table.turn_deadline = timezone.now() + timedelta(seconds=seconds)
            schedule("games.turn_timeout", table.pk, table.turn_deadline.isoformat(), table.version, countdown=seconds)
    else:
        table.turn_deadline = None


def _awaiting_arrivals(table: Table, game: Game, seats) -> bool:
    """A matched game is at its first move and someone matched into it has not opened it yet:
    they were still on the queue's page when it was made, so their first clock waits for them
    (or for ``LIVE_ARRIVAL_GRACE_SECONDS`` more)."""
    return (table.kind == Table.Kind.MATCHED and game.ply == 0
            and any(seat.user_id and not seat.computer_plays and not seat.connected for seat in seats))


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
        if table.state is not None:
            record_abandoned_game(table, load_game(table))
        table.save()
        _notify_after_commit(table, [{"type": "game_abandoned", "reason": table.end_reason}])
    log.info("table_abandoned table=%s reason=%s", table_id, reason)
    return True


def _finish(table: Table, game: Game) -> None:
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    table.turn_deadline = None
    record_finished_game(table, game)  # ratings and statistics, in the same transaction


# --------------------------------------------------------------------------- computer turns


def computer_action(game_view, level: str, table: Table, seat_number: int):
    """What a computer player does now, decided from that seat's view only."""
    seed = hash((table.seed, table.version, seat_number)) & 0xFFFFFFFF
    return bots.choose_action(game_view, level, seed=seed)


def play_computer_turns(table_id: int, version: int) -> int:
    """Play every computer seat that must act at ``version``; stale calls do nothing.

    Returns the number of moves made. Each move is an ordinary :func:`submit_action`.
    """
    moves = 0
    while True:
        table = Table.objects.get(pk=table_id)
        if table.version < version and moves == 0:
            raise NotYetCommitted(f"table {table_id} is at version {table.version}, task is for {version}")
        if table.status != Table.Status.PLAYING or table.version != version:
            return moves
        game = load_game(table)
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
    if table.version < version:
        raise NotYetCommitted(f"table {table_id} is at version {table.version}, task is for {version}")
    if table.status != Table.Status.PLAYING or table.version != version:
        return False
    forced = forced_card(table, load_game(table), {seat.number: seat for seat in table.seats.all()})
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


def turn_timed_out(table_id: int, deadline_iso: str, version: int = 0) -> int:
    """The turn timer ran out: the Medium bot plays for each person still to act.

    Ignored unless the table still waits on that same deadline (the move was made, or a
    newer timer replaced this one). Returns the number of moves made.
    """
    moves = 0
    for _attempt in range(10):
        table = Table.objects.get(pk=table_id)
        if table.version < version:
            raise NotYetCommitted(f"table {table_id} is at version {table.version}, timer is for {version}")
        if table.status != Table.Status.PLAYING or table.turn_deadline is None:
            return moves
        if table.turn_deadline.isoformat() != deadline_iso or table.turn_deadline > timezone.now():
            return moves
        game = load_game(table)
        seats = {seat.number: seat for seat in table.seats.all()}
        people = [number for number in game.to_act if not seats[number].computer_plays]
        if not people:
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


def recover_stalled_tables() -> int:
    """Re-schedule computer turns and overdue timers of every playing table.

    Run whenever a worker connects to the broker (games.tasks.ReplanWhenConnected), so a worker
    killed, or cut off from the broker, with tasks in hand loses nothing.
    """
    count = 0
    for table in Table.objects.filter(status=Table.Status.PLAYING):
        game = load_game(table)
        seats = {seat.number: seat for seat in table.seats.all()}
        if any(seats[number].computer_plays for number in game.to_act):
            schedule("games.play_computer_turns", table.pk, table.version)
            count += 1
        elif forced_card(table, game, seats) is not None:
            schedule("games.play_forced_card", table.pk, table.version)
            count += 1
        elif table.turn_deadline is not None:
            countdown = max((table.turn_deadline - timezone.now()).total_seconds(), 0)
            schedule("games.turn_timeout", table.pk, table.turn_deadline.isoformat(), table.version, countdown=countdown)
            count += 1
    return count


# --------------------------------------------------------------------------- notifications


def _notify_after_commit(table: Table, events) -> None:
    table_id, version = table.pk, table.version
    public_events = [event for event in events if _is_public(event)]
    transaction.on_commit(lambda: notify_table(table_id, version, public_events))


def _is_public(event) -> bool:
    """Events that are safe for every seat (passes are private until revealed)."""
    kind = event.get("type") if isinstance(event, dict) else getattr(event, "type", None)
    return kind not in {"cards_passed", "cards_received"}


# --------------------------------------------------------------------------- live seats
#
# Friend rooms and matched tables: people take seats before the start; once it has started a
# person who drops keeps their seat for a grace period, then a computer stands in until they
# come back. Every change a client must see bumps the table version and is announced.


def _announce(table: Table, events) -> None:
    """Bump the version of a locked ``table``, save it and tell its clients after commit."""
    table.version += 1
    table.save()
    _notify_after_commit(table, events)


def take_seat(table_id: int, user, seat_number: int | None = None) -> Seat:
    """Seat ``user`` at a table that has not started: an empty seat, or else a computer's.

    Idempotent: a person already seated gets their seat back. Raises :class:`ActionRejected`
    when the game has started or every seat holds a person. (Whether the person may play
    live at all is the caller's question: see ``accounts.selectors.has_live_access``.)
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is not None:
            return mine
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "This game has already started, so its seats are taken.")
        if seat_number is not None:
            candidates = [seat for seat in seats if seat.number == seat_number and seat.user_id is None]
            if not candidates:
                raise ActionRejected("seat_taken", f"Seat {seat_number + 1} is not free; pick an empty seat.")
        else:
            candidates = [seat for seat in seats if seat.is_empty] or [seat for seat in seats if seat.is_bot]
        if not candidates:
            raise ActionRejected("table_full", "Every seat at this table is taken.")
        seat = candidates[0]
        seat.user, seat.bot_level, seat.standing_in, seat.left_at = user, "", False, None
        seat.connected = _has_open_socket(table_id, user)  # their sockets follow them to the seat
        seat.save()
        _announce(table, [{"type": "seat_taken", "seat": seat.number}])
    return seat


def leave_seat(table_id: int, user) -> bool:
    """Give up a seat before the game starts. The host cannot leave their own room."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            return False
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "The game has started; a computer plays for you if you leave.")
        if table.host_id == user.pk:
            raise ActionRejected("host_stays", "The host keeps their seat; close the room instead.")
        seat.user, seat.connected, seat.left_at = None, False, None
        seat.save()
        _announce(table, [{"type": "seat_left", "seat": seat.number}])
    return True


def close_room(table_id: int, host) -> None:
    """The host closes a room before its game has started: nobody can sit there any more, and
    those seated are told (through :func:`abandon_table`, the one way a table ends early)."""
    table = Table.objects.get(pk=table_id)
    if table.host_id != host.pk:
        raise ActionRejected("not_host", "Only the host can close the room.")
    if not abandon_table(table_id, "The host closed the room.", before_start=True):
        raise ActionRejected("already_started", "The game has started: the room cannot be closed now.")


def fill_empty_seats(table_id: int, host, level: str = Seat.BotLevel.MEDIUM) -> int:
    """The host puts computer players in every empty seat. Returns how many were filled."""
    if level not in Seat.BotLevel.values:
        raise ActionRejected("malformed", "Computer players are easy, medium or hard.")
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.host_id != host.pk:
            raise ActionRejected("not_host", "Only the host can seat computer players.")
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "This game has already started.")
        filled = table.seats.filter(user__isnull=True, bot_level="").update(bot_level=level)
        if filled:
            _announce(table, [{"type": "seats_filled", "level": level, "count": filled}])
    return filled


def start_live_table(table_id: int, user) -> Table:
    """The host starts a friend room (:func:`start_table`), then starts the reconnect grace
    period for anyone seated who is not connected right now."""
    table = Table.objects.get(pk=table_id)
    if table.host_id != user.pk:
        raise ActionRejected("not_host", "Only the host can start the game.")
    table = start_table(table_id)
    start_grace_for_absent(table_id)
    return table


def start_grace_for_absent(table_id: int) -> int:
    """Start the reconnect grace period of every seated person not connected to a table that
    has just started (a computer stands in if they never arrive). Returns how many."""
    count = 0
    for seat in Seat.objects.filter(table_id=table_id, user__isnull=False, connected=False, standing_in=False):
        with task_batch(), transaction.atomic():
            Seat.objects.filter(pk=seat.pk, left_at__isnull=True).update(left_at=timezone.now())
            seat.refresh_from_db()
            _schedule_stand_in(seat)
        count += 1
    return count


def reconnect_grace_seconds() -> float:
    return float(settings.LIVE_RECONNECT_GRACE_SECONDS)


def _schedule_stand_in(seat: Seat) -> None:
    elapsed = (timezone.now() - seat.left_at).total_seconds() if seat.left_at else 0
    # Celery tasks are sent before the commit: never due before the absence is committed.
    floor = 1.0 if settings.TASK_RUNNER == "celery" else 0.0
    schedule(
        "games.stand_in_if_gone", seat.table_id, seat.number, seat.left_at.isoformat() if seat.left_at else "",
        countdown=max(reconnect_grace_seconds() - elapsed, floor),
    )


MAX_SOCKETS_PER_PERSON = 5
"""Open sockets one person may hold at one table (tabs, devices): more are refused."""


def connection_opened(table_id: int, user, channel_name: str, server: str) -> Seat | None:
    """A person's websocket to a table opened on the server process ``server`` (a
    ``LiveServer.name``, registered before). Returns their seat (None if they have none).

    Records the socket for the person at the table (:class:`games.models.TableConnection`),
    whether seated or not, at most :data:`MAX_SOCKETS_PER_PERSON` of them; marks their seat
    connected and, when a computer was standing in, hands it back (:func:`reclaim_seat`) so
    they play their own cards again.
    """
    with task_batch(), transaction.atomic():
        # The table row lock orders this against stand_in_if_gone and the seat changes.
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ActionRejected("no_table", "There is no table here.")
        mine = TableConnection.objects.filter(table_id=table_id, user=user)
        if not mine.filter(channel_name=channel_name).exists() and mine.count() >= MAX_SOCKETS_PER_PERSON:
            raise ActionRejected(
                "too_many_sockets",
                f"You have this table open in {MAX_SOCKETS_PER_PERSON} windows already; close one and try again.",
            )
        TableConnection.objects.get_or_create(
            channel_name=channel_name, defaults={"table_id": table_id, "user": user, "server": server}
        )
        seat = Seat.objects.filter(table_id=table_id, user=user).first()
        if seat is None:
            _count_watchers(table_id)
            return None
        if seat.resigned:
            return seat  # they left for good: they may look, the computer keeps playing
        Seat.objects.filter(pk=seat.pk).update(connected=True, left_at=None)
        _start_clock_once_everyone_is_here(table)
        if seat.standing_in:
            reclaim_seat(table_id, user)
        elif not seat.connected:
            transaction.on_commit(lambda: notify_presence(table_id))
    seat.refresh_from_db()
    return seat


def _start_clock_once_everyone_is_here(table: Table) -> None:
    """The last person matched into a game has opened it (``table``: its row, locked): its
    first clock, which was waiting for them (:func:`_awaiting_arrivals`), starts now with the
    whole turn."""
    if table.status != Table.Status.PLAYING or table.kind != Table.Kind.MATCHED or table.turn_deadline is None:
        return
    game = load_game(table)
    seats = list(table.seats.all())
    full_turn = timezone.now() + timedelta(seconds=table.turn_timer_seconds)
    if game.ply or _awaiting_arrivals(table, game, seats) or table.turn_deadline <= full_turn:
        return
    table.turn_deadline = None
    table.version += 1
    _plan_next(table, game, seats)
    table.save()
    _notify_after_commit(table, [{"type": "clock_started"}])


def _count_watchers(table_id: int) -> None:
    """Count again the people watching a game they have no seat at (sockets open, after its
    start); the table shows how many. No new version: everyone at the table is told as of a
    presence change."""
    seated = Seat.objects.filter(table_id=table_id, user__isnull=False).values("user")
    watchers = (TableConnection.objects.filter(table_id=table_id).exclude(user__in=seated)
                .values("user").distinct().count())
    started = Table.objects.filter(pk=table_id).exclude(status=Table.Status.WAITING)
    if started.exclude(watchers=watchers).update(watchers=watchers):
        transaction.on_commit(lambda: notify_presence(table_id))


def _has_open_socket(table_id: int, user) -> bool:

    return TableConnection.objects.filter(table_id=table_id, user=user).exists()


def connection_closed(table_id: int, user, channel_name: str, *, closed_at=None) -> bool:
    """A person's websocket to a table closed (``closed_at``: when, if not now). When it was
    their last one there and they hold a seat, the grace period starts: if they are not back
    within ``LIVE_RECONNECT_GRACE_SECONDS`` a computer stands in (:func:`stand_in_if_gone`).
    Returns True when their seat is now disconnected.

    The one path for every socket that ends: closed by the person, by a fault, or found dead
    with its server process (:func:`sweep_dead_connections`). Reporting the same socket twice
    changes nothing the second time. With the task broker down the absence is still recorded
    (the stand-in then comes from :func:`stand_in_overdue_seats`).
    """
    with task_batch(), transaction.atomic():
        closed, _ = TableConnection.objects.filter(channel_name=channel_name).delete()
        seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
        if seat is None:
            _count_watchers(table_id)
            return False
        if _has_open_socket(table_id, user):
            return False
        if not closed and not seat.connected and seat.left_at is not None:
            return True  # already recorded: keep the grace period that runs
        seat.connected, seat.left_at = False, closed_at or timezone.now()
        seat.save(update_fields=["connected", "left_at"])
        transaction.on_commit(lambda: notify_presence(table_id))
        if Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).exists() and not seat.standing_in:
            try:
                _schedule_stand_in(seat)
            except TaskBrokerUnavailable as error:
                log.warning(
                    "stand_in_not_scheduled table=%s seat=%s error=%s", table_id, seat.number, describe(error)
                )
    return True


def stand_in_if_gone(table_id: int, seat_number: int, left_at_iso: str = "") -> bool:
    """The grace period of a person who dropped is over: if they are still away (and it is
    the same absence, ``left_at_iso``), a computer plays their seat from now on.

    Bumps the table version and plays computer turns at once if it is that seat's turn.
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return False
        seat = table.seats.filter(number=seat_number).first()
        if seat is None or seat.user_id is None or seat.standing_in or seat.connected or seat.left_at is None:
            return False
        if left_at_iso and seat.left_at.isoformat() != left_at_iso:
            return False
        if (timezone.now() - seat.left_at).total_seconds() < reconnect_grace_seconds() - 0.5:
            return False
        seat.standing_in = True
        seat.save(update_fields=["standing_in"])
        table.version += 1
        _plan_next(table, load_game(table))
        table.save()
        _notify_after_commit(table, [{"type": "stand_in", "seat": seat_number}])
    log.info("stand_in table=%s seat=%s", table_id, seat_number)
    return True


def resign(table_id: int, user) -> bool:
    """A person leaves a live game in progress for good: a computer plays their seat at once
    and to the end; in a rated game they are rated below everyone who stayed
    (``ratings.services``, rule 5). Returns False if they had already left."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.PLAYING or not table.is_live:
            raise ActionRejected("not_playing", "Only a live game in progress can be left this way.")
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ActionRejected("no_seat", "You have no seat at this table.")
        if seat.resigned:
            return False
        seat.resigned, seat.standing_in = True, True
        seat.left_at = seat.left_at or timezone.now()
        seat.save(update_fields=["resigned", "standing_in", "left_at"])
        table.version += 1
        _plan_next(table, load_game(table))
        table.save()
        _notify_after_commit(table, [{"type": "resigned", "seat": seat.number}])
    log.info("resigned table=%s seat=%s", table_id, seat.number)
    return True


REMATCH_SECONDS = 60
"""How long the people of a finished live game have to answer a rematch."""


def answer_rematch(table_id: int, user, yes: bool) -> dict | None:
    """After a live game, ``user`` asks for a rematch or accepts one (``yes``), or declines it.

    The first yes makes a new room with the same rules, rated or not and timer, the same
    computers, and the same people in the same order round the table (the first to ask in
    seat 0); each yes seats that person there. When every person of the game (but those who
    left it) has said yes, the rematch starts. A no, or an answer missing after
    :data:`REMATCH_SECONDS` (:func:`rematch_expired`), closes the new room. The finished
    table keeps the offer in ``Table.rematch`` and gets a new version at each answer, so its
    players see it. Returns the offer (None when there was nothing to decline)."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.FINISHED or not table.is_live:
            raise ActionRejected("not_over", "A rematch is offered once a live game is over.")
        seats = list(table.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None or mine.resigned:
            raise ActionRejected("no_seat", "Only the people who played this game to the end can ask for a rematch.")
        offer = table.rematch
        if offer is not None and offer["state"] != "open":
            raise ActionRejected("rematch_settled", "That rematch is settled; start a new room from the lobby.")
        if offer is None and not yes:
            return None
        if offer is None:
            offer = _open_rematch(table, seats, mine)
        room = Table.objects.get(code=offer["code"])
        answers = offer["answers"]
        if yes:
            take_seat(room.pk, user, (mine.number - offer["first"]) % len(seats))
            answers[str(user.pk)] = "yes"
        else:
            answers[str(user.pk)] = "no"
            abandon_table(room.pk, f"{user.public_name} said no to the rematch.", before_start=True)
            offer["state"] = "closed"
        if all(answers.get(str(seat.user_id)) == "yes" for seat in seats if seat.user_id and not seat.resigned):
            start_table(room.pk)
            start_grace_for_absent(room.pk)
            offer["state"] = "started"
        _store_rematch(table, offer)
    return offer


def _open_rematch(table: Table, seats: list[Seat], first: Seat) -> dict:
    players = len(seats)
    order = [seats[(first.number + k) % players] for k in range(players)]
    room = create_table(
        first.user, Rules.from_dict(table.rules), kind=Table.Kind.FRIENDS,
        seat_bots=[None if seat.user_id and not seat.resigned else (seat.bot_level or Seat.BotLevel.MEDIUM)
                   for seat in order],
        rated=table.rated, turn_timer_seconds=table.turn_timer_seconds, chat=table.chat,
    )
    until = timezone.now() + timedelta(seconds=REMATCH_SECONDS)
    schedule("games.rematch_expired", table.pk, room.code, countdown=REMATCH_SECONDS)
    return {"code": room.code, "state": "open", "first": first.number, "answers": {}, "until": until.isoformat()}


def _store_rematch(table: Table, offer: dict) -> None:
    table.rematch = offer
    table.version += 1
    table.save(update_fields=["rematch", "version", "updated_at"])
    _notify_after_commit(table, [{"type": "rematch", "state": offer["state"]}])


def rematch_expired(table_id: int, code: str) -> bool:
    """The time to answer a rematch is over: if it is still open, whoever has not answered is
    marked late and the new room is closed. Returns True if it was still open."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        offer = table.rematch
        if offer is None or offer["code"] != code or offer["state"] != "open":
            return False
        if timezone.now() < datetime.fromisoformat(offer["until"]):
            return False  # too early (a task runner that ignores countdowns)
        for seat in table.seats.filter(user__isnull=False, resigned=False):
            offer["answers"].setdefault(str(seat.user_id), "late")
        room = Table.objects.get(code=code)
        abandon_table(room.pk, "Not everyone answered the rematch in time.", before_start=True)
        offer["state"] = "closed"
        _store_rematch(table, offer)
    return True


def reclaim_seat(table_id: int, user) -> bool:
    """A person is back at a seat a computer was playing for them: they play it again.

    Bumps the table version; restarts the turn timer if it is their turn.
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None or not seat.standing_in or seat.resigned:
            return False
        seat.standing_in = False
        seat.save(update_fields=["standing_in"])
        table.version += 1
        if table.status == Table.Status.PLAYING:
            _plan_next(table, load_game(table))
        table.save()
        _notify_after_commit(table, [{"type": "seat_reclaimed", "seat": seat.number}])
    log.info("seat_reclaimed table=%s seat=%s", table_id, seat.number)
    return True


def recover_absent_seats() -> int:
    """Re-schedule the stand-in check of every person who dropped out of a playing game
    (run whenever a worker connects, like :func:`recover_stalled_tables`)."""
    count = 0
    absent = Seat.objects.filter(
        table__status=Table.Status.PLAYING, user__isnull=False, standing_in=False, connected=False,
        left_at__isnull=False,
    )
    for seat in absent:
        _schedule_stand_in(seat)
        count += 1
    return count


def stand_in_overdue_seats() -> int:
    """A computer for every person whose grace period is over but who has no stand-in yet.

    The stand-in normally comes from the task :func:`connection_closed` schedules; this is the
    safety net for a task that was never sent (broker down) or was lost (a broker restart).
    Run by every live server's heartbeat (:mod:`games.live_server`). Returns how many.
    """
    cutoff = timezone.now() - timedelta(seconds=reconnect_grace_seconds())
    overdue = Seat.objects.filter(
        table__status=Table.Status.PLAYING, user__isnull=False, standing_in=False, connected=False,
        left_at__lte=cutoff,
    ).values_list("table_id", "number", "left_at")
    count = 0
    for table_id, number, left_at in overdue:
        try:
            count += stand_in_if_gone(table_id, number, left_at.isoformat())
        except TaskBrokerUnavailable as error:  # the computer could not be told to play: next sweep
            log.warning("stand_in_failed table=%s seat=%s error=%s", table_id, number, describe(error))
    return count


# --------------------------------------------------------------------------- server processes
#
# Sockets live in server processes (daphne). A process that stops without closing them (a
# crash, SIGKILL, a lost machine) leaves TableConnection rows behind; the heartbeat tells the
# living from the dead. The process side (the heartbeat loop) is games.live_server.


def live_server_timeout_seconds() -> float:
    return float(settings.LIVE_SERVER_TIMEOUT_SECONDS)


def register_live_server(name: str) -> None:
    """A server process announces itself (before it records any socket)."""

    LiveServer.objects.update_or_create(name=name, defaults={"heartbeat_at": timezone.now()})
    log.info("live_server_started server=%s", name)


def live_server_heartbeat(name: str) -> bool:
    """The server process ``name`` is alive. Returns False when it had been taken for dead
    (its row swept): its sockets' seats were then marked disconnected, so the process must
    close them (clients reconnect and are recorded again). The row is written again."""

    if LiveServer.objects.filter(name=name).update(heartbeat_at=timezone.now()):
        return True
    register_live_server(name)
    log.warning("live_server_was_taken_for_dead server=%s", name)
    return False


def forget_other_live_servers(name: str) -> int:
    """Every server process but ``name`` is gone (it is the only one there can be): their
    rows go, so the next sweep closes their sockets. Returns how many rows went."""

    gone, _ = LiveServer.objects.exclude(name=name).delete()
    if gone:
        log.warning("live_servers_forgotten count=%s by=%s", gone, name)
    return gone


def sweep_dead_connections() -> int:
    """Close every socket held by a server process that is gone, through
    :func:`connection_closed` — so the grace period, the stand-in and the reclaim work as for
    any closed socket, the grace period counting from the dead server's last heartbeat.
    Returns how many sockets were closed.

    One rule: a server whose heartbeat is older than ``LIVE_SERVER_TIMEOUT_SECONDS`` is gone
    (its row is deleted first: should it be alive after all, its next heartbeat finds no row
    and it closes its sockets, see :func:`live_server_heartbeat`); a socket whose server has no
    row is closed. Sockets opened after the sweep began are left to the next sweep (their
    server may have registered meanwhile). The servers' clocks must agree (NTP) to well
    under the timeout.

    Run by every live server's heartbeat and by a Celery worker when it connects; several
    sweeps at once are harmless (a socket closed twice changes nothing the second time).
    """
    began = timezone.now()
    cutoff = began - timedelta(seconds=live_server_timeout_seconds())
    last_heard = dict(LiveServer.objects.filter(heartbeat_at__lt=cutoff).values_list("name", "heartbeat_at"))
    for name in last_heard:
        # A heartbeat written meanwhile saves the row (the condition is checked again).
        if LiveServer.objects.filter(name=name, heartbeat_at__lt=cutoff).delete()[0]:
            log.warning("live_server_gone server=%s last_heartbeat=%s", name, last_heard[name].isoformat())
    registered = LiveServer.objects.values("name")
    dead = TableConnection.objects.exclude(server__in=registered).filter(opened_at__lt=began)
    closed = 0
    for connection in dead:
        connection_closed(
            connection.table_id, connection.user_id, connection.channel_name,
            closed_at=last_heard.get(connection.server),
        )
        closed += 1
        log.warning(
            "connection_swept server=%s table=%s user=%s",
            connection.server or "-", connection.table_id, connection.user_id,
        )
    return closed

