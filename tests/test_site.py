import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_healthz_reports_database_and_channel_layer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Hearts" in response.content


def test_user_model_is_custom(settings):
    assert settings.AUTH_USER_MODEL == "accounts.User"


def test_htmx_is_served_locally(client):
    response = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert b"htmx" in body


def _settings_in_subprocess(env_overrides):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG"}}
    env.update(env_overrides)
    env["DJANGO_SETTINGS_MODULE"] = "hearts_site.settings"
    code = "import django; django.setup(); from django.conf import settings; print(settings.DATABASES['default']['ENGINE'], settings.CHANNEL_LAYERS['default']['BACKEND'], settings.TASK_RUNNER, settings.SESSION_COOKIE_SECURE, getattr(settings, 'SECURE_HSTS_SECONDS', 0))"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)


def test_embedded_default_needs_no_servers():
    result = _settings_in_subprocess({})
    assert result.returncode == 0, result.stderr
    engine, layer, runner, secure_cookie, hsts = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert layer == "hearts_site.channel_layers.ThrottledInMemoryChannelLayer"
    assert runner == "thread"


def test_production_settings_fail_clearly_when_a_variable_is_missing():
    result = _settings_in_subprocess({"DATABASE_URL": "postgres://u:p@localhost/db"})
    assert result.returncode != 0
    assert "REDIS_URL" in result.stderr and "SECRET_KEY" in result.stderr and "ALLOWED_HOSTS" in result.stderr


def test_production_settings_use_postgres_redis_and_secure_cookies():
    result = _settings_in_subprocess(
        {
            "DATABASE_URL": "postgres://u:p@localhost/db",
            "REDIS_URL": "redis://localhost:6379/0",
            "SECRET_KEY": "x" * 50,
            "ALLOWED_HOSTS": "hearts.example",
        }
    )
    assert result.returncode == 0, result.stderr
    engine, layer, runner, secure_cookie, hsts = result.stdout.split()
    assert engine == "django.db.backends.postgresql"
    assert layer == "hearts_site.channel_layers.RedisPubSubChannelLayer"
    assert runner == "celery"
    assert secure_cookie == "True"
    assert int(hsts) >= 31536000
