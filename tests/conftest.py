import pytest


@pytest.fixture(autouse=True)
def _tasks_run_eagerly(settings):
    """Tests run tasks synchronously unless a test asks for a real runner."""
    settings.TASK_RUNNER = "eager"
    settings.BOT_DELAY_SECONDS = 0
    settings.SECURE_SSL_REDIRECT = False
