"""Pages of solo play: new game, the table (HTMX), hints, my games, replay, learn to play, and offline play.

Every move goes through ``games.services.submit_action``; every table is drawn by
``games.presenters.render_table`` from the player's own view.
"""
import hashlib
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.guests import note_guest_seen, player_for
from analysis.selectors import accuracies as analysis_accuracies
from analysis.selectors import panel_context as analysis_panel
from analysis.selectors import player_summary as analysis_summary
from games import bots, presenters, services, storage
from games.table import drawing, learn
from games.bots import figures
from games.engine import Card, Rules
from games.forms import NewGameForm
from games.models import Seat, Table
from games.table.offline import verified
from games.table.protocol import BadMove, parse_move, table_socket_path, whole_number
from solo import offline
from solo.stats import computer_level, solo_statistics


def home(request):
    context = {"play_now": _play_now_form(request)}
    if request.user.is_authenticated:
        tables = _my_tables(request.user).filter(status__in=[Table.Status.WAITING, Table.Status.PLAYING])[:3]
        context["unfinished"] = [{"table": table, "resume_url": _resume_url(table)} for table in tables]
    return render(request, "home.html", context)


# --------------------------------------------------------------------------- helpers


def _my_tables(user):
    return Table.objects.filter(seats__user=user).distinct().order_by("-updated_at")


def _seated(request, table_id: int) -> tuple[Table, Seat]:
    """The table and the signed-in player's seat at it; 404 for anyone not seated there."""
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seats.filter(user=request.user).first()
    if seat is None:
        raise Http404("No such table.")
    note_guest_seen(request.user)
    return table, seat


def _fragment(request, table: Table, seat: Seat, *, error=None, hint=None, status=200) -> HttpResponse:
    html = presenters.render_table(table, seat.number, error=error, hint=hint, request=request)
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _live_url(table: Table) -> str | None:
    """Where a live table is played: its room (the waiting room, then the table)."""
    return reverse("live:room", args=[table.code]) if table.is_live else None


def _resume_url(table: Table) -> str:
    return _live_url(table) or reverse("solo:table", args=[table.pk])


# --------------------------------------------------------------------------- new game


SETTINGS_KEY = "new_game_settings"
"""Where a browser's session keeps the last new game's settings, to offer them again."""


def new_game(request):
    """The new-game form, filled with the last game's settings. Anyone may play: a visitor
    without an account plays as a guest."""
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            return _start_solo(request, form)
    else:
        form = NewGameForm(initial=request.session.get(SETTINGS_KEY))
    return render(request, "games/new_game.html", {"form": form})


@require_POST
def play_now(request):
    """One click from the home page: a game with the last settings, or against three Medium
    computers with the standard rules."""
    return _start_solo(request, _play_now_form(request))


def _play_now_form(request) -> NewGameForm:
    """What Play now deals: this browser's last game's settings, or the defaults."""
    remembered = NewGameForm(request.session.get(SETTINGS_KEY) or {})
    return remembered if remembered.is_bound and remembered.is_valid() else NewGameForm.with_defaults()


def _start_solo(request, form: NewGameForm):
    player = player_for(request)
    request.session[SETTINGS_KEY] = form.remembered()
    table = services.create_table(
        player, form.rules, kind=Table.Kind.SOLO, seat_bots=form.seat_bots,
        autoplay_forced=form.cleaned_data["autoplay_forced"],
    )
    services.start_table(table.pk)
    return redirect("solo:table", table.pk)


# --------------------------------------------------------------------------- the table


@never_cache
@login_required
def table_page(request, table_id: int):
    table, seat = _seated(request, table_id)
    live_url = _live_url(table)
    if live_url and table.is_active:
        return redirect(live_url)
    html = presenters.render_table(table, seat.number, request=request)
    return render(request, "games/table.html", {"table": table, "table_html": html, "socket_path": table_socket_path(table.pk)})


@never_cache
@login_required
def table_fragment(request, table_id: int):
    """The table fragment; with ``?since=<version>`` answers 204 while nothing has changed
    (286 — stop polling — once the game has ended)."""
    table, seat = _seated(request, table_id)
    since = request.GET.get("since")
    if since is not None:
        version = whole_number(since)
        if version is None:
            return HttpResponseBadRequest("since must be a table version: a whole number like 12.", content_type="text/plain")
        if version == table.version:
            return HttpResponse(status=204 if table.is_active else 286)
    return _fragment(request, table, seat)


@require_POST
@login_required
def act(request, table_id: int):
    """Play a card, pass 3 cards or score the moon; answers the refreshed table fragment."""
    table, seat = _seated(request, table_id)
    error = None
    try:
        action, version = parse_move(request.POST)
        services.submit_action(table.pk, seat.number, action, expected_version=version, user=request.user)
    except (BadMove, services.ActionRejected) as refused:
        error = str(refused)
    table.refresh_from_db()
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("solo:table", table.pk)
    return _fragment(request, table, seat, error=error)


@require_http_methods(["GET", "POST"])
@login_required
def hint(request, table_id: int):
    """The table fragment with the computer's advice highlighted (``bots.hint`` on your view)."""
    table, seat = _seated(request, table_id)
    error = None
    advice = None
    if table.status != Table.Status.PLAYING:
        error = "The game is over: no more hints."
    elif table.is_live:
        error = "Hints are for solo games."
    else:
        advice = presenters.hint_for(table, seat.number)
        if advice is None:
            error = "A hint is for your turn: wait until it is your move."
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif advice is not None:
            messages.info(request, f"Hint: {advice.reason}")
        return redirect("solo:table", table.pk)
    return _fragment(request, table, seat, error=error, hint=advice)


# --------------------------------------------------------------------------- my games


@login_required
def my_games(request):
    tables = list(_my_tables(request.user).prefetch_related("seats__user"))
    accuracy = analysis_accuracies(request.user, [table.pk for table in tables])
    rows = [_game_row(table, request.user) | {"accuracy": accuracy.get(table.pk)} for table in tables]
    return render(request, "games/my_games.html", {
        "unfinished": [row for row in rows if row["active"]],
        "finished": [row for row in rows if not row["active"]],
    })


def _game_row(table: Table, user) -> dict:
    seats = sorted(table.seats.all(), key=lambda seat: seat.number)
    mine = next(seat.number for seat in seats if seat.user_id == user.pk)
    scores = table.scores or [0] * len(seats)
    winners = table.winners
    players = []
    for seat in seats:
        players.append({
            "name": "You" if seat.number == mine else presenters.seat_name(seat),
            "level": seat.get_bot_level_display() if seat.bot_level and not seat.user_id else "",
            "score": scores[seat.number] if seat.number < len(scores) else 0,
            "won": seat.number in winners,
            "is_me": seat.number == mine,
        })
    return {
        "table": table,
        "active": table.is_active,
        "unverified": bool(table.offline_id) and not verified(computer_level(seats, mine)),
        "rules": Rules.from_dict(table.rules).summary(),
        "can_abandon": table.is_active and not table.is_live,
        "can_delete": table.host_id == user.pk and not table.is_live,
        "players": players,
        "deal": table.deal_number or None,
        "i_won": mine in winners,
        "resume_url": _resume_url(table),
        "replay_url": reverse("solo:replay", args=[table.pk]) if table.status == Table.Status.FINISHED else None,
    }


@require_POST
@login_required
def abandon(request, table_id: int):
    """Stop an unfinished solo game: it ends, and counts as not won."""
    table, _seat = _seated(request, table_id)
    if table.is_live:
        messages.error(request, "A live game is left from its table, not from here.")
    elif services.abandon_table(table.pk, "Stopped by the player"):
        messages.info(request, "The game is stopped; it counts as not won.")
    else:
        messages.info(request, "That game had already ended.")
    return redirect("solo:my_games")


@require_POST
@login_required
def delete(request, table_id: int):
    """Delete one of your solo games, whatever its state: it leaves your games and statistics."""
    table, _seat = _seated(request, table_id)
    if table.is_live or table.host_id != request.user.pk:
        messages.error(request, "Only your own solo games can be deleted.")
        return redirect("solo:my_games")
    table.delete()
    messages.info(request, "The game is deleted.")
    return redirect("solo:my_games")


def computers(request):
    """How strong are the computers: what each level does and the arena's latest figures."""
    runs = figures.load()
    return render(request, "games/computers.html", {
        "levels": [(level, bots.LEVEL_DESCRIPTIONS[level]) for level in bots.LEVELS],
        "matches": [figures.for_page(r) for r in figures.matches(runs)],
        "self_play": [figures.for_page(r) for r in figures.self_play(runs)],
    })


@login_required
def statistics(request):
    """Your statistics of solo play, overall and by the computers' level and the number of players."""
    stats = solo_statistics(request.user)
    return render(request, "games/statistics.html", {
        "overall": stats.overall,
        "by_level": [(label, stats.by_level[key]) for key, label in STAT_LEVELS if key in stats.by_level],
        "by_players": sorted(stats.by_players.items()),
        "analysis": analysis_summary(request.user),
    })


STAT_LEVELS = [*bots.LEVEL_NAMES.items(), ("mixed", "Mixed levels")]


# --------------------------------------------------------------------------- replay


REPLAY_MOVE_MS = 900
"""How long a replay that plays itself shows each move."""


@login_required
def replay(request, table_id: int):
    """Step through a finished game move by move, every hand face up (the game is over), or let
    it play itself (``play=1``: the page asks for the next move after :data:`REPLAY_MOVE_MS`)."""
    table, seat = _seated(request, table_id)
    if table.status != Table.Status.FINISHED or not table.has_game:
        return render(request, "games/replay_unavailable.html", {"table": table}, status=403)
    last = table.ply
    ply = request.GET.get("ply")
    ply = last if ply is None else whole_number(ply)
    if ply is None:
        return HttpResponseBadRequest(f"ply must be a move number from 0 to {last}.", content_type="text/plain")
    ply = min(ply, last)
    context = replay_context(table, seat.number, ply)
    context.update(analysis_panel(table, seat.number, ply, request.user))
    context["playing"] = request.GET.get("play") == "1"
    context["play_delay_ms"] = REPLAY_MOVE_MS
    template = "games/_replay.html" if request.htmx else "games/replay.html"
    return render(request, template, context)


def replay_context(table: Table, me: int, ply: int) -> dict:
    log = storage.log_of(table)
    game, step = presenters.game_at(storage.saved_game(table, log), ply)
    names = presenters.seat_names(table)
    names_you = {seat: ("You" if seat == me else name) for seat, name in names.items()}
    n = game.players
    positions = ["bottom"] + list(drawing.POSITIONS[n - 1])
    trick_cards = dict(game.current_trick)
    hands = []
    for k in range(n):
        seat = (me + k) % n
        hands.append({
            "seat": seat,
            "name": names_you[seat],
            "position": positions[k],
            "cards": [drawing.card_info(card) for card in game.hands[seat]],
            "score": game.scores[seat],
            "taken": game.points_taken[seat],
            "trick_card": drawing.card_info(trick_cards[seat]) if seat in trick_cards else None,
        })
    last_trick = None
    if not game.current_trick and game.tricks:
        done = game.tricks[-1]
        last_trick = {
            "winner_name": names_you[done.winner],
            "plays": [{"position": positions[(s - me) % n], "card": drawing.card_info(c)} for s, c in done.plays],
        }
    trick = [{"position": positions[(s - me) % n], "card": drawing.card_info(c)} for s, c in game.current_trick]
    deal_starts = []
    for index, entry in enumerate(log):
        if not deal_starts or deal_starts[-1][0] != entry["deal"]:
            deal_starts.append((entry["deal"], index))
    return {
        "table": table,
        "ply": ply,
        "last": len(log),
        "prev": max(ply - 1, 0),
        "next": min(ply + 1, len(log)),
        "step_text": _step_text(step, log, names_you, table) if step else "The cards are dealt.",
        "events_text": _events_text(step, names_you, winners=table.winners) if step else [],
        "hands": hands,
        "trick": trick,
        "last_trick": last_trick,
        "deal_number": game.deal_number,
        "phase": game.phase,
        "hearts_broken": game.hearts_broken,
        "pass_direction": str(game.pass_direction),
        "deals": [{"deal": deal, "ply": index} for deal, index in deal_starts],
        # The stored result: a person counted as having left never wins (games.table.conduct).
        "winners": [names_you[s] for s in (table.winners if game.phase == "over" else game.winners)],
        "players": n,
    }


def _step_text(step, log, names, table) -> str:
    who = names[step.seat]
    if step.kind == "pass":
        cards = " ".join(Card.parse(code).symbol for code in log[step.ply - 1]["action"])
        return f"Deal {step.deal}: {who} passed {cards}."
    if step.kind == "moon":
        value = Rules.from_dict(table.rules).deal_value
        how = f"took {value} off their score" if step.choice == "subtract" else f"gave everyone else {value}"
        return f"Deal {step.deal}: {who} shot the moon and {how}."
    return f"Deal {step.deal}: {who} played {Card.parse(step.card).symbol}."


def _events_text(step, names, winners: "list[int] | None" = None) -> list[str]:
    """The step's events in words (``games.table.drawing.events_said``), and at the end the game's
    winners: ``winners``, the stored result (a person counted as having left never wins)."""
    said = drawing.events_said(step.events, names)
    for event in step.events:
        if event["type"] == "game_over":
            seats = winners if winners is not None else event["winners"]
            who = " and ".join(names[s] for s in seats)
            said.append(f"Game over: {who} {'win' if len(seats) > 1 or who == 'You' else 'wins'}." if seats
                        else "Game over.")
    return said


# --------------------------------------------------------------------------- learn to play


def learn_view(request):
    """Learn to play: anyone may take the lesson (a visitor as a guest)."""
    if request.method == "POST":
        table = services.create_table(
            player_for(request),
            learn.lesson_rules(),
            kind=Table.Kind.LEARN,
            seat_bots=[None] + [learn.LESSON_BOT_LEVEL] * 3,
            seed=learn.LESSON_SEED,
        )
        services.start_table(table.pk)
        return redirect("solo:table", table.pk)
    lessons = Table.objects.none()
    if request.user.is_authenticated:
        lessons = Table.objects.filter(kind=Table.Kind.LEARN, seats__user=request.user).distinct().order_by("-updated_at")
    current = lessons.filter(status=Table.Status.PLAYING).first()
    done = lessons.filter(status=Table.Status.FINISHED).exists()
    return render(request, "games/learn.html", {"current": current, "done": done})



# --------------------------------------------------------------------------- offline play


def offline_page(request):
    """Solo play with no server: the table runs in the browser (``solo/offline.js``)."""
    version = offline.bundle()[1]
    return render(request, "solo/offline.html", {
        "bundle_url": reverse("solo:offline_bundle", args=[version]),
        "pyodide_url": offline.pyodide_url(),
        "available": offline.pyodide_available(),
    })


def offline_bundle(request, version: str):
    """The Python the offline table runs (:func:`solo.offline.bundle`); its address names its
    version, so it is kept as long as it is current."""
    data, current = offline.bundle()
    if version != current:
        return redirect("solo:offline_bundle", current)
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_POST
def keep_offline_game(request):
    """A finished offline game, sent by the offline page when the network is back: stored
    with the player's games (:func:`solo.offline.keep_game`) or refused whole, with the reason.
    JSON in (the saved game), JSON out: ``{"table": id, "replay_url": ...}`` (201, or 200
    when it was kept before), ``{"error": ...}`` (400; 403 when nobody is signed in)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Sign in to keep your offline games with your account."}, status=403)
    try:
        saved = json.loads(request.body)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than any game
        return JsonResponse({"error": "Send the game as JSON."}, status=400)
    try:
        table, created = offline.keep_game(request.user, saved)
    except ValueError as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    return JsonResponse({"table": table.pk, "replay_url": reverse("solo:replay", args=[table.pk])},
                        status=201 if created else 200)


def service_worker(request):
    """The service worker: keeps the offline page and what it needs, for play with no network.
    Served from the site's root so that it may answer for every page."""
    version = offline.bundle()[1]
    page_url = reverse("solo:offline")
    urls = offline.cached_urls(page_url, reverse("solo:offline_bundle", args=[version]))
    cache = "hearts-" + hashlib.sha256(json.dumps(urls).encode()).hexdigest()[:16]
    response = render(request, "solo/sw.js", {"cache": cache, "urls_json": json.dumps(urls), "page_url": page_url},
                      content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def web_manifest(request):
    """The web app manifest: the site installs like an app, opening on the offline page's
    games when there is no network."""
    manifest = {
        "name": "Hearts",
        "short_name": "Hearts",
        "description": "Play Hearts against the computer, online or offline.",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#0b5d3b",
        "theme_color": "#0b5d3b",
        "icons": [
            {"src": static("solo/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("solo/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("solo/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
            {"src": static("solo/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    return JsonResponse(manifest, content_type="application/manifest+json")
