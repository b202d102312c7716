"""Guests: anyone may play solo at once, without an account.

The first game makes a guest user for the browser (signed in by its session). Signing up turns
that guest into the account, games and all; logging in to an existing account hands the guest's
games to it (:data:`guest_claimed`). Guests nobody claims are deleted after a while, their games
with them.
"""
from __future__ import annotations

import datetime as dt
import logging
import secrets

from django.contrib.auth import login
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from accounts import limits
from accounts.models import User

log = logging.getLogger(__name__)

guest_claimed = Signal()
"""Sent with ``guest`` and ``account`` when a guest logs in to an existing account, before the
guest is deleted: apps move what the guest owns to the account."""

GUEST_USERNAME_PREFIX = "guest-"


def create_guest():
    user = User(username=f"{GUEST_USERNAME_PREFIX}{secrets.token_hex(8)}", is_guest=True)
    user.set_unusable_password()
    user.save()
    return user


def player_for(request):
    """The person playing in this browser: the signed-in user, or a new guest signed in now
    (raises :class:`accounts.limits.TooMany` when this client made too many guests)."""
    if request.user.is_authenticated:
        return request.user
    limits.make_guest(request)
    guest = create_guest()
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    log.info("guest_created user=%s", guest.pk)
    return guest


GUEST_SEEN_EVERY = dt.timedelta(hours=1)


def note_guest_seen(user) -> None:
    """A guest is playing: their ``last_login`` (what :func:`delete_idle_guests` reads) moves
    to now, written at most once per :data:`GUEST_SEEN_EVERY`. Nothing for an account."""
    if not getattr(user, "is_guest", False):
        return
    now = timezone.now()
    if user.last_login is None or now - user.last_login > GUEST_SEEN_EVERY:
        User.objects.filter(pk=user.pk).update(last_login=now)
        user.last_login = now


def claim_guest(guest, account) -> None:
    """``account`` logged in from the browser of ``guest``: the guest's games become the
    account's and the guest is deleted."""
    if guest is None or not guest.is_guest or guest.pk == account.pk:
        return
    with transaction.atomic():
        guest_claimed.send(sender=User, guest=guest, account=account)
        guest.delete()
    log.info("guest_claimed guest=%s account=%s", guest.pk, account.pk)


def delete_idle_guests(idle_for: dt.timedelta, now: dt.datetime | None = None) -> int:
    """Delete the guests not seen for ``idle_for`` (see :func:`note_guest_seen`), with their
    games. Returns how many."""
    cutoff = (now or timezone.now()) - idle_for
    idle = User.objects.filter(is_guest=True).filter(Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff))
    count = idle.delete()[1].get(User._meta.label, 0)
    if count:
        log.info("guests_deleted count=%s idle_days=%s", count, idle_for.days)
    return count
