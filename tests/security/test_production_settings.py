"""Production settings (a subprocess with production environment variables, as tests/test_site.py
does): secure cookies, HSTS, HTTPS redirect, no debug, Django's deploy checks all clear."""
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    # Nothing listens on port 1: these tests read settings, they never connect.
    "DATABASE_URL": "postgres://u:p@127.0.0.1:1/db",
    "REDIS_URL": "redis://127.0.0.1:1/0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "hearts.example",
}

PROBE = r"""
import json, django
django.setup()
from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory
from django.middleware.security import SecurityMiddleware
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.middleware.csrf import CsrfViewMiddleware, get_token

names = ["DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SECURE_SSL_REDIRECT",
         "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER",
         "SECURE_CONTENT_TYPE_NOSNIFF", "X_FRAME_OPTIONS", "SECURE_REFERRER_POLICY", "ALLOWED_HOSTS",
         "SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SAMESITE"]
out = {name: getattr(settings, name, None) for name in names}
factory = RequestFactory()
security = SecurityMiddleware(lambda request: HttpResponse("ok"))
plain = security(factory.get("/", HTTP_HOST="hearts.example"))
out["http_status"], out["http_location"] = plain.status_code, plain.get("Location")
behind_proxy = security(factory.get("/", HTTP_HOST="hearts.example", HTTP_X_FORWARDED_PROTO="https"))
out["https_status"] = behind_proxy.status_code
out["hsts"] = behind_proxy.get("Strict-Transport-Security")
out["nosniff"] = behind_proxy.get("X-Content-Type-Options")

def view(request):
    get_token(request)
    return HttpResponse("form")
request = factory.get("/", HTTP_HOST="hearts.example", secure=True)
response = CsrfViewMiddleware(view)(request)
cookie = response.cookies[settings.CSRF_COOKIE_NAME]
out["csrf_cookie_secure"] = bool(cookie["secure"])
print(json.dumps(out))
"""


def run(code, env_overrides, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "SECURE_SSL_REDIRECT",
                        "SECURE_HSTS_SECONDS", "CSRF_TRUSTED_ORIGINS"}}
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="hearts_site.settings")
    command = [sys.executable, "-c", code] if code else [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def production():
    result = run(PROBE, PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_cookies_are_secure_and_http_only(production):
    assert production["DEBUG"] is False
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["csrf_cookie_secure"] is True, "the CSRF cookie actually sent is marked Secure"
    assert production["SESSION_COOKIE_SAMESITE"] in ("Lax", "Strict")


def test_production_sends_hsts_and_redirects_plain_http(production):
    assert production["SECURE_HSTS_SECONDS"] >= 31536000
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production["hsts"] is not None and "max-age=31536000" in production["hsts"]
    assert "includeSubDomains" in production["hsts"]
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["http_status"] == 301 and production["http_location"] == "https://hearts.example/"
    assert production["https_status"] == 200, "behind the TLS proxy (X-Forwarded-Proto: https) no redirect loop"
    assert production["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_production_frames_sniffing_and_referrer(production):
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["nosniff"] == "nosniff"
    assert production["SECURE_REFERRER_POLICY"] == "same-origin"
    assert production["ALLOWED_HOSTS"] == ["hearts.example"]


def test_djangos_deploy_checks_pass_on_production_settings():
    result = run(None, PRODUCTION_ENV, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_short_or_default_secret_key_is_refused_in_production():
    """The embedded default's key must never be what production runs with."""
    result = run(None, dict(PRODUCTION_ENV, SECRET_KEY="embedded-default-not-for-production"), "check", "--deploy",
                 "--fail-level", "WARNING")
    assert result.returncode != 0


def test_ssl_redirect_can_be_turned_off_behind_a_redirecting_proxy():
    result = run(PROBE, dict(PRODUCTION_ENV, SECURE_SSL_REDIRECT="false"))
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["SECURE_SSL_REDIRECT"] is False and values["http_status"] == 200
    assert values["SESSION_COOKIE_SECURE"] is True and values["hsts"]
