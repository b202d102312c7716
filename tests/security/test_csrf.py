"""CSRF: every view that could take a POST rejects one without the token (403), except the
Stripe webhook, which is signature-checked. Views are found by walking the URL resolver, so a
new form is covered the day it is added."""
import pytest
from django.conf import settings
from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret  # noqa: F401
from django.test import Client

from tests.security.urlwalk import walk

# Views allowed to skip CSRF, each with the reason. Nothing else may be csrf_exempt.
CSRF_EXEMPT_ALLOWED = {
    "accounts:stripe_webhook": "called by Stripe, checked with the webhook signature instead",
}

# Routes that cannot be built into a concrete URL (catch-alls); each must still be CSRF-protected.
UNBUILDABLE_ALLOWED: set = set()


def csrf_client(user=None) -> Client:
    """A browser that has a CSRF cookie (it visited the site) but forgets the token in the form."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    client.cookies[settings.CSRF_COOKIE_NAME] = "a" * 32
    return client


@pytest.mark.django_db
def test_every_route_can_be_reached_by_the_walk(route_samples):
    routes = walk(route_samples)
    assert len(routes) > 20, "the walk found the site's routes"
    missing = {route.pattern for route in routes if route.url is None} - UNBUILDABLE_ALLOWED
    assert not missing, f"routes the CSRF walk could not build a URL for (add a sample value): {missing}"


@pytest.mark.django_db
def test_only_the_stripe_webhook_is_csrf_exempt(route_samples):
    exempt = {route.name for route in walk(route_samples) if route.csrf_exempt}
    assert exempt == set(CSRF_EXEMPT_ALLOWED), f"unexpected csrf_exempt views: {exempt - set(CSRF_EXEMPT_ALLOWED)}"


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_post_without_csrf_token_is_rejected_everywhere(route_samples, ann, staff, who, htmx):
    user = {"anonymous": None, "player": ann, "staff": staff}[who]
    client = csrf_client(user)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    accepted = []
    for route in walk(route_samples):
        if route.url is None or route.name in CSRF_EXEMPT_ALLOWED:
            continue
        response = client.post(route.url, {"card": "QS", "cards": ["2C", "3C", "4C"], "seat": "0"}, **headers)
        if response.status_code != 403 or b"CSRF verification failed" not in response.content:
            accepted.append(f"{route.name} ({route.url}) -> {response.status_code}")
    assert not accepted, "POST without a CSRF token was not rejected by CSRF:\n" + "\n".join(accepted)


@pytest.mark.django_db
def test_the_same_post_with_the_token_gets_past_csrf(ann):
    """Control: the 403s above come from the missing token, not from something else."""
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/login/")
    token = page.cookies[settings.CSRF_COOKIE_NAME].value
    response = client.post("/accounts/login/", {"username": "ann", "password": "wrong", "csrfmiddlewaretoken": token})
    assert response.status_code == 200  # the form again, with its error: CSRF let it through
    response = client.post("/accounts/login/", {"username": "ann", "password": "wrong"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_stripe_webhook_without_a_valid_signature_is_refused(client, settings):
    settings.STRIPE_WEBHOOK_SECRET = "whsec_test_secret"
    response = client.post("/accounts/stripe/webhook/", b'{"id": "evt_1", "type": "x"}', content_type="application/json")
    assert response.status_code == 400
    response = client.post(
        "/accounts/stripe/webhook/", b'{"id": "evt_1"}', content_type="application/json",
        HTTP_STRIPE_SIGNATURE="t=1,v1=deadbeef",
    )
    assert response.status_code == 400
