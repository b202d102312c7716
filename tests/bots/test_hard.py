"""Hard: search choices, the standing, candidates, passing."""

from games import bots
from games.bots import hard, standing
from games.bots.state import Knowledge
from games.engine import Card, Game, Rules

from .helpers import DUCK_HANDS

C = Card.parse


def test_utility_weighs_the_standing():
    r = Rules()
    # far from the target: fewer points is better, others' points help a little
    assert standing.utility(r, [0] * 4, [0, 13, 13, 0], 0) > standing.utility(r, [0] * 4, [1, 25, 0, 0], 0)
    # near the end, what matters is being lowest when someone reaches the target:
    # 65 101 50 105 (seat 2 wins) is a loss although we took only 5 ...
    lose = standing.utility(r, [60, 95, 50, 90], [5, 6, 0, 15], 0)
    # ... while 70 96 65 90 (the game goes on) costs just the 10 we took ...
    go_on = standing.utility(r, [60, 95, 50, 90], [10, 1, 15, 0], 0)
    # ... and 70 101 76 90 wins the game for us although we took 10
    win = standing.utility(r, [60, 95, 50, 90], [10, 6, 26, 0], 0)
    assert win > go_on > lose
    assert win > 30 and lose < -30


def test_candidates_collapse_touching_cards():
    g = Game.new(Rules(passing="none"), hands=DUCK_HANDS)
    g.apply(0, "2C")
    g.apply(1, "KC")
    k = Knowledge.from_view(g.view(2))
    # 5C 9C QC AC: the king is played, so the queen and ace are the same card now
    assert hard.candidates(k, k.legal) == [C("5C").index, C("9C").index, C("QC").index]
    g = Game.new(Rules(passing="none"), hands=DUCK_HANDS)
    k = Knowledge.from_view(g.view(3))
    # seat 3 holds the five top hearts and the queen to ace of spades: touching cards collapse
    legal = k.hand
    cands = hard.candidates(k, legal)
    assert C("5H").index in cands and C("AH").index not in cands
    assert C("QS").index in cands and C("KS").index in cands and C("AS").index not in cands


def ducking_view():
    """Seat 2 to follow 2♣ K♣ holding the A♣ and lower clubs: the ace would take the trick."""
    g = Game.new(Rules(passing="none"), hands=DUCK_HANDS)
    g.apply(0, "2C")
    g.apply(1, "KC")
    return g.view(2)


def test_hard_ducks_an_obvious_trick_and_explains():
    v = ducking_view()
    card = bots.choose_action(v, "hard", seed=1)
    assert card in v.legal and card != C("AC")


def test_hard_pass_is_three_of_its_cards_and_deterministic():
    g = Game.new(Rules(), seed=21)
    v = g.view(2)
    a = bots.choose_action(v, "hard", seed=5)
    assert len(set(a)) == 3 and set(a) <= set(v.hand)
    assert a == bots.choose_action(v, "hard", seed=5)


def test_time_budget_is_respected_roughly():
    import time

    g = Game.new(Rules(passing="none"), seed=2)
    while True:
        seat = g.to_act[0]
        v = g.view(seat)
        if len(v.legal) > 3:
            break
        g.apply(seat, bots.choose_action(v, "medium"))
    t = time.perf_counter()
    bots.choose_action(v, "hard", seed=1, time_budget=0.05)
    assert time.perf_counter() - t < 1.0


def test_worlds_that_explain_the_others_plays_count_more(monkeypatch):
    """Against Medium players the true deal explains every recent card; a world that does not
    explain one counts less (with a player who always plays Medium's card: not at all)."""
    import random

    from games.bots import hard, medium
    from games.bots.sampling import sample
    from games.bots.state import Knowledge
    from games.engine import Game, Rules

    g = Game.new(Rules(passing="none"), seed=21)
    while len(g.tricks) < 4 or g.to_act[0] != 0:
        g.apply(g.to_act[0], medium.play(g.view(g.to_act[0])))
    k = Knowledge.from_view(g.view(0))
    true_world = k.deal.filled([sum(1 << c.index for c in h) for h in g.hands])
    rng = random.Random(3)
    worlds = [k.deal.filled(sample(k, rng)[0]) for _ in range(40)]
    weights = [hard.likelihood(k, w) for w in worlds]
    assert len(set(weights)) > 1 and 0 < min(weights)
    monkeypatch.setattr(hard, "OTHERWISE", 0.0)
    assert hard.likelihood(k, true_world) == 1.0
    strict = [hard.likelihood(k, w) for w in worlds]
    assert set(strict) <= {0.0, 1.0} and strict.count(0.0) >= 5


def test_expert_is_the_same_search_with_more_worlds():
    """Where Hard's effort runs out before its candidates part, Expert deals more worlds
    from the same seed (the first worlds are the same ones)."""
    g = Game.new(Rules(passing="none"), seed=4)
    while len(g.tricks) < 3 or len(g.view(g.to_act[0]).legal) < 3:
        seat = g.to_act[0]
        g.apply(seat, bots.choose_action(g.view(seat), "medium"))
    view = g.view(g.to_act[0])
    effort = 3_000
    cands, _, hard_worlds = hard.evaluate(view, seed=2, effort=effort, search=hard.HARD)
    _, _, expert_worlds = hard.evaluate(view, seed=2, effort=effort * 4, search=hard.EXPERT)
    assert len(cands) > 1
    assert expert_worlds > hard_worlds
    # the caps on worlds are each level's own
    _, _, capped = hard.evaluate(view, seed=2, effort=10**9, search=hard.Search(play=1, passing=1, worlds=20))
    assert capped <= 20


def test_expert_passes_and_plays_legally_and_the_same_for_a_seed():
    g = Game.new(Rules(), seed=21)
    v = g.view(1)
    passed = bots.choose_action(v, "expert", seed=5, samples=16)
    assert len(set(passed)) == 3 and set(passed) <= set(v.hand)
    assert passed == bots.choose_action(v, "expert", seed=5, samples=16)
    v = ducking_view()
    card = bots.choose_action(v, "expert", seed=1)
    assert card in v.legal and card != C("AC")
    assert card == bots.choose_action(v, "expert", seed=1)


def test_the_search_rate_probe_counts_plays_a_second():
    import time

    began = time.perf_counter()
    rate = hard.plays_per_second()
    assert time.perf_counter() - began < 5
    assert 1_000 < rate < 100_000_000
