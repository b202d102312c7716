"""How often one client may knock at the front door, in one place: guests made, password-reset
e-mails sent, failed logins. Each limit is a number of times per period, counted by
django-ratelimit in the cache (Redis in production, so every daphne counts together; the
process's own memory on the embedded default, where there is one process).

- ``GUESTS_PER_ADDRESS``: guests (visitors who play without an account) made for one client
  address. Beyond it the visitor is told when to try again (HTTP 429); signed-in players and
  guests already made play on.
- ``RESET_EMAILS_PER_ADDRESS`` and ``RESET_EMAILS_PER_EMAIL``: password-reset requests from one
  client address (beyond it: 429), and e-mails to one address. Beyond the second no e-mail is
  sent, and the page answers as for any address, so nobody learns whether an account uses it.
- ``FAILED_LOGINS_PER_ADDRESS``: failed logins from one client address, whatever the accounts
  tried (against spraying many accounts). One account is locked only for the address that
  failed on it (django-axes, by username and address together), so nobody can lock its owner
  out from elsewhere.

The client address is ``REMOTE_ADDR``, or the header named by ``LOGIN_CLIENT_IP_HEADER``
behind a proxy (:func:`client_address`, which django-axes uses too); the limits count IPv6
clients by /64.
"""
from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass

from django.conf import settings
from django.shortcuts import render
from django_ratelimit.core import get_usage


@dataclass(frozen=True)
class Refusal:
    """A limit reached: what was refused, and in how many seconds it may be tried again."""

    what: str
    retry_after: int

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.retry_after / 60))


class TooMany(Exception):
    """Raised where a limit is reached deep in a request (making a guest); answered by
    :class:`RefusalMiddleware` with :func:`too_many`."""

    def __init__(self, refusal: Refusal):
        super().__init__(refusal.what)
        self.refusal = refusal


class RefusalMiddleware:
    """Answers :class:`TooMany` with the page saying when to try again."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, TooMany):
            return too_many(request, exception.refusal)
        return None


def client_address(request) -> str | None:
    """The client's address: the first of ``AXES_IPWARE_META_PRECEDENCE_ORDER`` (the proxy's
    header named by ``LOGIN_CLIENT_IP_HEADER``, then ``REMOTE_ADDR``). django-axes reads it
    here too (``AXES_CLIENT_IP_CALLABLE``): without django-ipware it would read only
    ``REMOTE_ADDR``."""
    for header in settings.AXES_IPWARE_META_PRECEDENCE_ORDER:
        value = request.META.get(header, "").split(",")[0].strip()
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            continue  # absent or not an address: axes stores addresses in an address column
    return None  # a request made in code (a test client's login): axes stores no address


def _address_key(request) -> str:
    return client_address(request) or "unknown"


def _count(request, group: str, key: str, rate: str, what: str, *, increment: bool = True) -> "Refusal | None":
    usage = get_usage(request, group=group, key=lambda _group, _request: key, rate=rate, increment=increment)
    if usage is None or not usage["should_limit"]:
        return None
    return Refusal(what, max(1, usage["time_left"]))


def make_guest(request) -> None:
    """Counts one more guest for this client; raises :class:`TooMany` beyond the limit."""
    refused = _count(request, "guests", _address_key(request), settings.GUESTS_PER_ADDRESS,
                     "Too many new games without an account from your network")
    if refused:
        raise TooMany(refused)


def ask_password_reset(request, email: str) -> "tuple[Refusal | None, bool]":
    """``(refusal, send)``: a refusal for this client, or whether an e-mail may go to ``email``."""
    refused = _count(request, "reset-address", _address_key(request), settings.RESET_EMAILS_PER_ADDRESS,
                     "Too many password-reset requests from your network")
    if refused:
        return refused, False
    return None, _count(request, "reset-email", email.strip().lower(), settings.RESET_EMAILS_PER_EMAIL, "") is None


def login_refused(request) -> "Refusal | None":
    """Whether this client failed to log in too often (nothing is counted here)."""
    return _count(request, "failed-logins", _address_key(request), settings.FAILED_LOGINS_PER_ADDRESS,
                  "Too many failed logins from your network", increment=False)


def count_failed_login(sender, request=None, **kwargs) -> None:
    """A login from this client failed (receives django's ``user_login_failed``)."""
    if request is not None:
        _count(request, "failed-logins", _address_key(request), settings.FAILED_LOGINS_PER_ADDRESS, "")


def too_many(request, refusal: Refusal):
    """The answer to a refused request: a page saying when to try again, HTTP 429 with
    ``Retry-After``."""
    response = render(request, "limited.html", {"refusal": refusal}, status=429)
    response["Retry-After"] = str(refusal.retry_after)
    return response
