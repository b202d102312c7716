"""Expert: Hard's search with five times the effort (games.bots.SEARCH_EFFORT)."""

import pytest

from games import bots
from games.bots import hard
from games.engine import Game, Rules

from .helpers import drive


def _views(rules, seed, phase):
    views = []
    drive(Game.new(rules, seed=seed), ["medium"] * rules.players, seed=seed,
          check=lambda game, seat, view, action: views.append(view) if view.phase == phase else None)
    return views


@pytest.mark.parametrize("phase, function, effort", [("play", "play", hard.EXPERT_EFFORT),
                                                     ("pass", "pass_cards", hard.EXPERT_PASS_EFFORT)])
def test_expert_searches_with_its_own_effort(monkeypatch, phase, function, effort):
    spent = []
    real = getattr(hard, function)

    def recording(view, seed=0, **options):
        spent.append(options["effort"])
        return real(view, seed, **{**options, "samples": 4})

    monkeypatch.setattr(hard, function, recording)
    view = next(v for v in _views(Rules(), 2, phase) if len(v.legal) > 3)
    action = bots.choose_action(view, "expert", seed=3)
    if phase == "play":
        assert action in view.legal
    else:
        assert len(set(action)) == 3 and set(action) <= set(view.hand)
    assert spent and set(spent) == {effort}
    assert effort >= 5 * bots.SEARCH_EFFORT["hard"][0 if phase == "play" else 1]


def test_an_expert_decision_is_legal_and_deterministic():
    view = next(v for v in _views(Rules(), 5, "play") if len(v.legal) > 2)
    card = bots.choose_action(view, "expert", seed=11)
    assert card in view.legal
    assert bots.choose_action(view, "expert", seed=11) == card
