import datetime as dt
import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

User = get_user_model()


def _signup_data(**overrides):
    data = {
        "username": "bob",
        "display_name": "Bob the Shooter",
        "email": "bob@example.com",
        "password1": "Tr1cky-Queen-of-Spades",
        "password2": "Tr1cky-Queen-of-Spades",
    }
    data.update(overrides)
    return data


# --- sign-up -----------------------------------------------------------------------------


def test_signup_creates_a_user_and_logs_them_in(client):
    response = client.post(reverse("accounts:signup"), _signup_data())
    assert response.status_code == 302
    user = User.objects.get(username="bob")
    assert user.display_name == "Bob the Shooter"
    assert user.email == "bob@example.com"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_signup_page_renders_with_a_csrf_token(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content
    from django.templatetags.static import static

    # In production the stylesheet's name carries its content hash (manifest storage).
    assert static("accounts/accounts.css").encode() in response.content


def test_signup_goes_to_a_safe_next_page_only(client):
    response = client.post(reverse("accounts:signup"), _signup_data(next="/accounts/pricing/"))
    assert response["Location"] == "/accounts/pricing/"
    other = Client()
    response = other.post(
        reverse("accounts:signup"),
        _signup_data(username="evan", email="evan@example.com", display_name="", next="https://evil.example/"),
    )
    assert response.status_code == 302
    assert "evil" not in response["Location"]


def test_a_next_page_that_is_a_bare_word_is_an_address_not_a_name_to_look_up(client, make_user):
    """Found by the input fuzz test: a signed-in player sent to the login page with
    ?next=² got a server error (the word was taken for the name of a URL pattern)."""
    client.force_login(make_user("carol"))
    response = client.get(reverse("accounts:login"), {"next": "²"})
    assert response.status_code == 302 and response["Location"] == "%C2%B2"


def test_a_new_account_may_be_sent_to_a_next_page_that_is_a_bare_word(client):
    response = client.post(reverse("accounts:signup"), _signup_data(next="pricing"))
    assert response.status_code == 302 and response["Location"] == "pricing"


def test_signup_asks_no_email_unless_the_player_wants_password_resets(client, make_user):
    make_user("carol", email="")
    response = client.post(reverse("accounts:signup"), _signup_data(email=""))
    assert response.status_code == 302
    assert User.objects.get(username="bob").email == ""
    page = Client().get(reverse("accounts:signup")).content.decode()
    assert "Optional: only needed to reset a forgotten password" in page


def test_signup_email_must_not_be_used_by_another_account(client, make_user):
    make_user("carol", email="Bob@Example.com")
    response = client.post(reverse("accounts:signup"), _signup_data())
    assert response.status_code == 200
    assert "Another account already uses this email address" in response.content.decode()
    assert not User.objects.filter(username="bob").exists()


def test_signup_checks_the_display_name(client):
    response = client.post(reverse("accounts:signup"), _signup_data(display_name="B"))
    assert response.status_code == 200
    assert "Display name must be at least 2 characters (you entered 1)." in response.content.decode()
    assert not User.objects.filter(username="bob").exists()


# --- log in / log out --------------------------------------------------------------------


def test_login_and_logout(client, player, password):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": password})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_with_a_wrong_password_says_so(client, player):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_page_links_to_password_reset(client):
    response = client.get(reverse("accounts:login"))
    assert reverse("accounts:password_reset") in response.content.decode()


# --- profile -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["accounts:profile", "accounts:password_change"],
)
def test_account_pages_need_login(client, name):
    url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={url}"


def test_profile_saves_display_name_and_email(player_client, player):
    response = player_client.post(
        reverse("accounts:profile"),
        {"display_name": "  Queen   of Spades ", "email": "queen@example.com"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Queen of Spades"
    assert player.email == "queen@example.com"
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert "Your profile was saved." in page


def test_blank_display_name_falls_back_to_the_username(player_client, player):
    player_client.post(reverse("accounts:profile"), {"display_name": "", "email": player.email})
    player.refresh_from_db()
    assert player.display_name == ""
    assert player.public_name == "alice"


@pytest.mark.parametrize(
    "name, message",
    [
        ("Q", "Display name must be at least 2 characters (you entered 1)."),
        ("x" * 41, "Display name can be at most 40 characters (you entered 41)."),
        ("<script>", "Display name may use letters, digits, spaces and . _ - ' only"),
        ("---", "with at least one letter or digit"),
        ("moon shooter", "“moon shooter” is taken by, or looks like, another player's name."),
        ("BOB", "“BOB” is taken by, or looks like, another player's name."),  # another player's username
        ("Moon_Sh00ter", "“Moon_Sh00ter” is taken by, or looks like, another player's name."),
        ("ВОВ", "“ВОВ” is taken by, or looks like, another player's name."),  # Cyrillic letters
        ("Ｂｏｂ", "“Ｂｏｂ” is taken by, or looks like, another player's name."),  # full-width
        ("Ben", "“Ben” looks like a name the computer players use at the table."),
        ("Ｃｌｅｏ", "“Ｃｌｅｏ” looks like a name the computer players use at the table."),
    ],
)
def test_display_name_validation(player_client, player, make_user, name, message):
    make_user("bob", display_name="Moon Shooter")
    response = player_client.post(reverse("accounts:profile"), {"display_name": name, "email": player.email})
    assert response.status_code == 200
    assert message in html.unescape(response.content.decode())
    player.refresh_from_db()
    assert player.display_name == "Alice"


def test_a_username_that_looks_like_another_players_name_is_refused_at_sign_up(client, make_user):
    make_user("bob", display_name="Moon Shooter")
    for username, taken in (("moonshooter", "another player's name"), ("b0b", "another player's name"),
                            ("Finn", "computer players use")):
        response = client.post(reverse("accounts:signup"), _signup_data(username=username, email=f"{username}@example.com"))
        assert response.status_code == 200
        assert taken in html.unescape(response.content.decode())
        assert not User.objects.filter(username=username).exists()


def test_display_name_may_be_your_own_username_or_unchanged(player_client, player):
    response = player_client.post(reverse("accounts:profile"), {"display_name": "Alice", "email": player.email})
    assert response.status_code == 302
    response = player_client.post(reverse("accounts:profile"), {"display_name": "ALICE", "email": player.email})
    assert response.status_code == 302


def test_display_name_accepts_letters_of_any_script(player_client, player):
    response = player_client.post(
        reverse("accounts:profile"), {"display_name": "Zoë O'Brien-Łukasz", "email": player.email}
    )
    assert response.status_code == 302


def test_profile_email_must_not_belong_to_another_account(player_client, player, make_user):
    make_user("bob", email="bob@example.com")
    response = player_client.post(
        reverse("accounts:profile"), {"display_name": "Alice", "email": "BOB@example.com"}
    )
    assert response.status_code == 200
    assert "Another account already uses this email address" in response.content.decode()


def test_profile_post_needs_csrf(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("accounts:profile"), {"display_name": "Hacker", "email": player.email})
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.display_name == "Alice"


def test_profile_without_subscription(player_client):
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert "No subscription" in page
    assert reverse("accounts:pricing") in page


def test_profile_shows_active_until(player_client, player, make_subscription):
    make_subscription(player, period_end=dt.datetime(2099, 1, 3, 12, tzinfo=dt.timezone.utc))
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert "Active until 3 Jan 2099" in page


def test_profile_shows_past_due(player_client, player, make_subscription, now):
    make_subscription(player, status="past_due", past_due_since=now)
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert "Past due — update your payment" in page


def test_profile_shows_an_expired_plan(player_client, player, make_subscription):
    make_subscription(player, period_end=dt.datetime(2020, 5, 1, tzinfo=dt.timezone.utc))
    page = player_client.get(reverse("accounts:profile")).content.decode()
    assert "Expired on 1 May 2020" in page


# --- passwords ---------------------------------------------------------------------------


def test_password_reset_sends_a_mail_with_a_working_link(client, player, mailoutbox):
    response = client.post(reverse("accounts:password_reset"), {"email": "ALICE@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Hearts password"
    link = re.search(r"https?://testserver(/accounts/password/reset/\S+/)", message.body).group(1)

    response = client.get(link)  # redirects to the token-free "set-password" URL
    assert response.status_code == 302
    set_url = response["Location"]
    response = client.post(
        set_url, {"new_password1": "Fresh-Hand-Of-Hearts-9", "new_password2": "Fresh-Hand-Of-Hearts-9"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_complete")
    player.refresh_from_db()
    assert player.check_password("Fresh-Hand-Of-Hearts-9")


def test_password_reset_for_an_unknown_address_sends_nothing_and_reveals_nothing(client, mailoutbox):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_password_change(player_client, player, password):
    url = reverse("accounts:password_change")
    response = player_client.post(
        url, {"old_password": "wrong", "new_password1": "Another-Good-One-77", "new_password2": "Another-Good-One-77"}
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()

    response = player_client.post(
        url, {"old_password": password, "new_password1": "Another-Good-One-77", "new_password2": "Another-Good-One-77"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    player.refresh_from_db()
    assert player.check_password("Another-Good-One-77")
    # Still signed in after the change.
    assert player_client.get(reverse("accounts:profile")).status_code == 200
