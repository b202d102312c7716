"""Every docstring example in the project runs: the modules are found by reading them, not
kept in a list, so a new module's examples are tested the day they are written."""
import doctest
import importlib
import re

import pytest

from hearts_site import compiled
from tests.test_imports import MODULES

EXAMPLE = re.compile(r"^\s*>>> (?!.*doctest: \+SKIP)", re.MULTILINE)
WITH_EXAMPLES = sorted(name for name, path in MODULES.items() if EXAMPLE.search(path.read_text()))


def test_the_scan_finds_the_known_examples():
    assert {"games.engine.game", "games.bots.hard", "games.bots.analysis", "games.table.drawing",
            "games.table.conduct", "ratings.skill", "accounts.names"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_examples(name):
    source = str(MODULES[name].relative_to(compiled.ROOT))
    # a compiled module keeps no docstrings' examples: they run from its source
    module = compiled.load_source(source) if compiled.extensions(source) else importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has examples that doctest does not find"
    assert result.failed == 0, f"{result.failed} example(s) failed in {name}"
