"""What a person at a live table sees in a real browser when Redis goes away and comes back
(production settings: daphne on a private redis-server). The server closes the table socket
with 4503, which the htmx websocket extension does not retry by itself: games/table.js does."""
import os
import time

import pytest

from games import storage
from tests.browser_live.test_live_browser import CHROMIUM, LEGAL, _in_own_thread, _need_chromium, _version, _with_browser
from tests.live.conftest import people, seat_people, session_cookie  # noqa: F401  (people: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker]


def test_the_table_says_it_is_reconnecting_during_a_redis_outage_then_plays_on(live_processes, people):
    _need_chromium()
    redis = live_processes.redis()
    table = seat_people(people, timer=30)  # every move sends its turn timer to the broker
    mover = storage.game_of(table).to_act[0]
    cookie = session_cookie(people[mover])
    server = live_processes.daphne(REDIS_URL=redis.url, SECURE_SSL_REDIRECT="false",
                                   LIVE_SERVER_HEARTBEAT_SECONDS=0.5, LIVE_SERVER_TIMEOUT_SECONDS=2)
    base = f"http://127.0.0.1:{server.port}"
    before = table.version

    def scenario(browser):
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{base}/live/room/{table.code}/")
        page.wait_for_function("v => Number(document.querySelector('#table')?.dataset.version) === v", arg=before)

        redis.stop()
        page.wait_for_function(
            "() => document.querySelector('#live-error').innerText.includes('briefly unavailable')", timeout=10000
        )
        time.sleep(2)  # the page keeps trying; each try is refused the same way
        redis.start()
        stopped = time.monotonic()
        page.wait_for_function("() => document.querySelector('#live-error').innerText.trim() === ''", timeout=30000)
        back = time.monotonic() - stopped
        assert _version(page) == before, "the whole table again, at the same version"

        page.locator(LEGAL).first.click()
        page.wait_for_function(
            "v => Number(document.querySelector('#table').dataset.version) > v", arg=before, timeout=10000
        )
        context.close()
        return back

    back = _in_own_thread(_with_browser, scenario)
    log = server.log()
    assert "layer_unavailable" in log and "Exception inside application" not in log
    print(f"browser: table back {back:.1f} s after Redis returned")
    assert os.path.exists(CHROMIUM)
