"""Settings for the Hearts site, read once from the environment.

Two modes:

* **Embedded default** (no ``DATABASE_URL`` and no ``REDIS_URL``): SQLite, the in-memory
  channel layer and Celery tasks run in-process on background threads — nothing to install.
* **Production** (``DATABASE_URL`` or ``REDIS_URL`` set): PostgreSQL via psycopg, the Redis
  channel layer, Redis as Celery broker and separate worker processes. ``DATABASE_URL``,
  ``REDIS_URL``, ``SECRET_KEY`` and ``ALLOWED_HOSTS`` are then all required.
"""
import datetime as dt
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
PRODUCTION = bool(DATABASE_URL or REDIS_URL)

if PRODUCTION:
    missing = [
        name
        for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS")
        if not os.environ.get(name)
    ]
    if missing:
        raise ImproperlyConfigured(
            "Production settings need these environment variables: "
            + ", ".join(missing)
            + ". Unset DATABASE_URL and REDIS_URL to run on the embedded default instead."
        )
    SECRET_KEY = os.environ["SECRET_KEY"]
    DEBUG = env_bool("DEBUG", False)
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
else:
    SECRET_KEY = os.environ.get("SECRET_KEY", "embedded-default-not-for-production")
    DEBUG = env_bool("DEBUG", True)
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") or ["127.0.0.1", "localhost", "testserver"]

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    "live",
    "solo",
    "ratings",
    "analysis",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.limits.RefusalMiddleware",  # answers a request beyond a limit (accounts.limits)
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out login
]

ROOT_URLCONF = "hearts_site.urls"
ASGI_APPLICATION = "hearts_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "hearts_site.context_processors.navigation",
            ],
        },
    },
]

if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Several threads (daphne, in-process task runner) write: wait rather than fail.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                # Without the write-ahead log every move's commit waits for several disk flushes.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Keep each thread's connection: reopening it for every call (the consumers make
            # one per move and per connection) cost the live server a sixth of its time.
            "CONN_MAX_AGE": None,
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses logins while locked out
    "django.contrib.auth.backends.ModelBackend",
]

# Failed logins (django-axes): LOGIN_FAILURE_LIMIT failures for one account from one client
# address lock that account for that address only, for LOGIN_LOCKOUT_MINUTES (counted from
# the last failure before the lock; tries while locked do not extend it), so nobody can lock
# the owner out from elsewhere. Against spraying many accounts from one address:
# FAILED_LOGINS_PER_ADDRESS below. Staff unlock in the admin (Axes > Access attempts: delete).
# The client address is REMOTE_ADDR: behind a proxy, set LOGIN_CLIENT_IP_HEADER to the header
# the proxy sets itself (e.g. HTTP_X_REAL_IP), never one a client can send through it.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=float(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "accounts.limits.client_address"  # one reading of the address, as the limits'
AXES_IPWARE_META_PRECEDENCE_ORDER = tuple(
    header for header in (os.environ.get("LOGIN_CLIENT_IP_HEADER", ""), "REMOTE_ADDR") if header
)
AXES_VERBOSE = False
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Pyodide, for solo play offline (solo.offline), from its npm package (package.json; make installs it).
PYODIDE_DIR = BASE_DIR / "node_modules" / "pyodide"
STATICFILES_DIRS = [("pyodide", PYODIDE_DIR)] if PYODIDE_DIR.is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Hearts <noreply@hearts.local>")

# The cache: Redis in production (shared by every process: the front door's limits count
# there), the process's memory on the embedded default.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "hearts"}}

# The front door's limits (accounts/limits.py), "count/period" (s, m, h or d) per client
# address or e-mail address.
GUESTS_PER_ADDRESS = os.environ.get("GUESTS_PER_ADDRESS", "20/h")
RESET_EMAILS_PER_ADDRESS = os.environ.get("RESET_EMAILS_PER_ADDRESS", "10/h")
RESET_EMAILS_PER_EMAIL = os.environ.get("RESET_EMAILS_PER_EMAIL", "3/h")
FAILED_LOGINS_PER_ADDRESS = os.environ.get("FAILED_LOGINS_PER_ADDRESS", "50/h")
RATELIMIT_IPV6_MASK = 64

# Post-game analysis (analysis/): analyses a person (guests included) may ask for in any
# 24 hours, and the search's effort per decision in simulated card plays.
ANALYSES_PER_DAY = int(os.environ.get("ANALYSES_PER_DAY", "10"))
ANALYSIS_EFFORT = int(os.environ.get("ANALYSIS_EFFORT", "150000"))
# The Celery queue of analyses (half a minute of CPU each): name one served by workers of its
# own so that analyses never hold up a table's computer moves and timers. Empty: the default.
ANALYSIS_QUEUE = os.environ.get("ANALYSIS_QUEUE", "")

# Channels: Redis in production, in-memory on the embedded default (one process).
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub, whose lost connections close the process's sockets
            # (hearts_site/channel_layers.py).
            "BACKEND": "hearts_site.channel_layers.RedisPubSubChannelLayer",
            # redis-py's pool refuses a 101st connection at once ("Too many connections", taken
            # for a Redis outage): a server with a thousand sockets connecting needs more.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15,
                           "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000"))}],
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "hearts_site.channel_layers.ThrottledInMemoryChannelLayer"}}

# Celery: a Redis broker and separate worker in production. On the embedded default tasks
# run in this process on background threads, honouring their countdown (see
# hearts_site.taskrunner.schedule). TASK_RUNNER may be "celery", "thread" or "eager" (tests).
TASK_RUNNER = os.environ.get("TASK_RUNNER", "celery" if REDIS_URL else "thread")
if TASK_RUNNER not in {"celery", "thread", "eager"}:
    raise ImproperlyConfigured("TASK_RUNNER must be celery, thread or eager.")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
# With the broker down a move fails within about a second instead of hanging.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 2

# Bots pause this long before playing so a person can follow the trick.
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))

# Live play (live/LIVE.md, "Drops and stand-ins" and "Faults"). A person whose last socket
# closed gets this long to come back before a computer stands in.
LIVE_RECONNECT_GRACE_SECONDS = float(os.environ.get("LIVE_RECONNECT_GRACE_SECONDS", "60"))
# A matched game's first turn: its clock starts when every person has opened the table, or
# after this long (games.services.plan_next).
LIVE_ARRIVAL_GRACE_SECONDS = float(os.environ.get("LIVE_ARRIVAL_GRACE_SECONDS", "20"))
# Every server process (daphne) writes a heartbeat this often; one silent for the timeout is
# taken for dead and its sockets for closed (their seats get the grace period above).
# Each person's table sockets in one server process (live/server.py): beyond them a socket
# is refused with close code 4429.
SOCKETS_PER_PERSON_PER_TABLE = int(os.environ.get("SOCKETS_PER_PERSON_PER_TABLE", "4"))
SOCKETS_PER_PERSON = int(os.environ.get("SOCKETS_PER_PERSON", "12"))
LIVE_SERVER_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_SERVER_HEARTBEAT_SECONDS", "10"))
LIVE_SERVER_TIMEOUT_SECONDS = float(os.environ.get("LIVE_SERVER_TIMEOUT_SECONDS", "30"))
if not LIVE_SERVER_HEARTBEAT_SECONDS > 0 or LIVE_SERVER_TIMEOUT_SECONDS < 2 * LIVE_SERVER_HEARTBEAT_SECONDS:
    raise ImproperlyConfigured(
        "LIVE_SERVER_TIMEOUT_SECONDS must be at least twice LIVE_SERVER_HEARTBEAT_SECONDS (above 0), "
        "so a server that is merely a little late is not taken for dead."
    )

# CPython in a server process (hearts_site/server_tuning.py): full collections of the garbage
# collector, which stop every socket for a moment, much less often than CPython's default; a
# thread back from the database gets the interpreter within 1 ms instead of 5
# (THREAD_SWITCH_INTERVAL is in seconds, as sys.setswitchinterval takes it).
from hearts_site.server_tuning import (  # noqa: E402
    DEFAULT_SWITCH_INTERVAL, DEFAULT_THRESHOLDS, parse_switch_interval, parse_thresholds,
)

GC_THRESHOLDS = parse_thresholds(os.environ["GC_THRESHOLDS"]) if "GC_THRESHOLDS" in os.environ else DEFAULT_THRESHOLDS
THREAD_SWITCH_INTERVAL = (
    parse_switch_interval(os.environ["THREAD_SWITCH_INTERVAL_MS"]) if "THREAD_SWITCH_INTERVAL_MS" in os.environ
    else DEFAULT_SWITCH_INTERVAL
)

# Production security: secure cookies, HSTS, HTTPS redirect (off behind a TLS proxy that
# already redirects: set SECURE_SSL_REDIRECT=false).
if PRODUCTION and not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Payments (stripe). Without keys the site runs; admins grant plans in the admin.
STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY", "")
STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET", "")
STRIPE_PRICE_ID = os.environ.get("STRIPE_PRICE_ID", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "structured": {
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
    },
}
