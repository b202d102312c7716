"""Reads about players and their subscriptions.

The live-play rule lives here and nowhere else:

* **Free** for every signed-in player: solo play against the bots and the learning pages.
* **Live play** (friend rooms, matchmaking) needs live access, decided by
  :func:`has_live_access`. HTTP views use :func:`accounts.decorators.live_access_required`;
  websocket consumers call ``has_live_access`` off their event loop (``live.consumers``)
  and send :func:`live_access_denied_message` when it says no.

**Check only at entry points for new live games.** Creating a friend room, taking a seat,
joining the matchmaking queue: those check. Playing a card, reconnecting to a table you are
already seated at, or finishing a game in progress do *not* check, so a subscription that
lapses mid-game lets that game finish; the next new live game is refused.

Live access means:

* ``active`` or ``trialing`` and ``current_period_end`` is in the future;
* ``past_due`` (a renewal payment failed) keeps access for a grace period of
  :data:`PAST_DUE_GRACE` (3 days) counted from the first failed payment
  (``past_due_since``; from ``current_period_end`` when that is unknown), and never past
  the period end plus that grace. A card hiccup at renewal doesn't lock anyone out of an
  evening's games; after the grace period live play stops until the payment goes through;
* ``canceled`` and ``incomplete`` never give access, nor does having no subscription, nor
  being signed out.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import Plan, Subscription, SubscriptionStatus

PAST_DUE_GRACE = dt.timedelta(days=3)
"""How long live play stays open after a renewal payment fails."""


def subscription_for(user) -> Subscription | None:
    """The player's subscription, read fresh from the database (never a cached relation)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Subscription.objects.filter(user_id=user.pk).first()


def past_due_grace_ends(subscription: Subscription) -> dt.datetime | None:
    """When a past-due subscription stops giving live access (None if it never started)."""
    candidates = []
    start = subscription.past_due_since or subscription.current_period_end
    if start is not None:
        candidates.append(start + PAST_DUE_GRACE)
    if subscription.current_period_end is not None:
        candidates.append(subscription.current_period_end + PAST_DUE_GRACE)
    return min(candidates) if candidates else None


def live_access_until(subscription: Subscription | None, now: dt.datetime | None = None):
    """The moment live access ends, or None when the subscription gives no access now."""
    if subscription is None:
        return None
    now = now or timezone.now()
    if subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING):
        end = subscription.current_period_end
        return end if end is not None and end > now else None
    if subscription.status == SubscriptionStatus.PAST_DUE:
        end = past_due_grace_ends(subscription)
        return end if end is not None and end > now else None
    return None


def subscription_gives_live_access(
    subscription: Subscription | None, now: dt.datetime | None = None
) -> bool:
    return live_access_until(subscription, now) is not None


def has_live_access(user, now: dt.datetime | None = None) -> bool:
    """True when ``user`` may start or join a NEW live game (friend room, matchmaking).

    See the module docstring for the rule. Anonymous users, guests and ``None`` get False. Call
    it at entry points only, never on every move: a game in progress may finish after a lapse.
    """
    if getattr(user, "is_guest", False):
        return False
    return subscription_gives_live_access(subscription_for(user), now)


def pricing_url() -> str:
    return reverse("accounts:pricing")


def format_day(moment: dt.datetime) -> str:
    """'3 Jan 2027' in the site's time zone."""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%b %Y}"


def live_access_denied_reason(user, now: dt.datetime | None = None) -> str:
    """Why ``user`` can't start live play, in a sentence or two (no URL; see below)."""
    now = now or timezone.now()
    if user is None or not getattr(user, "is_authenticated", False):
        return "Log in to play live. Live play needs a subscription."
    if user.is_guest:
        return "Live play needs an account and a subscription. Sign up free: your solo games come with you."
    subscription = subscription_for(user)
    if subscription is None:
        return "Live play needs a subscription."
    if subscription_gives_live_access(subscription, now):
        return "You have live access."
    status = subscription.status
    if status == SubscriptionStatus.PAST_DUE:
        return (
            "Live play is paused because your last payment failed. "
            "Update your payment to play live again."
        )
    if status == SubscriptionStatus.INCOMPLETE:
        return "Your subscription is waiting for its first payment."
    end = subscription.current_period_end
    if status == SubscriptionStatus.CANCELED:
        ended = f" on {format_day(end)}" if end and end <= now else ""
        return f"Your subscription was canceled{ended}. Live play needs a subscription."
    ended = f" on {format_day(end)}" if end else ""
    return f"Your subscription ended{ended}. Live play needs a subscription."


def live_access_denied_message(user, now: dt.datetime | None = None) -> str:
    """What to tell a player who was refused live play: why, and where to get a plan.

    Ends with the pricing URL, e.g.
    "Live play needs a subscription. See plans: /accounts/pricing/".
    Websocket consumers send this text as is.
    """
    reason = live_access_denied_reason(user, now)
    if has_live_access(user, now):
        return reason
    return f"{reason} See plans: {pricing_url()}"


def live_access_action(user) -> tuple[str, str]:
    """Where a player refused live play goes next, as (url, label): their payment details
    when a payment failed, else the plans."""
    if getattr(user, "is_guest", False):
        return reverse("accounts:signup"), "Sign up free"
    subscription = subscription_for(user) if getattr(user, "is_authenticated", False) else None
    if subscription is not None and subscription.status == SubscriptionStatus.PAST_DUE:
        return reverse("accounts:profile") + "#subscription", "Update your payment"
    return pricing_url(), "See plans"


def subscription_summary(user, now: dt.datetime | None = None) -> dict:
    """What the profile page shows about a player's plan.

    Returns ``{"subscription", "has_live_access", "headline", "detail", "tone"}`` where
    ``headline`` reads like "Active until 3 Jan 2027" or "Past due — update your payment" and
    ``tone`` is one of "ok", "warn", "off" for styling.
    """
    now = now or timezone.now()
    subscription = subscription_for(user)
    access_until = live_access_until(subscription, now)
    summary = {
        "subscription": subscription,
        "has_live_access": access_until is not None,
        "headline": "No subscription",
        "detail": "Solo play and learning are free. Live play needs a subscription.",
        "tone": "off",
    }
    if subscription is None:
        return summary
    status = subscription.status
    end = subscription.current_period_end
    plan = subscription.get_plan_display()
    if access_until is not None and status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING):
        word = "Trial" if status == SubscriptionStatus.TRIALING else "Active"
        summary.update(headline=f"{word} until {format_day(end)}", tone="ok")
        if subscription.plan == Plan.GRANTED:
            summary["detail"] = "Granted by an admin. Live play is open."
        elif subscription.cancel_at_period_end:
            summary["detail"] = f"{plan} plan. It will not renew; live play stops after that day."
        else:
            summary["detail"] = f"{plan} plan. Renews automatically. Live play is open."
    elif status == SubscriptionStatus.PAST_DUE:
        summary.update(headline="Past due — update your payment", tone="warn")
        if access_until is not None:
            summary["detail"] = (
                "Your last payment failed. Live play stays open until "
                f"{format_day(access_until)}; update your payment before then."
            )
        else:
            summary["detail"] = (
                "Your last payment failed, so live play is paused until the payment goes through."
            )
    elif status == SubscriptionStatus.CANCELED:
        summary["headline"] = f"Canceled — ended {format_day(end)}" if end else "Canceled"
    elif status == SubscriptionStatus.INCOMPLETE:
        summary.update(
            headline="Awaiting payment",
            detail="Your subscription starts when the first payment goes through.",
            tone="warn",
        )
    else:  # active or trialing, but the period is over
        summary["headline"] = f"Expired on {format_day(end)}" if end else "Expired"
    return summary


def payments_configured() -> bool:
    """True when the site can take payments (Stripe secret key and price id are set)."""
    return bool(settings.STRIPE_SECRET_KEY and settings.STRIPE_PRICE_ID)


def checkout_offer(user, now: dt.datetime | None = None) -> str:
    """What the plans page offers ``user``, so nobody pays twice.

    * ``"not_configured"``: the site takes no payments (admins grant plans);
    * ``"sign_up"``: signed out;
    * ``"manage"``: already has a running paid plan;
    * ``"update_payment"``: a paid plan whose payment failed — fix it, don't buy another;
    * ``"subscribe"``: everyone else (no plan, lapsed, canceled, or an admin grant).
    """
    if not payments_configured():
        return "not_configured"
    if user is None or not getattr(user, "is_authenticated", False):
        return "sign_up"
    subscription = subscription_for(user)
    if subscription is None or subscription.plan == Plan.GRANTED:
        return "subscribe"
    if subscription.status == SubscriptionStatus.PAST_DUE and subscription.stripe_subscription_id:
        return "update_payment"
    if subscription.status in (SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING) and (
        subscription_gives_live_access(subscription, now)
    ):
        return "manage"
    return "subscribe"
