"""Shared helpers for the engine tests (not a conftest: the lead owns pytest config)."""

from __future__ import annotations

from hypothesis import strategies as st

from games.engine import FULL_DECK, Card, Game, Rules, parse_cards
from games.engine import rules as rules_module
from hearts_site import compiled

#: the fields of ``games.engine.kernel.Deal``: its ``__slots__``, read from the source, since
#: the compiled kernel keeps none (``hearts_site.compiled``)
DEAL_FIELDS: tuple[str, ...] = compiled.load_source("games/engine/kernel.py").Deal.__slots__


def any_rules(*, target=st.sampled_from([26, 50, 100])) -> st.SearchStrategy[Rules]:
    """Rules with every house rule drawn from the options ``Rules`` itself checks against, so
    a rule added there is drawn here too."""
    return st.builds(
        Rules,
        players=st.integers(3, 6),
        target=target,
        **{name: st.sampled_from(options) for name, options in rules_module._CHOICES.items()},
        **{name: st.booleans() for name in rules_module._BOOLS},
    )


def deal_with(rules: Rules, fixed: dict[int, str], *, kitty: str | None = None, order=None) -> list[list[Card]]:
    """Hands for every seat: ``fixed`` seats get those cards (a partial hand is filled up);
    the rest of the deck is dealt round-robin, in sorted order, to seats with room.

    ``order``: optional list of seats for the round-robin (default ascending).
    """
    n = rules.players
    hands: list[list[Card]] = [[] for _ in range(n)]
    used = set(rules.removed)
    for seat, text in fixed.items():
        hands[seat] = parse_cards(text)
        used |= set(hands[seat])
    kcards = parse_cards(kitty) if kitty else []
    used |= set(kcards)
    rest = [c for c in FULL_DECK if c not in used]
    if rules.kitty_size and not kitty:
        kcards, rest = rest[-rules.kitty_size:], rest[:-rules.kitty_size]
    # fill every seat that has room (fixed seats may be partial), round-robin
    free = [s for s in (order or range(n))]
    i = 0
    for c in rest:
        for _ in range(n + 1):
            seat = free[i % len(free)]
            i += 1
            if len(hands[seat]) < rules.hand_size:
                break
        else:
            raise AssertionError("too many cards for the hands")
        hands[seat].append(c)
    assert all(len(h) == rules.hand_size for h in hands), [len(h) for h in hands]
    return hands


def new_game(rules: Rules, fixed: dict[int, str] | None = None, **kw) -> Game:
    kitty = kw.pop("kitty", None)
    hands = deal_with(rules, fixed or {}, kitty=kitty)
    # with kitty=None, Game.new takes the cards no seat holds as the kitty
    return Game.new(rules, hands=hands, kitty=kitty, **kw)


def play(game: Game, cards: str) -> list[dict]:
    """Play the cards in order, each by the seat to act; return all events."""
    events = []
    for c in parse_cards(cards):
        assert game.phase == "play", game
        events += game.apply(game.to_act[0], c)
    return events


def play_out(game: Game, rng, stop_at_deal_end: bool = True) -> list[dict]:
    """Finish the current deal (or the game) with random legal actions.

    Stopping at the deal's end also stops before a moon choice (the test makes it).
    """
    deal = game.deal_number
    events = []
    while game.phase != "over" and (not stop_at_deal_end or game.deal_number == deal):
        if stop_at_deal_end and game.phase == "moon_choice":
            break
        seat = game.to_act[0] if game.phase != "pass" else rng.choice(game.to_act)
        legal = game.legal(seat)
        if game.phase == "pass":
            events += game.apply(seat, rng.sample(legal, 3))
        elif game.phase == "moon_choice":
            events += game.apply(seat, rng.choice(legal))
        else:
            events += game.apply(seat, rng.choice(legal))
    return events


def strs(cards) -> str:
    return " ".join(str(c) for c in cards)
