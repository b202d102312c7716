"""Anyone plays at once, without an account: a guest is made for the browser; signing up
keeps the guest's games, logging in hands them to the account; live play needs an account;
guests nobody claims are deleted."""
import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import guests
from games.models import Action, Seat, Table
from games import storage

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "Tr1cky-Queen-of-Spades"


def play_now(client):
    response = client.post(reverse("solo:play_now"))
    assert response.status_code == 302
    return Table.objects.get(pk=int(response["Location"].strip("/").split("/")[1]))


def guest_of(client):
    return User.objects.get(pk=client.session["_auth_user_id"])


def play_a_card(client, table):

    table.refresh_from_db()
    game = storage.game_of(table)
    if 0 not in game.to_act:
        return False
    move = {"action": "pass", "cards": [str(c) for c in game.legal(0)[:3]]} if game.phase == "pass" else \
        {"action": "play", "card": str(game.legal(0)[0])}
    client.post(reverse("solo:act", args=[table.pk]), dict(move, version=table.version))
    return True


def test_the_home_page_deals_a_game_with_one_click_and_no_account():
    visitor = Client()
    home = visitor.get(reverse("home")).content.decode()
    assert 'id="play-now"' in home and "no sign-up needed" in home and reverse("solo:learn") in home
    table = play_now(visitor)
    guest = guest_of(visitor)
    assert guest.is_guest and not guest.has_usable_password()
    seats = list(table.seats.order_by("number"))
    assert seats[0].user == guest and [seat.bot_level for seat in seats[1:]] == ["medium"] * 3
    assert table.status == Table.Status.PLAYING
    page = visitor.get(reverse("solo:table", args=[table.pk]))
    assert page.status_code == 200 and "sign up to keep your games" in page.content.decode()
    assert play_a_card(visitor, table)
    assert Action.objects.filter(table=table, actor="person").exists()
    # resume later in the same browser
    assert reverse("solo:table", args=[table.pk]) in visitor.get(reverse("home")).content.decode()
    assert visitor.get(reverse("solo:my_games")).status_code == 200


def test_a_guest_can_choose_the_rules_learn_and_get_hints():
    visitor = Client()
    assert visitor.get(reverse("solo:new")).status_code == 200
    learn = visitor.post(reverse("solo:learn"))
    assert learn.status_code == 302
    lesson = Table.objects.get(kind=Table.Kind.LEARN)
    assert lesson.seats.get(number=0).user == guest_of(visitor)
    assert visitor.post(reverse("solo:hint", args=[lesson.pk])).status_code == 302


def test_signing_up_as_a_guest_keeps_the_same_player_and_games():
    visitor = Client()
    table = play_now(visitor)
    guest = guest_of(visitor)
    response = visitor.post(reverse("accounts:signup"), {
        "username": "newbie", "display_name": "New Bie", "email": "newbie@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302
    account = User.objects.get(username="newbie")
    assert account.pk == guest.pk and not account.is_guest and account.check_password(PASSWORD)
    assert table.seats.get(number=0).user_id == account.pk
    assert guest_of(visitor) == account


def test_logging_in_as_a_guest_hands_the_guests_games_to_the_account(django_user_model):
    account = django_user_model.objects.create_user("alice", password=PASSWORD, display_name="Alice")
    visitor = Client()
    table = play_now(visitor)
    guest = guest_of(visitor)
    login = visitor.get(reverse("accounts:login"))
    assert login.status_code == 200, "a guest may open the login page"
    response = visitor.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert guest_of(visitor) == account
    assert not User.objects.filter(pk=guest.pk).exists()
    table.refresh_from_db()
    assert table.host_id == account.pk and table.seats.get(number=0).user_id == account.pk
    assert reverse("solo:table", args=[table.pk]) in visitor.get(reverse("solo:my_games")).content.decode()


def test_live_play_tells_a_guest_it_needs_an_account(django_user_model):
    host = django_user_model.objects.create_user("host", display_name="Host")
    room = Table.objects.create(kind=Table.Kind.FRIENDS, host=host, rules={"players": 4}, seed=1)
    for number in range(4):
        Seat.objects.create(table=room, number=number, user=host if number == 0 else None)
    visitor = Client()
    play_now(visitor)
    lobby = visitor.get(reverse("live:lobby")).content.decode()
    assert "Live play needs an account and a subscription" in lobby and reverse("accounts:signup") in lobby
    visitor.post(reverse("live:take_seat", args=[room.code]))
    assert not room.seats.filter(user=guest_of(visitor)).exists()
    profile = visitor.get(reverse("accounts:profile"))
    assert profile.status_code == 302 and profile["Location"] == reverse("accounts:signup")


def test_guests_nobody_claims_are_deleted_with_their_games(django_user_model):
    old_visitor, recent_visitor = Client(), Client()
    old_table, recent_table = play_now(old_visitor), play_now(recent_visitor)
    old_guest, recent_guest = guest_of(old_visitor), guest_of(recent_visitor)
    account = django_user_model.objects.create_user("kept")
    long_ago = timezone.now() - dt.timedelta(days=40)
    User.objects.filter(pk__in=[old_guest.pk, account.pk]).update(last_login=long_ago, date_joined=long_ago)
    call_command("delete_idle_guests", "--days", "30")
    assert not User.objects.filter(pk=old_guest.pk).exists() and not Table.objects.filter(pk=old_table.pk).exists()
    assert User.objects.filter(pk__in=[recent_guest.pk, account.pk]).count() == 2
    assert Table.objects.filter(pk=recent_table.pk).exists()


def test_a_guest_who_keeps_playing_is_not_taken_for_idle():
    visitor = Client()
    table = play_now(visitor)
    guest = guest_of(visitor)
    User.objects.filter(pk=guest.pk).update(last_login=timezone.now() - dt.timedelta(days=40))
    visitor.get(reverse("solo:table", args=[table.pk]))
    assert guests.delete_idle_guests(dt.timedelta(days=30)) == 0
