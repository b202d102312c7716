"""Writes about subscriptions: the admin's grants, the payment provider's checkout and
billing portal, and its webhook events (``accounts/README.md``, "Payments (Stripe)").

Views, the admin and the payment webhook all change a subscription through these functions.
Whether a subscription gives live play is decided in :mod:`accounts.selectors`.
"""
from __future__ import annotations

import datetime as dt
import logging

import stripe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from accounts.models import Plan, ProviderEvent, Subscription, SubscriptionStatus
from accounts.selectors import payments_configured, subscription_for

log = logging.getLogger(__name__)

GRANT_MONTH = dt.timedelta(days=30)
GRANT_YEAR = dt.timedelta(days=365)

PROVISIONAL_CHECKOUT_ACCESS = dt.timedelta(days=1)
"""A completed checkout opens live play for this long until the provider's subscription event
(which carries the real period end) arrives — usually seconds later."""


# --- admin grants ------------------------------------------------------------------------


def grant_plan(user, length: dt.timedelta, now: dt.datetime | None = None) -> Subscription:
    """Give ``user`` live play for ``length`` without a payment provider.

    Extends a grant or paid period that is still running; otherwise starts from now. A later
    event from the payment provider about this player's paid subscription replaces it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        subscription, _ = Subscription.objects.select_for_update().get_or_create(user=user)
        running = (
            subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING)
            and subscription.current_period_end is not None
            and subscription.current_period_end > now
        )
        start = subscription.current_period_end if running else now
        subscription.plan = Plan.GRANTED
        subscription.status = SubscriptionStatus.ACTIVE
        subscription.current_period_end = start + length
        subscription.cancel_at_period_end = False
        subscription.past_due_since = None
        subscription.save()
    log.info("subscription granted user=%s until=%s", user.pk, subscription.current_period_end)
    return subscription


def revoke_plan(user, now: dt.datetime | None = None) -> Subscription | None:
    """End ``user``'s live access now. Games already in progress may still finish."""
    now = now or timezone.now()
    with transaction.atomic():
        subscription = Subscription.objects.select_for_update().filter(user=user).first()
        if subscription is None:
            return None
        subscription.status = SubscriptionStatus.CANCELED
        subscription.current_period_end = now
        subscription.cancel_at_period_end = False
        subscription.past_due_since = None
        subscription.save()
    log.info("subscription revoked user=%s", user.pk)
    return subscription


# --- checkout ----------------------------------------------------------------------------


class PaymentsNotConfigured(Exception):
    """The site has no payment-provider keys."""

    message = (
        "Payments are not configured on this site yet, so plans can't be bought here. "
        "Please contact an admin, who can grant you a plan."
    )


class PaymentProviderError(Exception):
    """The payment provider refused or could not be reached."""


def start_checkout(user, *, success_url: str, cancel_url: str) -> str:
    """Create a Stripe Checkout Session for the live-play plan and return its URL.

    The session carries the player's id as ``client_reference_id`` and in the metadata of
    the subscription it creates, so every later webhook finds the player.
    """
    if not payments_configured():
        raise PaymentsNotConfigured(PaymentsNotConfigured.message)
    params = {
        "mode": "subscription",
        "line_items": [{"price": settings.STRIPE_PRICE_ID, "quantity": 1}],
        "success_url": success_url,
        "cancel_url": cancel_url,
        "client_reference_id": str(user.pk),
        "metadata": {"user_id": str(user.pk)},
        "subscription_data": {"metadata": {"user_id": str(user.pk)}},
        "api_key": settings.STRIPE_SECRET_KEY,
    }
    existing = subscription_for(user)
    if existing is not None and existing.stripe_customer_id:
        params["customer"] = existing.stripe_customer_id
    elif user.email:
        params["customer_email"] = user.email
    try:
        session = stripe.checkout.Session.create(**params)
    except stripe.StripeError as error:
        log.warning("stripe checkout failed user=%s error=%s", user.pk, error)
        raise PaymentProviderError(
            "We couldn't start the checkout with the payment provider. Nothing was charged; "
            "please try again in a minute."
        ) from error
    return session.url


def start_billing_portal(user, *, return_url: str) -> str:
    """Create a Stripe billing-portal session (update card, cancel) and return its URL."""
    if not settings.STRIPE_SECRET_KEY:
        raise PaymentsNotConfigured(PaymentsNotConfigured.message)
    existing = subscription_for(user)
    if existing is None or not existing.stripe_customer_id:
        raise PaymentProviderError(
            "There is no payment account for you yet. Subscribe from the plans page first."
        )
    try:
        session = stripe.billing_portal.Session.create(
            customer=existing.stripe_customer_id,
            return_url=return_url,
            api_key=settings.STRIPE_SECRET_KEY,
        )
    except stripe.StripeError as error:
        log.warning("stripe billing portal failed user=%s error=%s", user.pk, error)
        raise PaymentProviderError(
            "We couldn't open the billing page of the payment provider; please try again in a minute."
        ) from error
    return session.url


# --- webhook events ----------------------------------------------------------------------

# Stripe subscription status -> ours. No-access states map onto our no-access states.
STRIPE_STATUS = {
    "trialing": SubscriptionStatus.TRIALING,
    "active": SubscriptionStatus.ACTIVE,
    "past_due": SubscriptionStatus.PAST_DUE,
    "unpaid": SubscriptionStatus.PAST_DUE,  # retries exhausted: past the grace period by then
    "canceled": SubscriptionStatus.CANCELED,
    "incomplete": SubscriptionStatus.INCOMPLETE,
    "incomplete_expired": SubscriptionStatus.CANCELED,
    "paused": SubscriptionStatus.INCOMPLETE,
}
STRIPE_INTERVAL_PLAN = {"month": Plan.MONTHLY, "year": Plan.YEARLY}

HANDLED_EVENT_TYPES = (
    "checkout.session.completed",
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
    "invoice.payment_failed",
)


class EventOutcome:
    APPLIED = "applied"
    STALE = "stale"  # older than the state already applied: ignored
    DUPLICATE = "duplicate"  # already processed: ignored
    IGNORED = "ignored"  # not an event type (or object) we act on
    UNMATCHED = "unmatched"  # no player found for it; not recorded, so a redelivery can apply


class _Unmatched(Exception):
    pass


class MalformedEvent(ValueError):
    """A correctly signed event whose content is not what Stripe sends (a field of the wrong
    kind). Nothing was changed; ``str()`` says what was wrong."""


def _check_event_shape(event) -> None:
    """Raise :class:`MalformedEvent` unless ``event`` has Stripe's envelope: a text ``id`` and
    ``type``, a whole-number ``created`` and an object in ``data.object``."""
    if not isinstance(event, dict):
        raise MalformedEvent("The event is not a JSON object.")
    for name in ("id", "type"):
        if not isinstance(event.get(name), str) or not 0 < len(event[name]) <= 255:
            raise MalformedEvent(f"The event's {name!r} must be a non-empty string.")
    created = event.get("created")
    if isinstance(created, bool) or not isinstance(created, int) or not 0 <= created <= LATEST_UNIX_TIME:
        raise MalformedEvent("The event's 'created' must be a Unix time in seconds.")
    if not isinstance(_get(event, "data", "object"), dict):
        raise MalformedEvent("The event's 'data.object' must be an object.")


def _get(obj, *path, default=None):
    for key in path:
        if not isinstance(obj, dict):
            return default
        obj = obj.get(key)
        if obj is None:
            return default
    return obj


LATEST_UNIX_TIME = 253402300799
"""9999-12-31 23:59:59 UTC: the last second a Python datetime can hold."""


def _timestamp(value) -> dt.datetime | None:
    """A Unix time of an event's object as a datetime (None when absent); a value that is
    not one (wrong kind, beyond the year 9999) is a :class:`MalformedEvent`."""
    if value in (None, ""):
        return None
    try:
        seconds = int(value)
    except (TypeError, ValueError):
        raise MalformedEvent(f"A time in the event is not a Unix time in seconds: {str(value)[:40]!r}.") from None
    if not 0 <= seconds <= LATEST_UNIX_TIME:
        raise MalformedEvent(f"A time in the event is out of range: {seconds}.")
    return dt.datetime.fromtimestamp(seconds, tz=dt.timezone.utc)


def _id(value) -> str:
    """A Stripe reference is an id string, or an expanded object with an ``id``."""
    if isinstance(value, dict):
        value = value.get("id")
    return value or ""


def _user_from_reference(value):
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    return get_user_model().objects.filter(pk=pk).first()


def _subscription_for_user(user) -> Subscription:
    subscription, _ = Subscription.objects.select_for_update().get_or_create(user=user)
    return subscription


def _locked(queryset) -> Subscription | None:
    return queryset.select_for_update().first()


def _find_by_ids(subscription_id: str, customer_id: str) -> Subscription | None:
    found = None
    if subscription_id:
        found = _locked(Subscription.objects.filter(stripe_subscription_id=subscription_id))
    if found is None and customer_id:
        found = _locked(Subscription.objects.filter(stripe_customer_id=customer_id))
    return found


def _subscription_period_end(obj: dict) -> dt.datetime | None:
    # Older API versions have it on the subscription, newer ones (2025-03-31+) on its items.
    end = obj.get("current_period_end")
    if end is None:
        items = _get(obj, "items", "data", default=[]) or []
        ends = [item.get("current_period_end") for item in items if item.get("current_period_end")]
        end = max(ends) if ends else None
    return _timestamp(end)


def _subscription_plan(obj: dict) -> str | None:
    items = _get(obj, "items", "data", default=[]) or []
    for item in items:
        interval = _get(item, "price", "recurring", "interval") or _get(item, "plan", "interval")
        if interval in STRIPE_INTERVAL_PLAN:
            return STRIPE_INTERVAL_PLAN[interval]
    return None


def _invoice_subscription_id(obj: dict) -> str:
    return _id(obj.get("subscription")) or _id(
        _get(obj, "parent", "subscription_details", "subscription")
    )


def _other_subscription_is_live(subscription: Subscription, event_subscription_id: str, at) -> bool:
    """True when the record follows a different, still-live provider subscription."""
    return bool(
        subscription.stripe_subscription_id
        and event_subscription_id
        and subscription.stripe_subscription_id != event_subscription_id
        and subscription.status
        in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING, SubscriptionStatus.PAST_DUE)
        and subscription.current_period_end is not None
        and subscription.current_period_end > at
    )


def _is_stale(subscription: Subscription, created: dt.datetime) -> bool:
    # Strictly older only: Stripe timestamps are whole seconds and one change often sends
    # several events within the same second, which must all apply.
    return subscription.last_event_created is not None and created < subscription.last_event_created


def _handle_checkout_completed(obj: dict, created: dt.datetime):
    if obj.get("mode") != "subscription":
        return None, EventOutcome.IGNORED
    user = _user_from_reference(obj.get("client_reference_id") or _get(obj, "metadata", "user_id"))
    if user is None:
        raise _Unmatched
    subscription = _subscription_for_user(user)
    if _is_stale(subscription, created):
        return subscription, EventOutcome.STALE
    subscription.stripe_customer_id = _id(obj.get("customer")) or subscription.stripe_customer_id
    subscription.stripe_subscription_id = (
        _id(obj.get("subscription")) or subscription.stripe_subscription_id
    )
    already_running = (
        subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING)
        and subscription.current_period_end is not None
        and subscription.current_period_end > created
    )
    if obj.get("payment_status") in ("paid", "no_payment_required") and not already_running:
        subscription.status = SubscriptionStatus.ACTIVE
        subscription.current_period_end = created + PROVISIONAL_CHECKOUT_ACCESS
        subscription.past_due_since = None
        subscription.cancel_at_period_end = False
        if subscription.plan == Plan.GRANTED:
            subscription.plan = Plan.MONTHLY
    # No last_event_created here: the session carries no subscription state, and the
    # customer.subscription.created event (often a second *older*) must still apply.
    subscription.save()
    return subscription, EventOutcome.APPLIED


def _handle_subscription_change(obj: dict, created: dt.datetime, *, deleted: bool):
    subscription_id = _id(obj.get("id"))
    customer_id = _id(obj.get("customer"))
    subscription = _find_by_ids(subscription_id, customer_id)
    if subscription is None:
        user = _user_from_reference(_get(obj, "metadata", "user_id"))
        if user is None:
            raise _Unmatched
        subscription = _subscription_for_user(user)
    if _is_stale(subscription, created):
        return subscription, EventOutcome.STALE
    if _other_subscription_is_live(subscription, subscription_id, created) and (
        deleted or STRIPE_STATUS.get(obj.get("status")) not in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING)
    ):
        # e.g. a duplicate subscription being canceled must not end the live one.
        return subscription, EventOutcome.IGNORED

    status = SubscriptionStatus.CANCELED if deleted else STRIPE_STATUS.get(obj.get("status"))
    if status is None:
        return subscription, EventOutcome.IGNORED
    period_end = _subscription_period_end(obj)
    if deleted:
        period_end = _timestamp(obj.get("ended_at")) or _timestamp(obj.get("canceled_at")) or period_end
    if status == SubscriptionStatus.PAST_DUE:
        if subscription.status != SubscriptionStatus.PAST_DUE or subscription.past_due_since is None:
            subscription.past_due_since = created
    else:
        subscription.past_due_since = None
    subscription.status = status
    subscription.current_period_end = period_end
    subscription.cancel_at_period_end = bool(obj.get("cancel_at_period_end") or obj.get("cancel_at"))
    subscription.plan = _subscription_plan(obj) or (
        Plan.MONTHLY if subscription.plan == Plan.GRANTED else subscription.plan
    )
    subscription.stripe_subscription_id = subscription_id or subscription.stripe_subscription_id
    subscription.stripe_customer_id = customer_id or subscription.stripe_customer_id
    subscription.last_event_created = created
    subscription.save()
    return subscription, EventOutcome.APPLIED


def _handle_payment_failed(obj: dict, created: dt.datetime):
    subscription_id = _invoice_subscription_id(obj)
    subscription = _find_by_ids(subscription_id, _id(obj.get("customer")))
    if subscription is None:
        raise _Unmatched
    if _is_stale(subscription, created):
        return subscription, EventOutcome.STALE
    if subscription_id and subscription.stripe_subscription_id not in ("", subscription_id):
        return subscription, EventOutcome.IGNORED  # an invoice of another (old) subscription
    if subscription.status not in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING):
        # Already past due (keep the first failure's time), canceled or not yet started.
        return subscription, EventOutcome.IGNORED
    subscription.status = SubscriptionStatus.PAST_DUE
    subscription.past_due_since = created
    subscription.last_event_created = created
    subscription.save()
    return subscription, EventOutcome.APPLIED


def apply_stripe_event(event: dict) -> str:
    """Apply one verified Stripe event (as a plain dict) and return an :class:`EventOutcome`.

    Idempotent: an event id already processed changes nothing. Order-safe: an event created
    before the newest event already applied to that subscription (``last_event_created``) is
    recorded as stale and changes nothing.

    Raises :class:`MalformedEvent`, changing nothing, for an event not shaped as Stripe's.
    """
    _check_event_shape(event)
    event_type = event["type"]
    event_id = event["id"]
    if event_type not in HANDLED_EVENT_TYPES:
        return EventOutcome.IGNORED
    if ProviderEvent.objects.filter(event_id=event_id).exists():
        return EventOutcome.DUPLICATE
    created = _timestamp(event["created"])
    obj = _get(event, "data", "object", default={}) or {}
    try:
        with transaction.atomic():
            record = ProviderEvent.objects.create(
                provider="stripe",
                event_id=event_id,
                type=event_type,
                created=created,
                outcome=ProviderEvent.Outcome.IGNORED,
            )
            if event_type == "checkout.session.completed":
                subscription, outcome = _handle_checkout_completed(obj, created)
            elif event_type == "invoice.payment_failed":
                subscription, outcome = _handle_payment_failed(obj, created)
            else:
                subscription, outcome = _handle_subscription_change(
                    obj, created, deleted=event_type == "customer.subscription.deleted"
                )
            record.outcome = outcome
            record.subscription = subscription
            record.save(update_fields=["outcome", "subscription"])
    except _Unmatched:
        log.warning("stripe event %s (%s) matches no player", event_id, event_type)
        return EventOutcome.UNMATCHED
    except (TypeError, ValueError, AttributeError, OverflowError, DataError) as error:
        # A field deeper in the object of the wrong kind, or one the database cannot hold (a
        # NUL in a text, on PostgreSQL); the transaction kept nothing.
        log.warning("stripe event %s (%s) is malformed: %s", event_id, event_type, error)
        raise MalformedEvent(f"A field of the {event_type} object is not what Stripe sends.") from error
    except IntegrityError:
        if ProviderEvent.objects.filter(event_id=event_id).exists():
            return EventOutcome.DUPLICATE  # the same event, delivered twice at once
        raise
    log.info("stripe event %s (%s): %s", event_id, event_type, outcome)
    return outcome
