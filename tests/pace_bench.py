"""Benchmark of the solo table's pace in chromium: the median time between two computers'
cards in a row, as the player sees them arrive, at each speed setting.

    python -m tests.pace_bench [--tricks 4]

Starts daphne on a free port (embedded default, the default pause before a computer's card,
``BOT_DELAY_SECONDS``), opens a new game for each speed with the speed chosen, passes the
first three cards and plays the first legal card at every turn, and records when each card
lands in the centre. Run ``manage.py collectstatic`` first (``make`` does).
"""
from __future__ import annotations

import argparse
import statistics

from tests.offline_bench import chromium_on_site

SPEEDS = ("slow", "normal", "fast", "instant")

RECORD = """
window.landed = [];
new MutationObserver(records => records.forEach(r => r.addedNodes.forEach(node => {
  if (!node.querySelectorAll) return;
  const cards = node.matches('.trick-card') ? [node] : [...node.querySelectorAll('.trick-card')];
  cards.forEach(card => window.landed.push([performance.now(), card.dataset.seat, card.dataset.card]));
}))).observe(document, {childList: true, subtree: true});
"""

MY_TURN = "() => document.querySelector('#table.my-turn, #table.is-over') && !document.querySelector('#t-overlay .after-trick')"


def gaps(landed: list, me: str) -> list[float]:
    """Milliseconds between consecutive first arrivals of two computers' cards.

    >>> gaps([[0, "1", "2C"], [800, "2", "3C"], [800, "2", "3C"], [2000, "0", "4C"], [2100, "1", "5C"]], "0")
    [800]
    """
    firsts, seen = [], set()
    for at, seat, card in landed:
        if card not in seen:
            seen.add(card)
            firsts.append((at, seat))
    return [round(b[0] - a[0]) for a, b in zip(firsts, firsts[1:]) if a[1] != me and b[1] != me]


def measure(page, url: str, speed: str, tricks: int) -> list[float]:
    page.goto(url + "/play/new/")
    page.evaluate("s => localStorage.setItem('hearts.speed', s)", speed)
    page.click("form.setup-form button[type=submit]")
    page.wait_for_selector("#table[data-synced]")
    page.wait_for_function(MY_TURN, timeout=30000)
    if page.locator(".pass-form").count():
        for i in range(3):
            page.locator(".pass-form label.playing-card").nth(i).click()
        page.click(".pass-button")
    me = page.get_attribute("#table", "data-seat")
    for _ in range(tricks):
        page.wait_for_function("() => document.querySelector('#table.my-turn .hand .playing-card.legal')", timeout=60000)
        page.locator(".hand .playing-card.legal").first.click()
        page.wait_for_timeout(200)
    page.wait_for_function(MY_TURN, timeout=60000)
    return gaps(page.evaluate("window.landed"), me)


def main(argv: "list[str] | None" = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tricks", type=int, default=4, help="cards the player plays at each speed")
    args = parser.parse_args(argv)
    with chromium_on_site() as (browser, url):
        for speed in SPEEDS:
            page = browser.new_page()
            page.add_init_script(RECORD)
            found = measure(page, url, speed, args.tricks)
            print(f"{speed:8} median gap between computer cards {statistics.median(found):6.0f} ms "
                  f"(min {min(found)}, max {max(found)}, {len(found)} gaps)")
            page.close()

if __name__ == "__main__":
    main()
