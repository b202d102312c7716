"""The admin for operators: only staff get in; every registered model's pages render for a
superuser, with working search and filters; staff can end a stuck game."""
import datetime as dt
import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from analysis.models import Analysis
from games import services
from games.engine import Rules
from games.models import Action, Seat, Table
from tests.security.urlwalk import walk

pytestmark = pytest.mark.django_db

REGISTRY = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def admin_url(model, page, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{page}", args=args)


@pytest.fixture
def world(ann, bob, staff):
    """At least one row of every model the admin shows."""
    Group.objects.create(name="operators")
    solo = services.create_table(ann, Rules(), seat_bots=[None, "easy", "easy", "easy"], seed=7)
    services.start_table(solo.pk)
    finished = services.create_table(bob, Rules(target=20), seat_bots=[None, "easy", "easy", "easy"], seed=3)
    Seat.objects.filter(table=finished, number=0).update(standing_in=True)
    services.start_table(finished.pk)
    room = services.create_table(ann, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None, None, None, None], seed=1)
    Seat.objects.filter(table=room, number=1).update(user=bob)
    from accounts.models import ProviderEvent, Subscription

    subscription = Subscription.objects.create(user=ann, status="active", current_period_end=timezone.now() + dt.timedelta(days=5))
    ProviderEvent.objects.create(event_id="evt_1", type="invoice.paid", created=timezone.now(),
                                 outcome=ProviderEvent.Outcome.APPLIED, subscription=subscription)
    _optional_rows(ann, bob, room)
    Analysis.objects.create(table=finished, seat=0, requested_by=bob, effort=1000, status="done", done=1, total=1,
                            decisions=[], summary={"accuracy": 100.0})
    # Codes are random, and the search matches inside them: one with "bob" in it (about one
    # run in 3,600) would be found by a search for the player bob.
    for number, table in enumerate((solo, finished, room), start=1):
        table.code = f"code-{number}"
        Table.objects.filter(pk=table.pk).update(code=table.code)
    return {"solo": solo, "finished": finished, "room": room}


def _optional_rows(ann, bob, room):
    """Rows of the ratings and live-play models."""
    from live.models import ChatMessage, LiveServer, QueueEntry, TableConnection
    from ratings.services import SeatResult, apply_game_result

    results = [SeatResult(user_id=user.pk, final_score=score, place=place, dropped=False, moons=0, deals=3)
               for user, score, place in ((ann, 40, 1), (bob, 80, 2))]
    apply_game_result("table:admin-test", 4, results + [
        SeatResult(user_id=None, final_score=90, place=3, dropped=False, moons=0, deals=3),
        SeatResult(user_id=None, final_score=100, place=4, dropped=False, moons=0, deals=3),
    ])
    now = timezone.now()
    QueueEntry.objects.create(user=bob, table_size=4, rating=1200, joined_at=now, last_seen=now)
    LiveServer.objects.create(name="web-1:7:0a1b2c3d", heartbeat_at=now)
    TableConnection.objects.create(channel_name="specific.test!abc", table=room, user=room.host, server="web-1:7:0a1b2c3d")
    ChatMessage.objects.create(table=room, user=room.host, text="<script>hello</script>", reported_by=bob, reported_at=now)
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    seen = {"user_agent": "test", "ip_address": "10.0.0.9", "username": "mallory", "http_accept": "*/*",
            "path_info": "/accounts/login/"}
    AccessAttempt.objects.create(**seen, get_data="", post_data="", failures_since_start=3)
    AccessLog.objects.create(**seen)
    AccessFailureLog.objects.create(**seen)


@pytest.mark.parametrize("model,model_admin", REGISTRY, ids=[m._meta.label for m, _ in REGISTRY])
def test_pages_of_every_registered_model_render_for_a_superuser(admin_client, admin_user, world, model, model_admin):
    response = admin_client.get(admin_url(model, "changelist"))
    assert response.status_code == 200, response.content[:500]
    obj = model._default_manager.order_by("pk").first()
    assert obj is not None, f"add a {model.__name__} to the world fixture so its change page is tested"
    for page in ("change", "history"):
        response = admin_client.get(admin_url(model, page, obj.pk))
        assert response.status_code == 200, (page, response.content[:500])
    request = RequestFactory().get("/")
    request.user = admin_user
    if model_admin.has_add_permission(request):
        assert admin_client.get(admin_url(model, "add")).status_code == 200
    if model_admin.has_delete_permission(request, obj):
        response = admin_client.get(admin_url(model, "delete", obj.pk))
        assert response.status_code == 200
    assert model_admin.list_display != ("__str__",) or model._meta.app_label == "auth", (
        f"{model.__name__}: give operators useful list columns"
    )


@pytest.mark.parametrize("model,model_admin", REGISTRY, ids=[m._meta.label for m, _ in REGISTRY])
def test_search_and_every_filter_choice_work(admin_client, staff, world, model, model_admin):
    url = admin_url(model, "changelist")
    for term in ("ann", "1", "no-such-thing", "ünïcode ♠"):
        response = admin_client.get(url, {"q": term})
        assert response.status_code == 200, (term, response.content[:300])
    request = RequestFactory().get(url)
    request.user = staff
    changelist = model_admin.get_changelist_instance(request)
    choices = [choice["query_string"] for spec in changelist.filter_specs for choice in spec.choices(changelist)]
    assert bool(choices) == bool(model_admin.list_filter)
    for query in choices:
        response = admin_client.get(url + query)
        assert response.status_code == 200, (query, response.status_code)  # a bad filter redirects to ?e=1


def test_searching_tables_finds_them_by_player_code_and_id(admin_client, world, bob):
    url = admin_url(Table, "changelist")

    def found(term):
        html = admin_client.get(url, {"q": term}).content.decode()
        return {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', html)}

    assert found("bob") == {world["finished"].pk, world["room"].pk}
    assert found(world["room"].code) == {world["room"].pk}
    assert found(str(world["solo"].pk)) >= {world["solo"].pk}
    html = admin_client.get(url, {"status__exact": "finished"}).content.decode()
    assert re.findall(r'name="_selected_action" value="(\d+)"', html) == [str(world["finished"].pk)]


def test_table_page_shows_rules_players_state_action_log_and_replay(admin_client, world):
    table = world["finished"]
    table.refresh_from_db()
    html = admin_client.get(admin_url(Table, "change", table.pk)).content.decode()
    assert "&quot;target&quot;: 20" in html or '"target": 20' in html  # the rules
    assert "CPU (Easy)" in html and "bob" in html.lower()  # the players
    assert "&quot;dealer&quot;: 0" in html or '"dealer": 0' in html  # how the game began
    assert f"over phase, to act: nobody; scores {table.scores}; {table.ply} logged actions" in html
    actions = Action.objects.filter(table=table)
    assert actions.count() > 50
    assert html.count('<td class="field-actor">') == actions.count()  # the whole action log
    assert f'href="{reverse("solo:replay", args=[table.pk])}"' in html


def test_list_columns_show_players_and_rules(admin_client, world):
    html = admin_client.get(admin_url(Table, "changelist")).content.decode()
    assert "0: Ann" in html and "CPU (Easy)" in html
    assert "4p to 100, passing standard" in html


def test_staff_end_a_stuck_game_through_services(admin_client, world, monkeypatch):
    playing, finished = world["solo"], world["finished"]
    calls = []
    real = services.abandon_table
    monkeypatch.setattr(services, "abandon_table", lambda pk, reason: calls.append(pk) or real(pk, reason))
    version = Table.objects.get(pk=playing.pk).version
    response = admin_client.post(
        admin_url(Table, "changelist"),
        {"action": "end_stuck_games", "_selected_action": [playing.pk, finished.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "Ended 1 game(s). 1 had already ended." in response.content.decode()
    assert sorted(calls) == sorted([playing.pk, finished.pk])
    playing.refresh_from_db()
    assert playing.status == Table.Status.ABANDONED
    assert playing.end_reason == "Ended by staff (admin)"
    assert playing.version == version + 1 and playing.finished_at is not None
    assert Table.objects.get(pk=finished.pk).status == Table.Status.FINISHED


def test_a_games_status_and_seats_cannot_be_edited_in_the_admin(admin_client, world, ann):
    playing = world["solo"]
    before = Table.objects.get(pk=playing.pk)
    seats = list(Seat.objects.filter(table=playing).values_list("number", "user_id", "bot_level", "standing_in"))
    html = admin_client.get(admin_url(Table, "change", playing.pk)).content.decode()
    assert 'name="status"' not in html and 'name="seats-0-user"' not in html and 'name="seats-0-standing_in"' not in html
    admin_client.post(admin_url(Table, "change", playing.pk), {
        "status": "finished", "version": 999, "rated": "on", "seats-TOTAL_FORMS": 4, "seats-INITIAL_FORMS": 4,
        "seats-0-id": Seat.objects.get(table=playing, number=0).pk, "seats-0-user": "", "seats-0-standing_in": "on",
    })
    after = Table.objects.get(pk=playing.pk)
    assert (after.status, after.version, after.rated) == (before.status, before.version, before.rated)
    assert list(Seat.objects.filter(table=playing).values_list("number", "user_id", "bot_level", "standing_in")) == seats
    seat = Seat.objects.get(table=playing, number=1)
    admin_client.post(admin_url(Seat, "change", seat.pk), {"bot_level": "hard", "standing_in": "on", "user": ann.pk})
    assert Seat.objects.filter(pk=seat.pk, bot_level="easy", user=None, standing_in=False).exists()
    assert admin_client.get(admin_url(Table, "add")).status_code == 403
    assert admin_client.get(admin_url(Seat, "add")).status_code == 403


def test_a_game_in_progress_cannot_be_deleted_until_it_is_ended(admin_client, world):
    playing, finished = world["solo"], world["finished"]
    assert admin_client.get(admin_url(Table, "delete", playing.pk)).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [playing.pk, finished.pk], "post": "yes"}
    assert admin_client.post(admin_url(Table, "changelist"), bulk).status_code == 403
    assert Table.objects.filter(pk__in=[playing.pk, finished.pk]).count() == 2
    bulk["_selected_action"] = [finished.pk]
    assert admin_client.post(admin_url(Table, "changelist"), bulk).status_code == 302
    assert not Table.objects.filter(pk=finished.pk).exists()
    admin_client.post(admin_url(Table, "changelist"), {"action": "end_stuck_games", "_selected_action": [playing.pk]})
    assert admin_client.post(admin_url(Table, "delete", playing.pk), {"post": "yes"}).status_code == 302
    assert not Table.objects.filter(pk=playing.pk).exists()


# --------------------------------------------------------------------------- staff only


def _admin_routes(samples):
    return [route for route in walk(samples) if route.pattern.startswith("admin/")]


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_every_admin_url_sends_non_staff_to_the_login(route_samples, ann, who):
    client = Client()
    if who == "player":
        client.force_login(ann)
    login = reverse("admin:login")
    wrong = []
    routes = _admin_routes(route_samples)
    assert len(routes) > 30
    for route in routes:
        if route.name in ("admin:login", "admin:logout"):
            continue
        response = client.get(route.url)
        if response.status_code != 302 or not response["Location"].startswith(login):
            wrong.append(f"{route.name} {route.url} -> {response.status_code}")
    assert not wrong, "admin pages a non-staff user could reach:\n" + "\n".join(wrong)
    response = client.get(login)
    assert response.status_code == 200


def test_a_non_staff_user_cannot_run_the_end_game_action(client, ann, solo_table):
    client.force_login(ann)
    response = client.post(
        reverse("admin:games_table_changelist"), {"action": "end_stuck_games", "_selected_action": [solo_table.pk]}
    )
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))
    solo_table.refresh_from_db()
    assert solo_table.status == Table.Status.PLAYING


def test_staff_without_superuser_needs_model_permissions(client, django_user_model, solo_table):
    clerk = django_user_model.objects.create_user("clerk", is_staff=True)
    client.force_login(clerk)
    assert client.get(reverse("admin:games_table_changelist")).status_code == 403
    assert client.get(reverse("admin:games_table_change", args=[solo_table.pk])).status_code == 403
