"""Offline play's server side: the page, the Python bundle the browser runs, the service
worker and the manifest."""
import io
import json
import subprocess
import sys
import zipfile

from django.urls import reverse

from games import offline as offline_table
from solo import offline

PLAY_IN_THE_BUNDLE = """
import sys
from games.offline import OfflineTable
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
    for needed in ("games/offline.py", "games/engine/game.py", "games/bots/hard.py", "games/drawing.py",
                   "templates/jinja2/games/_table_parts.html", "jinja2/environment.py", "markupsafe/__init__.py"):
        assert needed in names
    assert not [name for name in names if name.endswith((".so", ".pyc")) or "arena" in name]
    archive = zipfile.ZipFile(io.BytesIO(offline.bundle()[0]))
    with open(offline.BASE / "games" / "drawing.py", "rb") as source:
        assert archive.read("games/drawing.py") == source.read()


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
