"""The site's settings plus the changes recommended for live play under load (see the report):

* SQLite (embedded default): write-ahead log and ``synchronous=NORMAL`` — without them every
  move's commit waits for several disk flushes (20-100 ms here), which caps a server at a few
  dozen moves a second.
* Redis channel layer: a socket timeout longer than channels_redis's 5 s blocking read
  (redis-py 8 defaults to 5 s, so idle websockets die).

Use with ``DJANGO_SETTINGS_MODULE=tests.load.settings`` (daphne and the load tool alike).
"""
from hearts_site.settings import *  # noqa: F401,F403
from hearts_site.settings import CHANNEL_LAYERS, DATABASES

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"

_layer = CHANNEL_LAYERS["default"]
if _layer["BACKEND"].startswith("channels_redis"):
    _hosts = _layer["CONFIG"]["hosts"]
    _layer["CONFIG"]["hosts"] = [
        {"address": host, "socket_timeout": 15} if isinstance(host, str) else host for host in _hosts
    ]
