"""Play rules from concrete positions: leading, following, breaking hearts, first trick."""

import pytest

from games.engine import Card, Game, IllegalAction, Rules, Suit, parse_cards

from .helpers import new_game, play, play_out, strs

NO_PASS = Rules(passing="none")

# Four fixed hands (4 players) used by several tests.
H0 = "2C AC 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H"
H1 = "3C 4C 5C 6C 7C 7D 8D 9D TD 2S 3S 4S 8H"
H2 = "8C 9C TC JC QC JD QD KD AD 5S 6S 7S 9H"
H3 = "KC 8S 9S TS JS QS KS AS TH JH QH KH AH"


def fixed(rules=NO_PASS, **kw) -> Game:
    return Game.new(rules, hands=[H0, H1, H2, H3], **kw)


def legal(g, seat=None):
    return strs(g.legal(g.to_act[0] if seat is None else seat))


# -- worked example 1 ------------------------------------------------------------------


def test_worked_example_1_first_trick():
    # South = seat 0, West = 1, North = 2, East = 3 (clockwise)
    south = "AS QS 7S 3S KD JD 8D 4D AH TH 9H 6H 2H"
    rules = NO_PASS
    rest = [c for c in Rules().deck if c not in set(parse_cards(south))]
    west, north, east = rest[0::3], rest[1::3], rest[2::3]
    g = Game.new(rules, hands=[parse_cards(south), west, north, east])
    assert g.to_act == (1,) and g.legal(1) == [Card.parse("2C")]
    play(g, "2C")
    assert g.legal(2) and all(c.suit == "C" for c in g.legal(2))
    g.apply(2, g.legal(2)[0])
    g.apply(3, g.legal(3)[0])
    assert g.to_act == (0,)
    assert sorted(g.legal(0)) == sorted(parse_cards("AS 7S 3S KD JD 8D 4D"))
    assert g.why_illegal(0, "QS") == "No points on the first trick."
    assert g.why_illegal(0, "AH") == "No points on the first trick."
    assert g.why_illegal(0, "7S") is None


# -- the first lead --------------------------------------------------------------------


def test_two_of_clubs_leads_and_must_be_led():
    g = fixed()
    assert g.phase == "play" and g.to_act == (0,) and g.leader == 0
    assert legal(g) == "2C"
    assert g.why_illegal(0, "AC") == "The first trick must be led with the 2♣."
    with pytest.raises(IllegalAction, match="must be led with the 2♣"):
        g.apply(0, "2D")


@pytest.mark.parametrize("players,low", [(3, "2C"), (5, "3C"), (6, "4C")])
def test_lowest_club_in_play_leads(players, low):
    rules = Rules(players=players, passing="none")
    g = new_game(rules, {2: low})
    assert g.to_act == (2,) and legal(g) == low


def test_lowest_club_not_in_kitty():
    rules = Rules(players=5, odd_cards="kitty", passing="none")
    g = new_game(rules, {3: "3C"}, kitty="2C 9D")
    assert g.kitty == tuple(parse_cards("2C 9D"))
    assert g.to_act == (3,) and legal(g) == "3C"
    v = g.view(0)
    assert v.kitty == () and v.kitty_size == 2


def test_old_style_lead_left_of_dealer():
    rules = Rules(passing="none", lead="left_of_dealer")
    g = fixed(rules, dealer=2)
    assert g.to_act == (3,)
    # no points on the first trick: spades other than the queen, or the club
    assert legal(g) == "KC 8S 9S TS JS KS AS"
    assert g.why_illegal(3, "QS").startswith("No points on the first trick")
    g2 = fixed(rules, dealer=3)
    assert g2.to_act == (0,) and legal(g2) == "2C AC 2D 3D 4D 5D 6D"
    g2.apply(0, "AC")  # any non-point card may lead
    assert g2.to_act == (1,) and legal(g2) == "3C 4C 5C 6C 7C"


def test_old_style_lead_points_allowed_still_no_unbroken_hearts():
    rules = Rules(passing="none", lead="left_of_dealer", first_trick_points=True)
    g = fixed(rules, dealer=2)
    assert legal(g) == "KC 8S 9S TS JS QS KS AS"
    assert g.why_illegal(3, "AH") == "Hearts are not broken yet — lead another suit."


def test_old_style_lead_only_hearts_and_queen():
    # the no-points rule is the more specific: a heart, not the queen
    hand = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    g = new_game(Rules(passing="none", lead="left_of_dealer"), {1: hand}, dealer=0)
    assert g.to_act == (1,) and legal(g) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    events = g.apply(1, "2H")
    assert [e["type"] for e in events] == ["card_played", "hearts_broken"]
    # with points allowed, the breaking-hearts rule decides: the queen
    g = new_game(Rules(passing="none", lead="left_of_dealer", first_trick_points=True), {1: hand})
    assert legal(g) == "QS"


def test_old_style_lead_follows_the_dealer_round():
    import random

    g = Game.new(Rules(passing="none", lead="left_of_dealer"), seed=3, dealer=1)
    assert g.to_act == (2,) and g.leader == 2
    assert all(c.suit != "H" and str(c) != "QS" for c in g.legal(2))
    play_out(g, random.Random(0))
    assert g.deal_number == 2 and g.dealer == 2 and g.to_act == (3,)


# -- following -------------------------------------------------------------------------


def test_must_follow_suit():
    g = fixed()
    play(g, "2C")
    assert legal(g) == "3C 4C 5C 6C 7C"
    assert g.why_illegal(1, "7D") == "You must follow clubs."
    with pytest.raises(IllegalAction, match="^You must follow clubs.$"):
        g.apply(1, "7D")
    play(g, "3C 8C KC")
    # seat 3 wins the trick and leads; follow spades
    assert g.to_act == (3,) and g.leader == 3
    play(g, "8S")
    assert g.to_act == (0,) and legal(g) == "AC 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H"  # void: anything
    play(g, "2D")
    assert legal(g) == "2S 3S 4S"
    assert g.why_illegal(1, "8H") == "You must follow spades."


def test_highest_of_suit_led_wins_offsuit_never_wins():
    g = fixed()
    play(g, "2C 7C QC KC")
    assert g.tricks[-1].winner == 3
    play(g, "8S 6D")  # seat 0 has no spades: discards a diamond, which cannot win
    g.apply(1, "2S")
    g.apply(2, "5S")
    t = g.tricks[-1]
    assert t.winner == 3 and t.leader == 3 and strs(t.cards) == "8S 6D 2S 5S"
    assert t.plays == ((3, Card.parse("8S")), (0, Card.parse("6D")), (1, Card.parse("2S")), (2, Card.parse("5S")))
    assert g.tricks_taken[3] == g.tricks
    assert g.leader == 3 and g.to_act == (3,)


def test_trick_winner_not_leader():
    g = fixed()
    play(g, "2C 3C 8C KC")
    play(g, "8S 2D 4S 7S")  # 8S leads, nothing higher
    assert g.tricks[1].winner == 3
    play(g, "9S 3D 3S 6S")
    play(g, "AS 4D 2S 5S")
    assert g.to_act == (3,)
    play(g, "JS 5D 8H")  # seat 1 void in spades now (2S 3S 4S gone): discards 8H
    assert g.view(0).voids[1] == frozenset({Suit.SPADES})
    play(g, "9H")
    assert g.tricks[-1].winner == 3


# -- breaking hearts -------------------------------------------------------------------


def test_cannot_lead_hearts_until_broken():
    g = fixed()
    play(g, "2C 3C 8C KC")
    assert g.to_act == (3,)
    assert legal(g) == "8S 9S TS JS QS KS AS"
    assert g.why_illegal(3, "AH") == "Hearts are not broken yet — lead another suit."
    with pytest.raises(IllegalAction, match="Hearts are not broken yet"):
        g.apply(3, "AH")
    assert not g.hearts_broken


def test_heart_discard_breaks_hearts():
    g = fixed()
    play(g, "2C 3C 8C KC QS")
    events = g.apply(0, "2H")
    assert {"type": "hearts_broken", "seat": 0, "card": "2H"} in events
    assert g.hearts_broken
    play(g, "2S 5S")
    assert g.to_act == (3,) and "AH" in legal(g)
    assert g.points_taken == (0, 0, 0, 14)


def test_queen_does_not_break_hearts_by_default():
    g = fixed()
    play(g, "2C 3C 8C KC QS 2D 2S 5S")
    assert not g.hearts_broken and g.to_act == (3,)
    assert "AH" not in legal(g)


def test_queen_breaks_hearts_house_rule():
    g = fixed(Rules(passing="none", hearts_lead="queen_breaks"))
    play(g, "2C 3C 8C KC")
    events = g.apply(3, "QS")
    assert any(e["type"] == "hearts_broken" for e in events) and g.hearts_broken
    play(g, "2D 2S 5S")
    assert "AH" in legal(g)


def test_hearts_may_be_led_any_time_house_rule():
    g = fixed(Rules(passing="none", hearts_lead="any"))
    play(g, "2C 3C 8C KC")
    assert legal(g) == "8S 9S TS JS QS KS AS TH JH QH KH AH"
    assert g.why_illegal(3, "AH") is None


def test_only_hearts_may_lead_a_heart():
    # seat 3 ends up holding only hearts before hearts are broken
    h3 = "KC TH JH QH KH AH 2H 3H 4H 5H 6H 7H 8H"
    g = new_game(NO_PASS, {0: "2C", 3: h3})
    play(g, "2C")
    while g.to_act != (3,):
        g.apply(g.to_act[0], g.legal(g.to_act[0])[0])
    g.apply(3, "KC")
    assert g.tricks[0].winner == 3 and g.to_act == (3,)
    assert not g.hearts_broken
    assert legal(g) == "2H 3H 4H 5H 6H 7H 8H TH JH QH KH AH"
    events = g.apply(3, "AH")
    assert events[1]["type"] == "hearts_broken"


# -- no points on the first trick --------------------------------------------------------


def test_no_points_on_first_trick_void_in_clubs():
    g = new_game(NO_PASS, {0: "2C", 3: "QS 2S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert legal(g) == "2S"
    assert g.why_illegal(3, "QS") == "No points on the first trick."
    with pytest.raises(IllegalAction, match="^No points on the first trick"):
        g.apply(3, "2H")


def test_first_trick_only_hearts_and_queen_must_play_heart():
    g = new_game(NO_PASS, {0: "2C", 3: "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert legal(g) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    msg = g.why_illegal(3, "QS")
    assert msg.startswith("No points on the first trick") and "heart, not the queen of spades" in msg
    events = g.apply(3, "KH")
    assert any(e["type"] == "hearts_broken" for e in events)


def test_first_trick_only_hearts():
    g = new_game(NO_PASS, {0: "2C", 3: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert len(g.legal(3)) == 13


def test_first_trick_points_allowed_house_rule():
    g = new_game(Rules(passing="none", first_trick_points=True),
                 {0: "2C", 3: "QS 2S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert len(g.legal(3)) == 13
    g.apply(3, "QS")
    assert g.points_taken[g.tricks[0].winner] == 13


def test_black_maria_spades_are_point_cards_on_first_trick():
    rules = Rules(passing="none", black_maria=True)
    g = new_game(rules, {0: "2C", 3: "KS AS 3D 2H 3H 4H 5H 6H 7H 8H 9H TH JH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert legal(g) == "3D"
    g = new_game(rules, {0: "2C", 3: "KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert legal(g) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    assert "play a heart, not the K♠" in g.why_illegal(3, "KS")


def test_jack_of_diamonds_allowed_on_first_trick():
    rules = Rules(passing="none", jack_of_diamonds=True)
    g = new_game(rules, {0: "2C", 3: "JD QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"})
    play(g, "2C")
    g.apply(1, g.legal(1)[0])
    g.apply(2, g.legal(2)[0])
    assert legal(g) == "JD"


def test_second_trick_allows_points():
    g = fixed()
    play(g, "2C 3C 8C KC QS")
    assert "2H" in legal(g)  # seat 0 void in spades on trick 2: hearts allowed


# -- turn, seat and action errors ------------------------------------------------------


def test_not_your_turn_and_bad_seat():
    g = fixed()
    assert g.why_illegal(2, "8C") == "It is not your turn — waiting for seat 0."
    with pytest.raises(IllegalAction, match="^It is not your turn — waiting for seat 0.$"):
        g.apply(2, "8C")
    with pytest.raises(IllegalAction, match="no seat"):
        g.apply(4, "2C")
    with pytest.raises(IllegalAction, match="no seat"):
        g.apply(-1, "2C")
    assert g.legal(2) == [] and g.legal(9) == []


def test_dont_hold_and_bad_card_text():
    g = fixed()
    assert g.why_illegal(0, "5H") is not None
    play(g, "2C")
    assert g.why_illegal(1, "5H") == "You don't hold 5♥."
    with pytest.raises(IllegalAction, match="^You don't hold 5♥.$"):
        g.apply(1, "5H")
    with pytest.raises(IllegalAction, match="Not a card"):
        g.apply(1, "ZZ")
    with pytest.raises(IllegalAction):
        g.apply(1, ["3C"])
    assert isinstance(IllegalAction("x"), ValueError)


def test_illegal_action_leaves_game_unchanged():
    g = fixed()
    play(g, "2C")
    before = g.to_dict()
    for bad in ("7D", "5H", "ZZ", "2C", ["3C", "4C", "5C"], "add"):
        with pytest.raises(IllegalAction):
            g.apply(1, bad)
    for seat in (0, 2, 3):
        with pytest.raises(IllegalAction):
            g.apply(seat, "3C")
    assert g.to_dict() == before and g.ply == 1


def test_card_or_string_both_accepted():
    g = fixed()
    g.apply(0, Card.parse("2C"))
    g.apply(1, "3c")
    g.apply(2, "10C")
    assert strs(c for _, c in g.current_trick) == "2C 3C TC"


def test_stale_ply_rejected():
    g = fixed()
    g.apply(0, "2C", ply=0)
    with pytest.raises(IllegalAction, match="out of date"):
        g.apply(1, "3C", ply=0)
    g.apply(1, "3C", ply=1)
    assert g.ply == 2


# -- events ----------------------------------------------------------------------------


def test_events_of_a_trick():
    g = fixed()
    assert g.apply(0, "2C") == [{"type": "card_played", "seat": 0, "card": "2C", "deal": 1, "trick": 1}]
    play(g, "3C 8C")
    events = g.apply(3, "KC")
    assert events[-1] == {"type": "trick_won", "seat": 3, "deal": 1, "trick": 1,
                          "cards": ["2C", "3C", "8C", "KC"], "points": 0}


def test_voids_are_public_and_only_from_not_following():
    g = fixed()
    play(g, "2C 3C 8C KC 8S 2D")
    v = g.view(1)
    assert v.voids[0] == frozenset({Suit.SPADES}) and v.voids[1] == frozenset()
    assert v.voids == g.view(3).voids
