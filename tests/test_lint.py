"""The code passes the linter (ruff, configured in ruff.toml): unused or undefined names,
redefinitions, syntax and statement errors. It runs with the tests, so CI runs it on every
submission."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is in requirements.txt"
    result = subprocess.run([ruff, "check", "--no-cache", "--quiet", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
