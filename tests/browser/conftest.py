"""Browser tests: a real daphne server on a temporary SQLite file, driven by Debian's chromium.

The project is ASGI-only, so instead of pytest-django's live_server the ``site`` fixture starts
``daphne`` in a subprocess (embedded default, in-process task threads, short bot delay) after
migrating a fresh database. Players are signed in by planting a session cookie made in that
database. Skipped without /usr/bin/chromium unless REQUIRE_BROWSER=1.
"""
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.processes import DaphneServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 375, "height": 740}

MAKE_SESSION = """
from django.contrib.auth import get_user_model, BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
User = get_user_model()
user, _ = User.objects.get_or_create(username={username!r}, defaults={{"display_name": {display!r}}})
user.set_password("pw-long-enough-1"); user.save()
s = SessionStore()
s[SESSION_KEY] = str(user.pk)
s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
s[HASH_SESSION_KEY] = user.get_session_auth_hash()
s.create()
print("SESSION=" + s.session_key)
"""


def _require_browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is not installed")


@dataclass
class Site:
    url: str
    env: dict

    def session_for(self, username: str, display: str = "") -> str:
        code = MAKE_SESSION.format(username=username, display=display or username.capitalize())
        result = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=self.env,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return next(line.split("=", 1)[1] for line in result.stdout.splitlines() if line.startswith("SESSION="))


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    _require_browser()
    tmp = tmp_path_factory.mktemp("browser")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"}}
    env.update({
        "SQLITE_PATH": str(tmp / "site.sqlite3"),
        "BOT_DELAY_SECONDS": "0.05",
        "TASK_RUNNER": "thread",
        "ANALYSIS_EFFORT": "3000",  # an analysis in a few seconds
        "DJANGO_SETTINGS_MODULE": "hearts_site.settings",
        "DEBUG": "true",
        "LOG_LEVEL": "WARNING",
    })
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    server = DaphneServer(tmp / "daphne.log", env).start()
    try:
        yield Site(url=server.url, env=env)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(site):
    """Module scope, not session: Playwright's sync API marks this thread's event loop as
    running while it is open, and later async tests (pytest-asyncio) would then fail."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(site, browser):
    """``open_page(username, viewport)``: a signed-in page of a fresh browser context
    (``username=None``: a visitor without an account)."""
    contexts = []

    def make(username="ann", viewport=DESKTOP):
        context = browser.new_context(viewport=viewport, device_scale_factor=1,
                                      is_mobile=viewport["width"] < 600, has_touch=viewport["width"] < 600)
        if username is not None:
            context.add_cookies([{"name": "sessionid", "value": site.session_for(username), "url": site.url}])
        context.set_default_timeout(15000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screens():
    """Where to save screenshots (env SCREENS_DIR), or None."""
    path = os.environ.get("SCREENS_DIR")
    if path:
        Path(path).mkdir(parents=True, exist_ok=True)
    return Path(path) if path else None
