from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models

from accounts.names import name_key


class User(AbstractUser):
    """A player. ``display_name`` is what other players see at the table."""

    display_name = models.CharField(max_length=40, blank=True)
    display_name_key = models.CharField(
        max_length=160, blank=True, db_index=True, editable=False,
        help_text="accounts.names.name_key of the display name: look-alike names share it",
    )
    username_key = models.CharField(max_length=600, blank=True, db_index=True, editable=False)
    is_guest = models.BooleanField(
        default=False,
        help_text="Made for a visitor who played without signing up; becomes a full account when they sign up.",
    )

    def save(self, *args, **kwargs):
        self.display_name_key = name_key(self.display_name)
        self.username_key = name_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = set(update_fields) | {"display_name_key", "username_key"}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        if self.is_guest:
            return self.display_name or "Guest"
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name


class Plan(models.TextChoices):
    MONTHLY = "monthly", "Monthly"
    YEARLY = "yearly", "Yearly"
    GRANTED = "granted", "Granted by an admin"


class SubscriptionStatus(models.TextChoices):
    TRIALING = "trialing", "Trialing"
    ACTIVE = "active", "Active"
    PAST_DUE = "past_due", "Past due"
    CANCELED = "canceled", "Canceled"
    INCOMPLETE = "incomplete", "Awaiting first payment"


class Subscription(models.Model):
    """A player's live-play subscription: at most one per user.

    Whether it grants live play is decided in one place only:
    :func:`accounts.selectors.has_live_access`. Writes go through :mod:`accounts.billing`
    (provider webhooks and the admin's grant/revoke actions).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscription"
    )
    plan = models.CharField(max_length=16, choices=Plan.choices, default=Plan.MONTHLY)
    status = models.CharField(
        max_length=16, choices=SubscriptionStatus.choices, default=SubscriptionStatus.INCOMPLETE
    )
    current_period_end = models.DateTimeField(
        null=True, blank=True, help_text="Live play is allowed until this moment."
    )
    cancel_at_period_end = models.BooleanField(
        default=False, help_text="The player canceled; the plan will not renew."
    )
    past_due_since = models.DateTimeField(
        null=True, blank=True, help_text="When a payment first failed; starts the grace period."
    )
    stripe_customer_id = models.CharField(max_length=255, blank=True, db_index=True)
    stripe_subscription_id = models.CharField(max_length=255, blank=True, db_index=True)
    last_event_created = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Creation time of the newest provider event applied; older events are ignored.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_plan_display()} · {self.get_status_display()}"


class ProviderEvent(models.Model):
    """A payment-provider event already processed, so a redelivered event changes nothing."""

    class Outcome(models.TextChoices):
        APPLIED = "applied", "Applied"
        STALE = "stale", "Ignored: older than the state already applied"
        IGNORED = "ignored", "Ignored"

    provider = models.CharField(max_length=32, default="stripe")
    event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    created = models.DateTimeField(help_text="When the provider created the event.")
    received_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    subscription = models.ForeignKey(
        Subscription, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.event_id} ({self.type})"
