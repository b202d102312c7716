"""The bots are pure Python: these tests run without Django (``-p no:django``).

``tests/conftest.py`` has an autouse fixture that asks for pytest-django's ``settings``;
when that plugin is off, a stand-in ``settings`` fixture is registered here instead.
"""

import types

import pytest


class _NoDjango:
    @pytest.fixture
    def settings(self):
        return types.SimpleNamespace()


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("django") and not config.pluginmanager.has_plugin("bots-no-django"):
        config.pluginmanager.register(_NoDjango(), "bots-no-django")
