"""The load tool (``python -m tests.load``) itself: a tiny run end to end, so the tool the
figures come from keeps working. Always on the embedded default, in a database of its own."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHOSEN_BY_THE_TOOL = ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "TASK_RUNNER")  # its own database, embedded


def test_a_small_load_run_plays_every_move_and_loses_nothing(tmp_path):
    env = {name: value for name, value in os.environ.items() if name not in CHOSEN_BY_THE_TOOL}
    env["TMPDIR"] = str(tmp_path)
    timeline = tmp_path / "timeline.txt"
    result = subprocess.run(
        [sys.executable, "-m", "tests.load", "--tables", "2", "--start-server", "--moves", "3",
         "--think", "0.05", "--duration", "30", "--timeline", str(timeline)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout[result.stdout.index("{\n"):])
    assert str(tmp_path) in result.stdout.split("{\n")[0], "the run used a new database of its own"
    assert not [path for path in tmp_path.glob("hearts-load-*") if path.is_dir()], "and removed it at the end"
    assert report["sockets"] == 8 and report["connect_failures"] == 0
    assert 0 < report["settle_seconds"] < 60, "play began once the server had settled"
    assert report["moves"] == 6
    for problem in ("lost_updates", "duplicated_updates", "seats_behind_at_end", "stalled_tables", "ended_early"):
        assert report[problem] == 0, (problem, report)
    assert report["errors"] == {}
    assert 0 < report["latency_ms"]["p50"] <= report["latency_ms"]["p95"] <= report["latency_ms"]["max"]
    assert report["server_cpu_ms_per_move"] > 0 and report["server_memory_mb"] > 0
    # Of which in the operating system (the sockets' reads and writes): a part, never more.
    assert 0 <= report["server_system_ms_per_move"] <= report["server_cpu_ms_per_move"]
    cores = report["cores"]  # where the machine's cores went while the tables played
    # The tool's own share of six moves can round to 0.0 cores (the clock ticks in 10 ms).
    assert cores["available"] >= 1 and cores["servers"] > 0 and cores["load_tool"] >= 0
    assert cores["busy"] >= cores["servers"] + cores["load_tool"] - 0.2 and cores["steal"] >= 0
    assert report["calibration_ms"]["before"] > 0 and report["calibration_ms"]["after"] > 0
    lines = timeline.read_text().splitlines()
    assert len(lines) == 6 and all(float(line.split()[1]) > 0 for line in lines)
