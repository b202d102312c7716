"""Three people in three browsers (separate contexts) and one computer play a whole deal at a
live table, on the embedded default served by daphne (SQLite, in-memory channel layer, tasks
on threads): a friend room is created, shared, filled and started through the pages, every
move travels over the websocket, and the computer's moves reach every browser."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import DaphneServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "live-browser-pw-1"

pytestmark = pytest.mark.browser


def _need_chromium():
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail("REQUIRE_BROWSER=1 but Debian's chromium is not installed")
        pytest.skip("Debian's chromium is not installed")


def _embedded_env(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "DJANGO_SETTINGS_MODULE"}}
    env.update(SQLITE_PATH=str(tmp_path / "live.sqlite3"), TASK_RUNNER="thread", BOT_DELAY_SECONDS="0.05",
               DJANGO_SETTINGS_MODULE="hearts_site.settings")
    return env


SETUP_USERS = f"""
import datetime as dt
from accounts.models import User
from accounts.billing import grant_plan
for name in ("ann", "bob", "cat"):
    user = User.objects.create_user(name, password={PASSWORD!r}, display_name=name.title())
    grant_plan(user, dt.timedelta(days=30))
"""


@pytest.fixture
def daphne_server(tmp_path):
    _need_chromium()
    env = _embedded_env(tmp_path)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "shell", "-c", SETUP_USERS], cwd=ROOT, env=env, check=True)
    server = DaphneServer(tmp_path / "daphne.log", env).start()
    yield server.url, server.log_path
    server.stop()


def _in_own_thread(function, *args):
    """Run Playwright's sync API in a thread of its own: another test module's session-wide
    Playwright may be running an event loop in the main thread."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()


def _with_browser(function, *args):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"],
        )
        try:
            return function(chromium, *args)
        finally:
            chromium.close()


def _log_in(browser, base, name):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit], form input[type=submit], form button")
    page.wait_for_load_state("networkidle")
    return page


LEGAL = "#table form[ws-send] button[data-card]:not([disabled]):not([aria-disabled='true'])"


def _version(page) -> int:
    return int(page.get_attribute("#table", "data-version") or -1)


def test_three_people_and_a_computer_play_a_whole_deal(daphne_server):
    base, server_log = daphne_server
    _in_own_thread(_with_browser, _play_a_deal, base, server_log)


def _play_a_deal(browser, base, server_log):
    ann, bob, cat = (_log_in(browser, base, name) for name in ("ann", "bob", "cat"))

    # Ann creates a room: 4 players, no passing, to 100
    ann.goto(f"{base}/live/")
    ann.check("#create-room input[name=players][value='4']")
    ann.click("#create-room details summary")
    ann.check("#create-room input[name=passing][value='none']")
    ann.click("#create-room button")
    ann.wait_for_selector("#room-link")
    room_url = ann.inner_text("#room-link").strip()
    assert "/live/room/" in room_url

    # Bob and Cat open the link and take seats; Ann's waiting room shows them live
    for friend, name in ((bob, "Bob"), (cat, "Cat")):
        friend.goto(room_url)
        friend.click("#take-seat")
        friend.wait_for_selector("#live-socket #table")
        ann.wait_for_function("name => document.querySelector('#table').innerText.includes(name)", arg=name)

    # Ann fills the last seat with a computer and starts
    ann.click("#fill-seats")
    ann.wait_for_selector("#start-game")
    ann.click("#start-game")
    pages = [ann, bob, cat]
    for page in pages:
        page.wait_for_selector("#table[data-phase='play']", timeout=20000)
    assert bob.locator("#room-controls").count() == 0 or bob.inner_text("#room-controls").strip() == ""

    # Play the deal: whoever has a legal card to click plays it; the computer plays by itself
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if all((page.get_attribute("#table", "data-deal") or "1") != "1" for page in pages):
            break
        for page in pages:
            cards = page.locator(LEGAL)
            if cards.count() == 0 or (page.get_attribute("#table", "data-deal") or "1") != "1":
                continue
            before = _version(page)
            cards.first.click()
            page.wait_for_function(
                "v => Number(document.querySelector('#table').dataset.version) > v", arg=before, timeout=10000
            )
            moves += 1
        time.sleep(0.05)
    else:
        pytest.fail(f"the deal did not finish; {moves} moves by people. Server log:\n{server_log.read_text()[-3000:]}")

    # 3 people played 13 cards each; the computer's 13 reached everyone (same version everywhere)
    assert moves == 39
    for page in pages:
        page.wait_for_function("() => document.querySelector('#table').dataset.deal === '2'")
    for _attempt in range(50):  # the computer may be moving in deal 2: let it settle
        versions = {_version(page) for page in pages}
        if len(versions) == 1:
            break
        time.sleep(0.1)
    assert len(versions) == 1, f"every browser shows the same table version: {versions}"
    assert "Traceback" not in server_log.read_text()
