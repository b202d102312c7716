"""Analysis of a finished game: Hard's verdict on each decision of one seat.

For every decision with a real choice — the cards passed, each card played when more than
one card differs, the moon choice when it decides the game — the seat's options are
compared by Hard's search from **that seat's view at that moment** (:class:`PlayerView`
only, never the hidden hands): the same random deals of the unseen cards, weighted by how
well they explain what the others just played, are played out with every option.

An option's value is the seat's points in the deal **against an even share** (its points
minus the table's points over the number of players, lower is better): without a moon that
differs from its own points by a constant, so a difference between two options is a
difference in the seat's own points; with a moon, adding to the others and subtracting
from the shooter count the same, as they should.

The **loss** of a decision is the chosen option's expected points minus the best
option's, over the same deals; its **standard error** comes from the spread of that
paired difference over the deals (their effective number, as the deals are weighted).
Verdicts (:func:`verdict`): within ``max(2 standard errors, FINE)`` of the best is
``"good"`` (``"best"`` when the chosen option is the best); beyond that, an
**inaccuracy** below ``MISTAKE`` points, a **mistake** below ``BLUNDER`` and a **blunder**
from ``BLUNDER`` up.  One point is one heart; half the queen is a blunder.

The game's standing (winning the game near the target, which Hard's own play weighs) is
left out, so that an expected point reads the same at every score; only the moon choice,
which changes no points, is judged by it.

The thresholds are set against the noise: at the default effort the standard error of a
loss is about 0.1–0.5 points (up to 1 in the most open positions), so a loss of 2 points
or more is beyond doubt, and one heart (a point) is the smallest loss worth a word.

Everything is seeded from the game's seed, the ply and the seat, so two analyses of one
game agree.

>>> from games.engine import Game, Rules
>>> g = Game.new(Rules(passing="none"), seed=7)
>>> while not (g.turn == 0 and len(play_options(g.view(0))) > 1):
...     _ = g.apply(g.turn, g.legal(g.turn)[0])
>>> d = analyse_play(g.view(0), g.legal(0)[-1], seed=1, effort=20_000)
>>> d.kind, d.phase, d.chosen, d.worlds >= MIN_WORLDS, d.verdict in VERDICTS
('play', 'following', '8D', True, True)
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterator

from games.engine import Card, Game, PlayerView, kernel
from games.engine.cards import mask_to_cards
from games.engine.kernel import Deal

from . import decision_seed, hard, hints, policy
from .sampling import sample
from .standing import outcome
from .state import Knowledge, card_mask

__all__ = [
    "Decision", "analyse", "analyse_play", "analyse_pass", "analyse_moon", "analyse_game",
    "decisions_of", "choices_of", "analysis_seed",
    "verdict", "summary", "ANALYSIS_EFFORT", "VERDICTS",
]

#: simulated card plays per decision (Hard spends 50,000 on a card it plays)
ANALYSIS_EFFORT = 150_000
MIN_WORLDS = 32
MAX_WORLDS = 400
#: every so many deals, options clearly worse than the best (PRUNE_Z standard errors of the
#: paired difference) stop being played out; the chosen one never does
PRUNE_EVERY = 16
PRUNE_Z = 3.0
#: passes compared besides the one chosen (Medium's best ones)
PASS_OPTIONS = 6
#: expected points lost: under FINE a decision is good whatever the noise; from MISTAKE a
#: mistake, from BLUNDER a blunder (between, an inaccuracy)
FINE = 0.5
MISTAKE = 2.0
BLUNDER = 6.0
VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Decision:
    """One analysed decision of a seat.

    ``chosen`` and ``best`` are a card (``"QS"``), three cards (``"2C 3D 4H"``) or a moon
    choice; ``expected`` the chosen option's expected points against an even share (see the
    module doc), ``loss`` its difference to the best's (never negative) and ``error`` the
    standard error of that difference — when the chosen option is the best, of its lead
    over the next best — over ``worlds`` deals of the unseen cards."""

    ply: int
    deal: int
    kind: str  # "pass" | "play" | "moon"
    phase: str  # "passing" | "leading" | "following" | "discarding" | "moon"
    chosen: str
    best: str
    expected: float
    loss: float
    error: float
    verdict: str
    reason: str
    worlds: int

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Decision":
        return cls(**{name: d[name] for name in cls.__dataclass_fields__})

    @property
    def within_noise(self) -> bool:
        """The chosen option is as good as the best, as far as the search can tell."""
        return self.verdict in ("best", "good")


def verdict(loss: float, error: float, chosen_is_best: bool) -> str:
    """The word for a decision that loses ``loss`` points with standard error ``error``.

    >>> verdict(0.0, 0.0, True), verdict(0.9, 0.5, False), verdict(1.5, 0.3, False)
    ('best', 'good', 'inaccuracy')
    >>> verdict(3.0, 0.4, False), verdict(13.0, 0.5, False)
    ('mistake', 'blunder')
    """
    if chosen_is_best:
        return "best"
    if loss < max(2 * error, FINE):
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def analysis_seed(game_seed, ply: int, seat: int) -> int:
    """The seed of one decision's analysis (:func:`games.bots.decision_seed` of its own key)."""
    return decision_seed(f"analysis/{game_seed}", ply, seat)


# ---------------------------------------------------------------------------------
# The search: the same deals for every option, the chosen one always kept
# ---------------------------------------------------------------------------------


def _even_share(pts, me: int) -> float:
    return pts[me] - sum(pts) / len(pts)


def _compare(worlds: Iterator, play_out: Callable, options: list, chosen: int, cost: int,
             effort: int) -> tuple[int, float, float, float, int]:
    """Play every option out in each of ``worlds`` (``(world, weight)`` pairs); ``play_out``
    gives the value (lower is better) of option ``i`` in a world.  ``cost``: card plays per
    option and world.

    Returns ``(best option, the chosen option's expected value, its loss, the loss's standard
    error, deals used)``.  The best option is picked on one set of deals and the loss measured
    on as many fresh ones: measured on the deals that picked it, the best would look better
    than it is (it won partly on their luck), and every decision would seem to lose a little.
    When the chosen option is the best, the error is that of its lead over the next best."""
    values: list[list[float]] = [[] for _ in options]
    weights: list[float] = []
    active = list(range(len(options)))
    spent = 0
    for world, weight in worlds:
        weights.append(weight)
        for i in active:
            values[i].append(play_out(world, i))
        spent += cost * len(active)
        done = len(weights)
        if done >= MAX_WORLDS or (done >= MIN_WORLDS and spent >= effort):
            break
        if done % PRUNE_EVERY == 0 and len(active) > 2:
            active = _prune(values, weights, active, chosen)
    if not sum(weights):
        weights = [1.0] * len(weights)
    best = min(active, key=lambda i: (_mean(values[i], weights), i != chosen))
    expected = _mean(values[chosen], weights)
    if best == chosen:
        others = [i for i in range(len(options)) if i != chosen and values[i]]
        rival = min(others, key=lambda i: _mean(values[i], weights), default=chosen)
        return best, expected, 0.0, _paired_error(values[chosen], values[rival], weights), len(weights)
    fresh_chosen: list[float] = []
    fresh_best: list[float] = []
    fresh_weights: list[float] = []
    for world, weight in worlds:
        fresh_weights.append(weight)
        fresh_chosen.append(play_out(world, chosen))
        fresh_best.append(play_out(world, best))
        if len(fresh_weights) >= len(weights):
            break
    if not sum(fresh_weights):
        fresh_weights = [1.0] * len(fresh_weights)
    loss = max(0.0, _mean(fresh_chosen, fresh_weights) - _mean(fresh_best, fresh_weights))
    error = _paired_error(fresh_chosen, fresh_best, fresh_weights)
    return best, expected, loss, error, len(weights) + len(fresh_weights)


def _mean(xs: list[float], weights: list[float]) -> float:
    return sum(w * x for w, x in zip(weights, xs)) / sum(weights[:len(xs)])


def _paired_error(a: list[float], b: list[float], weights: list[float]) -> float:
    """Standard error of the weighted mean of ``a - b`` over the deals both were played in
    (the first ``min(len(a), len(b))``; effective number of deals)."""
    weights = weights[:min(len(a), len(b))]
    total = sum(weights)
    if not total:
        return 0.0
    n_eff = total * total / sum(w * w for w in weights)
    d = [x - y for x, y in zip(a, b)]
    m = sum(w * x for w, x in zip(weights, d)) / total
    var = sum(w * (x - m) ** 2 for w, x in zip(weights, d)) / total
    return (var / (n_eff - 1)) ** 0.5 if n_eff > 1 else 0.0


def _prune(values, weights, active, chosen):
    """The options not clearly worse than the best so far, and the chosen one."""
    total = sum(weights) or 1.0

    def mean(xs):
        return sum(w * x for w, x in zip(weights, xs)) / total

    best = min(active, key=lambda i: mean(values[i]))
    keep = []
    for i in active:
        if i in (best, chosen):
            keep.append(i)
            continue
        gap = mean(values[i]) - mean(values[best])
        if gap - PRUNE_Z * _paired_error(values[i], values[best], weights) <= 0:
            keep.append(i)
    return keep


# ---------------------------------------------------------------------------------
# Each kind of decision
# ---------------------------------------------------------------------------------


def _phase_of(view, card: Card) -> str:
    if not view.current_trick:
        return "leading"
    return "following" if card.suit == view.current_trick[0][1].suit else "discarding"


def play_options(view) -> list[int]:
    """The cards worth comparing for the seat to play (Hard's candidates: of cards next to
    each other in rank, with no card still out between them, only the lowest)."""
    return hard.candidates(Knowledge.from_view(view), card_mask(view.legal))


def _option_of(options: list[int], card: int) -> int:
    """The option standing for ``card``: itself, or the lowest card of its run."""
    same_suit = [i for i, c in enumerate(options) if c // 13 == card // 13 and c <= card]
    return max(same_suit, key=lambda i: options[i])


def analyse_play(view, card: "Card | str", seed: int = 0, effort: int = ANALYSIS_EFFORT,
                 ply: int = 0) -> "Decision | None":
    """The verdict on playing ``card`` from ``view`` (None when every legal card is the same:
    no real choice)."""
    card = card if isinstance(card, Card) else Card.parse(card)
    k = Knowledge.from_view(view)
    options = hard.candidates(k, k.legal)
    if len(options) <= 1:
        return None
    chosen = _option_of(options, card.index)
    rules = view.rules
    scores = list(view.scores)
    me = k.me
    cfg = k.cfg
    exact = k.deal.tricks >= cfg.tricks_per_deal - hard.EXACT_FROM and cfg.players <= hard.EXACT_PLAYERS
    rng = random.Random(seed)

    def worlds():
        while True:
            hands, kitty = sample(k, rng)
            world = k.deal.filled(hands, kitty)
            yield world, hard.likelihood(k, world)

    def play_out(world, i):
        return _even_share(hard.rollout(world.copy(), rules, scores, options[i], exact), me)

    cost = max(sum(view.hand_sizes) + len(k.deal.trick), 1)
    best, expected, loss, error, used = _compare(worlds(), play_out, options, chosen, cost, effort)
    best_card = Card.from_index(options[best])
    return Decision(
        ply=ply, deal=view.deal_number, kind="play",
        phase=_phase_of(view, card), chosen=str(card),
        best=str(card if best == chosen else best_card),
        expected=round(expected, 3),
        loss=round(loss, 3), error=round(error, 3),
        verdict=verdict(loss, error, best == chosen),
        reason=hints.reason_for(view, best_card if best != chosen else card), worlds=used,
    )


def analyse_pass(view, cards, seed: int = 0, effort: int = ANALYSIS_EFFORT, ply: int = 0) -> "Decision | None":
    """The verdict on passing ``cards`` from ``view``, against Medium's best passes: the
    other hands dealt at random from the unseen cards, the others pass a quick guess, and
    the deal is played out (as Hard passes)."""
    chosen_mask = card_mask(Card.parse(c) if isinstance(c, str) else c for c in cards)
    cfg = kernel.config(view.rules)
    hand = card_mask(view.hand)
    if view.pass_target is None:
        return None
    options = [m for m in policy.pass_ranking(cfg, hand, PASS_OPTIONS) if m != chosen_mask]
    options.insert(0, chosen_mask)
    n = view.players
    me = view.seat
    off = view.pass_direction.offset(n)
    rules = view.rules
    scores = list(view.scores)
    first_leader = (view.dealer + 1) % n
    unseen = list(kernel.iter_bits(cfg.deck_mask & ~hand))
    rng = random.Random(seed)

    def worlds():
        hs = cfg.hand_size
        while True:
            rng.shuffle(unseen)
            hands = [0] * n
            rest = iter(unseen)
            for s in range(n):
                if s == me:
                    hands[s] = hand
                else:
                    for _ in range(hs):
                        hands[s] |= 1 << next(rest)
            kitty = sum(1 << c for c in rest)
            passes = [policy.quick_pass(cfg, hands[s]) if s != me else 0 for s in range(n)]
            yield (hands, kitty, passes), 1.0

    def play_out(world, i):
        hands, kitty, passes = world
        passes = list(passes)
        passes[me] = options[i]
        deal = Deal(cfg, [hands[s] & ~passes[s] | passes[(s - off) % n] for s in range(n)], kitty)
        deal.begin(first_leader)
        return _even_share(hard.rollout(deal, rules, scores), me)

    best, expected, loss, error, used = _compare(worlds(), play_out, options, 0, cfg.hand_size * n, effort)
    chosen_text = " ".join(str(c) for c in mask_to_cards(chosen_mask))
    best_cards = list(mask_to_cards(options[best]))
    return Decision(
        ply=ply, deal=view.deal_number, kind="pass", phase="passing", chosen=chosen_text,
        best=" ".join(str(c) for c in best_cards), expected=round(expected, 3),
        loss=round(loss, 3), error=round(error, 3), verdict=verdict(loss, error, best == 0),
        reason=hints.pass_reason(view, best_cards), worlds=used,
    )


def analyse_moon(view, choice: str, ply: int = 0) -> "Decision | None":
    """The verdict on a moon choice: None when both choices lead to the same result (the
    game goes on either way, or ends the same); otherwise a blunder when the other choice
    gives a better result (a win, or a shared win), worth the deal's whole value."""
    options = view.moon_outcomes
    if choice not in options or len(options) < 2:
        return None
    result = {}
    for option, pts in options.items():
        totals = [s + p for s, p in zip(view.scores, pts)]
        result[option] = outcome(view.rules, totals, view.seat)
    if len(set(result.values())) == 1:
        return None
    best = hard.moon_choice(view)
    rank = {None: 0.25, 0.0: 0.0, 0.5: 0.5, 1.0: 1.0}
    lost = rank[result[best]] > rank[result[choice]]
    loss = float(view.rules.deal_value) if lost else 0.0
    return Decision(
        ply=ply, deal=view.deal_number, kind="moon", phase="moon", chosen=choice,
        best=best if lost else choice, expected=0.0, loss=loss, error=0.0,
        verdict="blunder" if lost else "best", reason=hints.moon_reason(view), worlds=0,
    )


# ---------------------------------------------------------------------------------
# A whole game
# ---------------------------------------------------------------------------------


def decisions_of(state: dict, seat: int) -> Iterator[tuple[int, PlayerView, Any]]:
    """``(ply, view, action)`` for each action of ``seat`` in a stored game (``Game.to_dict``),
    the view being the seat's just before it acted."""
    game = Game.from_dict({key: state[key] for key in ("format", "rules", "seed", "setup")} | {"log": []})
    for index, entry in enumerate(state.get("log", ())):
        if entry["seat"] == seat:
            yield index + 1, game.view(seat), entry["action"]
        game.apply(entry["seat"], entry["action"])


def choices_of(state: dict, seat: int) -> Iterator[tuple[int, PlayerView, Any]]:
    """The decisions of ``seat`` with a real choice (see :func:`decisions_of`): every pass,
    a play when more than one card differs, a moon choice that decides the game."""
    for ply, view, action in decisions_of(state, seat):
        if view.phase == "pass":
            real = view.pass_target is not None
        elif view.phase == "moon_choice":
            real = analyse_moon(view, action, ply) is not None
        else:
            real = len(play_options(view)) > 1
        if real:
            yield ply, view, action


def analyse(view, action, seed: int, effort: int = ANALYSIS_EFFORT, ply: int = 0) -> "Decision | None":
    """The verdict on one action of the seat of ``view`` (None: no real choice)."""
    if view.phase == "pass":
        return analyse_pass(view, action, seed, effort, ply)
    if view.phase == "moon_choice":
        return analyse_moon(view, action, ply)
    return analyse_play(view, action, seed, effort, ply)


def analyse_game(state: dict, seat: int, effort: int = ANALYSIS_EFFORT) -> Iterator[Decision]:
    """The verdicts on every decision of ``seat`` with a real choice, in order."""
    for ply, view, action in choices_of(state, seat):
        decision = analyse(view, action, analysis_seed(state["seed"], ply, seat), effort, ply)
        if decision is not None:
            yield decision


def summary(decisions: "list[Decision]", deals: int) -> dict:
    """Accuracy (share of decisions within the noise of the best, in %), expected points
    lost per deal, and both by phase, for ``deals`` deals played.  A decision within the
    noise loses nothing here: summed over a game, the noise of many small estimates would
    add up to points nobody lost.

    >>> d = [Decision(1, 1, "play", "leading", "2C", "2C", 0, 0, 0, "best", "", 32),
    ...      Decision(2, 1, "play", "following", "KS", "2S", 13, 13, 0.5, "blunder", "", 32)]
    >>> summary(d, 1)["accuracy"], summary(d, 1)["lost_per_deal"], summary(d, 1)["phases"]["following"]
    (50.0, 13.0, {'decisions': 1, 'accuracy': 0.0, 'lost': 13.0})
    """
    def figures(ds):
        return {
            "decisions": len(ds),
            "accuracy": round(100 * sum(d.within_noise for d in ds) / len(ds), 1) if ds else None,
            "lost": round(float(sum(d.loss for d in ds if not d.within_noise)), 2),
        }

    phases = {}
    for phase in ("passing", "leading", "following", "discarding", "moon"):
        chosen = [d for d in decisions if d.phase == phase]
        if chosen:
            phases[phase] = figures(chosen)
    lost_by_deal: dict[int, float] = {}
    for d in decisions:
        lost_by_deal[d.deal] = lost_by_deal.get(d.deal, 0.0) + (0.0 if d.within_noise else d.loss)
    whole = figures(decisions)
    return {
        "deals": deals,
        "accuracy": whole["accuracy"],
        "lost_per_deal": round(whole["lost"] / deals, 2) if deals else None,
        "lost_by_deal": {deal: round(lost, 2) for deal, lost in sorted(lost_by_deal.items())},
        "counts": {v: sum(d.verdict == v for d in decisions) for v in VERDICTS},
        "phases": phases,
    }
