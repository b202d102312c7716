import datetime as dt
import json

import pytest
from django.utils import timezone

from accounts.models import Subscription
from tests.accounts.stripe_events import sign

PASSWORD = "Tr1cky-Queen-of-Spades"
WEBHOOK_SECRET = "whsec_test_secret"


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def make_user(django_user_model):
    def make(username="alice", **fields):
        fields.setdefault("email", f"{username}@example.com")
        return django_user_model.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def player(make_user):
    return make_user("alice", display_name="Alice")


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def now():
    return timezone.now()


@pytest.fixture
def make_subscription(now):
    def make(user, status="active", period_end=dt.timedelta(days=10), **fields):
        if isinstance(period_end, dt.timedelta):
            period_end = now + period_end
        return Subscription.objects.create(
            user=user, status=status, current_period_end=period_end, **fields
        )

    return make


@pytest.fixture
def webhook_secret(settings):
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    return WEBHOOK_SECRET


@pytest.fixture
def payments_on(settings):
    settings.STRIPE_SECRET_KEY = "sk_test_not_a_real_key"
    settings.STRIPE_PRICE_ID = "price_live_play"


@pytest.fixture
def payments_off(settings):
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_PRICE_ID = ""


@pytest.fixture
def post_event(client, webhook_secret):
    """POST a Stripe event (a dict) to the webhook, signed with the test's secret."""

    def post(event: dict, *, secret: str = webhook_secret, signature: str | None = None):
        payload = json.dumps(event)
        header = signature if signature is not None else sign(payload, secret)
        return client.post(
            "/accounts/stripe/webhook/",
            data=payload,
            content_type="application/json",
            headers={"Stripe-Signature": header},
        )

    return post
