"""A rematch in three browsers: everyone who says yes is taken to the new table when it
starts, not only the last to answer (games/table.js follows the finished table's link)."""
import subprocess
import sys

import pytest

from tests.browser_live.test_live_browser import (  # noqa: F401 (daphne_server is a fixture)
    ROOT, _embedded_env, _in_own_thread, _log_in, _with_browser, daphne_server,
)

pytestmark = pytest.mark.browser

FINISHED_GAME = """
from accounts.models import User
from games import services, storage
from games.engine import Rules
from games.models import Table
from live import rooms

ann, bob, cat = (User.objects.get(username=name) for name in ("ann", "bob", "cat"))
table = services.create_table(ann, Rules(target=20, passing="none"), kind=Table.Kind.FRIENDS,
                              seat_bots=[None, None, None, "easy"], seed=11)
rooms.take_seat(table.pk, bob, 1)
rooms.take_seat(table.pk, cat, 2)
services.start_table(table.pk)
for _ in range(3000):
    table.refresh_from_db()
    if table.status != Table.Status.PLAYING:
        break
    game = storage.game_of(table)
    number = game.to_act[0]
    seat = table.seats.get(number=number)
    if seat.user_id is None:
        continue  # the computer plays on its own thread
    action = services.computer_action(game.view(number), "medium", table, number)
    try:
        services.submit_action(table.pk, number, action, expected_version=table.version, user=seat.user)
    except services.ActionRejected:
        pass
print(table.code, table.status)
"""


def test_everyone_who_says_yes_is_taken_to_the_rematch(daphne_server, tmp_path):
    base, server_log = daphne_server
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", FINISHED_GAME], cwd=ROOT,
                          env=_embedded_env(tmp_path), check=True, capture_output=True, text=True)
    code, status = done.stdout.split()[-2:]
    assert status == "finished", done.stdout + done.stderr
    _in_own_thread(_with_browser, _rematch, base, code, server_log)


def _rematch(browser, base, code, server_log):
    pages = [_log_in(browser, base, name) for name in ("ann", "bob", "cat")]
    for page in pages:
        page.goto(f"{base}/live/room/{code}/")
        page.wait_for_selector("#table[data-synced='1'] .game-over")
    pages[0].click(".rematch button[value=yes]")  # Ann asks; her page reloads on the old table
    for page in pages[1:]:
        page.wait_for_selector(".rematch .until-value")
        page.click(".rematch button[value=yes]")
    for page in pages:  # each page is taken to the new table by itself
        page.wait_for_url(lambda url: f"/live/room/{code}/" not in url, timeout=30000)
    urls = [page.url for page in pages]
    assert len(set(urls)) == 1 and "/live/room/" in urls[0], urls
    for page in pages:
        page.wait_for_selector("#table[data-phase='play']", timeout=20000)
    assert "Traceback" not in server_log.read_text()
