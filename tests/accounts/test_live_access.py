import datetime as dt
import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.selectors import (
    PAST_DUE_GRACE,
    has_live_access,
    live_access_denied_message,
)

pytestmark = pytest.mark.django_db

DAY = dt.timedelta(days=1)

# (status, period end relative to now, past_due_since relative to now, expected access)
CASES = {
    "active": ("active", 10 * DAY, None, True),
    "trialing": ("trialing", 5 * DAY, None, True),
    "expired active": ("active", -DAY, None, False),
    "expired trial": ("trialing", -dt.timedelta(seconds=1), None, False),
    "past due within grace": ("past_due", 20 * DAY, -DAY, True),
    "past due after grace": ("past_due", 20 * DAY, -(PAST_DUE_GRACE + DAY), False),
    "past due, failure time unknown, period just ended": ("past_due", -DAY, None, True),
    "past due, failure time unknown, long ended": ("past_due", -10 * DAY, None, False),
    "canceled with time left": ("canceled", 10 * DAY, None, False),
    "canceled": ("canceled", -DAY, None, False),
    "incomplete": ("incomplete", 10 * DAY, None, False),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_has_live_access(case, player, make_subscription, now):
    status, period_end, past_due_since, expected = CASES[case]
    make_subscription(
        player,
        status=status,
        period_end=period_end,
        past_due_since=now + past_due_since if past_due_since is not None else None,
    )
    assert has_live_access(player, now=now) is expected


def test_active_with_no_period_end_gives_no_access(player, make_subscription):
    make_subscription(player, status="active", period_end=None)
    assert has_live_access(player) is False


def test_no_subscription_and_anonymous_have_no_live_access(player):
    assert has_live_access(player) is False
    assert has_live_access(AnonymousUser()) is False
    assert has_live_access(None) is False


def test_access_ends_exactly_at_the_period_end(player, make_subscription, now):
    subscription = make_subscription(player, period_end=DAY)
    end = subscription.current_period_end
    assert has_live_access(player, now=end - dt.timedelta(seconds=1)) is True
    assert has_live_access(player, now=end) is False


def test_has_live_access_reads_fresh_state(player, make_subscription):
    """A long-lived consumer holding the same user object sees a revocation."""
    subscription = make_subscription(player)
    assert has_live_access(player) is True
    subscription.status = "canceled"
    subscription.save()
    assert has_live_access(player) is False



def test_denied_message_for_a_non_subscriber(player):
    assert live_access_denied_message(player) == (
        "Live play needs a subscription. See plans: /accounts/pricing/"
    )


@pytest.mark.parametrize(
    "status, period_end, past_due_since, phrase",
    [
        ("active", -DAY, None, "Your subscription ended on"),
        ("canceled", -DAY, None, "Your subscription was canceled on"),
        ("past_due", 20 * DAY, -10 * DAY, "your last payment failed"),
        ("incomplete", None, None, "waiting for its first payment"),
    ],
)
def test_denied_message_says_why(player, make_subscription, now, status, period_end, past_due_since, phrase):
    make_subscription(
        player,
        status=status,
        period_end=period_end,
        past_due_since=now + past_due_since if past_due_since is not None else None,
    )
    message = live_access_denied_message(player)
    assert phrase in message
    assert message.endswith("See plans: /accounts/pricing/")


def test_denied_message_for_anonymous():
    message = live_access_denied_message(AnonymousUser())
    assert message.startswith("Log in to play live.")
    assert "/accounts/pricing/" in message


# --- the decorator -----------------------------------------------------------------------

gate = pytest.mark.urls("tests.accounts.urls")
HTMX = {"HX-Request": "true"}


@gate
def test_decorator_redirects_anonymous_visitors_to_login(client):
    response = client.get("/test-live/new/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/test-live/new/"


@gate
def test_decorator_sends_htmx_anonymous_visitors_to_login_with_hx_redirect(client):
    response = client.get("/test-live/new/", headers=HTMX)
    assert response["HX-Redirect"] == "/accounts/login/?next=/test-live/new/"


@gate
@pytest.mark.parametrize(
    "case", ["expired active", "past due after grace", "canceled", "incomplete"]
)
def test_decorator_refuses_lapsed_subscribers(case, player_client, player, make_subscription, now):
    status, period_end, past_due_since, _ = CASES[case]
    make_subscription(
        player,
        status=status,
        period_end=period_end,
        past_due_since=now + past_due_since if past_due_since is not None else None,
    )
    response = player_client.get("/test-live/new/")
    assert response.status_code == 402
    assert b"live table ready" not in response.content
    assert b'href="/accounts/pricing/"' in response.content


@gate
def test_decorator_refuses_a_non_subscriber_with_a_clear_page(player_client):
    response = player_client.get("/test-live/new/")
    assert response.status_code == 402
    page = response.content.decode()
    assert "Live play needs a subscription" in page
    assert 'href="/accounts/pricing/"' in page
    assert "Solo play and learning stay free." in page


@gate
def test_decorator_gives_htmx_requests_a_fragment(player_client):
    response = player_client.post("/test-live/new/", headers=HTMX)
    assert response.status_code == 200  # htmx swaps only 2xx by default
    page = response.content.decode()
    assert "<html" not in page
    assert "Live play needs a subscription. See plans: /accounts/pricing/" in page
    trigger = json.loads(response["HX-Trigger"])
    assert trigger["live-access-denied"]["pricing_url"] == "/accounts/pricing/"


@gate
@pytest.mark.parametrize("case", ["active", "trialing", "past due within grace"])
def test_decorator_lets_subscribers_through(case, player_client, player, make_subscription, now):
    status, period_end, past_due_since, _ = CASES[case]
    make_subscription(
        player,
        status=status,
        period_end=period_end,
        past_due_since=now + past_due_since if past_due_since is not None else None,
    )
    response = player_client.get("/test-live/new/")
    assert response.status_code == 200
    assert response.content == b"live table ready"


def test_denied_message_for_someone_with_access(player, make_subscription):
    make_subscription(player)
    assert live_access_denied_message(player) == "You have live access."


@gate
def test_decorator_points_past_due_players_to_their_payment(player_client, player, make_subscription, now):
    make_subscription(player, status="past_due", past_due_since=now - 10 * DAY)
    response = player_client.get("/test-live/new/")
    assert response.status_code == 402
    page = response.content.decode()
    assert "Update your payment" in page
    assert 'href="/accounts/profile/#subscription"' in page


@gate
def test_decorator_works_on_async_views(client, player_client, player, make_subscription):
    assert Client().get("/test-live/new-async/").status_code == 302
    assert player_client.get("/test-live/new-async/").status_code == 402
    make_subscription(player)
    response = player_client.get("/test-live/new-async/")
    assert response.content == b"async live table ready"
