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


def django_templates():
    """Every Django template of the project (the table's Jinja2 templates are under jinja2/)."""
    not_ours = {".venv", "node_modules", "staticfiles"}
    return sorted(
        path
        for top in ROOT.iterdir() if top.is_dir() and top.name not in not_ours and not top.name.startswith(".")
        for path in top.glob("**/*.html")
        if "templates" in path.relative_to(ROOT).parts and "jinja2" not in path.parts
    )


def test_no_django_template_comment_spans_lines():
    """Django's ``{# #}`` comment ends on its own line: one that goes on is printed as text,
    which in a page's head ends the head there (so the browser ignored the web app manifest
    after it, once). Longer comments use ``{% comment %}``."""
    templates = django_templates()
    assert ROOT / "templates" / "base.html" in templates
    unclosed = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in templates
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "{#" in line and "#}" not in line[line.index("{#"):]
    ]
    assert unclosed == [], unclosed
