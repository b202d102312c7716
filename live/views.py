"""Live play pages: the lobby, friend rooms (create, take a seat, computers, start) and the
matchmaking queue. The table itself is the websocket (:mod:`live.consumers`).

Every entry point to a NEW live game or seat checks live access (the subscription); playing
on at a table where you are already seated does not, so a lapse lets a game finish.
"""
import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.decorators import live_access_required
from accounts.selectors import has_live_access, live_access_action, live_access_denied_reason
from games import presenters, services, storage
from games.engine import Rules
from games.models import Seat, Table
from games.table.protocol import CHAT_MAX_CHARACTERS, QUICK_PHRASES, table_socket_path, whole_number
from live import chat, matchmaking, rooms
from live.forms import QueueForm, RoomForm
from live.consumers import render_table_html
from live.models import QueueEntry
from ratings.selectors import ratings_for


# --------------------------------------------------------------------------- lobby


@login_required
def lobby(request):
    my_tables = (
        Table.objects.filter(seats__user=request.user, kind__in=[Table.Kind.FRIENDS, Table.Kind.MATCHED],
                             status__in=[Table.Status.WAITING, Table.Status.PLAYING])
        .distinct().order_by("-updated_at")[:20]
    )
    access = has_live_access(request.user)
    return render(request, "live/lobby.html", {
        "games_to_watch": games_to_watch(request.user) if access else [],
        "room_form": RoomForm(), "queue_form": QueueForm(), "my_tables": my_tables, "open_rooms": open_rooms(),
        "has_access": access, **({} if access else _denied_context(request.user)),
        "queue_entry": QueueEntry.objects.filter(user=request.user, table__isnull=True).first(),
    })


OPEN_ROOMS_LISTED = 20


def open_rooms() -> list[dict]:
    """Rooms listed in the lobby and waiting for players, newest first: their host, rules and
    free seats."""
    rooms = (Table.objects.filter(kind=Table.Kind.FRIENDS, status=Table.Status.WAITING, listed=True)
             .annotate(free=Count("seats", filter=Q(seats__user__isnull=True, seats__bot_level="")))
             .filter(free__gt=0).select_related("host").order_by("-created_at")[:OPEN_ROOMS_LISTED])
    rooms = list(rooms)
    hosts = _ratings_of([(room.pk, room.host_id) for room in rooms if room.rated],
                        {room.pk: room.players for room in rooms if room.rated})
    return [{"table": room, "host": room.host.public_name, "host_rating": hosts.get((room.pk, room.host_id), ""),
             "free": room.free, "target": Rules.from_dict(room.rules).target,
             "rules": presenters.rules_lines(room)} for room in rooms]


WATCHABLE = Q(kind=Table.Kind.MATCHED) | Q(kind=Table.Kind.FRIENDS, listed=True)
"""``games.table.conduct.listed_for_watching`` as a query (a test holds the two together)."""


def games_to_watch(user, limit: int = 20) -> list[dict]:
    """Live games being played now that ``user`` has no seat at, newest first, with who plays:
    those offered to watchers (``games.table.conduct.listed_for_watching``: matched games and rooms
    listed in the lobby; an unlisted room is for those given its link)."""
    tables = (Table.objects.filter(WATCHABLE, status=Table.Status.PLAYING)
              .exclude(seats__user=user).order_by("-started_at", "-pk")[:limit])
    seats = Seat.objects.filter(table__in=list(tables)).select_related("user").order_by("number")
    players: dict[int, list[str]] = {}
    rated = {table.pk: table.players for table in tables if table.rated}
    ratings = _ratings_of([(seat.table_id, seat.user_id) for seat in seats if seat.table_id in rated and seat.user_id],
                          rated)
    for seat in seats:
        shown = ratings.get((seat.table_id, seat.user_id), "")
        players.setdefault(seat.table_id, []).append(
            presenters.seat_name(seat) + (f" ({shown})" if shown else ""))
    return [{"table": table, "players": players.get(table.pk, [])} for table in tables]


def _ratings_of(seated: list[tuple[int, int]], sizes: dict[int, int]) -> dict[tuple[int, int], str]:
    """The shown rating (``presenters.rating_text``) of each ``(table id, user id)`` in
    ``seated``, at the size of that table (``sizes`` by table id)."""
    shown = {}
    for size in set(sizes.values()):
        people = [(table_id, user_id) for table_id, user_id in seated if sizes[table_id] == size]
        found = ratings_for([user_id for _, user_id in people], size) if people else {}
        for table_id, user_id in people:
            shown[table_id, user_id] = presenters.rating_text(found[user_id])
    return shown


# --------------------------------------------------------------------------- friend rooms


@require_POST
@live_access_required
def create_room(request):
    form = RoomForm(request.POST)
    if not form.is_valid():
        return render(request, "live/lobby.html", {
            "room_form": form, "queue_form": QueueForm(), "my_tables": [], "has_access": True,
        }, status=400)
    rules = form.rules
    table = services.create_table(
        request.user, rules, kind=Table.Kind.FRIENDS, seat_bots=[None] * rules.players,
        rated=form.cleaned_data["rated"], turn_timer_seconds=form.cleaned_data["turn_timer_seconds"],
        listed=form.cleaned_data["listed"], chat=form.cleaned_data["chat"],
    )
    return redirect("live:room", code=table.code)


def _denied_context(user) -> dict:
    """What ``live/_denied.html`` tells a player without live access, and where it sends them."""
    action_url, action_label = live_access_action(user)
    return {"denied_reason": live_access_denied_reason(user), "denied_action_url": action_url,
            "denied_action_label": action_label}


def _room(code):
    return get_object_or_404(Table, code=code, kind__in=[Table.Kind.FRIENDS, Table.Kind.MATCHED])


@login_required
def room(request, code):
    """The room's link: the waiting room before the start, the live table after it."""
    table = _room(code)
    seats = storage.read_seats(table)
    mine = next((seat for seat in seats if seat.user_id == request.user.pk), None)
    context = {
        "table": table, "seats": seats, "seat": mine, "is_host": table.host_id == request.user.pk,
        "room_url": request.build_absolute_uri(reverse("live:room", args=[table.code])),
        "socket_path": table_socket_path(table.pk), "bot_levels": [(level.value, level.label) for level in rooms.ROOM_LEVELS],
        "can_join": mine is None and table.status == Table.Status.WAITING,
        "rules_lines": presenters.rules_lines(table),
    }
    # The players' chat, or the watchers' (live.chat.audience; someone who left a game in
    # progress watches it).
    among = chat.audience(table, request.user) if table.chat else None
    if among == "watchers" and not has_live_access(request.user) and mine is None:
        among = None
    context["can_chat"] = among is not None
    if among is not None:
        context.update(chat_lines=chat.chat_lines(table.pk, watchers=among == "watchers"), quick_phrases=QUICK_PHRASES,
                       chat_max=CHAT_MAX_CHARACTERS, watchers_chat=among == "watchers")
    if mine is None and table.status == Table.Status.WAITING and not has_live_access(request.user):
        context.update(_denied_context(request.user), can_join=False)
    started = table.status != Table.Status.WAITING
    snapshot = storage.of_row(table, seats) if started else None
    private = snapshot.private_seat(request.user.pk) if snapshot is not None else None
    if private is not None:
        context["table_html"] = render_table_html(snapshot, private)
    elif started and (mine is not None or has_live_access(request.user)):
        context["spectating"] = True  # the game as anyone watching may see it
        context["table_html"] = render_table_html(snapshot, None, spectator=True,
                                                  place=mine.number if mine is not None else None)
    return render(request, "live/room.html", context)


def _rejected(request, table, error):
    messages.error(request, str(error))
    return redirect("live:room", code=table.code)


def room_action(view):
    """A POST on a room: ``view(request, table)`` is given the room (404 when there is none),
    and a refusal of the services (``ActionRejected``) is shown on the room's page."""
    @functools.wraps(view)
    def on_the_room(request, code):
        table = _room(code)
        try:
            return view(request, table)
        except services.ActionRejected as error:
            return _rejected(request, table, error)
    return on_the_room


@require_POST
@live_access_required
@room_action
def take_seat(request, table):
    number = request.POST.get("seat", "").strip()
    seat_number = whole_number(number) if number else None
    if number and (seat_number is None or seat_number >= table.players):
        raise services.ActionRejected("no_seat", f"There is no seat {number[:10]!r} here: seats are numbered from 0 to {table.players - 1} (the first is 0); send none for any free seat.")
    rooms.take_seat(table.pk, request.user, seat_number)
    return redirect("live:room", code=table.code)


@require_POST
@login_required
@room_action
def leave_seat(request, table):
    rooms.leave_seat(table.pk, request.user)
    return redirect("live:lobby")


@require_POST
@live_access_required
@room_action
def fill_seats(request, table):
    rooms.fill_empty_seats(table.pk, request.user, request.POST.get("level", Seat.BotLevel.MEDIUM))
    return redirect("live:room", code=table.code)


@require_POST
@live_access_required
@room_action
def start(request, table):
    rooms.start_live_table(table.pk, request.user)
    return redirect("live:room", code=table.code)


@require_POST
@login_required
@room_action
def close_room(request, table):
    rooms.close_room(table.pk, request.user)
    messages.info(request, "You closed the room.")
    return redirect("live:lobby")


@require_POST
@login_required
@room_action
def resign(request, table):
    if rooms.resign(table.pk, request.user):
        messages.info(request, "You left the game: a computer plays your seat to the end.")
    return redirect("live:lobby")


@require_POST
@live_access_required
@room_action
def rematch(request, table):
    """Ask for a rematch or accept one (answer=yes), or decline it (answer=no)."""
    answer = request.POST.get("answer")
    if answer not in ("yes", "no"):
        raise services.ActionRejected("malformed", "Answer the rematch with yes or no.")
    offer = rooms.answer_rematch(table.pk, request.user, answer == "yes")
    if offer is not None and offer["state"] == "started":
        return redirect("live:room", code=offer["code"])
    return redirect("live:room", code=table.code)


# --------------------------------------------------------------------------- matchmaking


@require_POST
@live_access_required
def queue_join(request):
    form = QueueForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a table of 3, 4, 5 or 6 players.")
        return redirect("live:lobby")
    playing = rooms.live_games_in_progress([request.user]).get(request.user.pk)
    if playing is not None:
        messages.error(request, "You are playing a live game: finish it before you join the queue.")
        return redirect("live:room", code=playing.code)
    entry = matchmaking.join_queue(request.user, form.cleaned_data["table_size"])
    if entry.table_id:
        return redirect("live:room", code=entry.table.code)
    return redirect("live:queue")


@login_required
def queue(request):
    entry = QueueEntry.objects.filter(user=request.user).select_related("table").first()
    if entry is None:
        return redirect("live:lobby")
    if entry.table_id:
        return _go_to_table(request, entry)
    return render(request, "live/queue.html", {"entry": entry, "status": matchmaking.wait_status(entry)})


@login_required
def queue_status(request):
    """Polled by the waiting page (htmx, every 2 s): the wait so far, or off to the table."""
    entry = matchmaking.poll(request.user)
    if entry is None:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("live:lobby")
        return response
    if entry.table_id:
        return _go_to_table(request, entry)
    return render(request, "live/_queue_status.html", {"entry": entry, "status": matchmaking.wait_status(entry)})


def _go_to_table(request, entry):
    url = reverse("live:room", args=[entry.table.code])
    entry.delete()
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@require_POST
@login_required
def queue_cancel(request):
    matchmaking.leave_queue(request.user)
    messages.info(request, "You left the queue.")
    return redirect("live:lobby")
