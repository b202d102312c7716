"""The project's code names its own modules, functions and tasks where they are: a dotted
name in backquotes (``live.presence.connection_closed``) resolves to something that exists,
so a docstring does not send a reader to a module that moved."""
import importlib
import re

from hearts_site.celery import app
from tests.test_imports import MODULES, ROOT

NAME = re.compile(r"`~?((?:accounts|analysis|games|hearts_site|live|ratings|solo)(?:\.[A-Za-z_]\w*)+)`")


def resolves(name: str) -> bool:
    if name in app.tasks:  # a Celery task's name
        return True
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        module = ".".join(parts[:end])
        if module not in MODULES:
            continue
        try:
            obj = importlib.import_module(module)
        except ImportError:  # a benchmark-only module whose requirements are not installed
            return end == len(parts)
        for attribute in parts[end:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def test_every_dotted_name_in_the_code_exists():
    assert resolves("live.presence.connection_closed") and not resolves("games.presence.connection_closed")
    missing = sorted({(str(path.relative_to(ROOT)), name)
                      for path in MODULES.values() for name in NAME.findall(path.read_text()) if not resolves(name)})
    assert not missing, f"names that do not exist: {missing}"
