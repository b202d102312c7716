"""Writes about players' own accounts. Subscriptions are written by :mod:`accounts.billing`,
guests by :mod:`accounts.guests`."""


def update_profile(user, *, display_name: str, email: str):
    """Save a player's display name and email (already validated by ``ProfileForm``)."""
    user.display_name = display_name
    user.email = email
    user.save(update_fields=["display_name", "email"])
    return user
