"""Load tool for live play: N tables of four real users, one websocket per seat.

    python -m tests.load --tables 500 --url ws://127.0.0.1:8000
    python -m tests.load --tables 500 --start-server          # starts daphne on a free port

It creates the users, sessions and started tables through the ORM (same environment as the
server: SQLITE_PATH, or DATABASE_URL and REDIS_URL; with --start-server and neither, a new
SQLite file of its own), opens every socket, and then each
table plays: the seat on turn sends a legal card made against the version it saw, and the
tool times how long until that move's update has reached all four seats. Play starts once
every seat has its table and the started servers have settled (:func:`settle`). At the end it
reports p50/p95/p99 of that latency, the server's CPU time per move (with --start-server),
and every lost (a version gap), duplicated or out-of-order update.

``--format html`` (default) reads the frames browsers get, as the table's script does: the
whole table once, then the parts that changed, each carrying the newest version, so a frame
may skip versions that came in a burst (not a loss); ``seats_behind_at_end`` and
``stalled_tables`` show anything lost. ``bytes_per_seat_per_move`` counts every byte the
sockets received (the first whole tables included) over four seats and the moves made, so it
falls as a run lasts longer; of it, ``bytes_per_seat_before_play`` is what a seat received
before play (its whole table, each other seat's arrival) and ``bytes_per_seat_per_move_in_play``
what a move cost after that.
``--format json`` speaks the JSON protocol, one update per version. Loopback only; bounded by
``--moves`` per table and ``--duration``.

Runs of one command on machines of one kind can differ by half or more: the figures depend on
how fast a core is and on what else uses the cores. So the report says, for the time of play,
where the machine's cores went (``cores``: busy in all, the started servers', this tool's own,
everything else's, and the hypervisor's ``steal``, from ``/proc``) and how fast this machine ran
a fixed piece of Python before and after play (``calibration_ms``, :func:`calibrate`): when
the two differ, the machine changed speed during the run. Of the servers' CPU per move,
``server_system_ms_per_move`` is the part spent in the operating system on their behalf (the
sockets' reads and writes, polling); the rest is their own Python. Read a p95 beside
``cores.other`` and ``cores.steal``, and compare code by runs made one after the other,
several of each.
"""
import argparse
import asyncio
import gc
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from tests.processes import DaphneServer

ROOT = Path(__file__).resolve().parents[2]
SERVER_LOG = Path(os.environ.get("TMPDIR", "/tmp")) / "hearts-load-daphne.log"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four people (default 50)")
    parser.add_argument("--url", default="ws://127.0.0.1:8000",
                        help="the daphne server(s), comma-separated: seats are spread over them (loopback only)")
    parser.add_argument("--start-server", action="store_true", help="start daphne on a free port for the run")
    parser.add_argument("--servers", type=int, default=1, help="with --start-server: how many daphne processes")
    parser.add_argument("--spread", choices=("table", "seat"), default="table",
                        help="with several servers: a table's sockets on one server (default) or round robin")
    parser.add_argument("--moves", type=int, default=20, help="moves per table (default 20)")
    parser.add_argument("--think", type=float, default=4.0,
                        help="seconds a player thinks before a move (mean; default 4: 500 tables make ~120 moves/s)")
    parser.add_argument("--duration", type=float, default=180.0, help="stop after this many seconds of play")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeline", metavar="FILE",
                        help="write each move's time into the run (s) and its latency (ms), a line each")
    parser.add_argument("--format", choices=("html", "json"), default="html",
                        help="html: the table fragments browsers get (default); json: the JSON protocol")
    return parser.parse_args(argv)


# --------------------------------------------------------------------------- setup (ORM)


def setup_tables(count: int, seed: int):
    """Create ``count`` started 4-person tables; returns [(table_id, [session keys by seat])]."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    User = get_user_model()
    run = f"{int(time.time())}{random.Random(seed).randrange(1000):03d}"
    users = User.objects.bulk_create(User(username=f"load{run}-{i}", display_name=f"Load {i}") for i in range(count * 4))
    users = list(User.objects.filter(username__startswith=f"load{run}-").order_by("pk"))
    sessions = {}
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions[user.pk] = store.session_key
    tables = []
    from django.db import transaction

    with transaction.atomic():  # one commit for the whole setup
        _make_tables(count, seed, users, sessions, tables)
    return tables


def _make_tables(count, seed, users, sessions, tables):
    from games import services
    from live import rooms
    from games.engine import Rules

    for index in range(count):
        seated = users[index * 4:(index + 1) * 4]
        table = services.create_table(
            seated[0], Rules(passing="none"), kind="friends", seat_bots=[None] * 4, seed=seed * 100000 + index
        )
        for number, user in enumerate(seated[1:], start=1):
            rooms.take_seat(table.pk, user, number)
        services.start_table(table.pk)
        tables.append((table.pk, [sessions[user.pk] for user in seated]))


def final_versions(table_ids):
    from games.models import Table

    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


# --------------------------------------------------------------------------- the clients


class Stats:
    def __init__(self):
        self.timeline = []  # (sent at, latency) of every move
        self.lost = 0
        self.duplicated = 0
        self.errors = {}
        self.frames = 0
        self.bytes = 0
        self.bytes_before_play = 0  # the first whole tables, and the news of every seat's arrival
        self.connect_failures = 0
        self.stalled_tables = 0
        self.error_samples = []
        self.ended_early = 0
        self.no_state_tables = 0
        self.server_cpu_seconds = 0.0
        self.server_system_seconds = 0.0  # of server_cpu_seconds, in the operating system
        self.cores: dict = {}  # where the machine's cores went during play (run_load)
        self.server_rss_mb = 0.0


STATE_TAG = re.compile(r'<span id="t-state" hidden data-version="(\d+)" data-phase="\w+" data-deal="\d+" '
                       r'data-turn="[\d ]*" data-my-turn="([01])" data-over="([01])"')
HAND_PART = re.compile(r'<div id="t-me".*?</form>', re.S)
HAND_CARD = re.compile(r'<(?:button|label|i) id="card-(\w\w)"([^>]*)>')
ERROR_CODE = re.compile(r'id="live-error"[^>]*data-code="([^"]+)"')


def html_frame(raw: str, seat_number: int, hand: dict):
    """What a browser would read off an HTML frame — the whole table, or the parts of it that
    changed: the table's version, whether it is this seat's turn and the cards it may play
    (or an error). ``hand`` is the seat's cards as last shown, each True when it could be
    played: the hand is sent whole, or the cards that changed or left it. None for other
    fragments."""
    error = ERROR_CODE.search(raw)
    if error:
        return {"type": "error", "code": error.group(1)}
    whole_hand = HAND_PART.search(raw)
    if whole_hand is not None:
        hand.clear()
    for card, attributes in HAND_CARD.findall(whole_hand.group(0) if whole_hand else raw):
        if 'hx-swap-oob="delete"' in attributes:
            hand.pop(card, None)
        else:
            hand[card] = 'name="card"' in attributes
    match = STATE_TAG.search(raw)
    if match is None:
        return None
    version, my_turn, over = int(match.group(1)), match.group(2) == "1", match.group(3) == "1"
    legal = [card for card, playable in hand.items() if playable]
    return {"type": "html", "version": version, "state": {
        "version": version, "status": "finished" if over else "playing",
        "view": {"to_act": [seat_number] if my_turn else [], "legal": legal if my_turn else []},
    }}


class Seat:
    def __init__(self, table, number, session):
        self.table, self.number, self.session = table, number, session
        self.version = None
        self.state = None
        self.ws = None

    async def run(self, stats: Stats):
        html = self.table.args.format == "html"
        hand: dict = {}
        async for raw in self.ws:
            stats.frames += 1
            stats.bytes += len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
            frame = html_frame(raw, self.number, hand) if html else json.loads(raw)
            if frame is None:
                continue
            kind = frame["type"]
            if kind == "presence":
                continue
            if kind == "html":  # the table (whole, or the parts that changed) at its newest version
                if self.version is not None and frame["version"] <= self.version:
                    stats.duplicated += 1
                    continue
                self.version = frame["version"]
                self.state = frame["state"]
            elif kind == "state":
                self.version = frame["version"]
                self.state = frame["state"]
            elif kind == "update":
                version = frame["version"]
                if self.version is not None and version <= self.version:
                    stats.duplicated += 1
                    continue
                if self.version is not None and version > self.version + 1:
                    stats.lost += version - self.version - 1
                self.version = version
                self.state = frame["state"]
            elif kind == "error":
                stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
                if len(stats.error_samples) < 5:
                    stats.error_samples.append(frame)
            self.table.heard(self)


class Table:
    def __init__(self, table_id, sessions, args, rng):
        self.id = table_id
        self.seats = [Seat(self, number, session) for number, session in enumerate(sessions)]
        self.args, self.rng = args, rng
        self.pending = None  # (version we wait for, sent at)
        self.changed = asyncio.Event()
        self.moves = 0

    def heard(self, seat):
        self.changed.set()

    def all_at(self, version):
        return all(seat.version is not None and seat.version >= version for seat in self.seats)

    async def play(self, stats: Stats, stop_at: float):
        await asyncio.sleep(self.rng.random() * self.args.think)  # spread the tables out
        if not await self._wait(lambda: all(seat.version is not None for seat in self.seats), stop_at):
            stats.no_state_tables += 1
            return
        while self.moves < self.args.moves and time.monotonic() < stop_at:
            state = next((s.state for s in self.seats if s.state), None)
            if state is None or state["status"] != "playing":
                stats.ended_early += 1
                if len(stats.error_samples) < 8:
                    stats.error_samples.append({"table": self.id, "versions": [x.version for x in self.seats],
                                                "status": state and state["status"]})
                return
            version = max(seat.version for seat in self.seats)
            if not self.all_at(version):
                if not await self._wait(lambda: self.all_at(version), stop_at):
                    return  # out of time (a lost update shows as a gap or a seat behind at the end)
            mover = next((s for s in self.seats if s.state["view"] and s.number in s.state["view"]["to_act"]
                          and s.state["version"] == version), None)
            if mover is None:
                await asyncio.sleep(0.05)
                continue
            pause = self.rng.expovariate(1 / self.args.think) if self.args.think else 0
            if time.monotonic() + pause >= stop_at:
                return  # the run ends before this player would move
            await asyncio.sleep(pause)
            card = self.rng.choice(mover.state["view"]["legal"])
            sent = time.perf_counter()
            move = {"action": "play", "card": card, "version": version}
            if self.args.format == "html":  # as the htmx ws extension sends the card's form (table.js adds the version)
                move = {"action": "play", "card": card, "version": version, "HEADERS": {"HX-Request": "true"}}
            await mover.ws.send(json.dumps(move))
            if not await self._wait(lambda: self.all_at(version + 1), stop_at + 10):
                stats.stalled_tables += 1
                return
            stats.timeline.append((sent, time.perf_counter() - sent))
            self.moves += 1

    async def _wait(self, predicate, deadline):
        while not predicate():
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), min(remaining, 10))
            except asyncio.TimeoutError:
                if not predicate() and time.monotonic() >= deadline:
                    return False
        return True


async def open_seat(seat, url, semaphore, stats):
    import websockets

    origin = "http://" + urlparse(url).netloc
    async with semaphore:
        for attempt in range(3):
            try:
                seat.ws = await websockets.connect(
                    f"{url}/ws/table/{seat.table.id}/" + ("?format=json" if seat.table.args.format == "json" else ""),
                    additional_headers={"Cookie": f"sessionid={seat.session}", "Origin": origin},
                    open_timeout=30, max_size=2**20, ping_interval=None,
                )
                return True
            except Exception:
                await asyncio.sleep(0.5 * (attempt + 1))
        stats.connect_failures += 1
        return False


SETTLE_LIMIT_SECONDS = 180
QUIET_SERVER_CORES = 0.25
"""A started server is settled when it uses less than this share of a core for a second."""


async def settle(seats, server_pids) -> float:
    """Wait until every seat has its table and the started servers (``server_pids``) have
    worked off the opening of the sockets, at most :data:`SETTLE_LIMIT_SECONDS`; return the
    seconds waited.

    Each socket opened is news to the other seats of its table, and each of them is sent the
    table again. With thousands of sockets opened at once the server works that off for a
    while after the last one opened (at 1,000 tables on production settings, 4–9 s at nearly a
    full core): moves made meanwhile would measure the opening, not play. Without started servers
    the tool cannot see them settle, and waits a second once every seat has its table."""
    started = time.monotonic()
    deadline = started + SETTLE_LIMIT_SECONDS
    while time.monotonic() < deadline and any(seat.version is None for seat in seats):
        await asyncio.sleep(0.2)
    if not server_pids:
        await asyncio.sleep(1.0)
        return time.monotonic() - started
    while time.monotonic() < deadline:
        before, at = sum(cpu_seconds(pid) for pid in server_pids), time.monotonic()
        await asyncio.sleep(1.0)
        if (sum(cpu_seconds(pid) for pid in server_pids) - before) / (time.monotonic() - at) < QUIET_SERVER_CORES:
            break
    return time.monotonic() - started


async def run_load(args, tables_setup, server_pids=()):
    urls = [url.strip().rstrip("/") for url in args.url.split(",") if url.strip()]
    for url in urls:
        host = urlparse(url).hostname or ""
        if host not in ("localhost", "::1") and not host.startswith("127."):
            raise SystemExit("The load tool only targets this machine (loopback addresses).")
    rng = random.Random(args.seed)
    stats = Stats()
    tables = [Table(table_id, sessions, args, random.Random(rng.random())) for table_id, sessions in tables_setup]
    seats = [seat for table in tables for seat in table.seats]
    semaphore = asyncio.Semaphore(args.connect_concurrency)
    started = time.monotonic()
    opened = await asyncio.gather(
        *(open_seat(seat, server_for(args, urls, index, seat), semaphore, stats) for index, seat in enumerate(seats))
    )
    connect_seconds = time.monotonic() - started
    readers = [asyncio.create_task(seat.run(stats)) for seat, ok in zip(seats, opened) if ok]
    playable = [table for table in tables if all(seat.ws for seat in table.seats)]
    settle_seconds = await settle([seat for seat, ok in zip(seats, opened) if ok], server_pids)
    # The tool's own full collections (100-250 ms with 2,000 sockets) would show in the
    # figures as server latency: what exists now is frozen, and the collector rests until
    # the end of play (a minute of play leaves some tens of megabytes of cycles).
    gc.collect()
    gc.freeze()
    gc.disable()
    stop_at = time.monotonic() + args.duration
    play_started = time.monotonic()
    stats.bytes_before_play = stats.bytes
    cpu_before = [cpu_times(pid) for pid in server_pids]
    own_before, machine_before = cpu_seconds(os.getpid()), machine_ticks()
    await asyncio.gather(*(table.play(stats, stop_at) for table in playable))
    play_seconds = time.monotonic() - play_started
    gc.enable()
    cpu_after = [cpu_times(pid) for pid in server_pids]
    stats.server_system_seconds = sum(after[1] - before[1] for after, before in zip(cpu_after, cpu_before))
    stats.server_cpu_seconds = sum(sum(after) - sum(before) for after, before in zip(cpu_after, cpu_before))
    ticks = os.sysconf("SC_CLK_TCK") * play_seconds
    busy, steal = (after - before for after, before in zip(machine_ticks(), machine_before))
    own = cpu_seconds(os.getpid()) - own_before
    stats.cores = {
        "available": os.cpu_count(), "busy": round(busy / ticks, 2),
        "servers": round(stats.server_cpu_seconds / play_seconds, 2) if server_pids else None,
        "load_tool": round(own / play_seconds, 2),
        "other": round(busy / ticks - own / play_seconds - stats.server_cpu_seconds / play_seconds, 2)
        if server_pids else None,
        "steal": round(steal / ticks, 2),
    }
    stats.server_rss_mb = sum(rss_megabytes(pid) for pid in server_pids)
    await asyncio.sleep(1.0)  # stragglers: anything duplicated late still counts
    for seat in seats:
        if seat.ws:
            await seat.ws.close()
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return stats, tables, connect_seconds, settle_seconds, play_seconds


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    return sum(cpu_times(pid))


def cpu_times(pid: int) -> tuple[float, float]:
    """CPU time of a process so far (Linux /proc): in its own code (user), and in the
    operating system's on its behalf (system: its sockets' reads and writes, polling)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """Clock ticks so far of the whole machine (Linux /proc/stat): busy (user, nice, system,
    interrupts) and stolen by the hypervisor."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, Path("/proc/stat").read_text().split()[1:9])
    return user + nice + system + irq + softirq, steal


def calibrate(rounds: int = 5) -> float:
    """CPU milliseconds this process takes for a fixed piece of pure Python (the best of
    ``rounds``): how fast a core is right now. Taken before and after play: a core's speed
    drifts from one minute to the next on a shared machine, so the two tell whether it did
    during the run."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        total = 0
        for number in range(300_000):
            total += number * number % 7
        best = min(best, time.process_time() - started)
    return round(best * 1000, 1)


def rss_megabytes(pid: int) -> float:
    """Resident memory of a process (Linux /proc), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def server_for(args, urls, index, seat) -> str:
    """Which server a seat's socket goes to: all of a table's seats to one server, as a proxy
    hashing the table's URL sends them (``--spread table``), or round robin (``--spread seat``)."""
    if args.spread == "table":
        return urls[seat.table.id % len(urls)]
    return urls[index % len(urls)]


def percentile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def server_env() -> dict:
    """The server's environment: this one, with DEBUG off unless set (a measured server runs
    as in production: DEBUG's query log costs several per cent)."""
    env = dict(os.environ)
    env.setdefault("DEBUG", "false")
    return env


def main(argv=None):
    args = parse_args(argv)
    sys.path.insert(0, str(ROOT))
    calibration_ms = calibrate()
    servers = []
    own_database = None
    if args.start_server and not os.environ.get("DATABASE_URL") and not os.environ.get("SQLITE_PATH"):
        # A database of its own (removed at the end): tables left by earlier runs would be
        # swept and played by computers (their server is gone), and the figures would be theirs too.
        own_database = Path(tempfile.mkdtemp(prefix="hearts-load-"))
        os.environ["SQLITE_PATH"] = str(own_database / "load.sqlite3")
        print(f"database: a new SQLite file, {os.environ['SQLITE_PATH']}", flush=True)
    if args.start_server:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
        urls = []
        for index in range(args.servers):
            log = SERVER_LOG.with_suffix(f".{index}.log")
            log.unlink(missing_ok=True)  # the server's log is appended to: this run's alone
            servers.append(DaphneServer(log, server_env()).start())
            urls.append(f"ws://127.0.0.1:{servers[-1].port}")
            print(f"daphne pid {servers[-1].process.pid} on {urls[-1]}", flush=True)
        args.url = ",".join(urls)
    try:
        t0 = time.monotonic()
        tables_setup = setup_tables(args.tables, args.seed)
        print(f"setup: {args.tables} tables, {args.tables * 4} users in {time.monotonic() - t0:.1f} s", flush=True)
        stats, tables, connect_seconds, settle_seconds, play_seconds = asyncio.run(
            run_load(args, tables_setup, [server.process.pid for server in servers])
        )
        versions = final_versions([table.id for table in tables])
        behind = sum(1 for table in tables for seat in table.seats if seat.version is not None and seat.version != versions[table.id])
    finally:
        for server in servers:
            server.stop()
        if own_database is not None:
            shutil.rmtree(own_database, ignore_errors=True)
    ms = [latency * 1000 for _, latency in stats.timeline]
    if args.timeline:
        start = min((sent for sent, _ in stats.timeline), default=0)
        Path(args.timeline).write_text("".join(f"{sent - start:.3f} {latency * 1000:.1f}\n" for sent, latency in stats.timeline))
    from django.conf import settings

    print(json.dumps({
        "tables": args.tables, "sockets": args.tables * 4, "servers": len(args.url.split(",")),
        "think_seconds": args.think, "connect_failures": stats.connect_failures,
        "connect_seconds": round(connect_seconds, 1), "settle_seconds": round(settle_seconds, 1),
        "play_seconds": round(play_seconds, 1),
        "moves": len(ms), "moves_per_second": round(len(ms) / play_seconds, 1) if play_seconds else 0,
        "format": args.format, "frames_received": stats.frames, "megabytes_received": round(stats.bytes / 1e6, 1),
        "bytes_per_seat_per_move": round(stats.bytes / (4 * len(ms))) if ms else None,
        "bytes_per_seat_before_play": round(stats.bytes_before_play / opened) if (opened := args.tables * 4 - stats.connect_failures) else None,
        "bytes_per_seat_per_move_in_play": round((stats.bytes - stats.bytes_before_play) / (4 * len(ms))) if ms else None,
        "server_cpu_ms_per_move": round(1000 * stats.server_cpu_seconds / len(ms), 2) if servers and ms else None,
        "server_system_ms_per_move": round(1000 * stats.server_system_seconds / len(ms), 2) if servers and ms else None,
        "server_memory_mb": round(stats.server_rss_mb) if servers else None,
        "latency_ms": {"p50": round(percentile(ms, 50), 1), "p95": round(percentile(ms, 95), 1),
                       "p99": round(percentile(ms, 99), 1), "max": round(max(ms), 1) if ms else None,
                       "mean": round(statistics.fmean(ms), 1) if ms else None},
        "lost_updates": stats.lost, "duplicated_updates": stats.duplicated, "seats_behind_at_end": behind,
        "stalled_tables": stats.stalled_tables, "tables_without_state": stats.no_state_tables, "ended_early": stats.ended_early, "errors": stats.errors, "error_samples": stats.error_samples,
        "cores": stats.cores, "calibration_ms": {"before": calibration_ms, "after": calibrate()},
        "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1],
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
    }, indent=2))


if __name__ == "__main__":
    main()
