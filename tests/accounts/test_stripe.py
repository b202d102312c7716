import datetime as dt
import json
import time

import pytest
import stripe
from django.urls import reverse

from accounts.models import ProviderEvent, Subscription
from accounts.selectors import has_live_access
from accounts.billing import PROVISIONAL_CHECKOUT_ACCESS
from tests.accounts.stripe_events import (
    checkout_obj,
    event,
    invoice_obj,
    sign,
    subscription_obj,
)

pytestmark = pytest.mark.django_db

WEBHOOK = "/accounts/stripe/webhook/"
T0 = int(time.time()) - 3600  # event times: an hour ago onwards
MONTH = 30 * 24 * 3600


def _utc(timestamp: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(timestamp, tz=dt.timezone.utc)


def _subscription(user) -> Subscription:
    return Subscription.objects.get(user=user)


def _snapshot(user):
    s = Subscription.objects.filter(user=user).first()
    if s is None:
        return None
    return (s.plan, s.status, s.current_period_end, s.past_due_since, s.last_event_created,
            s.stripe_customer_id, s.stripe_subscription_id, s.cancel_at_period_end)


def test_webhook_url_name():
    assert reverse("accounts:stripe_webhook") == WEBHOOK


# --- signature and request checks ---------------------------------------------------------


def test_bad_signature_is_refused_and_changes_nothing(post_event, player):
    evt = event("evt_1", "customer.subscription.created", T0,
                subscription_obj(period_end=T0 + MONTH, user_id=player.pk))
    response = post_event(evt, secret="whsec_someone_else")
    assert response.status_code == 400
    assert "signature" in response.json()["error"].lower()
    assert not Subscription.objects.exists()
    assert not ProviderEvent.objects.exists()


def test_tampered_payload_is_refused(client, webhook_secret, player):
    evt = event("evt_1", "customer.subscription.created", T0,
                subscription_obj(period_end=T0 + MONTH, user_id=player.pk))
    header = sign(json.dumps(evt), webhook_secret)
    evt["data"]["object"]["status"] = "trialing"
    response = client.post(WEBHOOK, data=json.dumps(evt), content_type="application/json",
                           headers={"Stripe-Signature": header})
    assert response.status_code == 400
    assert not Subscription.objects.exists()


def test_missing_signature_header_is_refused(client, webhook_secret):
    response = client.post(WEBHOOK, data="{}", content_type="application/json")
    assert response.status_code == 400


def test_old_signature_timestamp_is_refused(post_event, webhook_secret, player):
    evt = event("evt_1", "customer.subscription.created", T0,
                subscription_obj(period_end=T0 + MONTH, user_id=player.pk))
    header = sign(json.dumps(evt), webhook_secret, timestamp=int(time.time()) - 3600)
    assert post_event(evt, signature=header).status_code == 400
    assert not Subscription.objects.exists()


def test_webhook_without_a_secret_answers_clearly(client, settings):
    settings.STRIPE_WEBHOOK_SECRET = ""
    response = client.post(WEBHOOK, data="{}", content_type="application/json",
                           headers={"Stripe-Signature": "t=1,v1=abc"})
    assert response.status_code == 503
    assert "STRIPE_WEBHOOK_SECRET" in response.json()["error"]


def test_webhook_is_post_only(client, webhook_secret):
    assert client.get(WEBHOOK).status_code == 405


def test_webhook_needs_no_csrf_token(webhook_secret, player):
    from django.test import Client

    evt = event("evt_x", "charge.refunded", T0, {"id": "ch_1", "object": "charge"})
    payload = json.dumps(evt)
    response = Client(enforce_csrf_checks=True).post(
        WEBHOOK, data=payload, content_type="application/json",
        headers={"Stripe-Signature": sign(payload, webhook_secret)},
    )
    assert response.status_code == 200


def test_unknown_event_types_are_acknowledged_and_ignored(post_event, player):
    response = post_event(event("evt_x", "charge.refunded", T0, {"id": "ch_1", "object": "charge"}))
    assert response.status_code == 200
    assert response.json()["outcome"] == "ignored"
    assert not Subscription.objects.exists()


# --- applying events ---------------------------------------------------------------------


def test_checkout_completed_links_the_player_and_opens_live_play(post_event, player):
    response = post_event(event("evt_cs", "checkout.session.completed", T0, checkout_obj(user_id=player.pk)))
    assert response.status_code == 200
    assert response.json()["outcome"] == "applied"
    sub = _subscription(player)
    assert (sub.stripe_customer_id, sub.stripe_subscription_id) == ("cus_123", "sub_123")
    assert sub.status == "active"
    assert sub.current_period_end == _utc(T0) + PROVISIONAL_CHECKOUT_ACCESS
    assert has_live_access(player)


def test_checkout_not_yet_paid_links_but_does_not_open(post_event, player):
    post_event(event("evt_cs", "checkout.session.completed", T0,
                     checkout_obj(user_id=player.pk, payment_status="unpaid")))
    sub = _subscription(player)
    assert sub.stripe_customer_id == "cus_123"
    assert not has_live_access(player)


def test_subscription_created_sets_plan_status_and_period(post_event, player):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + 365 * 86400, user_id=player.pk, interval="year")))
    sub = _subscription(player)
    assert (sub.plan, sub.status) == ("yearly", "active")
    assert sub.current_period_end == _utc(T0 + 365 * 86400)
    assert sub.last_event_created == _utc(T0)
    assert has_live_access(player)


def test_older_api_shape_with_period_end_on_the_subscription(post_event, player):
    obj = subscription_obj(period_end=0, user_id=player.pk)
    obj["items"]["data"][0].pop("current_period_end")
    obj["current_period_end"] = T0 + MONTH
    post_event(event("evt_1", "customer.subscription.created", T0, obj))
    assert _subscription(player).current_period_end == _utc(T0 + MONTH)


def test_the_same_event_twice_changes_nothing(post_event, player):
    created = event("evt_created", "customer.subscription.created", T0,
                    subscription_obj(period_end=T0 + MONTH, user_id=player.pk))
    assert post_event(created).json()["outcome"] == "applied"
    before = _snapshot(player)

    response = post_event(created)
    assert response.status_code == 200
    assert response.json()["outcome"] == "duplicate"
    assert _snapshot(player) == before
    assert ProviderEvent.objects.filter(event_id="evt_created").count() == 1


def test_a_redelivered_old_event_does_not_undo_a_newer_one(post_event, player):
    created = event("evt_created", "customer.subscription.created", T0,
                    subscription_obj(period_end=T0 + MONTH, user_id=player.pk))
    deleted = event("evt_deleted", "customer.subscription.deleted", T0 + 60,
                    subscription_obj(status="canceled", period_end=T0 + MONTH, ended_at=T0 + 60))
    post_event(created)
    post_event(deleted)
    assert post_event(created).json()["outcome"] == "duplicate"
    sub = _subscription(player)
    assert sub.status == "canceled"
    assert not has_live_access(player)


def test_out_of_order_events_do_not_regress_state(post_event, player):
    newer = event("evt_2", "customer.subscription.updated", T0 + 120,
                  subscription_obj(status="canceled", period_end=T0 + MONTH, user_id=player.pk))
    older = event("evt_1", "customer.subscription.updated", T0 + 60,
                  subscription_obj(status="active", period_end=T0 + MONTH, user_id=player.pk))
    assert post_event(newer).json()["outcome"] == "applied"
    response = post_event(older)
    assert response.status_code == 200
    assert response.json()["outcome"] == "stale"
    sub = _subscription(player)
    assert sub.status == "canceled"
    assert sub.last_event_created == _utc(T0 + 120)
    assert ProviderEvent.objects.get(event_id="evt_1").outcome == "stale"


def test_events_in_the_same_second_all_apply(post_event, player):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(status="incomplete", period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_2", "customer.subscription.updated", T0,
                     subscription_obj(status="active", period_end=T0 + MONTH, user_id=player.pk)))
    assert _subscription(player).status == "active"


def test_checkout_after_the_subscription_event_keeps_the_real_period(post_event, player):
    post_event(event("evt_sub", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_cs", "checkout.session.completed", T0 + 1, checkout_obj(user_id=player.pk)))
    assert _subscription(player).current_period_end == _utc(T0 + MONTH)


def test_subscription_event_older_than_checkout_still_applies(post_event, player):
    """Stripe creates the subscription a moment before the checkout completes."""
    post_event(event("evt_cs", "checkout.session.completed", T0 + 1, checkout_obj(user_id=player.pk)))
    response = post_event(event("evt_sub", "customer.subscription.created", T0,
                                subscription_obj(period_end=T0 + MONTH)))  # no metadata: found by ids
    assert response.json()["outcome"] == "applied"
    assert _subscription(player).current_period_end == _utc(T0 + MONTH)


@pytest.mark.parametrize("new_shape", [True, False], ids=["invoice.parent", "invoice.subscription"])
def test_payment_failed_makes_it_past_due_with_a_grace_period(post_event, player, new_shape):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    response = post_event(event("evt_2", "invoice.payment_failed", T0 + 60, invoice_obj(new_shape=new_shape)))
    assert response.json()["outcome"] == "applied"
    sub = _subscription(player)
    assert sub.status == "past_due"
    assert sub.past_due_since == _utc(T0 + 60)
    assert has_live_access(player)  # within the grace period
    assert not has_live_access(player, now=_utc(T0 + 60) + dt.timedelta(days=4))


def test_payment_recovered_clears_past_due(post_event, player):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_2", "invoice.payment_failed", T0 + 60, invoice_obj()))
    post_event(event("evt_3", "customer.subscription.updated", T0 + 120,
                     subscription_obj(status="active", period_end=T0 + 2 * MONTH)))
    sub = _subscription(player)
    assert (sub.status, sub.past_due_since) == ("active", None)
    assert sub.current_period_end == _utc(T0 + 2 * MONTH)


def test_a_late_payment_failure_does_not_undo_a_recovery(post_event, player):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_3", "customer.subscription.updated", T0 + 120,
                     subscription_obj(status="active", period_end=T0 + 2 * MONTH)))
    response = post_event(event("evt_2", "invoice.payment_failed", T0 + 60, invoice_obj()))
    assert response.json()["outcome"] == "stale"
    assert _subscription(player).status == "active"


def test_subscription_past_due_status_starts_the_grace_once(post_event, player):
    post_event(event("evt_1", "customer.subscription.updated", T0,
                     subscription_obj(status="past_due", period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_2", "customer.subscription.updated", T0 + 600,
                     subscription_obj(status="past_due", period_end=T0 + MONTH, user_id=player.pk)))
    assert _subscription(player).past_due_since == _utc(T0)


def test_subscription_deleted_ends_live_play(post_event, player):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_2", "customer.subscription.deleted", T0 + 60,
                     subscription_obj(status="canceled", period_end=T0 + MONTH, ended_at=T0 + 60)))
    sub = _subscription(player)
    assert sub.status == "canceled"
    assert sub.current_period_end == _utc(T0 + 60)
    assert not has_live_access(player)


def test_deleting_a_duplicate_subscription_keeps_the_live_one(post_event, player):
    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    post_event(event("evt_2", "customer.subscription.deleted", T0 + 60,
                     subscription_obj(sub_id="sub_other", status="canceled", period_end=T0 + MONTH)))
    sub = _subscription(player)
    assert (sub.status, sub.stripe_subscription_id) == ("active", "sub_123")


def test_resubscribing_after_a_cancel_follows_the_new_subscription(post_event, player):
    post_event(event("evt_1", "customer.subscription.deleted", T0,
                     subscription_obj(status="canceled", period_end=T0, user_id=player.pk, ended_at=T0)))
    post_event(event("evt_2", "customer.subscription.created", T0 + 60,
                     subscription_obj(sub_id="sub_new", period_end=T0 + MONTH)))
    sub = _subscription(player)
    assert (sub.status, sub.stripe_subscription_id) == ("active", "sub_new")


def test_events_for_nobody_are_acknowledged_but_not_recorded(post_event, player):
    response = post_event(event("evt_1", "customer.subscription.updated", T0,
                                subscription_obj(period_end=T0 + MONTH, customer="cus_unknown")))
    assert response.status_code == 200
    assert response.json()["outcome"] == "unmatched"
    assert not ProviderEvent.objects.exists()
    assert not Subscription.objects.exists()


def test_a_provider_event_overrides_an_admin_grant_for_that_customer(post_event, player):
    from accounts.billing import grant_plan

    post_event(event("evt_1", "customer.subscription.created", T0,
                     subscription_obj(period_end=T0 + MONTH, user_id=player.pk)))
    grant_plan(player, dt.timedelta(days=30))
    assert _subscription(player).plan == "granted"
    post_event(event("evt_2", "customer.subscription.updated", T0 + 60,
                     subscription_obj(period_end=T0 + 2 * MONTH)))
    assert _subscription(player).plan == "monthly"


# --- checkout ----------------------------------------------------------------------------


def test_pricing_page_without_keys_says_payments_are_not_configured(client, payments_off):
    response = client.get(reverse("accounts:pricing"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Payments are not configured on this site" in page
    assert "contact an admin" in page
    assert reverse("accounts:checkout") not in page


def test_checkout_without_keys_answers_clearly(player_client, payments_off):
    response = player_client.post(reverse("accounts:checkout"))
    assert response.status_code == 503
    assert "Payments are not configured on this site" in response.content.decode()


def test_checkout_needs_login_and_post(client, player_client, payments_on):
    from django.test import Client

    response = Client().post(reverse("accounts:checkout"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert player_client.get(reverse("accounts:checkout")).status_code == 405


def test_checkout_creates_a_stripe_session(player_client, player, payments_on, monkeypatch):
    calls = []

    def fake_create(**params):
        calls.append(params)
        return stripe.checkout.Session.construct_from(
            {"id": "cs_test_1", "object": "checkout.session", "url": "https://checkout.stripe.test/cs_test_1"},
            "sk_test_not_a_real_key",
        )

    monkeypatch.setattr(stripe.checkout.Session, "create", fake_create)
    response = player_client.post(reverse("accounts:checkout"))
    assert response.status_code == 302
    assert response["Location"] == "https://checkout.stripe.test/cs_test_1"
    (params,) = calls
    assert params["mode"] == "subscription"
    assert params["client_reference_id"] == str(player.pk)
    assert params["line_items"] == [{"price": "price_live_play", "quantity": 1}]
    assert params["success_url"] == "http://testserver/accounts/profile/?checkout=success"
    assert params["cancel_url"] == "http://testserver/accounts/pricing/?checkout=canceled"
    assert params["subscription_data"] == {"metadata": {"user_id": str(player.pk)}}
    assert params["customer_email"] == player.email
    assert params["api_key"] == "sk_test_not_a_real_key"


def test_checkout_reuses_a_known_customer(player_client, player, payments_on, monkeypatch, make_subscription):
    make_subscription(player, status="canceled", period_end=-dt.timedelta(days=1), stripe_customer_id="cus_9")
    calls = []
    monkeypatch.setattr(
        stripe.checkout.Session, "create",
        lambda **params: calls.append(params) or stripe.checkout.Session.construct_from(
            {"id": "cs_2", "url": "https://checkout.stripe.test/cs_2"}, "k"),
    )
    player_client.post(reverse("accounts:checkout"))
    assert calls[0]["customer"] == "cus_9"
    assert "customer_email" not in calls[0]


def test_checkout_when_the_provider_fails(player_client, payments_on, monkeypatch):
    def boom(**params):
        raise stripe.APIConnectionError("network down")

    monkeypatch.setattr(stripe.checkout.Session, "create", boom)
    response = player_client.post(reverse("accounts:checkout"))
    assert response.status_code == 502
    assert "Nothing was charged" in response.content.decode()


def test_checkout_for_a_current_subscriber_goes_to_the_profile(player_client, player, payments_on, make_subscription):
    make_subscription(player, status="active")
    response = player_client.post(reverse("accounts:checkout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")


def test_pricing_page_with_keys_offers_to_subscribe(player_client, payments_on):
    page = player_client.get(reverse("accounts:pricing")).content.decode()
    assert f'action="{reverse("accounts:checkout")}"' in page
    assert "csrfmiddlewaretoken" in page
    assert "Payments are not configured" not in page


def test_pricing_page_for_visitors_invites_sign_up(client, payments_on):
    page = client.get(reverse("accounts:pricing")).content.decode()
    assert "Sign up to subscribe" in page


def test_billing_portal_without_a_customer_explains(player_client, payments_on):
    response = player_client.post(reverse("accounts:billing_portal"), follow=True)
    assert "Subscribe from the plans page first" in response.content.decode()


def test_billing_portal_opens_for_a_customer(player_client, player, payments_on, monkeypatch, make_subscription):
    make_subscription(player, stripe_customer_id="cus_9")
    seen = {}

    def fake_create(**params):
        seen.update(params)
        return stripe.billing_portal.Session.construct_from({"id": "bps_1", "url": "https://billing.stripe.test/p"}, "k")

    monkeypatch.setattr(stripe.billing_portal.Session, "create", fake_create)
    response = player_client.post(reverse("accounts:billing_portal"))
    assert response["Location"] == "https://billing.stripe.test/p"
    assert seen["customer"] == "cus_9"
    assert seen["return_url"] == "http://testserver/accounts/profile/"


def test_a_past_due_subscriber_is_sent_to_fix_the_payment_not_to_pay_twice(
    player_client, player, payments_on, make_subscription, now, monkeypatch
):
    make_subscription(player, status="past_due", past_due_since=now, stripe_customer_id="cus_1",
                      stripe_subscription_id="sub_1")
    monkeypatch.setattr(stripe.checkout.Session, "create", lambda **p: pytest.fail("no second plan"))
    page = player_client.get(reverse("accounts:pricing")).content.decode()
    assert f'action="{reverse("accounts:billing_portal")}"' in page
    assert f'action="{reverse("accounts:checkout")}"' not in page
    response = player_client.post(reverse("accounts:checkout"), follow=True)
    assert "update your payment instead of buying a second plan" in response.content.decode()


def test_a_player_with_an_admin_grant_may_still_subscribe(player_client, player, payments_on, make_subscription):
    make_subscription(player, plan="granted")
    page = player_client.get(reverse("accounts:pricing")).content.decode()
    assert f'action="{reverse("accounts:checkout")}"' in page
