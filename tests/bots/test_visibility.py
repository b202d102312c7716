"""A bot sees only its PlayerView: no other hands, and identical views give identical moves."""

import dataclasses

import pytest

from games import bots
from games.engine import Game, PlayerView, Rules, parse_cards

from .helpers import DUCK_HANDS

# every PlayerView field and what it may hold; nothing here is another seat's hidden cards
PUBLIC_OR_OWN = {
    "seat", "rules", "phase", "players", "dealer", "deal_number", "pass_direction", "hand",
    "legal", "to_act", "passed", "received", "pass_target", "passed_done", "current_trick",
    "leader", "tricks", "played", "hearts_broken", "hand_sizes", "points_taken", "kitty_size",
    "kitty", "kitty_taker", "removed", "voids", "scores", "deal_points", "winners", "moon_shooter",
    "is_first_trick",
    "moon_outcomes",  # points per seat of a finished deal: from the public tricks and the face-up kitty
}


def test_player_view_has_no_field_for_other_hands():
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names == PUBLIC_OR_OWN, "PlayerView changed: check no field leaks other hands"
    assert not any("hands" == n or n.startswith("hands_of") for n in names)


def test_view_cards_are_own_or_public():
    g = Game.new(Rules(players=5, odd_cards="kitty"), seed=9)
    for seat in g.to_act:
        g.apply(seat, bots.choose_action(g.view(seat), "medium"))
    for _ in range(12):
        g.apply(g.to_act[0], bots.choose_action(g.view(g.to_act[0]), "medium"))
    for seat in range(5):
        v = g.view(seat)
        visible = set(v.hand) | set(v.played) | set(v.passed or ()) | set(v.received or ()) | set(v.removed) | set(v.kitty)
        others = set().union(*(set(h) for s, h in enumerate(g.hands) if s != seat)) - set(v.played)
        assert not (others - set(v.passed or ())) & (set(v.hand) | set(v.legal))
        assert set(v.legal) <= set(v.hand)
        assert set(c for t in v.tricks for c in t.cards) <= set(v.played)
        assert visible.isdisjoint(others - set(v.passed or ()))


def _swap_hidden(hands, a, b, cards_a, cards_b):
    """Swap cards between two other seats' hands (same suits, so no rule notices)."""
    hs = [parse_cards(h) for h in hands]
    ca, cb = parse_cards(cards_a), parse_cards(cards_b)
    hs[a] = [c for c in hs[a] if c not in ca] + cb
    hs[b] = [c for c in hs[b] if c not in cb] + ca
    return hs


@pytest.mark.parametrize("level", bots.LEVELS)
def test_identical_views_identical_decisions(level):
    """Two deals that differ only in cards hidden from seat 2: same view, same move."""
    first = DUCK_HANDS
    second = _swap_hidden(DUCK_HANDS, 0, 1, "3D 4D", "TD JD")  # seats 0 and 1 trade diamonds
    games = [Game.new(Rules(passing="none"), hands=h) for h in (first, second)]
    for g in games:
        g.apply(0, "2C")
        g.apply(1, "KC")
    v1, v2 = games[0].view(2), games[1].view(2)
    assert v1 == v2
    assert games[0].hands != games[1].hands
    opts = {"samples": 6} if level in bots.SEARCHES else {}
    for seed in (0, 1, 7):
        assert bots.choose_action(v1, level, seed=seed, **opts) == bots.choose_action(v2, level, seed=seed, **opts)


def test_identical_views_identical_hints():
    second = _swap_hidden(DUCK_HANDS, 1, 2, "2S 3S", "6S 7S")
    games = [Game.new(Rules(passing="none"), hands=h) for h in (DUCK_HANDS, second)]
    v1, v2 = games[0].view(0), games[1].view(0)
    assert v1 == v2
    from games.bots.hints import make_hint

    assert make_hint(v1, time_budget=None) == make_hint(v2, time_budget=None)
    assert bots.hint(v1).action in v1.legal
