"""Solo play offline in chromium: after one visit, with the network cut (Playwright's offline
mode) and then the server stopped, a player deals, plays a deal, reloads and resumes the game
from this device; hints, dimmed cards' reasons, a finished game kept with the player's games
when the network returns, and the site installable.  The table is the online one, run by
Pyodide."""
import json

import pytest

from games.table.offline import checked_replay
from tests.processes import DaphneServer
from tests.solo.test_offline import finished_game

from .test_solo_browser import pass_three, play_one, play_to_end, shot, version, wait_for_turn

pytestmark = pytest.mark.browser


def network_back(page):
    """The network comes back, as the page sees it. Chromium's network emulation (150) ends
    without the ``online`` event that a real return of the network fires, so it is fired here."""
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


@pytest.fixture
def own_server(site, tmp_path):
    """A daphne of its own (on the browser tests' database), so this test can stop it."""
    server = DaphneServer(tmp_path / "own-daphne.log", site.env).start()
    yield server.url, server
    server.stop()


def ready(page):
    page.wait_for_selector("#offline[data-ready]", timeout=60000)


def kept_for_offline(page):
    """Until the service worker has kept everything the offline page needs."""
    page.wait_for_function("""async () => {
        const worker = await navigator.serviceWorker.ready;
        return worker.active && worker.active.state === "activated";
    }""", timeout=60000)


def deal_offline(page, url: str, level: str, target: str = "100"):
    """Visit the offline page once, cut the network, and deal a game there (fast pace)."""
    page.goto(url + "/play-offline/")
    ready(page)
    kept_for_offline(page)
    page.evaluate("() => localStorage.setItem('hearts.speed', 'fast')")
    page.context.set_offline(True)
    page.reload()
    ready(page)
    page.check(f"input[name=level][value={level}]")
    page.check(f"input[name=target][value='{target}']")
    page.click("#offline-start button[type=submit]")
    page.wait_for_selector("#table")


def deal_here(page, level: str):
    """Deal a game on the offline page already open, and pass if the deal passes: until the
    player is to play."""
    page.check(f"input[name=level][value={level}]")
    page.click("#offline-start button[type=submit]")
    page.wait_for_selector("#table")
    wait_for_turn(page)
    if page.locator(".pass-form").count():
        pass_three(page)
        wait_for_turn(page)


def test_a_game_is_played_offline_and_resumed_with_the_server_stopped(own_server, open_page, screens):
    url, server = own_server
    page = open_page(None)
    deal_offline(page, url, "medium")
    shot(page, screens, "offline-first-table")
    assert page.locator("#t-me .playing-card").count() == 13
    wait_for_turn(page)
    if page.locator(".pass-form").count():
        pass_three(page)
        wait_for_turn(page)
    for _ in range(12):  # all but the last card of the deal
        play_one(page)
        wait_for_turn(page)
    moved_to = version(page)
    in_hand = page.locator("#t-me .playing-card").count()
    assert in_hand == 1
    shot(page, screens, "offline-last-card")
    # Pyodide's computers decide as the server's do: each Medium move replays here
    kept = page.evaluate("() => localStorage.getItem('hearts.offline.games')")
    (saved,) = json.loads(kept).values()
    assert checked_replay(saved, finished=False).game.ply == moved_to

    server.stop()
    network_back(page)  # but the server is gone
    page.reload()
    ready(page)
    page.locator("[data-resume]").first.click()
    page.wait_for_selector("#table")
    wait_for_turn(page)
    assert version(page) >= moved_to, "the game resumes where it was"
    assert page.locator("#t-me .playing-card").count() == in_hand
    play_one(page)  # the deal's last card: the deal is scored and the next one dealt
    wait_for_turn(page)
    assert version(page) > moved_to
    assert "Deal 2" in page.inner_text("#t-bar")
    shot(page, screens, "offline-second-deal")


def test_the_offline_table_gives_hints_says_why_a_card_is_dimmed_and_ignores_a_stale_move(site, open_page):
    page = open_page(None)
    page.goto(site.url + "/play-offline/")
    ready(page)
    deal_here(page, "easy")
    page.click(".hint-button")
    page.wait_for_selector("#t-hint .hint-box")
    assert page.locator(".hand .playing-card.hinted").count() == 1
    assert len(page.inner_text("#t-hint")) > 10
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


def test_a_finished_offline_game_is_kept_with_the_players_games_when_the_network_returns(site, open_page, screens):
    page = open_page("olga")
    page.goto(site.url + "/play-offline/")
    ready(page)
    kept_for_offline(page)
    page.context.set_offline(True)
    saved = finished_game(game_id="browser1")
    page.evaluate("game => localStorage.setItem('hearts.offline.games', JSON.stringify({[game.id]: game}))", saved)
    page.reload()
    ready(page)
    row = page.locator("#offline-games li")
    assert row.count() == 1 and "kept" not in row.inner_text()
    # Readable (the page's link colour, not the header's white) and in the player's own time.
    colour = page.eval_on_selector("#offline-games button.link", "b => getComputedStyle(b).color")
    assert colour == "rgb(11, 94, 215)", colour
    assert "Dec" in row.inner_text() and "2026-12-01" not in row.inner_text(), row.inner_text()
    network_back(page)
    page.wait_for_selector("#offline-games .offline-kept")
    shot(page, screens, "offline-game-kept")
    replay = page.get_attribute("#offline-games .offline-kept", "href")
    # Kept by the server: the device keeps only what lists it, with the link to it.
    (pruned,) = json.loads(page.evaluate("() => localStorage.getItem('hearts.offline.games')")).values()
    assert "game" not in pruned and pruned["kept"] == replay and pruned["id"] == "browser1", pruned
    page.reload()
    ready(page)
    assert page.locator("#offline-games [data-resume]").count() == 0
    assert page.get_attribute("#offline-games .offline-kept", "href") == replay
    page.goto(site.url + "/my-games/")
    assert replay in page.content()


def test_the_site_is_an_installable_web_app(site, open_page):
    page = open_page(None)
    page.goto(site.url + "/play-offline/")
    ready(page)
    kept_for_offline(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest.get("errors")
    # Chromium's own verdict: what stops installing, but for the browser context itself (a
    # Playwright context is an incognito profile, where nothing installs)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == [], errors


def test_a_game_played_offline_to_the_end_is_kept_when_the_network_returns(site, open_page, screens):
    page = open_page("pia")
    deal_offline(page, site.url, "easy", target="50")
    text = play_to_end(page, screens, "offline")
    assert "New game" in page.inner_text(".game-over") and "Replay" not in page.inner_text(".game-over")
    (saved,) = json.loads(page.evaluate("() => localStorage.getItem('hearts.offline.games')")).values()
    assert checked_replay(saved).over and "kept" not in saved

    network_back(page)  # the game goes to the player's account
    page.wait_for_function("() => Object.values(JSON.parse(localStorage.getItem('hearts.offline.games'))).every(g => g.kept)")
    page.goto(site.url + "/my-games/")
    row = page.locator("tr", has_text="played offline")
    assert row.count() == 1
    won = "You won" in row.inner_text()
    assert won == ("You win!" in text), "the kept game ends as it did offline"


LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver(list => list.getEntries().forEach(t => window.longTasks.push([t.startTime, t.duration])))
  .observe({type: "longtask", buffered: true});
"""


def test_hard_thinks_off_the_pages_thread(site, open_page):
    """Pyodide runs in a Web Worker: a Hard computer's search is no long task on the page."""
    page = open_page(None)
    page.add_init_script(LONG_TASKS)
    page.goto(site.url + "/play-offline/")
    ready(page)
    assert page.evaluate("() => typeof window.loadPyodide === 'undefined' && !window.pyodide")
    since = page.evaluate("() => performance.now()")
    page.evaluate("() => localStorage.setItem('hearts.speed', 'instant')")
    deal_here(page, "hard")
    for _ in range(4):
        play_one(page)
        wait_for_turn(page)
    thinking = [float(ms) for ms in page.get_attribute("#offline", "data-computer-ms").split()]
    longest = max([duration for start, duration in page.evaluate("window.longTasks") if start >= since], default=0)
    print(f"\nHard offline: {len(thinking)} computer moves, longest {max(thinking):.0f} ms of thinking; "
          f"longest task on the page's thread {longest:.0f} ms")
    assert len(thinking) >= 9
    assert longest <= 200, f"the page froze for {longest:.0f} ms"


def test_expert_is_offered_offline_only_where_the_device_is_fast_enough(site, open_page):
    """The worker times the search on this device (games.table.offline.levels_offered): Expert
    is either offered, or left out with the reason said; never a choice that cannot be made."""
    page = open_page(None)
    page.goto(site.url + "/play-offline/")
    expert = page.locator("input[name=level][value=expert]")
    assert expert.is_disabled(), "Expert waits for the device to be timed"
    ready(page)
    offered = page.locator("label:has(input[value=expert])").is_visible()
    note = page.locator("#offline-expert")
    assert offered != note.is_visible()
    assert expert.is_enabled() == offered
    if not offered:
        assert "more than a second over a card" in note.inner_text()
    for level in ("easy", "medium", "hard"):
        assert page.locator(f"input[name=level][value={level}]").is_enabled()
