"""The server process's garbage collector settings (hearts_site/gc_tuning.py)."""
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from hearts_site.gc_tuning import parse_thresholds, tune_for_server

ROOT = Path(__file__).resolve().parents[1]


def test_thresholds_are_read_from_three_numbers():
    assert parse_thresholds("700,10,100") == (700, 10, 100)
    assert parse_thresholds(" 2000 , 20 , 50 ") == (2000, 20, 50)


@pytest.mark.parametrize("text", ["700,10", "700,10,100,5", "a,b,c", "0,10,100", "700,-1,100", "700,10,0", ""])
def test_bad_thresholds_are_refused_with_the_expected_form(text):
    with pytest.raises(ImproperlyConfigured, match="three whole numbers above 0.*2000,300,100"):
        parse_thresholds(text)


@pytest.fixture
def restored_gc():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_tuning_freezes_what_is_loaded_and_sets_the_thresholds(restored_gc):
    gc.unfreeze()
    loaded = {"a module-level registry": [object()]}
    tune_for_server((900, 12, 80))
    assert gc.get_threshold() == (900, 12, 80)
    assert gc.get_freeze_count() > 0
    assert gc.is_tracked(loaded) and not any(o is loaded for o in gc.get_objects())  # frozen: never walked
    later = {"made after": []}
    assert any(o is later for o in gc.get_objects())


def test_the_server_entry_point_tunes_the_collector():
    """In a process of its own, as daphne loads it (an import here may have come earlier)."""
    code = "import gc, hearts_site.asgi; print(gc.get_threshold(), gc.get_freeze_count() > 10000)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "hearts_site.settings", "GC_THRESHOLDS": "800,11,90"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[-2] == "(800, 11, 90) True"
