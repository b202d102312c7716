"""The analysis of a finished game in a browser: asked for on the replay, filled in as it runs
(the panel polls, and the verdict at the move shown arrives with the finished panel), then
"Review my mistakes" steps through them."""
import subprocess
import sys

from tests.browser.conftest import PHONE, ROOT

FINISHED_GAME = """
from django.conf import settings
from django.contrib.auth import get_user_model
from games import services, storage
from games.engine import Rules
settings.TASK_RUNNER = "eager"  # the computers answer in this process
user = get_user_model().objects.get(username={username!r})
table = services.create_table(user, Rules(target=30), seat_bots=[None, "medium", "medium", "medium"], seed=8)
services.start_table(table.pk)
while True:  # the person passes their lowest cards and plays their highest: mistakes to find
    table.refresh_from_db()
    game = storage.game_of(table)
    if game.is_over:
        break
    legal = game.legal(0)
    action = legal[:3] if game.phase == "pass" else legal[-1] if game.phase == "play" else "add"
    services.submit_action(table.pk, 0, [str(c) for c in action] if game.phase == "pass" else str(action), user=user)
table.refresh_from_db()
print("TABLE=%s %s" % (table.pk, table.status))
"""


def finished_game(site, username) -> int:
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", FINISHED_GAME.format(username=username)],
                            cwd=ROOT, env=site.env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("TABLE="))
    table, status = line.split("=", 1)[1].split()
    assert status == "finished"
    return int(table)


def test_asking_for_an_analysis_then_reviewing_the_mistakes(site, open_page, screens):
    page = open_page("analyst")
    table = finished_game(site, "analyst")
    page.goto(f"{site.url}/table/{table}/replay/?ply=0")
    page.get_by_role("button", name="Analyse my play").click()
    page.wait_for_selector("#analysis-panel [data-accuracy]", timeout=60000)
    here = page.locator("#analysis-here")
    review = here.locator("[data-nav=next-mistake]")
    assert review.count() == 1, "the way through the mistakes arrives with the finished panel, without a page load"
    if screens:
        page.screenshot(path=str(screens / "analysis-done.png"), full_page=True)
    review.click()
    page.wait_for_selector("#analysis-here [data-verdict]")
    verdict = page.locator("#analysis-here [data-verdict]")
    assert verdict.get_attribute("data-verdict") in ("inaccuracy", "mistake", "blunder")
    assert "Better:" in verdict.inner_text()
    assert "Mistake 1 of" in here.inner_text()
    assert "ply=" in page.url, "each step is a link of its own"

    phone = open_page("analyst", PHONE)
    phone.goto(f"{site.url}/table/{table}/replay/?ply=0")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the replay with its analysis is {width}px wide on a {PHONE['width']}px phone"
    if screens:
        phone.screenshot(path=str(screens / "analysis-phone.png"), full_page=True)
