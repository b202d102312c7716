import itertools

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.table.conduct import standings
from ratings.services import SeatResult, apply_game_result

_keys = itertools.count(1)


@pytest.fixture
def make_user(db):
    def make(username: str, display_name: str = ""):
        return get_user_model().objects.create_user(username=username, password=None, display_name=display_name)  # no hashing: fast

    return make


@pytest.fixture
def players(make_user):
    """Six people: alice, bob, carol, dave, erin, frank."""
    return [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin", "frank")]


@pytest.fixture
def rate_game():
    """Play one rated game: ``rate_game([(user_or_None, score), ...], dropped={user}, ...)``.

    Winners are the lowest scores among all seats; each seat played 10 deals.
    """

    def rate(seats, *, dropped=(), moons=None, deals=10, key=None, left_at=None):
        dropped_ids = {u.pk for u in dropped}
        left = {number for number, (user, _) in enumerate(seats) if user and user.pk in dropped_ids}
        places = standings([score for _, score in seats], left).places
        results = [
            SeatResult(
                user_id=user.pk if user else None,
                final_score=score,
                place=place,
                dropped=bool(user) and user.pk in dropped_ids,
                moons=(moons or {}).get(user.pk if user else None, 0),
                deals=deals,
                left_at=(left_at or {}).get(user),
            )
            for (user, score), place in zip(seats, places)
        ]
        with transaction.atomic():
            return apply_game_result(key or f"test:{next(_keys)}", len(seats), results)

    return rate
