"""Stripe events as the provider sends them, built locally (no network)."""
import datetime as dt
import hashlib
import hmac
import time


def sign(payload: str, secret: str, timestamp: int | None = None) -> str:
    """The Stripe-Signature header Stripe would send for ``payload``."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def ts(moment: dt.datetime) -> int:
    return int(moment.timestamp())


def event(event_id: str, event_type: str, created: int, obj: dict) -> dict:
    return {
        "id": event_id,
        "object": "event",
        "api_version": "2025-03-31.basil",
        "created": created,
        "livemode": False,
        "pending_webhooks": 1,
        "type": event_type,
        "data": {"object": obj},
    }


def subscription_obj(
    *,
    status="active",
    period_end: int,
    sub_id="sub_123",
    customer="cus_123",
    user_id=None,
    interval="month",
    cancel_at_period_end=False,
    **extra,
) -> dict:
    obj = {
        "id": sub_id,
        "object": "subscription",
        "customer": customer,
        "status": status,
        "cancel_at_period_end": cancel_at_period_end,
        "metadata": {"user_id": str(user_id)} if user_id is not None else {},
        "items": {
            "object": "list",
            "data": [
                {
                    "id": "si_1",
                    "object": "subscription_item",
                    "current_period_end": period_end,
                    "price": {"id": "price_live_play", "object": "price", "recurring": {"interval": interval}},
                }
            ],
        },
    }
    obj.update(extra)
    return obj


def checkout_obj(*, user_id, customer="cus_123", sub_id="sub_123", payment_status="paid") -> dict:
    return {
        "id": "cs_test_1",
        "object": "checkout.session",
        "mode": "subscription",
        "client_reference_id": str(user_id),
        "customer": customer,
        "subscription": sub_id,
        "payment_status": payment_status,
        "metadata": {"user_id": str(user_id)},
    }


def invoice_obj(*, customer="cus_123", sub_id="sub_123", new_shape=True) -> dict:
    obj = {"id": "in_1", "object": "invoice", "customer": customer, "status": "open"}
    if new_shape:
        obj["parent"] = {"type": "subscription_details", "subscription_details": {"subscription": sub_id}}
    else:
        obj["subscription"] = sub_id
    return obj
