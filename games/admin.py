from django.contrib import admin, messages

from games import services
from games.models import Action, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "standing_in", "connected", "left_at")
    raw_id_fields = ("user",)


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    fields = ("ply", "seat", "action", "actor", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "host", "players_count", "rated", "version", "updated_at")
    list_filter = ("kind", "status", "rated")
    search_fields = ("code", "host__username", "seats__user__username")
    readonly_fields = ("state", "version", "seed", "created_at", "updated_at", "started_at", "finished_at")
    inlines = [SeatInline, ActionInline]
    actions = ["end_stuck_games"]

    @admin.display(description="Players")
    def players_count(self, table):
        return table.players

    @admin.action(description="End the selected games (mark abandoned)")
    def end_stuck_games(self, request, queryset):
        reason = f"Ended by staff ({request.user.username})"
        ended = sum(services.abandon_table(table.pk, reason) for table in queryset)
        self.message_user(request, f"Ended {ended} game(s).", messages.SUCCESS)
