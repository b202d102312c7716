import os
import threading
import uuid
from pathlib import Path

import pytest

BROWSER_TEST_FOLDERS = ("browser", "browser_live")


def pytest_collection_modifyitems(config, items):
    """On production settings, the browser tests are left to the embedded pass: their servers
    run on the embedded default whatever the settings of the test process (a SQLite file, the
    in-memory channel layer, task threads), so a second pass would repeat them exactly — a
    quarter of an hour of CI. ``BROWSER_TESTS_EVERYWHERE=1`` runs them anyway."""
    if not os.environ.get("DATABASE_URL") or os.environ.get("BROWSER_TESTS_EVERYWHERE") == "1":
        return
    skip = pytest.mark.skip(reason="browser tests run their site on the embedded default: the embedded pass runs them")
    tests = Path(__file__).resolve().parent
    for item in items:
        parts = Path(str(item.fspath)).resolve().relative_to(tests).parts
        if parts and parts[0] in BROWSER_TEST_FOLDERS:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _tasks_run_eagerly(settings):
    """Tests run tasks synchronously unless a test asks for a real runner.

    A test that asks for the in-process runner ("thread") leaves its timers behind (a turn's
    30 s, a stand-in's 60 s): they are cancelled when it ends, or one fires inside a later
    test, where its transaction on the shared in-memory SQLite database makes that test's own
    writes fail with "database table is locked"."""
    timers_before = set(_task_timers())
    settings.TASK_RUNNER = "eager"
    settings.BOT_DELAY_SECONDS = 0
    settings.SECURE_SSL_REDIRECT = False
    yield
    for _ in range(20):  # a task still running may start the next one's timer
        left = [timer for timer in _task_timers() if timer not in timers_before]
        if not left:
            return
        for timer in left:
            timer.cancel()
            timer.join(10)
            timers_before.add(timer)
    raise AssertionError("the in-process runner's timers went on starting one another")


def _task_timers() -> list:
    """The in-process task runner's timers still alive (``hearts_site.taskrunner``)."""
    return [thread for thread in threading.enumerate()
            if isinstance(thread, threading.Timer) and thread.function.__module__ == "hearts_site.taskrunner"]


@pytest.fixture
def celery_worker_process(transactional_db, settings):
    """A real ``celery worker`` process on the test database (production settings only).

    Yields a handle with ``restart()`` and ``kill()`` for fault tests.
    """
    import os
    import signal
    import subprocess
    import sys
    import time
    import uuid
    from pathlib import Path

    from django.db import connection

    from hearts_site.celery import app

    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs production settings: REDIS_URL and DATABASE_URL")
    settings.TASK_RUNNER = "celery"
    queue = f"test-{uuid.uuid4().hex[:8]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = dict(os.environ, DATABASE_URL=database_url, BOT_DELAY_SECONDS="0", CELERY_QUEUE=queue)
    root = Path(__file__).resolve().parent.parent

    class Worker:
        process = None

        def start(self):
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "hearts_site", "worker", "--pool=solo", "-Q", queue,
                 "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=root, env=env,
            )
            time.sleep(0.5)

        def kill(self):
            if self.process and self.process.poll() is None:
                self.process.send_signal(signal.SIGKILL)
                self.process.wait(10)

        def stop(self):
            if self.process and self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(15)
                except subprocess.TimeoutExpired:
                    self.kill()

        def restart(self):
            self.kill()
            self.start()

    worker = Worker()
    worker.start()
    yield worker
    worker.stop()
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(queue)


@pytest.fixture(autouse=True)
def _front_door_counts_of_this_test_only(settings, request):
    """Each test counts its own guests, resets and failed logins (accounts.limits): the
    counts live in the cache, shared by the whole run (Redis on the production settings)."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{_RUN}:{request.node.nodeid}:"  # Redis keeps counts between runs


_RUN = uuid.uuid4().hex[:12]


@pytest.fixture(autouse=True)
def _no_snapshots_from_other_tests():
    """Each test starts with no kept table snapshots: its database reuses table ids."""
    from games import storage

    storage.forget()
    yield
    storage.forget()


@pytest.fixture
def live_processes(transactional_db, settings, tmp_path):
    """Start real daphne and redis-server processes (production settings only: PostgreSQL and
    Redis). ``live_processes.daphne(**env)`` starts daphne on a free port on the test
    database (``env`` adds settings, e.g. ``REDIS_URL`` or ``LIVE_RECONNECT_GRACE_SECONDS``),
    ``live_processes.worker(**env)`` a Celery worker likewise (for a private broker: the
    tests' own worker is ``celery_worker_process``), ``live_processes.redis()`` a private
    redis-server on a free port. Everything started is
    stopped afterwards, by PID, even when the test fails; logs are in ``tmp_path``."""
    import os

    from tests import processes

    if not os.environ.get("REDIS_URL") or not os.environ.get("DATABASE_URL"):
        pytest.skip("needs production settings: REDIS_URL and DATABASE_URL")

    class Started:
        def __init__(self):
            self.all = []

        def daphne(self, port=None, **env) -> "processes.DaphneServer":
            env.setdefault("CELERY_QUEUE", settings.CELERY_TASK_DEFAULT_QUEUE)  # a celery_worker_process's queue
            server = processes.DaphneServer(tmp_path / f"daphne-{len(self.all)}.log", processes.daphne_env(**env), port)
            self.all.append(server)
            return server.start()

        def worker(self, **env) -> "processes.CeleryWorker":
            import uuid

            env.setdefault("CELERY_QUEUE", f"test-{uuid.uuid4().hex[:8]}")
            worker = processes.CeleryWorker(tmp_path / f"worker-{len(self.all)}.log", processes.daphne_env(**env))
            self.all.append(worker)
            return worker.start()

        def redis(self) -> "processes.RedisServer":
            if not os.path.exists(processes.REDIS_SERVER):
                pytest.skip("needs redis-server")
            server = processes.RedisServer(tmp_path / f"redis-{len(self.all)}.log")
            self.all.append(server)
            return server.start()

    started = Started()
    try:
        yield started
    finally:
        for process in reversed(started.all):
            process.stop() if isinstance(process, processes.RedisServer) else process.kill()

