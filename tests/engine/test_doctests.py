"""Run the docstring examples of every engine module."""

import doctest
import importlib

import pytest

MODULES = ["games.engine", "games.engine.cards", "games.engine.rules", "games.engine.kernel", "games.engine.game", "games.conduct"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    assert result.attempted > 0
