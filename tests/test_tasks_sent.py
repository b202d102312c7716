"""Every Celery task the site registers is sent by its code: a registered task nothing sends is
dead code that looks like a safety net."""
import re
from pathlib import Path

from hearts_site.celery import app

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    path for path in ROOT.glob("*/**/*.py")
    if path.parts[len(ROOT.parts)] not in {"tests", ".venv", "node_modules"} and "migrations" not in path.parts
]


def senders(task) -> list[str]:
    """Where the code sends ``task``: by name through ``taskrunner.schedule`` or a
    ``games.services.Wake``, or through the task object (``.delay``/``.apply_async``)."""
    function = task.run.__name__
    ways = re.compile(rf'(schedule|Wake)\(\s*"{re.escape(task.name)}"|\b{function}\.(delay|apply_async)\(')
    return [str(path.relative_to(ROOT)) for path in SOURCES if ways.search(path.read_text())]


def test_every_registered_task_is_sent_somewhere():
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert {"games.play_computer_turns", "games.turn_timeout", "games.replan", "analysis.run"} <= set(ours)
    never_sent = sorted(name for name, task in ours.items() if not senders(task))
    assert never_sent == []


def test_the_check_sees_a_task_nobody_sends():
    @app.task(name="tests.never_sent")
    def never_sent_task():
        return None

    try:
        assert senders(app.tasks["tests.never_sent"]) == []
        assert senders(app.tasks["games.turn_timeout"]), "sent by the services"
    finally:
        del app.tasks["tests.never_sent"]
