"""The analysis search (games.bots.analysis): honest verdicts from the seat's view only."""
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from games.bots import analysis, choose_action
from games.bots.analysis import Decision, analyse_game, analyse_moon, analyse_pass, analyse_play, verdict
from games.engine import Card, Game, Rules

# Seat 1 wins the first trick with A♣ and leads the 3♠; seat 2 drops the Q♠ on it, seat 3
# follows with the 4♠, and seat 0, last, holds the K♠ and the 2♠.
PLANTED = [
    "2C KS 2S 2D 3D 4D 5D 6D 7D 8D 9D 3H 4H",
    "AC 3S 3C 4C 5C 6C TD JD QD KD AD 5H 6H",
    "QS 7C 8C 9C TC JC 7H 8H 9H TH JH QH KH",
    "4S 5S 6S 7S 8S 9S TS JS AS QC KC 2H AH",
]
BEFORE = [(0, "2C"), (1, "AC"), (2, "7C"), (3, "QC"), (1, "3S"), (2, "QS"), (3, "4S")]
EFFORT = 20_000


def planted(hands=PLANTED, target=100):
    game = Game.new(Rules(passing="none", target=target), seed=5, hands=[h.split() for h in hands])
    for seat, card in BEFORE:
        game.apply(seat, card)
    assert game.turn == 0 and [str(c) for c in game.legal(0)] == ["2S", "KS"]
    return game


def test_throwing_the_king_on_the_queen_is_a_blunder_of_about_thirteen_points():
    view = planted().view(0)
    blunder = analyse_play(view, "KS", seed=1, effort=EFFORT)
    assert blunder.verdict == "blunder" and blunder.best == "2S"
    assert 11 <= blunder.loss <= 15 and blunder.error < 2, blunder
    assert blunder.phase == "following" and "Duck" in blunder.reason


def test_the_best_card_is_not_flagged():
    duck = analyse_play(planted().view(0), "2S", seed=1, effort=EFFORT)
    assert duck.verdict == "best" and duck.loss == 0 and duck.best == "2S"
    assert duck.within_noise


def test_a_forced_card_is_no_decision():
    game = Game.new(Rules(passing="none"), seed=5, hands=[h.split() for h in PLANTED])
    assert analyse_play(game.view(0), "2C", seed=1) is None


def swapped(hands, a, b):
    """Exchange card ``a`` and card ``b`` between the two hands that hold them."""
    out = []
    for hand in hands:
        cards = hand.split()
        out.append(" ".join(b if c == a else a if c == b else c for c in cards))
    return out


@pytest.mark.parametrize("a, b", [("5H", "7H"), ("TD", "2H"), ("6C", "8C")])
def test_the_verdict_never_depends_on_the_hidden_hands(a, b):
    """The same information for seat 0, other cards in the other hands: the same analysis."""
    other = swapped(PLANTED, a, b)
    assert other != PLANTED
    view, other_view = planted().view(0), planted(other).view(0)
    assert view == other_view
    for card in ("KS", "2S"):
        assert analyse_play(view, card, seed=3, effort=EFFORT) == analyse_play(other_view, card, seed=3, effort=EFFORT)


def small_game(seed=4, target=30):
    game = Game.new(Rules(target=target), seed=seed)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, choose_action(game.view(seat), "medium", seed=game.ply))
    return game


def test_a_whole_game_twice_gives_equal_results_and_covers_every_real_choice():
    state = small_game().to_dict()
    first = list(analyse_game(state, 0, effort=3000))
    second = list(analyse_game(state, 0, effort=3000))
    assert first == second and first
    kinds = {d.kind for d in first}
    assert "pass" in kinds and "play" in kinds
    plies = [d.ply for d in first]
    assert plies == sorted(plies) and len(set(plies)) == len(plies)
    for d in first:
        entry = state["log"][d.ply - 1]
        assert entry["seat"] == 0
        chosen = entry["action"]
        assert d.chosen == (" ".join(sorted(chosen, key=lambda c: Card.parse(c).index)) if isinstance(chosen, list) else chosen)
        assert d.loss >= 0 and d.error >= 0 and d.verdict in analysis.VERDICTS
        assert Decision.from_dict(d.to_dict()) == d
    figures = analysis.summary(first, len({e["deal"] for e in state["log"]}))
    assert 0 <= figures["accuracy"] <= 100 and sum(figures["counts"].values()) == len(first)


def test_a_pass_is_judged_against_the_best_passes():
    game = Game.new(Rules(), seed=9)
    view = game.view(0)
    hand = sorted(view.hand, key=lambda c: c.index)
    lowest = hand[:3]
    decision = analyse_pass(view, lowest, seed=2, effort=EFFORT)
    assert decision.kind == "pass" and decision.phase == "passing"
    assert decision.chosen == " ".join(str(c) for c in lowest)
    assert decision.verdict != "best" and decision.loss > 0, "passing the three lowest cards is never best"


def test_a_moon_choice_that_loses_the_game_is_a_blunder():
    # Seat 0 takes every card of the deal; scores make subtracting lose and adding win.
    hands = [" ".join(r + "C" for r in "23456789TJQKA"),
             " ".join(r + "D" for r in "23456789TJQKA"),
             " ".join(r + "S" for r in "23456789TJQKA"),
             " ".join(r + "H" for r in "23456789TJQKA")]
    game = Game.new(Rules(passing="none", moon="choose", target=100), seed=1,
                    hands=[h.split() for h in hands], scores=[60, 80, 70, 40])
    while game.phase == "play":
        game.apply(game.turn, game.legal(game.turn)[0])
    assert game.phase == "moon_choice"
    view = game.view(0)
    lost = analyse_moon(view, "subtract")
    won = analyse_moon(view, "add")
    assert lost.verdict == "blunder" and lost.best == "add" and lost.loss == 26
    assert won.verdict == "best"


@settings(max_examples=60, deadline=None)
@given(loss=st.floats(0, 40), error=st.floats(0, 5))
def test_verdicts_never_call_a_loss_inside_the_noise_a_mistake(loss, error):
    word = verdict(loss, error, chosen_is_best=False)
    if loss < 2 * error or loss < analysis.FINE:
        assert word == "good"
    else:
        assert word == ("inaccuracy" if loss < analysis.MISTAKE else "mistake" if loss < analysis.BLUNDER else "blunder")


def test_the_analysis_is_pure_python_and_runs_without_django():
    code = "import sys, games.bots.analysis; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
