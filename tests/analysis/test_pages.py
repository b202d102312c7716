"""Asking for an analysis, its progress and verdicts on the replay, the limit, the admin, statistics."""
import json
import re
import time

import pytest
from django.urls import reverse

from analysis.models import Analysis
from analysis.services import request_analysis, run
from games import services, storage
from games.bots import analysis as search
from games.engine import Rules
from games.models import Seat, Table
from tests.solo.conftest import make_table
from tests.solo.test_offline import finished_game as finished_offline_game
from tests.solo.test_views import HTMX, play_whole_game

EFFORT = 2000


@pytest.fixture
def finished(player, ann, settings):
    settings.ANALYSIS_EFFORT = EFFORT
    table = make_table(player, target=20, seed=3, bots=("medium", "medium", "medium"))
    play_whole_game(ann, table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def ask(client, table, capture, **headers):
    with capture(execute=True):
        return client.post(reverse("analysis:request", args=[table.pk]), {"ply": 0}, **headers)


def replay(client, table, ply):
    return client.get(reverse("solo:replay", args=[table.pk]), {"ply": ply}).content.decode()


@pytest.mark.django_db
def test_a_finished_game_is_analysed_once_and_its_verdicts_shown_in_the_replay(ann, player, finished,
                                                                             django_capture_on_commit_callbacks):
    page = replay(ann, finished, 0)
    assert "Analyse my play" in page and "10 of 10 analyses left today" in page
    response = ask(ann, finished, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    analysis = Analysis.objects.get(table=finished, seat=0)
    assert analysis.status == "done" and analysis.done == analysis.total > 0 and analysis.requested_by == player
    expected = list(search.analyse_game(storage.saved_game(finished), 0, effort=EFFORT))
    assert [d.to_dict() for d in expected] == analysis.decisions, "the task's verdicts are the search's, in order"
    assert analysis.summary["accuracy"] == search.summary(expected, analysis.summary["deals"])["accuracy"]

    page = replay(ann, finished, 0)
    assert f"Accuracy {analysis.summary['accuracy']}%" in page
    assert "Expected points lost per deal" in page and "9 of 10 analyses left today" not in page
    for decision in expected:
        page = replay(ann, finished, decision.ply)
        assert f'data-verdict="{decision.verdict}"' in page
        if decision.verdict != "best":
            assert decision.reason.replace("'", "&#x27;") in page
            assert ("Better:" in page) == (decision.verdict != "good")
            assert ("slightly preferred" in page) == (decision.verdict == "good")

    mistakes = [d.ply for d in expected if d.verdict in ("inaccuracy", "mistake", "blunder")]
    start = replay(ann, finished, 0)
    if mistakes:
        assert f'href="?ply={mistakes[0]}"' in start and "Review my mistakes" in start
        stepped = ann.get(reverse("solo:replay", args=[finished.pk]), {"ply": mistakes[0]}, **HTMX).content.decode()
        assert f"Mistake 1 of {len(mistakes)}" in stepped
        assert ("Next mistake" in stepped) == (len(mistakes) > 1)
        if len(mistakes) > 1:
            assert f'href="?ply={mistakes[1]}"' in stepped
    else:
        assert "No mistakes found" in start

    again = ask(ann, finished, django_capture_on_commit_callbacks)
    assert again.status_code == 302 and Analysis.objects.count() == 1, "stored once per game and seat"


@pytest.mark.django_db
def test_the_panel_shows_progress_while_it_runs_and_polls_until_done(ann, finished):
    analysis = Analysis.objects.create(table=finished, seat=0, effort=EFFORT, status="running", done=3, total=10)
    panel = ann.get(reverse("analysis:panel", args=[finished.pk]), {"ply": 5}).content.decode()
    assert 'max="10" value="3"' in panel and "3 of 10" in panel and 'hx-trigger="every 1s"' in panel
    run(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == "done"
    panel = ann.get(reverse("analysis:panel", args=[finished.pk]), {"ply": 5}).content.decode()
    assert "<progress" not in panel and "every 1s" not in panel and "Accuracy" in panel
    assert '<div id="analysis-here" class="analysis-at-move" hx-swap-oob="true">' in panel, \
        "the verdict at the move shown comes with the finished panel"


@pytest.mark.django_db
def test_only_a_seated_person_may_ask_and_only_of_a_finished_game(client, ann, player, stranger, finished,
                                                                  django_capture_on_commit_callbacks):
    client.force_login(stranger)
    assert ask(client, finished, django_capture_on_commit_callbacks).status_code == 404
    assert client.get(reverse("analysis:panel", args=[finished.pk])).status_code == 404
    client.force_login(player)
    unfinished = make_table(player, seed=9)
    assert ask(client, unfinished, django_capture_on_commit_callbacks, **HTMX).status_code == 409
    assert not Analysis.objects.exists()


@pytest.mark.django_db
def test_the_daily_limit_refuses_with_a_clear_message_and_keeps_the_others(ann, player, finished, settings,
                                                                            django_capture_on_commit_callbacks):
    settings.ANALYSES_PER_DAY = 1
    assert ask(ann, finished, django_capture_on_commit_callbacks).status_code == 302
    second = make_table(player, target=10, seed=4)
    play_whole_game(ann, second)
    refused = ask(ann, second, django_capture_on_commit_callbacks, **HTMX)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 23 * 3600
    text = refused.content.decode()
    assert "1 analyses in the last 24 hours" in text and "Try again in about 24 hours" in text
    assert "disabled" in text
    assert not Analysis.objects.filter(table=second).exists()
    assert Analysis.objects.filter(table=finished, status="done").exists()


@pytest.mark.django_db
def test_admin_lists_and_deletes_analyses(admin_client, finished):
    analysis = Analysis.objects.create(table=finished, seat=0, effort=EFFORT)
    run(analysis.pk)
    listing = admin_client.get(reverse("admin:analysis_analysis_changelist")).content.decode()
    assert f"Analysis of table {finished.pk}, seat 0" in listing or str(finished) in listing
    assert admin_client.get(reverse("admin:analysis_analysis_add")).status_code == 403
    response = admin_client.post(reverse("admin:analysis_analysis_delete", args=[analysis.pk]), {"post": "yes"})
    assert response.status_code == 302 and not Analysis.objects.exists()


@pytest.mark.django_db
def test_a_run_stops_when_its_analysis_is_deleted_meanwhile(finished, monkeypatch):
    analysis = Analysis.objects.create(table=finished, seat=0, effort=EFFORT)
    real = search.analyse
    calls = []

    def analyse_then_delete(*args, **kwargs):
        calls.append(1)
        Analysis.objects.filter(pk=analysis.pk).delete()
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "analyse", analyse_then_delete)
    assert run(analysis.pk) == 1 and len(calls) == 1


@pytest.mark.django_db
def test_statistics_show_accuracy_and_points_lost_by_phase(ann, player, finished):
    page = ann.get(reverse("solo:stats")).content.decode()
    assert "No analysed game yet" in page
    analysis = Analysis.objects.create(table=finished, seat=0, effort=EFFORT, requested_by=player)
    run(analysis.pk)
    analysis.refresh_from_db()
    page = ann.get(reverse("solo:stats")).content.decode()
    accuracy = re.search(r"data-accuracy>([\d.]+)%", page).group(1)
    assert float(accuracy) == analysis.summary["accuracy"]
    for label in ("Passing", "Leading", "Following suit", "Discarding"):
        if any(d["phase"] == label.split()[0].lower() for d in analysis.decisions):
            assert f'<th scope="row">{label}</th>' in page


@pytest.mark.worker
def test_a_celery_worker_runs_the_analysis(celery_worker_process, django_user_model, settings):
    settings.ANALYSIS_EFFORT = EFFORT
    person = django_user_model.objects.create_user("ann", password="pw-long-enough-1")
    table = services.create_table(person, Rules(target=20), seat_bots=[None, "easy", "easy", "easy"], seed=5)
    Seat.objects.filter(table=table, number=0).update(standing_in=True)
    services.start_table(table.pk)
    deadline = time.monotonic() + 120
    while Table.objects.get(pk=table.pk).status != Table.Status.FINISHED and time.monotonic() < deadline:
        time.sleep(0.2)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    analysis = request_analysis(table, 0, person)
    while Analysis.objects.get(pk=analysis.pk).status != "done" and time.monotonic() < deadline + 60:
        time.sleep(0.2)
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.done == analysis.total > 0


@pytest.mark.django_db
def test_each_person_at_a_table_gets_the_analysis_of_their_own_seat(client, ann, player, stranger, finished,
                                                                    django_capture_on_commit_callbacks):
    Seat.objects.filter(table=finished, number=2).update(user=stranger, bot_level="")
    assert ask(ann, finished, django_capture_on_commit_callbacks).status_code == 302
    client.force_login(stranger)
    assert ask(client, finished, django_capture_on_commit_callbacks).status_code == 302
    log = storage.saved_game(finished)["log"]
    for seat, person in ((0, player), (2, stranger)):
        analysis = Analysis.objects.get(table=finished, seat=seat)
        assert analysis.requested_by == person and analysis.decisions
        assert {log[d["ply"] - 1]["seat"] for d in analysis.decisions} == {seat}
    panel = client.get(reverse("analysis:panel", args=[finished.pk]), {"ply": 0}).content.decode()
    mine = Analysis.objects.get(table=finished, seat=2).summary["accuracy"]
    assert f"Accuracy {mine}%" in panel


@pytest.mark.django_db
def test_a_game_played_offline_and_kept_is_analysed_and_my_games_shows_its_accuracy(
        client, django_user_model, settings, django_capture_on_commit_callbacks):
    settings.ANALYSIS_EFFORT = EFFORT
    person = django_user_model.objects.create_user("offline-ann", password="pw-long-enough-1")
    client.force_login(person)
    kept = client.post(reverse("solo:offline_keep"), json.dumps(finished_offline_game()), content_type="application/json")
    assert kept.status_code == 201
    table = Table.objects.get(pk=kept.json()["table"])
    mine = client.get(reverse("solo:my_games")).content.decode()
    assert "Analysis in the replay" in mine and "data-accuracy" not in mine
    assert ask(client, table, django_capture_on_commit_callbacks).status_code == 302
    analysis = Analysis.objects.get(table=table, seat=0)
    assert analysis.status == "done" and analysis.decisions
    mine = client.get(reverse("solo:my_games")).content.decode()
    assert f"Analysed: accuracy {analysis.summary['accuracy']}%" in mine
