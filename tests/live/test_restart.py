"""A restart loses no game, on either setting: real processes killed with SIGKILL while a
computer is about to move, then started again; nobody opens the tables, and within
:data:`RECOVERY_SECONDS` every one moves on (a computer's card, a turn timer, a stand-in)."""
import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from tests import processes
from tests.processes import DaphneServer

RECOVERY_SECONDS = 10
PENDING = {"BOT_DELAY_SECONDS": 600}  # a computer's next card waits long after the kill
QUICK = {"BOT_DELAY_SECONDS": 0.05}


def embedded_env(sqlite_path, **overrides) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"}}
    env.update(SQLITE_PATH=str(sqlite_path), TASK_RUNNER="thread", DJANGO_SETTINGS_MODULE="hearts_site.settings",
               LOG_LEVEL="INFO")
    env.update({key: str(value) for key, value in overrides.items()})
    return env


def wait_until(predicate, timeout) -> float | None:
    """Seconds until ``predicate()`` held, or None if it never did within ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return time.monotonic() - started
        time.sleep(0.1)
    return None


class Tables:
    """The scenario's tables as stored: versions, stand-ins, timeouts."""

    def __init__(self, query):
        self.query = query  # (sql, params) -> rows

    def version(self, table_id) -> int:
        return self.query("SELECT version FROM games_table WHERE id = %s", [table_id])[0][0]

    def standing_in(self, table_id, number) -> bool:
        return bool(self.query("SELECT standing_in FROM games_seat WHERE table_id = %s AND number = %s", [table_id, number])[0][0])

    def timeouts(self, table_id) -> int:
        return self.query("SELECT COUNT(*) FROM games_action WHERE table_id = %s AND actor = 'timeout'", [table_id])[0][0]


def restart_and_watch(start, kill, tables, ids, log):
    """Start the processes (computers slow), see every table move on, kill them while a
    computer is about to move, start them again (computers quick), and time the recovery."""
    start(**PENDING)
    first = wait_until(
        lambda: tables.version(ids["solo"]) > 1 and tables.timeouts(ids["timer"]) == 1
        and tables.standing_in(ids["dropped"], 1) and tables.version(ids["dropped"]) > 1,
        RECOVERY_SECONDS,
    )
    assert first is not None, "the first start plans the tables left waiting:\n" + log()[-3000:]
    # Every table soon waits on a computer's card, 600 s away (a person's stand-in plays at
    # once, so the table with two people who dropped may still take a move): when no table
    # has moved for a second, kill.
    def versions():
        return {name: tables.version(table_id) for name, table_id in ids.items()}

    seen = [versions(), time.monotonic()]

    def settled() -> bool:
        now = versions()
        if now != seen[0]:
            seen[:] = [now, time.monotonic()]
        return time.monotonic() - seen[1] >= 1.0

    assert wait_until(settled, RECOVERY_SECONDS) is not None, "every table waits on a computer"
    before = seen[0]
    kill()
    started = time.monotonic()
    start(**QUICK)
    recovered = wait_until(lambda: all(tables.version(ids[name]) > before[name] for name in ids), RECOVERY_SECONDS + 30)
    assert recovered is not None, "the tables never moved after the restart:\n" + log()[-3000:]
    assert time.monotonic() - started < RECOVERY_SECONDS + 30
    assert recovered <= RECOVERY_SECONDS, f"moved {recovered:.1f} s after the restart"
    print(f"restart: first moves {recovered:.1f} s after the processes were up again; first start {first:.1f} s")
    return recovered


def test_a_restart_on_the_embedded_default_freezes_no_game(tmp_path):
    sqlite_path = tmp_path / "site.sqlite3"
    env = embedded_env(sqlite_path)
    root = processes.ROOT
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=root, env=env, check=True, timeout=120)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", "import runpy; runpy.run_module('tests.live.restart_scenario', run_name='__main__')"],
        cwd=root, env=env, capture_output=True, text=True, timeout=120,
    )
    assert made.returncode == 0, made.stderr
    ids = json.loads(next(line for line in made.stdout.splitlines() if line.startswith("TABLES="))[7:])

    def query(sql, params):
        with sqlite3.connect(sqlite_path, timeout=10) as db:
            return db.execute(sql.replace("%s", "?"), params).fetchall()

    server = DaphneServer(tmp_path / "daphne.log", env)

    def start(**overrides):
        server.env = embedded_env(sqlite_path, **overrides)
        server.start()

    try:
        restart_and_watch(start, server.kill, Tables(query), ids, server.log)
    finally:
        server.stop()


@pytest.mark.worker
def test_a_restart_on_production_settings_freezes_no_game(live_processes, settings):
    import uuid

    from django.db import connection

    from tests.live.restart_scenario import build

    ids = build(usernames=("ann-restart", "bob-restart"))
    queue = f"test-{uuid.uuid4().hex[:8]}"
    running = []

    def start(**overrides):
        running[:] = [live_processes.worker(CELERY_QUEUE=queue, **overrides),
                      live_processes.daphne(CELERY_QUEUE=queue, **overrides)]

    def kill():
        for process in running:
            process.kill()

    def query(sql, params):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()

    restart_and_watch(start, kill, Tables(query), ids, lambda: "".join(process.log() for process in running))
