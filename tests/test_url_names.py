"""Every URL name the code reverses exists (a wrong name once hid "Resume" of live games
behind a swallowed NoReverseMatch): found in the Python and template sources, checked
against the site's URL resolver."""
import re
from pathlib import Path

from tests.security.urlwalk import walk

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["accounts", "games", "ratings", "hearts_site", "templates"]
PYTHON_NAME = re.compile(r"""\b(?:reverse|reverse_lazy|redirect|url)\(\s*["']([\w-]+(?::[\w-]+)*)["']""")
TEMPLATE_NAME = re.compile(r"""\{%\s*url\s+["']([\w:-]+)["']""")
NAVIGATION_NAME = re.compile(r"""\(\s*"[^"]+",\s*"([\w-]+:[\w-]+)"\s*[,)]""")


def reversed_names() -> dict[str, str]:
    """URL name -> the first file that reverses it."""
    found = {}
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".html") or "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            patterns = (PYTHON_NAME, NAVIGATION_NAME) if path.suffix == ".py" else (TEMPLATE_NAME,)
            for pattern in patterns:
                for name in pattern.findall(text):
                    found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def test_every_url_name_the_code_reverses_exists():
    known = {route.name for route in walk()}
    names = reversed_names()
    assert len(names) > 30, "the scan finds the names"
    assert {"live:room", "solo:replay", "ratings:leaderboard"} <= set(names)
    missing = {name: where for name, where in names.items() if name not in known and not name.startswith("admin:")}
    assert not missing, f"reversed but not defined: {missing}"


def test_the_scan_would_catch_a_wrong_name(tmp_path):
    assert PYTHON_NAME.findall('return reverse("live:table", args=[table.pk])') == ["live:table"]
    assert "live:table" not in {route.name for route in walk()}
