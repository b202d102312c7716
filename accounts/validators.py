"""The display-name and email rules, used by the sign-up and profile forms alike."""
import re

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q

from accounts.names import name_key

DISPLAY_NAME_MIN = 2
DISPLAY_NAME_MAX = 40
# Letters and digits of any script, spaces, and . _ - '
_ALLOWED = re.compile(r"^[\w .'\-]+$")


def normalize_display_name(value: str) -> str:
    """Trim and collapse runs of spaces: "  Queen   of  Spades " -> "Queen of Spades"."""
    return " ".join((value or "").split())


def validate_display_name(value: str, user=None) -> str:
    """Return the cleaned display name or raise ValidationError saying what is allowed.

    Blank is allowed: the player is then shown by their username. Otherwise 2–40 characters
    of letters, digits, spaces and . _ - ', not a name the computer players use, and not
    already used as another player's display name or username — compared as they look
    (:func:`accounts.names.name_key`: "аlice" in Cyrillic is "Alice") — so nobody can pass for
    someone else at the table.
    """
    name = normalize_display_name(value)
    if not name:
        return ""
    if len(name) < DISPLAY_NAME_MIN:
        raise ValidationError(
            f"Display name must be at least {DISPLAY_NAME_MIN} characters (you entered {len(name)}).",
            code="too_short",
        )
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(
            f"Display name can be at most {DISPLAY_NAME_MAX} characters (you entered {len(name)}).",
            code="too_long",
        )
    if not _ALLOWED.match(name) or not any(ch.isalnum() for ch in name):
        raise ValidationError(
            "Display name may use letters, digits, spaces and . _ - ' only, "
            "with at least one letter or digit.",
            code="invalid_characters",
        )
    check_name_is_free(name, user, what="display name")
    return name


COMPUTER_NAME_KEYS: set[str] = set()
"""The names computer players use at a table, as :func:`accounts.names.name_key` keys."""


def reserve_computer_names(names) -> None:
    """No player may take ``names``, or a name that looks like one: the computers use them at
    the table (the games app reserves its computers' names as it starts: ``games.apps``)."""
    COMPUTER_NAME_KEYS.update(name_key(name) for name in names)


def check_name_is_free(name: str, user=None, *, what: str) -> None:
    """Raise ValidationError when ``name`` looks like a computer player's name or another
    player's display name or username (``user``: the player choosing it, if they exist)."""
    key = name_key(name)
    if key in COMPUTER_NAME_KEYS:
        raise ValidationError(
            f"“{name}” looks like a name the computer players use at the table. Please choose a different {what}.",
            code="computer_name",
        )
    others = get_user_model().objects.all()
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if others.filter(Q(display_name_key=key) | Q(username_key=key)).exists():
        raise ValidationError(
            f"“{name}” is taken by, or looks like, another player's name. Please choose a different {what}.",
            code="taken",
        )


def validate_email_available(value: str, user=None) -> str:
    """Return the email or raise ValidationError when another account already uses it.

    One account per address keeps password-reset mail going to exactly one player.
    """
    email = (value or "").strip()
    if not email:
        return ""
    others = get_user_model().objects.filter(email__iexact=email)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        raise ValidationError(
            "Another account already uses this email address. "
            "If it is yours, log in to it or reset its password.",
            code="email_taken",
        )
    return email
