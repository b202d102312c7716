"""The pure layer — the modules that import no Django, which the browser's offline table and
the benchmarks run as they are — is declared once, in ``mypy.ini``'s ``files``: mypy checks
its types, and these tests check that it is exactly the modules of ``games`` that need no
Django (none of them imports it, and every other module of ``games`` does, directly or through
another)."""
import ast
import configparser
import shutil
import subprocess
import sys
from pathlib import Path

from tests.test_imports import MODULES, ROOT, imports_of

FRAMEWORK = {"django", "channels", "celery", "daphne", "asgiref", "channels_redis", "redis", "psycopg"}


def pure_layer() -> list[str]:
    """The modules named by ``mypy.ini``'s ``files`` (a package stands for all its modules)."""
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    roots = [Path(entry.strip()) for entry in config["mypy"]["files"].split(",") if entry.strip()]
    return sorted(
        name for name, path in MODULES.items()
        if any(path.relative_to(ROOT) == root or root in path.relative_to(ROOT).parents for root in roots)
    )


def outside_imports(module: str) -> set[str]:
    """The top names of the libraries ``module`` imports (anywhere in it)."""
    tree = ast.parse(MODULES[module].read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def needs_a_framework(modules: dict) -> set[str]:
    """The modules of ``modules`` that import a web framework's package, themselves or through
    the project's modules they import."""
    needs = {name for name in modules if outside_imports(name) & FRAMEWORK}
    graph = {name: imports_of(name)[0] for name in modules}
    grew = True
    while grew:
        grew = False
        for name, imported in graph.items():
            if name not in needs and imported & needs:
                needs.add(name)
                grew = True
    return needs


def test_the_pure_layer_is_every_module_of_games_without_django():
    declared = set(pure_layer())
    games = {name for name in MODULES if name.split(".")[0] == "games" and "migrations" not in name}
    bound = needs_a_framework(MODULES)
    assert not declared & bound, f"these need Django, so they are not pure: {sorted(declared & bound)}"
    missing = games - bound - declared - {"games"}
    assert not missing, f"these import no Django: add them to mypy.ini's files: {sorted(missing)}"
    assert {"games.engine.game", "games.bots.hard", "games.table.drawing", "games.table.conduct"} <= declared


def test_the_check_sees_a_module_reaching_django_through_another(monkeypatch, tmp_path):
    bound = tmp_path / "bound.py"
    bound.write_text("from django.db import models\n")
    through = tmp_path / "through.py"
    through.write_text("from games import bound\n")
    monkeypatch.setitem(MODULES, "games.bound", bound)
    monkeypatch.setitem(MODULES, "games.through", through)
    assert {"games.bound", "games.through"} <= needs_a_framework(MODULES)


def test_the_pure_layer_imports_without_django():
    code = (
        "import sys\n"
        f"for name in {pure_layer()!r}:\n"
        "    try: __import__(name)\n"
        "    except ModuleNotFoundError as gone:\n"  # a benchmark's library (requirements-bench.txt)
        "        assert gone.name.split('.')[0] not in ('games', 'django'), gone\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {FRAMEWORK!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def test_the_pure_layer_type_checks(tmp_path):
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert mypy, "mypy is in requirements.txt"
    result = subprocess.run(
        [mypy, "--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
