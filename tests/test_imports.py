"""The project's modules import each other at the top, in one direction: no module imports
another of the project inside a function (the way an import cycle is hidden), and the
imports at the top make no cycle."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "analysis", "games", "hearts_site", "live", "ratings", "solo")

# Imports that must wait for Django to have loaded every app, in the place Django provides
# for that: an app's ready().
MAY_IMPORT_LATE = {"games/apps.py", "live/apps.py", "analysis/apps.py"}

# The apps by domain, each over the ones it may import: a table (games) knows nothing of the
# pages of solo play nor of live play's rooms and sockets; live play does not use solo's pages;
# the analysis of a game is shown on solo's pages (the replay, the statistics).
MAY_IMPORT = {
    "accounts": {"accounts", "hearts_site"},
    "ratings": {"ratings", "accounts", "hearts_site"},
    "games": {"games", "accounts", "ratings", "hearts_site"},
    "live": {"live", "games", "accounts", "ratings", "hearts_site"},
    "solo": {"solo", "games", "accounts", "ratings", "analysis", "hearts_site"},
    "analysis": {"analysis", "games", "hearts_site"},
}


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


MODULES = project_modules()


def imported_names(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The project modules an import statement names (``from a import b`` names ``a.b`` when
    that is a module, else ``a``)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        names = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in MODULES else stem for alias in node.names]
    found = []
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name:
            found.append(name)
    return found


def imports_of(module: str) -> tuple[set[str], list[tuple[int, str]]]:
    """(the project modules imported at the top, the (line, module) imported inside functions)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    top, late = set(), []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for name in imported_names(child, module, is_package):
                    if name == module:
                        continue
                    if in_function:
                        late.append((child.lineno, name))
                    else:
                        top.add(name)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(tree, False)
    return top, late


def test_the_check_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    planted = tmp_path / "planted.py"
    planted.write_text("from games import services\n\ndef later():\n    from games import tasks\n")
    monkeypatch.setitem(MODULES, "games.planted", planted)
    top, late = imports_of("games.planted")
    assert top == {"games.services"} and late == [(4, "games.tasks")]


def test_no_project_module_is_imported_inside_a_function():
    late = {
        f"{MODULES[module].relative_to(ROOT)}:{line} imports {name}"
        for module in MODULES
        if str(MODULES[module].relative_to(ROOT)) not in MAY_IMPORT_LATE
        for line, name in imports_of(module)[1]
    }
    assert not late, sorted(late)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as the list of its modules, or None.

    >>> find_cycle({"a": {"b"}, "b": {"a"}})
    ['a', 'b', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    done, path = set(), []

    def walk(node):
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return None
        path.append(node)
        for following in sorted(graph.get(node, ())):
            cycle = walk(following)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = walk(node)
        if cycle:
            return cycle
    return None


@pytest.mark.parametrize("graph, cycle", [({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
                                          ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, None)])
def test_a_cycle_is_found(graph, cycle):
    assert find_cycle(graph) == cycle


def test_the_imports_at_the_top_make_no_cycle():
    graph = {}
    for module in MODULES:
        graph[module] = imports_of(module)[0]
    assert find_cycle(graph) is None, " → ".join(find_cycle(graph))


def imports_across_domains(modules: dict[str, Path]) -> list[str]:
    """Every top import that goes against :data:`MAY_IMPORT`, as "importer imports imported"."""
    wrong = []
    for module in modules:
        app = module.split(".")[0]
        if app not in MAY_IMPORT:
            continue
        for name in sorted(imports_of(module)[0]):
            if name.split(".")[0] in PACKAGES and name.split(".")[0] not in MAY_IMPORT[app]:
                wrong.append(f"{module} imports {name}")
    return wrong


def test_the_apps_import_each_other_in_one_direction():
    assert not imports_across_domains(MODULES)


def test_the_direction_check_sees_a_table_importing_live_play(tmp_path, monkeypatch):
    planted = tmp_path / "planted.py"
    planted.write_text("from live import rooms\n")
    monkeypatch.setitem(MODULES, "games.planted", planted)
    assert imports_across_domains({"games.planted": planted}) == ["games.planted imports live.rooms"]
