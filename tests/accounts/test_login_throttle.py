"""Failed logins are throttled: an account is locked for the client address that failed on it
(django-axes, by username and address together), so its owner still logs in from elsewhere;
an address that fails on many accounts is refused (accounts.limits). After the limit the form
says when to try again, tries while locked do not extend the lock, and staff unlock in the
admin."""
import re

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN = "accounts:login"


def attempt(client, username, password, address="10.0.0.1"):
    return client.post(reverse(LOGIN), {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def fail_until_locked(client, username, settings, address="10.0.0.1"):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = attempt(client, username, "wrong-password", address)
        assert response.status_code in (200, 429)


def test_an_account_is_locked_after_the_failure_limit_even_with_the_right_password(client, player, password, settings):
    fail_until_locked(client, "alice", settings)
    response = attempt(client, "alice", password)
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" in text
    minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    assert f"paused for {minutes} minutes" in text and re.search(r"try again after \d\d:\d\d", text)
    assert not logged_in(client)


def test_the_owner_still_logs_in_from_their_own_address(client, player, password, settings):
    fail_until_locked(client, "alice", settings)
    assert attempt(Client(), "alice", password).status_code == 429, "locked for the address that failed"
    owner = Client()
    assert attempt(owner, "alice", password, address="10.9.9.9").status_code == 302
    assert logged_in(owner)


def test_tries_while_locked_do_not_extend_the_lock(client, player, password, settings):
    fail_until_locked(client, "alice", settings)
    locked_at = AccessAttempt.objects.get(username="alice").attempt_time
    for _ in range(5):
        assert attempt(client, "alice", "wrong-again").status_code == 429
    assert AccessAttempt.objects.get(username="alice").attempt_time == locked_at


def test_other_accounts_are_not_locked(client, player, make_user, password, settings):
    make_user("bob")
    fail_until_locked(client, "alice", settings)
    other = Client()
    assert attempt(other, "bob", password, address="10.9.9.9").status_code == 302
    assert logged_in(other)


def test_a_client_trying_many_accounts_is_refused_by_its_address(player, make_user, password, settings):
    settings.FAILED_LOGINS_PER_ADDRESS = "25/h"
    guesser = Client()
    answers = [attempt(guesser, f"nobody{number}", "guess", address="10.6.6.6").status_code for number in range(30)]
    assert answers[:26] == [200] * 26 and answers[26:] == [429] * 4, answers
    refused = attempt(guesser, "alice", password, address="10.6.6.6")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many failed logins from your network" in refused.content.decode()
    elsewhere = Client()
    assert attempt(elsewhere, "alice", password, address="10.1.1.1").status_code == 302


def test_three_hundred_wrong_passwords_do_not_all_get_checked(client, player, settings):
    answers = [attempt(client, "alice", f"guess-{n}").status_code for n in range(300)]
    assert answers.count(200) == settings.AXES_FAILURE_LIMIT - 1  # then every answer is a refusal
    assert answers[settings.AXES_FAILURE_LIMIT:] == [429] * (300 - settings.AXES_FAILURE_LIMIT)


def test_staff_unlock_an_account_in_the_admin(client, player, password, settings, django_user_model):
    fail_until_locked(client, "alice", settings)
    assert AccessAttempt.objects.filter(username="alice").exists()
    staff = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-boss-long-1")
    admin = Client()
    admin.force_login(staff)
    listing = admin.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    ids = list(AccessAttempt.objects.filter(username="alice").values_list("pk", flat=True))
    response = admin.post(reverse("admin:axes_accessattempt_changelist"),
                          {"action": "delete_selected", "_selected_action": ids, "post": "yes"})
    assert response.status_code == 302
    assert attempt(Client(), "alice", password, address="10.2.2.2").status_code == 302


def test_behind_a_proxy_the_lock_and_the_limits_read_the_header_the_proxy_sets(client, player, password, settings):
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_REAL_IP", "REMOTE_ADDR")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse(LOGIN), {"username": "alice", "password": "wrong"}, REMOTE_ADDR="10.0.0.9",
                    HTTP_X_REAL_IP="203.0.113.5")
    assert AccessAttempt.objects.get(username="alice").ip_address == "203.0.113.5"
    owner = Client()
    response = owner.post(reverse(LOGIN), {"username": "alice", "password": password}, REMOTE_ADDR="10.0.0.9",
                          HTTP_X_REAL_IP="198.51.100.7")
    assert response.status_code == 302, "another client behind the same proxy is not locked"
