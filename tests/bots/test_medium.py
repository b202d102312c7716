"""Medium's rules: passing, ducking, dumping, leading, the moon."""

from games import bots
from games.bots import policy, standing
from games.engine import Card, Game, Rules, parse_cards
from games.engine.kernel import Deal, config, mask_of

from .helpers import DUCK_HANDS, MOON_HANDS

C = Card.parse


def _position(me: int, hand: int, taken, trick=(), leader=None, broken=False) -> Deal:
    """Seat ``me`` to play holding ``hand`` (the other hands unknown), after ``taken``."""
    hands = [0] * 4
    hands[me] = hand
    d = Deal.at(config(Rules()), hands, taken, [C(c).index for c in trick], me if leader is None else leader,
                broken)
    assert d.turn == me
    return d


def _pass_view(hand: str, rules=Rules()):
    """A pass-phase view for seat 0 holding ``hand`` (the other cards dealt to the rest)."""
    mine = parse_cards(hand)
    rest = [c for c in rules.deck if c not in mine]
    hs = rules.hand_size
    hands = [mine] + [rest[i * hs:(i + 1) * hs] for i in range(rules.players - 1)]
    return Game.new(rules, hands=hands).view(0)


def test_passes_the_queen_when_short_in_spades():
    v = _pass_view("QS 4S 2S AC 9C 5C KD 8D 3D TH 7H 4H 2H")
    action = bots.choose_action(v, "medium")
    assert C("QS") in action and len(action) == 3
    h = bots.hint(v)
    assert C("QS") in h.action and "queen" in h.reason and "two" in h.reason


def test_keeps_the_queen_with_long_spades():
    v = _pass_view("QS 2S 3S 5S 7S 9S AC 9C 5C KD 8D 3D 2H")
    assert C("QS") not in bots.choose_action(v, "medium")


def test_passes_high_spades_without_the_queen_when_short():
    v = _pass_view("AS KS 3S 2C 4C 6C 8C 5D 7D 9D 3H 5H 7H")
    assert {C("AS"), C("KS")} <= set(bots.choose_action(v, "medium"))


def test_voids_a_short_suit():
    v = _pass_view("KD 9D 2C 3C 4C 5C 2S 3S 4S 5S 2H 3H 4H")
    action = set(bots.choose_action(v, "medium"))
    assert {C("KD"), C("9D")} <= action


def test_passes_high_hearts():
    v = _pass_view("AH KH QH 2H 2C 3C 4C 2D 3D 4D 2S 3S 4S")
    assert set(bots.choose_action(v, "medium")) == {C("AH"), C("KH"), C("QH")}


def _duck_game():
    g = Game.new(Rules(passing="none"), hands=DUCK_HANDS)
    g.apply(0, "2C")
    g.apply(1, "KC")
    return g


def test_ducks_with_the_highest_card_that_loses():
    g = _duck_game()
    v = g.view(2)
    assert bots.choose_action(v, "medium") == C("QC")  # 5C 9C QC under the king, not AC
    h = bots.hint(v)
    assert h.action in v.legal and h.reason


def test_dumps_the_queen_when_void():
    g = _duck_game()
    g.apply(2, "QC")
    g.apply(3, "AS")  # void in clubs, no points on the first trick
    assert g.turn == 1
    g.apply(1, "9D")
    g.apply(2, "6S")
    v = g.view(3)  # void in diamonds, holds the queen
    assert bots.choose_action(v, "medium") == C("QS")
    from games.bots.hints import _describe
    from games.bots.state import Knowledge

    assert _describe(v, Knowledge.from_view(v), C("QS"), None) == "Dump the queen of spades: you are void in diamonds"
    h = bots.hint(v)
    assert h.action in v.legal and "void in diamonds" in h.reason


def test_dumps_a_high_heart_when_void_without_the_queen():
    d = _position(1, mask_of("2H 9H KH 3S"), [mask_of("2C 3C 4C 5C QS"), 0, 0, 0], ["5D"], leader=0,
                  broken=True)
    assert policy.play(d) == C("KH").index


def test_leads_low():
    d = _position(0, mask_of("3D KD 7C AC 9S"), [mask_of("2C 4C 5C 6C"), 0, 0, 0])
    card = policy.play(d)
    assert Card.from_index(card) in (C("3D"), C("7C"))


def test_avoids_taking_the_queen():
    # spades led with the 9, queen still out: play under the queen, not the ace
    d = _position(2, mask_of("AS TS 4D"), [0, mask_of("2C 3C 4C 5C"), 0, 0], ["9S"], leader=1)
    assert policy.play(d) == C("TS").index


def test_takes_a_safe_trick_last_with_a_high_card():
    d = _position(3, mask_of("AD 4D 2S"), [mask_of("2C 3C 4C 5C"), 0, 0, 0], ["5D", "7D", "9D"], leader=0)
    assert policy.play(d) == C("AD").index


def test_blocks_an_obvious_moon():
    # seat 1 took the queen and six hearts; the others took nothing with points
    taken = [mask_of("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"), mask_of("QS 2H 3H 4H 5H 6H 7H"),
             mask_of("2D 3D 4D 5D 6D 7D 8D 9D TD"), 0]
    # seat 1 leads the 9 of hearts; we can win it with the ace: take it, the moon is off
    d = _position(2, mask_of("AH 8H 2S 3S"), taken, ["9H"], leader=1, broken=True)
    why = []
    card = policy.play(d, why)
    assert card == C("AH").index and why == [policy.Reason.BLOCK_TAKE]


def test_takes_the_moon_when_certain():
    # we took every point so far and every card we hold is the best left in its suit
    taken = [mask_of("QS 2H 3H 4H 5H 6H 7H 8H"), 0,
             mask_of("2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 5D 6D 7D 8D 9D"), 0]
    d = _position(0, mask_of("AH KH QH AD"), taken, broken=True)
    why = []
    card = policy.play(d, why)
    assert why == [policy.Reason.SHOOT] and card in (C("AH").index, C("KH").index, C("QH").index, C("AD").index)


def test_moon_choice_follows_the_standing():
    # rules.md example 2: subtracting gives 36, 40, 55, 48; adding gives 62, 66, 81, 74
    r = Rules(moon="choose", passing="none")
    g = Game.new(r, hands=MOON_HANDS, scores=[62, 40, 55, 48])
    while g.phase == "play":
        g.apply(g.to_act[0], bots.choose_action(g.view(g.to_act[0]), "medium"))
    assert g.phase == "moon_choice"
    assert bots.choose_action(g.view(0), "medium") == "subtract"
    assert bots.hint(g.view(0)).action == "subtract"
    # adding ends the game with us lowest: add
    g = Game.new(r, hands=MOON_HANDS, scores=[30, 80, 85, 90])
    while g.phase == "play":
        g.apply(g.to_act[0], bots.choose_action(g.view(g.to_act[0]), "medium"))
    assert bots.choose_action(g.view(0), "medium") == "add"
    assert bots.choose_action(g.view(0), "hard") == "add"
    g.apply(0, "add")
    assert g.is_over and g.winners == (0,)


def test_moon_choice_avoids_ending_the_game_behind():
    r = Rules(moon="choose")
    # adding would push seat 1 past 100 while seat 2 is lowest: subtract
    assert standing.moon_choice(r, [70, 80, 20, 60], 0, {"subtract": [-26, 0, 0, 0], "add": [0, 26, 26, 26]}) == "subtract"


def test_medium_beats_easy_on_a_few_deals():
    from games.bots import arena

    res = arena.run(["medium", "easy", "easy", "easy"], 12, seed=5)
    s = arena.summarize(res)
    assert s["medium"]["mean"] < s["easy"]["mean"]
