"""What the browser needs to play solo offline: the Python it runs (one zip), the service
worker that keeps it and the pages, and the web app manifest.

A signed-in player's finished offline games come back through :func:`keep_game`: replayed
through the engine and stored whole as a finished solo table (its actions, its seats), or
refused whole.

The offline table runs :mod:`games.table.offline` in Pyodide (served from the npm package, see
``package.json``; never from a CDN).  :func:`bundle` packs the pure-Python modules it needs,
with the table's templates and Jinja2, from the very files the server runs.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import zipfile
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.templatetags.static import static
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import storage
from games.models import Action, Seat, Table
from games.table.offline import YOU, checked_replay
from games.results import record_finished_game

BASE = Path(settings.BASE_DIR)

BOTS_LEFT_OUT = ("arena.py", "figures.py", "outside_arena.py", "placeholders.py", "sturtevant.py")  # benchmark tools, not play
PACKAGES = ("jinja2", "markupsafe")  # the drawing's templates; pure Python (markupsafe's C part is optional)

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""What Pyodide loads to start (``STATICFILES_DIRS``: ``static/pyodide/``)."""

PAGE_ASSETS = (
    "css/site.css", "vendor/htmx-2.0.11.min.js", "vendor/htmx-ext-ws-2.0.4.min.js", "games/table.css",
    "games/table.js", "solo/offline.js", "solo/offline-worker.js", "solo/icon.svg", "solo/icon-192.png",
)
"""The offline page's own files (``solo/offline.html`` and what it extends)."""


def _bundle_files() -> list[tuple[str, Path]]:
    """(name in the zip, file) for every file of the bundle, in a fixed order."""
    files = [("games/__init__.py", BASE / "games" / "__init__.py")]
    for package in ("engine", "bots", "table"):
        for path in sorted((BASE / "games" / package).glob("*.py")):
            if path.name not in BOTS_LEFT_OUT:
                files.append((f"games/{package}/{path.name}", path))
    for path in sorted((BASE / "templates" / "jinja2" / "games").glob("*.html")):
        files.append((f"templates/jinja2/games/{path.name}", path))
    for package in PACKAGES:
        root = Path(importlib.util.find_spec(package).origin).parent
        for path in sorted(root.glob("*.py")):
            files.append((f"{package}/{path.name}", path))
    return files


@functools.cache
def bundle() -> tuple[bytes, str]:
    """The zip of the Python the offline table runs, and its version (a hash of its content).

    Made once per process: the files are those this server runs.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in _bundle_files():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # same files, same zip
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


def pyodide_available() -> bool:
    """True when the npm package is installed (``make`` installs it)."""
    return (BASE / "node_modules" / "pyodide" / "pyodide.mjs").exists()


def pyodide_url() -> str:
    """Where Pyodide's files are: it asks for them by their own names (not the hashed names
    of the production static files), so this is their folder's plain address."""
    return settings.STATIC_URL + "pyodide/"


def cached_urls(page_url: str, bundle_url: str) -> list[str]:
    """What the service worker keeps for offline play."""
    return [page_url, bundle_url] + [static(name) for name in PAGE_ASSETS] + [
        pyodide_url() + name for name in PYODIDE_FILES
    ]


def keep_game(user, saved) -> tuple[Table, bool]:
    """Store a finished offline game of ``user`` (``games.table.offline.OfflineTable.saved``) as a
    finished solo table, after replaying it (:func:`games.table.offline.checked_replay`; raises
    ``ValueError`` saying why a game is refused).  The table and whether it is new: a game
    sent again is the table it made the first time.  All or nothing: one transaction.
    """
    if not isinstance(saved, dict):
        raise ValueError("Send a game: a JSON object.")
    existing = Table.objects.filter(host=user, offline_id=str(saved.get("id", ""))[:40]).first()
    if existing is not None:
        return existing, False
    table = checked_replay(saved)
    game = table.game
    now = timezone.now()
    try:
        started = parse_datetime(table.started) if table.started else None
    except ValueError:
        started = None
    if started is not None and timezone.is_naive(started):
        raise ValueError("The game's start time needs a time zone (as in 2026-12-01T10:00:00+00:00).")
    if started is None or started > now:
        started = now
    # A game is its seed's deal and moves: one player's, not copied to another account.
    if Table.objects.filter(kind=Table.Kind.SOLO, seed=game.seed).exclude(offline_id="").exclude(host=user).exists():
        raise ValueError("This game was kept by another player: only the one who played it can keep it.")
    try:
        with transaction.atomic():
            row = Table(
                kind=Table.Kind.SOLO, status=Table.Status.FINISHED, host=user, rules=game.rules.to_dict(),
                seed=game.seed, version=game.ply, started_at=started, finished_at=now, offline_id=table.id,
            )
            storage.record_start(row, game)  # the setup, and the summary of the game as it ended
            row.save()
            Seat.objects.bulk_create(
                Seat(table=row, number=number, user=user if number == YOU else None,
                     bot_level="" if number == YOU else table.level)
                for number in range(game.players)
            )
            Action.objects.bulk_create(storage.actions_of(
                row, game, actors=lambda seat: Action.Actor.PERSON if seat == YOU else Action.Actor.BOT,
                versions=lambda ply: ply,
            ))
            record_finished_game(row, game)
    except IntegrityError:  # the same game, sent twice at once: the other request kept it
        return Table.objects.get(host=user, offline_id=table.id), False
    return row, True
