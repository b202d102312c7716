from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin

from accounts import billing
from accounts.models import ProviderEvent, Subscription, User
from accounts.selectors import format_day, subscription_gives_live_access


def _grant(modeladmin, request, users, length, label):
    granted = [billing.grant_plan(user, length) for user in users]
    if len(granted) == 1:
        text = f"Granted {label} to {granted[0].user}: live play until {format_day(granted[0].current_period_end)}."
    else:
        text = f"Granted {label} to {len(granted)} players."
    modeladmin.message_user(request, text, messages.SUCCESS)


def _revoke(modeladmin, request, users):
    revoked = [s for s in (billing.revoke_plan(user) for user in users) if s is not None]
    modeladmin.message_user(
        request,
        f"Revoked live play for {len(revoked)} player(s). Games already in progress may finish.",
        messages.SUCCESS,
    )


def _users(queryset):
    """The players behind a queryset of users or of subscriptions."""
    if queryset.model is Subscription:
        return [subscription.user for subscription in queryset.select_related("user")]
    return list(queryset)


@admin.action(description="Grant a 30-day plan")
def grant_month(modeladmin, request, queryset):
    _grant(modeladmin, request, _users(queryset), billing.GRANT_MONTH, "30 days")


@admin.action(description="Grant a year")
def grant_year(modeladmin, request, queryset):
    _grant(modeladmin, request, _users(queryset), billing.GRANT_YEAR, "a year")


@admin.action(description="Revoke live play")
def revoke(modeladmin, request, queryset):
    _revoke(modeladmin, request, _users(queryset))


class SubscriptionInline(admin.StackedInline):
    model = Subscription
    can_delete = False
    extra = 0
    max_num = 1
    fields = (
        "plan",
        "status",
        "current_period_end",
        "cancel_at_period_end",
        "past_due_since",
        "stripe_customer_id",
        "stripe_subscription_id",
        "last_event_created",
    )
    readonly_fields = ("last_event_created",)


@admin.register(User)
class HeartsUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (("Player", {"fields": ("display_name",)}),)
    list_display = ("username", "display_name", "email", "is_staff", "date_joined", "last_login")
    search_fields = ("username", "display_name", "email")
    inlines = [SubscriptionInline]
    actions = [grant_month, grant_year, revoke]


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "plan", "status", "current_period_end", "live_access")
    list_filter = ("status", "plan")
    search_fields = ("user__username", "user__email", "user__display_name", "stripe_customer_id")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("last_event_created", "created_at", "updated_at")
    actions = [grant_month, grant_year, revoke]

    @admin.display(boolean=True, description="Live play now")
    def live_access(self, subscription):
        return subscription_gives_live_access(subscription)


@admin.register(ProviderEvent)
class ProviderEventAdmin(admin.ModelAdmin):
    list_display = ("event_id", "type", "created", "outcome", "subscription", "received_at")
    list_filter = ("outcome", "type", "provider")
    search_fields = ("event_id", "subscription__user__username")
    list_select_related = ("subscription__user",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
