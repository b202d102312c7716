"""Offline play's server side: the page, the Python bundle the browser runs, the service
worker, the manifest, and keeping a finished offline game with the player's games."""
import io
import json
import subprocess
import sys
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from games import bots
from games.engine import Game, Rules
from games.table import offline as offline_table
from games.models import Action, Table
from games.table.offline import YOU, OfflineTable
from solo import offline
from solo.stats import solo_statistics

PLAY_IN_THE_BUNDLE = """
import sys
from games.table.offline import OfflineTable
table = OfflineTable.new("medium", seed=9, game_id="t")
while not table.over:
    if 0 in table.game.to_act:
        from games import bots
        table.act({"action": {"pass": "pass", "play": "play", "moon_choice": "moon"}[table.game.phase],
                   **_fields(bots.choose_action(table.game.view(0), "easy", seed=table.game.ply))})
    table.computer_move()
    table.changes()
print(table.game.phase, table.game.deal_number >= 2, sorted(m.split(".")[0] for m in sys.modules if m.split(".")[0] in ("django", "channels", "celery")))
"""

FIELDS = """
def _fields(action):
    if isinstance(action, list):
        return {"cards": [str(c) for c in action]}
    if action in ("add", "subtract"):
        return {"choice": action}
    return {"card": str(action)}
"""


def test_the_bundle_plays_a_whole_game_on_its_own(tmp_path):
    """Unzipped alone, with no site-packages (-S) and isolated (-I): a whole game, drawn at
    every move, with the same modules the server runs."""
    data, version = offline.bundle()
    zipfile.ZipFile(io.BytesIO(data)).extractall(tmp_path)
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n" + FIELDS + PLAY_IN_THE_BUNDLE
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["over", "True", "[]"]


def test_the_bundle_is_the_servers_own_files():
    names = zipfile.ZipFile(io.BytesIO(offline.bundle()[0])).namelist()
    for needed in ("games/table/offline.py", "games/engine/game.py", "games/bots/hard.py", "games/table/drawing.py",
                   "templates/jinja2/games/_table_parts.html", "jinja2/environment.py", "markupsafe/__init__.py"):
        assert needed in names
    assert not [name for name in names if name.endswith((".so", ".pyc")) or "arena" in name]
    archive = zipfile.ZipFile(io.BytesIO(offline.bundle()[0]))
    with open(offline.BASE / "games" / "table" / "drawing.py", "rb") as source:
        assert archive.read("games/table/drawing.py") == source.read()


def test_the_offline_page_names_the_current_bundle_and_pyodide(client):
    response = client.get(reverse("solo:offline"))
    assert response.status_code == 200
    html = response.content.decode()
    version = offline.bundle()[1]
    assert f'data-bundle="/play-offline/hearts-{version}.zip"' in html
    assert 'data-pyodide="/static/pyodide/"' in html
    assert reverse("solo:offline") == offline_table.PAGE_URL


def test_the_bundle_is_served_under_its_version_and_an_old_address_moves_on(client):
    data, version = offline.bundle()
    response = client.get(reverse("solo:offline_bundle", args=[version]))
    assert response.status_code == 200 and response.content == data
    assert response["Content-Type"] == "application/zip" and "immutable" in response["Cache-Control"]
    old = client.get(reverse("solo:offline_bundle", args=["0123456789abcdef"]))
    assert old.status_code == 302 and old["Location"].endswith(f"hearts-{version}.zip")


def test_the_service_worker_keeps_the_page_its_files_and_pyodide(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    text = response.content.decode()
    urls = json.loads(text.split("const URLS = ", 1)[1].split(";\n", 1)[0])
    assert urls[:2] == ["/play-offline/", f"/play-offline/hearts-{offline.bundle()[1]}.zip"]
    for name in offline.PYODIDE_FILES:
        assert f"/static/pyodide/{name}" in urls
    for url in urls[2:]:
        assert client.get(url).status_code == 200, url


def test_the_manifest_makes_the_site_installable(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    assert client.get(manifest["icons"][0]["src"]).status_code == 200
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page and 'register("/sw.js")' in page


# --------------------------------------------------------------------------- keeping a game


def finished_game(level="medium", game_id="g1", seed=21) -> dict:
    table = OfflineTable.new(level, seed=seed, game_id=game_id, started="2026-12-01T10:00:00+00:00")
    while not table.over:
        if not table.computer_move():
            table._apply(YOU, bots.choose_action(table.game.view(YOU), "easy", seed=table.game.ply))
    return table.saved()


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(username="offline-ann", password="pw-long-enough-1")


@pytest.mark.django_db
def test_a_finished_offline_game_joins_the_players_games_once(client, player):
    saved = finished_game()
    client.force_login(player)
    url = reverse("solo:offline_keep")
    first = client.post(url, json.dumps(saved), content_type="application/json")
    assert first.status_code == 201, first.content
    table = Table.objects.get(pk=first.json()["table"])
    assert (table.kind, table.status, table.offline_id, table.host) == ("solo", "finished", "g1", player)
    assert table.version == len(saved["game"]["log"]) == Action.objects.filter(table=table).count()
    assert [seat.bot_level for seat in table.seats.order_by("number")] == ["", "medium", "medium", "medium"]
    again = client.post(url, json.dumps(saved), content_type="application/json")
    assert again.status_code == 200 and again.json()["table"] == table.pk
    assert Table.objects.filter(host=player).count() == 1
    assert client.get(first.json()["replay_url"]).status_code == 200
    mine = client.get(reverse("solo:my_games")).content.decode()
    assert f"/table/{table.pk}/replay/" in mine and "played offline" in mine
    stats = solo_statistics(player)
    deals = sum(1 for entry in saved["game"]["log"] if entry["seat"] == YOU and isinstance(entry["action"], str)
                and entry["action"] not in ("add", "subtract")) // 13
    assert (stats.overall.games, stats.by_level["medium"].games, stats.overall.deals) == (1, 1, deals)


@pytest.mark.django_db
@pytest.mark.parametrize("spoil, reason", [
    (lambda saved: saved["game"]["log"].pop(), "not finished"),
    (lambda saved: saved["game"]["log"][5].update(action=["2C", "2C", "2C"]), "does not replay"),
    (lambda saved: next(entry for entry in saved["game"]["log"] if entry["seat"] == 2 and isinstance(entry["action"], str))
     .update(action="AH"), "does not replay"),
    (lambda saved: saved["game"]["rules"].update(target=75), "standard rules"),
    (lambda saved: saved.update(id="../../x"), "id"),
    (lambda saved: saved.update(level="grandmaster"), "not an offline game"),
    (lambda saved: saved["game"].update(seed="abc"), "seed"),
])
def test_a_game_that_does_not_replay_is_refused_whole(client, player, spoil, reason):
    saved = finished_game()
    spoil(saved)
    client.force_login(player)
    response = client.post(reverse("solo:offline_keep"), json.dumps(saved), content_type="application/json")
    assert response.status_code == 400
    assert reason in response.json()["error"].lower() or reason in response.json()["error"]
    assert not Table.objects.filter(host=player).exists() and not Action.objects.exists()


@pytest.mark.django_db
def test_keeping_needs_someone_signed_in_and_json(client, player):
    url = reverse("solo:offline_keep")
    saved = finished_game()
    assert client.post(url, json.dumps(saved), content_type="application/json").status_code == 403
    client.force_login(player)
    response = client.post(url, "not json", content_type="application/json")
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    assert client.post(url, "[1, 2]", content_type="application/json").status_code == 400
    assert client.get(url).status_code == 405


@pytest.mark.django_db
def test_the_admin_tells_games_played_offline_apart(admin_client, player):
    table, _ = offline.keep_game(player, finished_game(game_id="adm"))
    here = Table.objects.create(kind="solo", host=player, rules={"players": 4}, seed=1)
    listed = admin_client.get("/admin/games/table/?played=offline").content.decode()
    assert f"/admin/games/table/{table.pk}/change/" in listed and f"/admin/games/table/{here.pk}/change/" not in listed
    page = admin_client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "adm" in page


def other_hands(saved) -> list:
    """The seed's hands, each given to the next seat."""
    hands = [[str(card) for card in hand] for hand in Game.new(Rules(), seed=saved["game"]["seed"]).hands]
    return hands[1:] + hands[:1]


def _keep(client, body):
    return client.post(reverse("solo:offline_keep"), body, content_type="application/json")


@pytest.mark.django_db
@pytest.mark.parametrize("spoil, reason", [
    (lambda saved: saved["game"].update(setup=None), "seed deals"),
    (lambda saved: saved["game"]["setup"].update(scores=[0, 99, 99, 99]), "seed deals"),
    (lambda saved: saved["game"]["setup"].update(scores=[-2**62, 0, 0, 0]), "seed deals"),
    (lambda saved: saved["game"]["setup"].update(dealer=(saved["game"]["setup"]["dealer"] + 1) % 4), "seed deals"),
    (lambda saved: saved["game"]["setup"].update(deal_number=5), "seed deals"),
    (lambda saved: saved["game"]["setup"].update(hands=other_hands(saved)), "seed deals"),
    (lambda saved: saved["game"].pop("setup"), "seed deals"),
    (lambda saved: saved["game"].update(rules=None), "rules"),
    (lambda saved: saved.update(game=None), "no game"),
    (lambda saved: saved["game"].update(log={"a": 1}), "no game"),
    (lambda saved: saved.update(started="2026-12-01T10:00:00"), "time zone"),
])
def test_a_forged_setup_or_a_start_without_a_time_zone_is_refused_with_the_reason(client, player, spoil, reason):
    saved = finished_game()
    assert set(saved["game"]["setup"]) >= {"scores", "dealer", "deal_number", "hands"}
    spoil(saved)
    client.force_login(player)
    response = _keep(client, json.dumps(saved))
    assert response.status_code == 400, response.content
    assert reason in response.json()["error"]
    assert not Table.objects.exists() and not Action.objects.exists()


@pytest.mark.django_db
def test_json_nested_deeper_than_any_game_is_refused_not_a_server_error(client, player):
    client.force_login(player)
    response = _keep(client, "[" * 100_000 + "]" * 100_000)
    assert response.status_code == 400 and "JSON" in response.json()["error"]


@pytest.mark.django_db
def test_another_players_game_cannot_be_kept_as_ones_own(client, player, django_user_model):
    saved = finished_game(game_id="mine")
    client.force_login(player)
    assert _keep(client, json.dumps(saved)).status_code == 201
    thief = Client()
    thief.force_login(django_user_model.objects.create_user(username="copier", password="pw-long-enough-2"))
    for game_id in ("mine", "other-id"):
        response = _keep(thief, json.dumps({**saved, "id": game_id}))
        assert response.status_code == 400 and "another player" in response.json()["error"]
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_a_game_against_hard_is_kept_as_not_verified_and_left_out_of_statistics(client, player):
    client.force_login(player)
    assert _keep(client, json.dumps(finished_game(level="hard", game_id="h1", seed=5))).status_code == 201
    assert _keep(client, json.dumps(finished_game(level="medium", game_id="m1", seed=6))).status_code == 201
    stats = solo_statistics(player)
    assert (stats.overall.games, stats.by_level["medium"].games, stats.by_level["hard"].games) == (1, 1, 0)
    mine = client.get(reverse("solo:my_games")).content.decode()
    assert mine.count("not verified") == 1
