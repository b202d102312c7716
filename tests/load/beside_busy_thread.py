"""A move's transaction in a database thread, alone and beside a thread kept busy running
Python, as in a loaded server process (its event loop drawing frames): what the thread
switch interval costs each move (``hearts_site/server_tuning.py``).

    python -m tests.load.beside_busy_thread                          # 5 ms (CPython's) and 1 ms
    python -m tests.load.beside_busy_thread --switch-interval-ms 1 0.2

Same environment as the server (SQLITE_PATH, or DATABASE_URL for PostgreSQL: use a fresh
database, it creates tables of its own). For each interval it prints the thread's CPU time
and the wall time per move, alone and beside the busy thread. Each move is one
``games.services.submit_action`` (the news of it is not sent).
"""
import argparse
import concurrent.futures
import os
import sys
import threading
import time

from tests.load.__main__ import setup_tables


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.load.beside_busy_thread", description=__doc__.split("\n")[0])
    parser.add_argument("--switch-interval-ms", type=float, nargs="+", default=[5.0, 1.0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=20, help="moves per table for each measure (default 20)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    table_ids = [table_id for table_id, _ in setup_tables(args.tables, seed=1)]  # sets Django up
    from django.db import close_old_connections

    from games import realtime, services, storage

    realtime._send = lambda *args, **kwargs: None  # measure the transaction, not the news

    def move(table_id) -> float:
        started = time.thread_time()
        snapshot = storage.cached(table_id, 0) or storage.load(table_id)
        game = snapshot.game
        seat = game.to_act[0]
        card = game.legal(seat)[0]
        services.submit_action(table_id, seat, str(card), expected_version=snapshot.version)
        close_old_connections()
        return time.thread_time() - started

    database_thread = concurrent.futures.ThreadPoolExecutor(1)
    busy = threading.Event()
    objects = [{"n": n, "text": str(n)} for n in range(100_000)]

    def keep_busy():
        total = 0
        while busy.is_set():
            for item in objects[::7]:
                total += len(item["text"])

    def measure() -> tuple[float, float]:
        cpu, count, started = 0.0, 0, time.perf_counter()
        for _ in range(args.rounds):
            for table_id in table_ids:
                cpu += database_thread.submit(move, table_id).result()
                count += 1
        return cpu / count * 1000, (time.perf_counter() - started) / count * 1000

    for table_id in table_ids:  # connect, load the snapshots
        database_thread.submit(move, table_id).result()
    print(f"{'switch interval':>16} {'beside':>6} {'CPU per move':>13} {'wall per move':>14}")
    for interval in args.switch_interval_ms:
        sys.setswitchinterval(interval / 1000)
        for beside_busy in (False, True):
            worker = None
            if beside_busy:
                busy.set()
                worker = threading.Thread(target=keep_busy)
                worker.start()
            cpu, wall = measure()
            if worker is not None:
                busy.clear()
                worker.join()
            print(f"{interval:>13g} ms {'busy' if beside_busy else 'none':>6} {cpu:>10.3f} ms {wall:>11.3f} ms", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    main()
