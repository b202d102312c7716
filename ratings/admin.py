"""Ratings in the admin: visible and searchable, read-only (services.py is the only writer)."""
from django.contrib import admin

from ratings.models import PROVISIONAL_GAMES, PlayerStats, RatedGame, Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ProvisionalFilter(admin.SimpleListFilter):
    title = "provisional"
    parameter_name = "provisional"

    def lookups(self, request, model_admin):
        return [("yes", f"Provisional (< {PROVISIONAL_GAMES} games)"), ("no", "Established")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(games__lt=PROVISIONAL_GAMES)
        if self.value() == "no":
            return queryset.filter(games__gte=PROVISIONAL_GAMES)
        return queryset


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "table_size", "display", "is_provisional", "games", "mu_2", "sigma_2", "updated_at")
    list_filter = ("table_size", ProvisionalFilter)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)
    ordering = ("table_size", "-display")

    @admin.display(boolean=True, description="provisional")
    def is_provisional(self, obj):
        return obj.provisional

    @admin.display(description="mu", ordering="mu")
    def mu_2(self, obj):
        return f"{obj.mu:.2f}"

    @admin.display(description="sigma", ordering="sigma")
    def sigma_2(self, obj):
        return f"{obj.sigma:.2f}"


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    ordering = ("id",)  # seat order
    extra = 0
    can_delete = False
    fields = ("user", "rank", "score", "dropped", "display_before", "display_after", "change", "mu_change",
              "sigma_change", "games_after")
    readonly_fields = fields

    @admin.display(description="change")
    def change(self, obj):
        return f"{obj.delta:+d}"

    @admin.display(description="mu")
    def mu_change(self, obj):
        return f"{obj.mu_before:.2f} → {obj.mu_after:.2f}"

    @admin.display(description="sigma")
    def sigma_change(self, obj):
        return f"{obj.sigma_before:.2f} → {obj.sigma_after:.2f}"

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = ("game_key", "table_size", "status", "players", "created_at")
    list_filter = ("table_size", "status")
    search_fields = ("game_key", "changes__user__username")
    date_hierarchy = "created_at"
    inlines = [RatingChangeInline]

    @admin.display(description="rated players")
    def players(self, obj):
        return obj.changes.count()


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "table_size", "rank", "score", "dropped", "display_before", "display_after",
                    "delta", "created_at")
    list_filter = ("table_size", "dropped")
    search_fields = ("user__username", "user__display_name", "game__game_key")
    list_select_related = ("user", "game")

    @admin.display(description="change")
    def delta(self, obj):
        return f"{obj.delta:+d}"


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "table_size", "rated", "games", "wins", "shared_wins", "left_early", "points", "deals",
                    "points_per_deal", "moons")
    list_filter = ("table_size", "rated")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)
