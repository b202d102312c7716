"""Solo play offline in chromium: after one visit, with the network cut (Playwright's offline
mode) and then the server stopped, a player deals, plays a deal's first cards, reloads and
resumes the game from this device; the table is the online one, run by Pyodide."""
import subprocess
import sys
import time
import urllib.request

import pytest

from .conftest import ROOT, _free_port
from .test_solo_browser import pass_three, play_one, shot, version, wait_for_turn

pytestmark = pytest.mark.browser


@pytest.fixture
def own_server(site):
    """A daphne of its own (on the browser tests' database), so this test can stop it."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "hearts_site.asgi:application"], cwd=ROOT, env=site.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    yield url, server
    server.terminate()
    server.wait(10)


def ready(page):
    page.wait_for_selector("#offline[data-ready]", timeout=60000)


def kept_for_offline(page):
    """Until the service worker has kept everything the offline page needs."""
    page.wait_for_function("""async () => {
        const worker = await navigator.serviceWorker.ready;
        return worker.active && worker.active.state === "activated";
    }""", timeout=60000)


def test_a_game_is_played_offline_and_resumed_with_the_server_stopped(own_server, open_page, screens):
    url, server = own_server
    page = open_page(None)
    page.goto(url + "/play-offline/")
    ready(page)
    kept_for_offline(page)

    page.context.set_offline(True)
    page.reload()
    ready(page)
    page.check("input[name=level][value=medium]")
    page.click("#offline-start button[type=submit]")
    page.wait_for_selector("#table")
    shot(page, screens, "offline-first-table")
    assert page.locator("#t-me .playing-card").count() == 13
    wait_for_turn(page)
    if page.locator(".pass-form").count():
        pass_three(page)
        wait_for_turn(page)
    for _ in range(3):
        play_one(page)
        wait_for_turn(page)
    moved_to = version(page)
    in_hand = page.locator("#t-me .playing-card").count()
    assert in_hand < 13
    shot(page, screens, "offline-after-three-cards")

    server.terminate()
    server.wait(10)
    page.context.set_offline(False)  # the network is back, but the server is gone
    page.reload()
    ready(page)
    page.locator("[data-resume]").first.click()
    page.wait_for_selector("#table")
    wait_for_turn(page)
    assert version(page) >= moved_to, "the game resumes where it was"
    assert page.locator("#t-me .playing-card").count() == in_hand
    play_one(page)
    assert version(page) > moved_to


def test_the_offline_table_refuses_a_stale_move_silently_and_says_why_a_card_is_dimmed(site, open_page):
    page = open_page(None)
    page.goto(site.url + "/play-offline/")
    ready(page)
    page.check("input[name=level][value=easy]")
    page.click("#offline-start button[type=submit]")
    page.wait_for_selector("#table")
    wait_for_turn(page)
    if page.locator(".pass-form").count():
        pass_three(page)
        wait_for_turn(page)
    dimmed = page.locator(".hand .playing-card.dimmed")
    if dimmed.count():
        reason = dimmed.first.get_attribute("data-why") or page.get_attribute("#t-status", "data-why")
        assert reason
    before = version(page)
    in_hand = page.locator("#t-me .playing-card").count()
    # a move made against an earlier position (a double click) changes nothing and says nothing
    page.evaluate("v => document.getElementById('table').setAttribute('data-version', String(v - 1))", before)
    page.locator(".hand .playing-card.legal").first.click()
    page.wait_for_timeout(500)
    assert page.locator("#t-me .playing-card").count() == in_hand
    assert not page.locator("#t-alert .table-alert").count()
    page.evaluate("v => document.getElementById('table').setAttribute('data-version', String(v))", before)
    play_one(page)
    assert page.locator("#t-me .playing-card").count() == in_hand - 1
