"""Live play in the admin: the tables' chat (reported lines first to hand), who waits in the
matchmaking queue, the open sockets and the server processes holding them."""
from django.contrib import admin

from live.models import ChatMessage, LiveServer, QueueEntry, TableConnection


class ReportedFilter(admin.SimpleListFilter):
    title = "reported"
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("yes", "Reported"), ("no", "Not reported")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(reported_at__isnull=self.value() == "no")
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Tables' chat, kept with each table; the messages players reported come first to hand
    through the "reported" filter. Read-only: staff delete what must go."""

    list_display = ("created_at", "table", "user", "text", "reported_by", "reported_at")
    list_filter = (ReportedFilter, "created_at")
    search_fields = ("text", "user__username", "=table__id", "table__code")
    list_select_related = ("table", "user", "reported_by")
    readonly_fields = ("table", "user", "text", "created_at", "reported_by", "reported_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def _register(model, **options):
    admin.site.register(model, type(f"{model.__name__}Admin", (admin.ModelAdmin,), options))


_register(
    QueueEntry,
    list_display=("user", "table_size", "rating", "joined_at", "last_seen", "table"),
    list_filter=("table_size",),
    search_fields=("user__username", "user__display_name"),
    raw_id_fields=("user", "table"),
    list_select_related=("user",),
)
_register(
    TableConnection,
    list_display=("channel_name", "table", "user", "server", "opened_at"),
    search_fields=("channel_name", "server", "user__username", "=table__id"),
    # Kept by the sockets themselves (a seat counts as connected while its person has one).
    has_add_permission=lambda self, request: False,
    has_change_permission=lambda self, request, obj=None: False,
    has_delete_permission=lambda self, request, obj=None: False,
)
_register(
    LiveServer,
    list_display=("name", "started_at", "heartbeat_at"),
    search_fields=("name",),
    readonly_fields=("name", "started_at", "heartbeat_at"),
    has_add_permission=lambda self, request: False,  # server processes register themselves
)
