import json

import pytest

from games.engine import PassDirection, Rules, parse_cards


def test_defaults():
    r = Rules()
    assert (r.players, r.target, r.passing, r.odd_cards, r.first_trick_points, r.hearts_lead, r.lead,
            r.moon, r.jack_of_diamonds, r.black_maria, r.ties) == (
        4, 100, "standard", "remove", False, "broken", "lowest_club", "others_26", False, False, "continue")
    with pytest.raises(Exception):
        r.players = 5  # frozen


@pytest.mark.parametrize("kw,match", [
    ({"players": 2}, "players"), ({"players": 7}, "players"), ({"players": "4"}, "players"),
    ({"players": True}, "players"), ({"target": 0}, "target"), ({"target": -5}, "target"),
    ({"target": 50.5}, "target"), ({"passing": "right"}, "passing"), ({"odd_cards": "x"}, "odd_cards"),
    ({"hearts_lead": "never"}, "hearts_lead"), ({"lead": "any"}, "lead"), ({"moon": "on"}, "moon"),
    ({"ties": "draw"}, "ties"), ({"first_trick_points": "no"}, "first_trick_points"),
    ({"jack_of_diamonds": 1}, "jack_of_diamonds"), ({"black_maria": None}, "black_maria"),
])
def test_validation(kw, match):
    with pytest.raises(ValueError, match=match):
        Rules(**kw)


@pytest.mark.parametrize("players,removed,hand,kitty", [
    (3, "2D", 17, 1), (4, "", 13, 0), (5, "2C 2D", 10, 2), (6, "2C 3C 2D 2S", 8, 4),
])
def test_deck_per_player_count(players, removed, hand, kitty):
    r = Rules(players=players)
    assert r.removed == tuple(sorted(parse_cards(removed)))
    assert r.hand_size == hand
    assert len(r.deck) == players * hand
    k = Rules(players=players, odd_cards="kitty")
    assert k.removed == () and k.kitty_size == kitty and len(k.deck) == 52
    assert players * hand + kitty == 52
    # no heart, no spade penalty card, no JD ever comes out
    assert not any(c.suit == "H" or str(c) in ("QS", "KS", "AS", "JD") for c in r.removed)


def test_pass_cycles():
    L, R, A, H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
    for n in (4, 6):
        assert [Rules(players=n).pass_direction(d) for d in range(1, 9)] == [L, R, A, H] * 2
    for n in (3, 5):
        assert [Rules(players=n).pass_direction(d) for d in range(1, 7)] == [L, R, H] * 2
    assert {Rules(passing="left").pass_direction(d) for d in range(1, 9)} == {L}
    assert {Rules(passing="none").pass_direction(d) for d in range(1, 9)} == {H}
    assert PassDirection.ACROSS.target(0, 4) == 2 and PassDirection.ACROSS.target(2, 6) == 5
    assert PassDirection.RIGHT.target(0, 5) == 4 and PassDirection.LEFT.target(4, 5) == 0
    assert PassDirection.LEFT == "left"


def test_dict_round_trip_and_json():
    r = Rules(players=5, target=50, moon="choose", black_maria=True, ties="share", odd_cards="kitty")
    d = r.to_dict()
    json.dumps(d)
    assert Rules.from_dict(d) == r
    assert Rules.from_dict({}) == Rules()
    with pytest.raises(ValueError, match="Unknown"):
        Rules.from_dict({"players": 4, "jokers": True})
    with pytest.raises(ValueError):
        Rules.from_dict({"players": 9})


def test_describe_mentions_each_option():
    base = "\n".join(Rules().describe())
    assert "2♣" in base and "100" in base and "26" in base
    text = "\n".join(Rules(players=6, odd_cards="kitty", lead="left_of_dealer", first_trick_points=True,
                           hearts_lead="any", moon="choose", jack_of_diamonds=True, black_maria=True,
                           ties="share", passing="left", target=50).describe())
    for word in ("Kitty", "left of the dealer", "may be played on the first trick", "at any time",
                 "chooses", "J♦", "Black Maria", "share", "to the left every deal", "50", "43"):
        assert word in text, word
    assert "3♣" in "\n".join(Rules(players=5).describe())
    assert "4♣" in "\n".join(Rules(players=6).describe())
    assert "Q♠ has been played" in "\n".join(Rules(hearts_lead="queen_breaks").describe())
    assert "No passing" in "\n".join(Rules(passing="none").describe())
    assert "subtracts" in "\n".join(Rules(moon="subtract_26").describe())
    assert "No shooting" in "\n".join(Rules(moon="off").describe())
    assert all(isinstance(line, str) and line for line in Rules().describe())


def test_card_points():
    r = Rules()
    assert r.card_points(parse_cards("QS")[0]) == 13 and r.card_points(parse_cards("2H")[0]) == 1
    assert r.card_points(parse_cards("KS")[0]) == 0 and r.card_points(parse_cards("JD")[0]) == 0
    bm = Rules(black_maria=True, jack_of_diamonds=True)
    assert [bm.card_points(c) for c in parse_cards("KS AS JD QS")] == [10, 7, -10, 13]
    assert bm.deal_value == 43 and r.deal_value == 26
