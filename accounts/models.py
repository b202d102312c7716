from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. ``display_name`` is what other players see at the table."""

    display_name = models.CharField(max_length=40, blank=True)

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name
