"""Real processes for the tests and tools that start them: daphne and a private redis-server
on free ports, a Celery worker, and websocket clients speaking the JSON format over TCP (the
`websockets` package).

Every process is started here and stopped by its own PID (never by name: other people run
daphne, celery and redis-server on the same machines). The ``live_processes`` fixture
(tests/conftest.py) stops whatever a test started, even when it fails.
"""
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from hearts_site import serve

ROOT = Path(__file__).resolve().parent.parent
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def pytest_database_url() -> str:
    """The pytest database, for processes started by a test (like tests/conftest.py's worker)."""
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Process:
    """A child process with a log file; ``stop`` ends it (SIGTERM, then SIGKILL)."""

    name = "process"

    def __init__(self, log_path: Path):
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def _spawn(self, argv, env=None):
        log = open(self.log_path, "ab")
        try:
            self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        finally:
            log.close()  # the child has its own copy

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to close anything (a crash)."""
        if self.running:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(10)

    def stop(self) -> None:
        if self.running:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def _wait_for_port(self, port: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log()[-3000:]}")
            if port_open(port):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not listen on port {port} within {timeout} s:\n{self.log()[-3000:]}")


class RedisServer(Process):
    """A private redis-server (no persistence, like a restarted cache): a test may stop it."""

    name = "redis-server"

    def __init__(self, log_path: Path, port: int | None = None):
        super().__init__(log_path)
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        self._spawn([REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--daemonize", "no"])
        self._wait_for_port(self.port, 10)
        return self


class DaphneServer(Process):
    """The site's server (``hearts_site.serve``: daphne) with the environment ``env``: the
    settings it runs on (``daphne_env`` for production settings on the test database)."""

    name = "daphne"

    def __init__(self, log_path: Path, env: dict, port: int | None = None):
        super().__init__(log_path)
        self.env = env
        self.port = port or free_port()

    def start(self) -> "DaphneServer":
        """Start it, and return once it takes connections (a busy machine may take a while to
        import the site: up to a minute)."""
        self._spawn(serve.command(self.port), env=self.env)
        self._wait_for_port(self.port, 60)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class CeleryWorker(Process):
    """``celery -A hearts_site worker`` (one process, solo pool) on the test database."""

    name = "celery worker"

    def __init__(self, log_path: Path, env: dict):
        super().__init__(log_path)
        self.env = env

    def start(self) -> "CeleryWorker":
        self._spawn([sys.executable, "-m", "celery", "-A", "hearts_site", "worker", "--pool=solo",
                     "-Q", self.env["CELERY_QUEUE"], "--loglevel=INFO", "--without-gossip", "--without-mingle",
                     "--without-heartbeat"], env=self.env)
        deadline = time.monotonic() + 30
        while "ready." not in self.log():
            if not self.running or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start:\n{self.log()[-3000:]}")
            time.sleep(0.1)
        return self


def daphne_env(**overrides) -> dict:
    """Production settings (from this process's environment) on the test database, for
    daphne and Celery workers."""
    env = dict(os.environ, DATABASE_URL=pytest_database_url(), BOT_DELAY_SECONDS="0", LOG_LEVEL="INFO")
    env.update({key: str(value) for key, value in overrides.items()})
    return env


class Socket:
    """One person's table websocket to a real server, JSON format."""

    def __init__(self, port: int, table_id: int, cookie: str):
        self.port, self.table_id, self.cookie = port, table_id, cookie
        self.ws = None
        self.version = None  # the newest version seen
        self.state = None  # the newest state seen

    async def open(self) -> dict:
        """Connect and return the first frame (the full state, or an error before a close)."""
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/table/{self.table_id}/?format=json",
            additional_headers={"Cookie": f"sessionid={self.cookie}", "Origin": f"http://127.0.0.1:{self.port}"},
            open_timeout=5, close_timeout=2, ping_interval=None, proxy=None,
        )
        return await self.receive()

    async def reopen(self, timeout: float = 20) -> dict:
        """Reconnect until the server gives the full state (the way a client does after a
        close: pause, try again)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            await self.close()
            try:
                frame = await self.open()
                if frame.get("type") == "state":
                    return frame
                last = frame
            except Exception as error:  # refused, closed, not up yet
                last = error
            await asyncio.sleep(0.3)
        raise AssertionError(f"no state within {timeout} s; last: {last!r}")

    async def receive(self, timeout: float = 10) -> dict:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if frame.get("type") in ("state", "update"):
            self.version, self.state = frame["version"], frame["state"]
        return frame

    async def receive_until(self, predicate, timeout: float = 10) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.receive(max(deadline - time.monotonic(), 0.01))
            if predicate(frame):
                return frame

    async def send(self, frame: dict) -> None:
        await self.ws.send(json.dumps(frame))

    async def close_code(self, timeout: float = 10) -> int | None:
        """Wait for the server to close the socket; its close code (1006: no close frame)."""
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                await asyncio.wait_for(self.ws.recv(), max(deadline - time.monotonic(), 0.01))
        except ConnectionClosed:
            pass
        await asyncio.wait_for(self.ws.wait_closed(), 5)
        return self.ws.close_code

    async def close(self) -> None:
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 3)
            except Exception:
                pass
            self.ws = None
