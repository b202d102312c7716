"""The games app in the admin: what an operator needs to look at a table and unstick it.

Tables show their rules, players, where the game stands, how it began, its action log (the
game itself, stored once) and a replay link;
seats and the action log are searchable on their own. Staff end a stuck game with the
"End the selected games" action, which goes through :func:`games.services.abandon_table`
(the one code path: version bump, results, clients told) — never by editing ``status``.
"""
import json
from datetime import timedelta

from django.contrib import admin, messages
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from games import services, storage
from games.models import Action, Seat, Table


def _pretty_json(value) -> str:
    if value is None:
        return "—"
    return format_html('<pre style="white-space: pre-wrap; max-height: 40em; overflow: auto">{}</pre>',
                       json.dumps(value, indent=2, sort_keys=True))


class SeatInline(admin.TabularInline):
    """Seats as they are: who sits where changes through the services (people take and
    leave seats on the site; computers stand in by the rules), never by an edit here."""

    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "standing_in", "connected", "left_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    fields = ("ply", "deal", "seat", "action", "actor", "version", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("ply",)

    def has_add_permission(self, request, obj=None):
        return False


class StuckFilter(admin.SimpleListFilter):
    """Games that look stuck: still active but untouched for a while."""

    title = "activity"
    parameter_name = "idle"

    def lookups(self, request, model_admin):
        return [("10m", "Active, idle over 10 minutes"), ("1d", "Active, idle over a day")]

    def queryset(self, request, queryset):
        spans = {"10m": timedelta(minutes=10), "1d": timedelta(days=1)}
        if self.value() in spans:
            return queryset.filter(
                status__in=[Table.Status.WAITING, Table.Status.PLAYING],
                updated_at__lt=timezone.now() - spans[self.value()],
            )
        return queryset


class PlayedOfflineFilter(admin.SimpleListFilter):
    title = "played"
    parameter_name = "played"

    def lookups(self, request, model_admin):
        return [("offline", "Offline, in the player's browser"), ("here", "On the site")]

    def queryset(self, request, queryset):
        if self.value() == "offline":
            return queryset.exclude(offline_id="")
        if self.value() == "here":
            return queryset.filter(offline_id="")
        return queryset


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "id", "kind", "status", "host", "players_list", "rules_summary", "rated", "version",
        "turn_timer_seconds", "turn_deadline", "updated_at", "replay_link",
    )
    list_display_links = ("id", "kind")
    list_filter = ("status", "kind", "rated", "turn_timer_seconds", StuckFilter, PlayedOfflineFilter, "created_at")
    search_fields = ("=id", "code", "host__username", "host__email", "seats__user__username",
                     "seats__user__display_name", "end_reason")
    list_select_related = ("host",)
    date_hierarchy = "created_at"
    # Nothing of a game is edited here: a change must bump the version, tell the clients and
    # keep results and ratings right, which only the services do (see the actions).
    readonly_fields = (
        "kind", "status", "code", "host", "rated", "rules_pretty", "players_list", "replay_link", "version", "seed",
        "turn_timer_seconds", "turn_deadline", "state_summary", "setup_pretty", "created_at", "updated_at",
        "started_at", "finished_at", "end_reason", "offline_id",
    )
    fieldsets = (
        (None, {"fields": ("kind", "status", "code", "host", "rated", "players_list", "replay_link")}),
        ("Rules and timer", {"fields": ("rules_pretty", "turn_timer_seconds", "turn_deadline")}),
        ("Progress", {"fields": ("version", "state_summary", "started_at", "finished_at", "end_reason",
                                 "offline_id", "created_at", "updated_at")}),
        ("How the game began (every hand follows from it: staff only)", {"classes": ("collapse",),
                                                                         "fields": ("seed", "setup_pretty")}),
    )
    inlines = [SeatInline, ActionInline]
    actions = ["end_stuck_games"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def has_add_permission(self, request):
        return False  # tables are made on the site, where their rules are checked

    def has_delete_permission(self, request, obj=None):
        """A game still waiting or in play is ended first (the action), then deleted; a bulk
        delete that includes one is refused whole."""
        if obj is not None and obj.is_active:
            return False
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs, request):
        """A table's seats, log and socket rows go with it: they are not deleted on their
        own, but need no permission of their own to go with their table."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # The socket rows are live play's (live.models), reached by their relation's name.
        sockets = Table._meta.get_field("connections").related_model
        parts = {str(model._meta.verbose_name) for model in (Seat, Action, sockets)}
        return deleted, counts, perms_needed - parts, protected

    @admin.display(description="Players")
    def players_list(self, table):
        return ", ".join(f"{seat.number}: {seat.occupant_name}" + (" (computer standing in)" if seat.standing_in else "")
                         for seat in table.seats.all())

    @admin.display(description="Rules")
    def rules_summary(self, table):
        rules = table.rules or {}
        return f"{rules.get('players', '?')}p to {rules.get('target', '?')}, passing {rules.get('passing', '?')}"

    @admin.display(description="Rules")
    def rules_pretty(self, table):
        return _pretty_json(table.rules)

    @admin.display(description="Setup")
    def setup_pretty(self, table):
        return _pretty_json(table.setup)

    @admin.display(description="Where the game is")
    def state_summary(self, table):
        if not table.has_game:
            return "Not started"
        try:
            game = storage.game_of(table)
        except ValueError as error:  # a log that is not a game: say so rather than fail the page
            return f"The stored log does not replay: {error}"
        return format_html(
            "Deal {}, {} phase, to act: {}; scores {}; {} logged actions",
            game.deal_number, game.phase, list(game.to_act) or "nobody", list(game.scores), table.ply,
        )

    @admin.display(description="Replay")
    def replay_link(self, table):
        if table.pk is None or not table.has_game:
            return "—"
        return format_html('<a href="{}">replay</a>', reverse("solo:replay", args=[table.pk]))

    @admin.action(description="End the selected games (mark abandoned)")
    def end_stuck_games(self, request, queryset):
        reason = f"Ended by staff ({request.user.username})"
        ended = sum(services.abandon_table(table.pk, reason) for table in queryset)
        skipped = queryset.count() - ended
        text = f"Ended {ended} game(s)."
        if skipped:
            text += f" {skipped} had already ended."
        self.message_user(request, text, messages.SUCCESS)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "occupant", "bot_level", "standing_in", "connected", "left_at", "table_status")
    list_filter = ("bot_level", "standing_in", "connected", "table__status", "table__kind")
    search_fields = ("=table__id", "table__code", "user__username", "user__display_name", "user__email")
    list_select_related = ("table", "user")
    readonly_fields = ("table", "number", "user", "bot_level", "standing_in", "connected", "left_at")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # a seat goes with its table

    @admin.display(description="Occupant")
    def occupant(self, seat):
        return seat.occupant_name

    @admin.display(description="Table status", ordering="table__status")
    def table_status(self, seat):
        return seat.table.get_status_display()


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """The action log across tables (read-only: the log is written by services only)."""

    list_display = ("table", "ply", "deal", "seat", "action", "actor", "version", "created_at")
    list_filter = ("actor", "table__kind", "created_at")
    search_fields = ("=table__id", "table__code")
    list_select_related = ("table",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
