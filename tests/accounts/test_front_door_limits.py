"""The front door's limits (accounts.limits): one client cannot make guests without end, nor
have password-reset e-mails sent without end; a refusal says when to try again (HTTP 429 with
Retry-After), other addresses are not affected, and the reset page never tells whether an
account uses an address."""
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Table

pytestmark = pytest.mark.django_db


def play_now(address: str, client=None):
    return (client or Client()).post(reverse("solo:play_now"), REMOTE_ADDR=address)


def test_guests_are_limited_per_client_address_with_a_page_that_says_when(settings):
    settings.GUESTS_PER_ADDRESS = "5/h"
    answers = [play_now("10.3.3.3").status_code for _ in range(8)]
    assert answers == [302] * 5 + [429] * 3
    assert User.objects.filter(is_guest=True).count() == 5 and Table.objects.count() == 5

    refused = play_now("10.3.3.3")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    text = refused.content.decode()
    assert "Too many new games without an account from your network" in text
    assert re.search(r"try again in \d+ minutes?", text)

    assert play_now("10.4.4.4").status_code == 302, "another address is not affected"
    assert User.objects.filter(is_guest=True).count() == 6


def test_a_guest_already_made_and_a_signed_in_player_play_on_from_a_limited_address(settings, make_user):
    settings.GUESTS_PER_ADDRESS = "1/h"
    guest = Client()
    assert play_now("10.5.5.5", guest).status_code == 302
    assert play_now("10.5.5.5").status_code == 429
    assert play_now("10.5.5.5", guest).status_code == 302, "the guest's second game"
    member = Client()
    member.force_login(make_user("mia"))
    assert play_now("10.5.5.5", member).status_code == 302
    assert User.objects.filter(is_guest=True).count() == 1


def reset(email: str, address: str):
    return Client().post(reverse("accounts:password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_reset_emails_to_one_address_are_limited_and_the_page_answers_the_same(settings, player):
    settings.RESET_EMAILS_PER_EMAIL = "3/h"
    answers = [reset(player.email, f"10.7.0.{n}") for n in range(10)]
    assert len(mail.outbox) == 3 and all(message.to == [player.email] for message in mail.outbox)
    done = reverse("accounts:password_reset_done")
    assert {(answer.status_code, answer["Location"]) for answer in answers} == {(302, done)}
    unknown = reset("nobody@example.com", "10.7.1.1")
    assert (unknown.status_code, unknown["Location"]) == (302, done), "no account probing"
    assert len(mail.outbox) == 3


def test_reset_requests_from_one_client_are_limited(settings, player):
    settings.RESET_EMAILS_PER_ADDRESS = "4/h"
    answers = [reset(f"someone{n}@example.com", "10.8.8.8").status_code for n in range(6)]
    assert answers == [302] * 4 + [429] * 2
    refused = reset(player.email, "10.8.8.8")
    assert refused.status_code == 429 and "Too many password-reset requests" in refused.content.decode()
    assert not mail.outbox
    assert reset(player.email, "10.8.8.9").status_code == 302 and len(mail.outbox) == 1
