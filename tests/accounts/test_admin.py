import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Subscription
from accounts.selectors import has_live_access

pytestmark = pytest.mark.django_db


def _action(admin_client, changelist, action, pks):
    return admin_client.post(
        reverse(changelist), {"action": action, "_selected_action": [str(pk) for pk in pks]}, follow=True
    )


def test_grant_a_30_day_plan_from_the_user_list(admin_client, player):
    response = _action(admin_client, "admin:accounts_user_changelist", "grant_month", [player.pk])
    assert response.status_code == 200
    assert "Granted 30 days to Alice" in response.content.decode()
    sub = Subscription.objects.get(user=player)
    assert (sub.plan, sub.status) == ("granted", "active")
    assert abs(sub.current_period_end - (timezone.now() + dt.timedelta(days=30))) < dt.timedelta(minutes=1)
    assert has_live_access(player)


def test_grant_a_year_from_the_subscription_list_extends_a_running_plan(admin_client, player, make_subscription, now):
    sub = make_subscription(player, period_end=dt.timedelta(days=10))
    _action(admin_client, "admin:accounts_subscription_changelist", "grant_year", [sub.pk])
    sub.refresh_from_db()
    assert sub.plan == "granted"
    assert abs(sub.current_period_end - (now + dt.timedelta(days=375))) < dt.timedelta(minutes=1)


def test_grant_after_expiry_starts_from_now(admin_client, player, make_subscription, now):
    sub = make_subscription(player, status="canceled", period_end=-dt.timedelta(days=100))
    _action(admin_client, "admin:accounts_subscription_changelist", "grant_month", [sub.pk])
    sub.refresh_from_db()
    assert sub.status == "active"
    assert sub.current_period_end > now + dt.timedelta(days=29)


def test_revoke(admin_client, player, make_subscription):
    sub = make_subscription(player)
    response = _action(admin_client, "admin:accounts_subscription_changelist", "revoke", [sub.pk])
    assert "Revoked live play for 1 player(s)" in response.content.decode()
    assert not has_live_access(player)


def test_revoke_from_the_user_list_without_a_subscription_is_harmless(admin_client, player):
    response = _action(admin_client, "admin:accounts_user_changelist", "revoke", [player.pk])
    assert response.status_code == 200
    assert not Subscription.objects.exists()


def test_subscription_changelist_filters_and_search(admin_client, player, make_user, make_subscription):
    make_subscription(player)
    make_subscription(make_user("bob"), status="canceled")
    url = reverse("admin:accounts_subscription_changelist")
    page = admin_client.get(url, {"status__exact": "active"}).content.decode()
    assert "Alice" in page and "bob" not in page.split("result_list")[1]
    page = admin_client.get(url, {"q": "bob@example.com"}).content.decode()
    assert "1 result" in page
    page = admin_client.get(url, {"plan__exact": "granted"}).content.decode()
    assert "0 results" in page


def test_user_change_page_shows_the_subscription_inline(admin_client, player, make_subscription):
    make_subscription(player, stripe_customer_id="cus_inline")
    page = admin_client.get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()
    assert "cus_inline" in page
    assert "subscription-0-status" in page or "subscription-0-plan" in page


def test_provider_events_are_read_only(admin_client):
    assert admin_client.get(reverse("admin:accounts_providerevent_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:accounts_providerevent_add")).status_code == 403
