"""Other libraries' private names (a leading underscore) are used in the adapter modules only,
and each adapter names the library versions its code was checked against: an upgrade fails here
until someone has read the adapter against the new version's source (what it overrides is
named in its docstrings) and its behaviour tests pass.

The adapters, each kept for a speed or a fault it handles that the library's public API does
not give:

* ``hearts_site/channel_layers.py`` — channels' in-memory layer expiring messages once a
  second; channels_redis' pub/sub layer telling every socket when Redis goes away;
* ``games/table/templating.py`` — Jinja2 printing through a cheaper ``escape`` (pure: the browser's
  offline table draws with it, so it cannot share a module with the others);
* ``games/storage/statements.py`` — the SQL of a move compiled by Django's ORM once (Django's query
  compiler has no underscore but is not a documented API either).
"""
import ast
import importlib
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "analysis", "games", "hearts_site", "live", "ratings", "solo")
ADAPTERS = {
    "hearts_site/channel_layers.py": "hearts_site.channel_layers",
    "games/table/templating.py": "games.table.templating",
    "games/storage/statements.py": "games.storage.statements",
}


def third_party(module: str) -> bool:
    top = module.split(".")[0]
    return top not in PACKAGES and top not in sys.stdlib_module_names


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(source: str) -> list[str]:
    """The private names of other libraries ``source`` imports, or reads from a module it
    imported (``pubsub._close_redis``)."""
    tree = ast.parse(source)
    modules, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.asname or alias.name.split(".")[0] for alias in node.names if third_party(alias.name)}
        elif isinstance(node, ast.ImportFrom) and not node.level and third_party(node.module or ""):
            found += [f"{node.module}.{alias.name}" for alias in node.names if private(alias.name)]
            modules |= {alias.asname or alias.name for alias in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            if isinstance(node.value, ast.Name) and node.value.id in modules:
                found.append(f"{node.value.id}.{node.attr}")
    return found


def private_overrides(module) -> list[str]:
    """The private methods of other libraries' classes that ``module``'s classes override."""
    found = []
    for cls in vars(module).values():
        if not isinstance(cls, type) or cls.__module__ != module.__name__:
            continue
        for name, value in vars(cls).items():
            function = getattr(value, "__func__", value)  # a classmethod's or staticmethod's
            if not getattr(function, "__qualname__", "").startswith(f"{cls.__qualname__}."):
                continue  # made by a metaclass (a model's _meta, an Enum's), not written here
            if private(name) and any(
                third_party(base.__module__) and name in vars(base) for base in cls.__mro__[1:]
            ):
                found.append(f"{cls.__name__}.{name}")
    return found


def test_the_check_finds_the_ways_a_private_name_is_reached():
    source = (
        "from channels_redis import pubsub\nfrom channels.layers import InMemoryChannelLayer, _secret\n"
        "from games import faults\n"
        "pubsub._close_redis(None)\nfaults._fine()\nInMemoryChannelLayer._clean_expired\n"
    )
    assert sorted(private_uses(source)) == sorted([
        "channels.layers._secret", "pubsub._close_redis", "InMemoryChannelLayer._clean_expired",
    ])
    from hearts_site import channel_layers
    from live import consumers

    assert "ThrottledInMemoryChannelLayer._clean_expired" in private_overrides(channel_layers)
    assert private_overrides(consumers) == [], "the consumer's own private methods are its own"


def project_modules() -> dict[str, str]:
    """Each module of the project (migrations and the server entry points aside): path, name."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in path.parts or relative.name in ("asgi.py", "wsgi.py"):
                continue
            parts = relative.with_suffix("").parts
            found[str(relative)] = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return found


def test_no_private_name_of_another_library_is_used_outside_the_adapters():
    outside = {}
    for relative, name in project_modules().items():
        if relative in ADAPTERS:
            continue
        uses = private_uses((ROOT / relative).read_text())
        try:
            uses += private_overrides(importlib.import_module(name))
        except ModuleNotFoundError:  # a benchmark's own requirement (numpy, OpenSpiel): its source was read
            pass
        if uses:
            outside[relative] = uses
    assert outside == {}


@pytest.mark.parametrize("module", sorted(ADAPTERS.values()))
def test_each_adapter_was_checked_against_the_library_versions_installed(module):
    checked = importlib.import_module(module).CHECKED_WITH
    installed = {library: version(library) for library in checked}
    assert installed == checked, (
        f"{module} reaches into these libraries' internals: read it against the new versions' "
        f"source, run its tests, then set its CHECKED_WITH to {installed}"
    )


def test_the_adapters_are_the_modules_that_reach_inside():
    for relative, name in ADAPTERS.items():
        if relative != "games/storage/statements.py":
            uses = private_uses((ROOT / relative).read_text()) + private_overrides(importlib.import_module(name))
            assert uses, f"{relative} no longer needs to be an adapter"
