"""The server process's garbage collector and thread switch settings (hearts_site/server_tuning.py)."""
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from hearts_site.server_tuning import parse_switch_interval, parse_thresholds, tune_for_server

ROOT = Path(__file__).resolve().parents[1]


def test_thresholds_are_read_from_three_numbers():
    assert parse_thresholds("700,10,100") == (700, 10, 100)
    assert parse_thresholds(" 2000 , 20 , 50 ") == (2000, 20, 50)


@pytest.mark.parametrize("text", ["700,10", "700,10,100,5", "a,b,c", "0,10,100", "700,-1,100", "700,10,0", ""])
def test_bad_thresholds_are_refused_with_the_expected_form(text):
    with pytest.raises(ImproperlyConfigured, match="three whole numbers above 0.*2000,300,100"):
        parse_thresholds(text)


def test_switch_interval_is_read_in_milliseconds():
    assert parse_switch_interval("1") == 0.001
    assert parse_switch_interval(" 2.5 ") == 0.0025
    assert parse_switch_interval("0.1") == 0.0001
    assert parse_switch_interval("100") == 0.1


@pytest.mark.parametrize("text", ["0", "0.05", "101", "-1", "nan", "inf", "1ms", ""])
def test_bad_switch_intervals_are_refused_with_the_expected_form(text):
    with pytest.raises(ImproperlyConfigured, match="THREAD_SWITCH_INTERVAL_MS .* from 0.1 to 100, such as 1 "):
        parse_switch_interval(text)


@pytest.fixture
def restored_interpreter():
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    sys.setswitchinterval(interval)


def test_tuning_freezes_what_is_loaded_and_sets_the_thresholds_and_switch_interval(restored_interpreter):
    gc.unfreeze()
    loaded = {"a module-level registry": [object()]}
    tune_for_server((900, 12, 80), 0.0015)
    assert gc.get_threshold() == (900, 12, 80)
    assert sys.getswitchinterval() == pytest.approx(0.0015)
    assert gc.get_freeze_count() > 0
    assert gc.is_tracked(loaded) and not any(o is loaded for o in gc.get_objects())  # frozen: never walked
    later = {"made after": []}
    assert any(o is later for o in gc.get_objects())


def run_server_entry_point(**environment) -> str:
    """What loading the server's entry point does to CPython, in a process of its own, as
    daphne loads it (an import here may have come earlier)."""
    code = ("import gc, sys, hearts_site.asgi; "
            "print(gc.get_threshold(), gc.get_freeze_count() > 10000, sys.getswitchinterval())")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "hearts_site.settings", **environment}
    for name in ("GC_THRESHOLDS", "THREAD_SWITCH_INTERVAL_MS"):
        if name not in environment:
            env.pop(name, None)
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")[-2]


def test_the_server_entry_point_tunes_the_interpreter_from_the_settings():
    assert run_server_entry_point(GC_THRESHOLDS="800,11,90", THREAD_SWITCH_INTERVAL_MS="2") == "(800, 11, 90) True 0.002"


def test_the_server_entry_point_tunes_the_interpreter_by_default():
    assert run_server_entry_point() == "(2000, 300, 100) True 0.001"


def loop_under_daphne(prelude: str) -> str:
    """The class of the loop daphne made, in a process of its own that ran ``prelude`` and
    then the site's server command (with ``--help``, which stops it once daphne is loaded)."""
    code = (f"{prelude}\nfrom hearts_site import serve\n"
            "try:\n    serve.main(['--help'])\nexcept SystemExit:\n    pass\n"
            "import daphne.server\nprint(type(daphne.server.twisted_loop).__module__)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")[-2]


def test_the_site_server_runs_daphne_on_uvloop():
    assert loop_under_daphne("") == "uvloop"


def test_a_daphne_loaded_before_the_server_command_keeps_asyncio_loop():
    """What the first test tells apart: daphne makes its loop on import, so loading it any
    earlier leaves asyncio's loop in place (and a daphne that stopped making its loop on
    import would fail the first test, not pass it by chance)."""
    assert loop_under_daphne("import daphne.server") == "asyncio.unix_events"
