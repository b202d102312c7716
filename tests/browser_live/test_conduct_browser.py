"""What the rules of conduct look like in real browsers, on the embedded default served by
daphne: the page says at once that it is reconnecting when the server goes away, sends
nothing made meanwhile, and the clock starts again whole when the server is back; a person
who was away sees "I'm back", and the others see it on their plate."""
import subprocess
import sys
import time

import pytest

from tests.processes import DaphneServer

from tests.browser_live.test_live_browser import (
    LEGAL, ROOT, SETUP_USERS, _embedded_env, _in_own_thread, _log_in, _need_chromium, _version,
    _with_browser,
)

pytestmark = pytest.mark.browser

TABLE = """
from accounts.models import User
from games import services, storage
from games.engine import Rules
from games.models import Table
from live import rooms

ann, bob = (User.objects.get(username=name) for name in ("ann", "bob"))
table = services.create_table(ann, Rules(passing="none"), kind=Table.Kind.FRIENDS,
                              seat_bots=[None, None, "easy", "easy"], seed=7, turn_timer_seconds=30)
Table.objects.filter(pk=table.pk).update(turn_timer_seconds={timer})  # short turns: a test's
rooms.take_seat(table.pk, bob, 1)
table = services.start_table(table.pk)
print(table.pk, table.code, storage.game_of(table).to_act[0])
"""


class Site:
    """daphne on the embedded default, stopped and started again on one port."""

    def __init__(self, tmp_path):
        self.env = _embedded_env(tmp_path)
        # The outage is noticed within seconds (the heartbeat's sweep), not half a minute; not
        # so soon that a busy machine's late heartbeat takes the new server for dead.
        self.env.update(LIVE_SERVER_HEARTBEAT_SECONDS="1", LIVE_SERVER_TIMEOUT_SECONDS="5")
        self.server = DaphneServer(tmp_path / "daphne.log", self.env)  # one port, kept across restarts
        self.base = self.server.url
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("shell", "-c", SETUP_USERS)

    def manage(self, *args) -> str:
        """A management command on the site's database; the computers' moves it causes are made
        before it returns (the eager task runner), not on threads that end with it."""
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=dict(self.env, TASK_RUNNER="eager"),
                              check=True, capture_output=True, text=True)
        return done.stdout

    def start(self):
        self.server.start()

    def kill(self):
        self.server.kill()

    def stop(self):
        self.server.stop()


@pytest.fixture
def site(tmp_path):
    _need_chromium()
    site = Site(tmp_path)
    yield site
    site.stop()


def deadline_in(page) -> float:
    """Seconds until the turn's deadline shown on the page."""
    return page.evaluate("() => (Date.parse(document.querySelector('.countdown[data-deadline]')"
                         ".getAttribute('data-deadline')) - Date.now()) / 1000")


def test_the_page_says_it_is_reconnecting_sends_nothing_meanwhile_and_the_clock_waits(site):
    table_id, code, to_act = site.manage("shell", "-c", TABLE.format(timer=30)).split()[-3:]
    site.start()
    mover = ("ann", "bob")[int(to_act)] if int(to_act) < 2 else None
    assert mover, "a person leads (seed 7)"
    _in_own_thread(_with_browser, _reconnecting, site, code, mover)


def _reconnecting(browser, site, code, mover):
    page = _log_in(browser, site.base, mover)
    page.goto(f"{site.base}/live/room/{code}/")
    page.wait_for_selector("#table[data-synced='1']")
    page.wait_for_selector(LEGAL)
    before = _version(page)

    site.kill()
    killed = time.monotonic()
    page.wait_for_selector("#connection-state:not([hidden])", timeout=10000)
    shown_after = time.monotonic() - killed
    assert "Reconnecting" in page.inner_text("#connection-state")
    page.locator(LEGAL).first.click()  # made on a table that may be out of date: not sent
    time.sleep(3)  # the server is away for a while

    site.start()
    restarted = time.monotonic()
    page.wait_for_selector("#connection-state", state="hidden", timeout=90000)
    back_after = time.monotonic() - restarted
    # The new server's sweep notices the dead one and starts the clock again: a new version.
    page.wait_for_function("v => Number(document.querySelector('#table').dataset.version) > v", arg=before,
                           timeout=90000)
    assert page.locator(LEGAL).count() > 0, "the click made while away was not played late"
    left = deadline_in(page)
    assert left > 30, f"the clock started again whole, with the time to come back ({left:.0f} s)"
    played_on = _version(page)  # read before the click: its answer may come before a read after it
    page.locator(LEGAL).first.click()
    page.wait_for_function("v => Number(document.querySelector('#table').dataset.version) > v",
                           arg=played_on, timeout=30000)
    print(f"browser: 'Reconnecting' shown {shown_after:.1f} s after the kill; back {back_after:.1f} s after "
          f"the restart; the clock then had {left:.0f} s")
    assert "Traceback" not in site.server.log()


def test_an_away_person_sees_im_back_and_the_others_see_it_on_the_plate(site):
    _table_id, code, _ = site.manage("shell", "-c", TABLE.format(timer=4)).split()[-3:]
    site.start()
    _in_own_thread(_with_browser, _away, site, code)


def _away(browser, site, code):
    ann, bob = (_log_in(browser, site.base, name) for name in ("ann", "bob"))
    for page in (ann, bob):
        page.goto(f"{site.base}/live/room/{code}/")
        page.wait_for_selector("#table[data-synced='1']")
    # Ann plays as soon as she can; Bob lets his 4 s turns run out.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not bob.locator("#back-button").count():
        cards = ann.locator(LEGAL)
        if cards.count():
            try:
                cards.first.click(timeout=2000)
            except Exception:  # the table moved under the click: try again
                pass
        time.sleep(0.2)
    assert bob.locator("#back-button").count(), "two turns ran out: Bob is away"
    assert "You are away" in bob.inner_text(".away-banner")
    ann.wait_for_function("() => document.querySelector('#t-seat-1 .presence').innerText.trim() === 'away'")
    bob.click("#back-button")
    bob.wait_for_selector("#back-button", state="detached")
    ann.wait_for_function("() => document.querySelector('#t-seat-1 .presence').innerText.trim() === 'online'")
    assert "Traceback" not in site.server.log()
