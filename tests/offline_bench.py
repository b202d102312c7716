"""Benchmark of solo play offline in chromium: what the first visit loads, how long until the
computers are ready, the time to deal and the computers' time per move, in Pyodide.

    python -m tests.offline_bench [--level medium] [--cards 26]

Starts daphne on a free port (embedded default, a new SQLite file), opens ``/play-offline/``
in Debian's chromium (headless), deals a game and plays the first legal card at every turn.
Run ``manage.py collectstatic`` first (``make`` does).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.processes import DaphneServer

ROOT = Path(__file__).resolve().parents[1]


def start_site(tmp: Path) -> DaphneServer:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"SQLITE_PATH": str(tmp / "bench.sqlite3"), "LOG_LEVEL": "WARNING"})
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    return DaphneServer(tmp / "daphne.log", env).start()


@contextlib.contextmanager
def chromium_on_site():
    """``(browser, url)``: Debian's chromium (headless) and a fresh site (:func:`start_site`),
    both stopped afterwards."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = start_site(Path(tmp))
        url = server.url
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
                try:
                    yield browser, url
                finally:
                    browser.close()
        finally:
            server.stop()


def main(argv: "list[str] | None" = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--cards", type=int, default=26, help="how many of the player's cards to play")
    args = parser.parse_args(argv)
    with chromium_on_site() as (browser, url):
        page = browser.new_page()
        loaded = {}
        page.on("requestfinished", lambda request: loaded.__setitem__(
            request.url, (request.sizes()["responseBodySize"], request.response().headers.get("content-encoding", ""))))
        began = time.perf_counter()
        page.goto(url + "/play-offline/")
        page.wait_for_selector("#offline[data-ready]", timeout=120000)
        wall = time.perf_counter() - began
        ready_ms = int(page.get_attribute("#offline", "data-ready"))
        total = sum(size for size, _ in loaded.values())
        print(f"first visit: {len(loaded)} files, {total / 1e6:.1f} MB over the network "
              f"({'compressed' if any(enc for _, enc in loaded.values()) else 'uncompressed'}); "
              f"page open to computers ready {wall:.2f} s (Pyodide start and bundle {ready_ms} ms)")
        for name, (size, _) in sorted(loaded.items(), key=lambda item: -item[1][0])[:4]:
            print(f"  {size / 1e6:6.2f} MB  {name.replace(url, '')}")
        page.check(f"input[name=level][value={args.level}]")
        page.click("#offline-start button[type=submit]")
        page.wait_for_selector("#table")
        print(f"deal: {float(page.get_attribute('#offline', 'data-dealt-ms')):.1f} ms (a new game dealt, kept and its whole table drawn)")
        played = 0
        while played < args.cards:
            page.wait_for_function("() => { const t = document.getElementById('table'); const c = t.classList;"
                                   " return c.contains('my-turn') || c.contains('is-over') }", timeout=60000)
            if "is-over" in page.get_attribute("#table", "class"):
                break
            old = int(page.get_attribute("#table", "data-version"))
            if page.locator(".pass-form").count():
                for i in range(3):
                    page.locator(".pass-form label.playing-card").nth(i).click()
                page.locator(".pass-button").click()
            else:
                page.locator(".hand .playing-card.legal").first.click()
                played += 1
            page.wait_for_function("v => Number(document.getElementById('table').dataset.version) > v", arg=old)
        for attribute, what in (("data-computer-ms", f"{args.level} computer's move (its decision and the move)"),
                                ("data-draw-ms", "drawing what changed after a move (every part of the table)")):
            times = sorted(float(x) for x in (page.get_attribute("#offline", attribute) or "").split())
            print(f"{what}, {len(times)} times: median {statistics.median(times):.1f} ms, "
                  f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
