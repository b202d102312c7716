"""What a seat knows, as bitmasks: the bridge from a :class:`PlayerView` to the rules kernel.

A :class:`Knowledge` is built from a view only (a bot never sees a ``Game``):

- ``deal``: the deal as the kernel's :class:`~games.engine.kernel.Deal`, with the seat's
  own hand and the other hands empty (unknown): its ``played`` (every card out of play
  this deal, a kitty once taken included), ``trick``, ``leader``, ``taken``, ``legal``;
  ``hand``: the seat's own cards;
- ``known``: per seat, cards we know it holds — the three we passed it, until played;
- ``allowed``: per seat, the cards it may still hold given what the table has shown:
  suits it did not follow (``view.voids``), a heart led before hearts were broken (it held
  only hearts), a point card thrown on the first trick under the no-points rule (it held
  only point cards besides the suit led);
- ``unknown``: cards whose place we do not know (other hands and an unseen kitty).

>>> from games.engine import Game, Rules
>>> g = Game.new(Rules(passing="none"), seed=4)
>>> k = Knowledge.from_view(g.view(0))
>>> k.hand.bit_count(), k.unknown.bit_count(), k.capacity
(13, 39, [0, 13, 13, 13, 0])
"""

from __future__ import annotations

from typing import Any

from games.engine import kernel
from games.engine.kernel import HEARTS, SUIT_MASKS, Deal

__all__ = ["Knowledge", "card_mask"]


def card_mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


class Knowledge:
    """Bitmask summary of one seat's view of the current deal (see module doc)."""

    __slots__ = (
        "view", "cfg", "n", "me", "hand", "deal", "known", "allowed", "unknown", "capacity",
        "kitty_unknown",
    )
    view: Any  # a PlayerView
    cfg: kernel.Config
    n: int
    me: int
    hand: int
    deal: Deal
    known: list[int]
    allowed: list[int]
    unknown: int
    capacity: list[int]
    kitty_unknown: int

    @classmethod
    def from_view(cls, view) -> "Knowledge":
        k = object.__new__(cls)
        rules = view.rules
        cfg = kernel.config(rules)
        n = view.players
        me = view.seat
        k.view = view
        k.cfg = cfg
        k.n = n
        k.me = me
        k.hand = card_mask(view.hand)
        taken = [0] * n
        for t in view.tricks:
            m = 0
            for _, c in t.plays:
                m |= 1 << c.index
            taken[t.winner] |= m
        kitty_seen = card_mask(view.kitty)
        if kitty_seen:
            taken[view.kitty_taker] |= kitty_seen
        hands = [0] * n
        hands[me] = k.hand
        leader = view.leader if view.leader is not None else me
        k.deal = d = Deal.at(cfg, hands, taken, [c.index for _, c in view.current_trick], leader,
                             view.hearts_broken)
        played = d.played
        # cards we know are in another seat's hand: what we passed, until played
        known = [0] * n
        if view.passed and view.pass_target is not None and view.phase != "pass":
            known[view.pass_target] = card_mask(view.passed) & ~played
        k.known = known
        allowed = [cfg.deck_mask] * n
        for s in range(n):
            for suit in view.voids[s]:
                allowed[s] &= ~SUIT_MASKS[suit.index]
        cls._infer(k, view, cfg, allowed)
        k.allowed = allowed
        kitty_unknown = view.kitty_size if (view.kitty_size and not view.kitty) else 0
        k.kitty_unknown = kitty_unknown
        out = cfg.deck_mask & ~k.hand & ~played & ~kitty_seen
        for s in range(n):
            out &= ~known[s]
        k.unknown = out
        # capacity per seat (index n is the kitty)
        cap = [0] * (n + 1)
        for s in range(n):
            if s != me:
                cap[s] = view.hand_sizes[s] - known[s].bit_count()
        cap[n] = kitty_unknown
        k.capacity = cap
        return k

    @staticmethod
    def _infer(k, view, cfg, allowed) -> None:
        """Narrow ``allowed`` from plays that reveal a hand (beyond not following suit)."""
        broken = False
        tricks = [t.plays for t in view.tricks]
        if view.current_trick:
            tricks.append(view.current_trick)
        nfp = cfg.no_first_points
        for ti, plays in enumerate(tricks):
            first = ti == 0
            led = plays[0][1].index // 13
            for i, (seat, card) in enumerate(plays):
                c = card.index
                bit = 1 << c
                if i == 0:
                    if c // 13 == 3:
                        if first and nfp:
                            # led a heart to the first trick: held only point cards
                            allowed[seat] &= cfg.first_points_mask
                        elif not broken and not cfg.hearts_any:
                            # led a heart before hearts were broken: held only hearts
                            allowed[seat] &= HEARTS
                elif first and nfp and c // 13 != led and bit & cfg.first_points_mask:
                    # threw a point card on the first trick: held only point cards,
                    # and no heart if it was a spade
                    keep = cfg.first_points_mask
                    if c // 13 != 3:
                        keep &= ~HEARTS
                    allowed[seat] &= keep
                if bit & cfg.breaks_mask:
                    broken = True

    # -- helpers ---------------------------------------------------------------------

    @property
    def outstanding(self) -> int:
        """Cards not played and not in my hand (in other hands or the kitty)."""
        return self.cfg.deck_mask & ~self.deal.played & ~self.hand

    @property
    def legal(self) -> int:
        return self.deal.legal if self.view.phase == "play" else 0
