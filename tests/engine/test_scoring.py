"""Scoring, the moon, Omnibus, Black Maria, the kitty, and the end of the game."""

import random

import pytest

from games.engine import Game, IllegalAction, Rules, game_winners, parse_cards

from .helpers import new_game, play, play_out

# A deal in which seat 0 shoots the moon while seat 1 takes the jack of diamonds:
#   trick 1: 2C (0) AC (1) JD (2) 7S (3)  -> seat 1, no points, the jack
#   trick 2: 3C (1) AD (2) 8S (3) KC (0)  -> seat 0
#   then seat 0 leads clubs and its top spades and wins every trick, whatever is played.
MOON_HANDS = [
    "2C 4C 5C 6C 7C 8C 9C TC JC QC KC AS KS",
    "AC 3C 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD",
    "JD AD 2S 3S 4S 5S 6S 2H 3H 4H 5H 6H 7H",
    "7S 8S 9S TS JS QS 8H 9H TH JH QH KH AH",
]


def moon_game(rules: Rules, scores=None, rng_seed=0) -> tuple[Game, list]:
    g = Game.new(rules, hands=MOON_HANDS, scores=scores)
    events = play(g, "2C AC JD 7S 3C AD 8S KC")
    assert g.tricks[0].winner == 1 and g.tricks[1].winner == 0
    events += play_out(g, random.Random(rng_seed)) if g.phase == "play" else []
    return g, events


def scored(events):
    return [e for e in events if e["type"] == "deal_scored"]


# -- plain scoring -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_a_deal_is_worth_26(seed):
    g = Game.new(Rules(), seed=seed)
    events = play_out(g, random.Random(seed))
    (s,) = scored(events)
    tricks = [e for e in events if e["type"] == "trick_won"]
    assert len(tricks) == 13 and sum(e["points"] for e in tricks) == 26
    if s["moon_shooter"] is None:
        assert sum(s["points"]) == 26
    else:
        assert sorted(s["points"]) == [0, 26, 26, 26]
    assert list(g.scores) == s["points"] == list(g.deal_points)


def test_points_per_card():
    g = Game.new(Rules(passing="none"), hands=MOON_HANDS)
    play(g, "2C AC JD 7S")
    assert g.points_taken == (0, 0, 0, 0)
    play(g, "3C AD 8S KC AS 2D 2S QS")
    assert g.points_taken == (13, 0, 0, 0)
    play(g, "4C 3D 2H 8H")
    assert g.points_taken == (15, 0, 0, 0)


# -- the moon ------------------------------------------------------------------------------


def test_moon_others_take_26():
    g, events = moon_game(Rules(passing="none"))
    (s,) = scored(events)
    assert s["moon_shooter"] == 0 and s["points"] == [0, 26, 26, 26]
    assert g.moon_shooter == 0 and g.deal_points == (0, 26, 26, 26)
    assert g.view(2).moon_shooter == 0


def test_worked_example_2_moon_choose_subtract():
    g, events = moon_game(Rules(passing="none", moon="choose"), scores=[62, 40, 55, 48])
    assert g.phase == "moon_choice" and g.to_act == (0,)
    assert events[-1] == {"type": "moon_choice", "seat": 0, "deal": 1, "options": ["subtract", "add"]}
    assert g.legal(0) == ["subtract", "add"] and g.legal(1) == []
    assert g.view(0).legal == ("subtract", "add")
    assert g.scores == (62, 40, 55, 48)  # asked before the scores are added
    with pytest.raises(IllegalAction, match="subtract"):
        g.apply(0, "double")
    with pytest.raises(IllegalAction, match="waiting for seat 0"):
        g.apply(1, "add")
    assert g.why_illegal(0, "2C") is not None
    events = g.apply(0, "subtract")
    assert g.scores == (36, 40, 55, 48)
    assert scored(events)[0]["moon_choice"] == "subtract"
    assert g.phase in ("pass", "play") and g.deal_number == 2


def test_worked_example_2_moon_choose_add():
    g, _ = moon_game(Rules(passing="none", moon="choose"), scores=[62, 40, 55, 48])
    g.apply(0, "add")
    assert g.scores == (62, 66, 81, 74)


def test_moon_subtract_26():
    g, events = moon_game(Rules(passing="none", moon="subtract_26"), scores=[30, 0, 0, 0])
    assert scored(events)[0]["points"] == [-26, 0, 0, 0] and g.scores == (4, 0, 0, 0)


def test_moon_off_shooter_takes_26():
    g, events = moon_game(Rules(passing="none", moon="off"))
    s = scored(events)[0]
    assert s["points"] == [26, 0, 0, 0] and s["moon_shooter"] is None


def test_worked_example_4_omnibus_moon():
    g, events = moon_game(Rules(passing="none", jack_of_diamonds=True))
    assert scored(events)[0]["points"] == [0, 16, 26, 26]


def test_omnibus_moon_variants():
    _, ev = moon_game(Rules(passing="none", jack_of_diamonds=True, moon="subtract_26"))
    assert scored(ev)[0]["points"] == [-26, -10, 0, 0]
    _, ev = moon_game(Rules(passing="none", jack_of_diamonds=True, moon="off"))
    assert scored(ev)[0]["points"] == [26, -10, 0, 0]
    g, _ = moon_game(Rules(passing="none", jack_of_diamonds=True, moon="choose"), scores=[62, 40, 55, 48])
    g.apply(0, "add")
    assert g.scores == (62, 56, 81, 74)


def test_omnibus_shooter_with_jack():
    # seat 0 holds every club: wins every trick, takes everything including the jack
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"] + [None] * 3
    rest = [c for c in Rules().deck if c.suit != "C"]
    hands[1:] = [rest[0::3], rest[1::3], rest[2::3]]
    g = Game.new(Rules(passing="none", jack_of_diamonds=True), hands=hands)
    events = play_out(g, random.Random(3))
    assert scored(events)[0]["points"] == [-10, 26, 26, 26]


def test_miss_the_moon_by_one_heart():
    rules = Rules(passing="none", first_trick_points=True)
    g = Game.new(rules, hands=MOON_HANDS)
    play(g, "2C AC 2H 7S")  # seat 1 takes one heart on the first trick
    play(g, "3C AD 8S KC")
    play_out(g, random.Random(1))
    assert g.deal_points == (25, 1, 0, 0) and g.moon_shooter is None


def test_black_maria_moon_is_43():
    g, events = moon_game(Rules(passing="none", black_maria=True))
    s = scored(events)[0]
    assert s["moon_shooter"] == 0 and s["points"] == [0, 43, 43, 43]


def test_black_maria_points():
    rules = Rules(passing="none", black_maria=True)
    g = Game.new(rules, hands=MOON_HANDS)
    play(g, "2C AC JD 7S 3C AD 8S KC AS 2D 2S QS")
    assert g.points_taken == (20, 0, 0, 0)
    events = play_out(g, random.Random(0))
    tricks = [e for e in events if e["type"] == "trick_won"]
    assert 20 + sum(e["points"] for e in tricks) == 43


@pytest.mark.parametrize("seed", range(3))
def test_black_maria_deal_worth_43(seed):
    g = Game.new(Rules(black_maria=True), seed=seed)
    events = play_out(g, random.Random(seed))
    assert sum(e["points"] for e in events if e["type"] == "trick_won") == 43


# -- the kitty -------------------------------------------------------------------------------


def test_kitty_goes_to_first_trick_winner_with_its_points():
    rules = Rules(players=3, odd_cards="kitty", passing="none")
    g = new_game(rules, {0: "2C", 1: "3C", 2: "AC"}, kitty="QS")
    assert g.view(1).kitty == () and g.view(1).kitty_size == 1
    assert "QS" not in {str(c) for h in g.hands for c in h}
    play(g, "2C")
    g.apply(1, "3C")
    events = g.apply(2, "AC")
    won = events[-1]
    assert won["type"] == "trick_won" and won["seat"] == 2 and won["kitty"] == ["QS"] and won["points"] == 13
    assert g.points_taken == (0, 0, 13) and g.kitty_taker == 2
    for seat in range(3):
        assert [str(c) for c in g.view(seat).kitty] == ["QS"]
        assert g.view(seat).points_taken == (0, 0, 13)
    assert "QS" in {str(c) for c in g.cards_taken[2]}
    assert g.tricks_taken[2][0].cards == tuple(parse_cards("2C 3C AC"))


@pytest.mark.parametrize("players", [3, 5, 6])
def test_kitty_deal_worth_26(players):
    rules = Rules(players=players, odd_cards="kitty")
    for seed in range(3):
        g = Game.new(rules, seed=seed)
        assert len(g.kitty) == rules.kitty_size
        events = play_out(g, random.Random(seed))
        tricks = [e for e in events if e["type"] == "trick_won"]
        assert sum(e["points"] for e in tricks) == 26
        assert len(tricks) == rules.hand_size
        assert "kitty" in tricks[0]


# -- end of the game ---------------------------------------------------------------------------


def test_worked_example_3_game_end():
    # Totals 70, 92, 75, 88 (South, West, North, East); the deal scores 5, 9, 12, 0.
    totals = [70 + 5, 92 + 9, 75 + 12, 88 + 0]
    assert totals == [75, 101, 87, 88]
    assert game_winners(Rules(), totals) == (0,)
    assert game_winners(Rules(), [70, 92, 75, 88]) == ()


def test_game_ends_after_the_deal_someone_reaches_target():
    # the moon deal: seat 0 shoots, others take 26: West (1) reaches 101
    g, events = moon_game(Rules(passing="none"), scores=[80, 75, 60, 70])
    assert g.phase == "over" and g.scores == (80, 101, 86, 96)
    assert g.winners == (0,) and g.to_act == ()
    assert events[-1] == {"type": "game_over", "winners": [0], "scores": [80, 101, 86, 96]}
    assert g.legal(0) == [] and g.why_illegal(0, "2C") == "The game is over."
    with pytest.raises(IllegalAction, match="over"):
        g.apply(0, "2C")
    assert g.view(3).winners == (0,)


def test_others_26_even_when_it_ends_game_for_someone_else():
    # the shooter is at 95; the 26 pushes seat 3 over 100 and seat 1 wins
    g, _ = moon_game(Rules(passing="none"), scores=[95, 10, 20, 80])
    assert g.phase == "over" and g.scores == (95, 36, 46, 106) and g.winners == (1,)


def test_tie_for_lowest_continues():
    rules = Rules(moon="off")
    g = Game.new(rules, hands=MOON_HANDS, scores=[0, 26, 100, 50], deal_number=4)  # deal 4: hold
    assert g.pass_direction == "hold" and g.phase == "play"
    play(g, "2C AC JD 7S 3C AD 8S KC")
    play_out(g, random.Random(0))
    assert g.scores == (26, 26, 100, 50)
    assert g.phase == "pass" and g.winners == () and g.deal_number == 5
    assert g.pass_direction == "left" and g.dealer == 1
    # the game goes on until one player is clearly lowest
    play_out(g, random.Random(0), stop_at_deal_end=False)
    assert g.phase == "over" and len(g.winners) == 1
    assert min(g.scores) == g.scores[g.winners[0]] and list(g.scores).count(min(g.scores)) == 1


def test_tie_for_lowest_shared():
    g = Game.new(Rules(moon="off", ties="share", passing="none"), hands=MOON_HANDS, scores=[0, 26, 100, 50])
    play(g, "2C AC JD 7S 3C AD 8S KC")
    play_out(g, random.Random(0))
    assert g.phase == "over" and g.winners == (0, 1)


def test_next_deal_rotates_dealer_and_direction():
    g = Game.new(Rules(), seed=11)
    assert g.deal_number == 1 and g.dealer == 0 and g.pass_direction == "left"
    ev = play_out(g, random.Random(0))
    started = [e for e in ev if e["type"] == "deal_started"]
    assert started == [{"type": "deal_started", "deal": 2, "dealer": 1, "pass_direction": "right", "leader": None}]
    assert g.deal_number == 2 and g.dealer == 1 and g.pass_direction == "right" and g.phase == "pass"
    assert all(len(h) == 13 for h in g.hands) and g.tricks == () and not g.hearts_broken
    assert g.view(0).deal_points == g.deal_points and sum(g.deal_points) in (26, 78)
    play_out(g, random.Random(0))
    assert g.pass_direction == "across"
    play_out(g, random.Random(0))
    assert g.pass_direction == "hold" and g.phase == "play"
    play_out(g, random.Random(0))
    assert g.pass_direction == "left" and g.deal_number == 5


def test_target_option():
    for seed in range(4):
        g = Game.new(Rules(target=1), seed=seed)
        play_out(g, random.Random(seed))
        low = min(g.scores)
        if list(g.scores).count(low) == 1:
            assert g.phase == "over" and g.winners == (g.scores.index(low),)
        else:  # tied for lowest: play on
            assert g.phase in ("pass", "play") and g.deal_number == 2
