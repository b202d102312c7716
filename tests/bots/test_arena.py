"""The duplicate arena runs and reports in its format."""

import re

from games.bots import arena
from games.engine import Rules


def test_parse_rules():
    r = arena.parse_rules("players=3,moon=choose,jack_of_diamonds=true,target=50")
    assert r == Rules(players=3, moon="choose", jack_of_diamonds=True, target=50)
    assert arena.parse_rules("", players=5) == Rules(players=5)


def test_seatings_rotate_every_level_through_every_seat():
    seatings = arena._seatings(["hard", "medium", "medium", "medium"])
    assert [s.index("hard") for s in seatings] == [0, 1, 2, 3]


def test_smoke_report_format(capsys):
    code = arena.main(["--players", "hard,medium,easy", "--hands", "2", "--seed", "3",
                       "--rules", "moon=choose", "--samples", "2", "--quiet"])
    assert code == 0
    out = capsys.readouterr().out
    assert "2 deals x 3 seatings = 6 hands" in out
    assert "points/hand" in out and "95% CI" in out and "moons/hand" in out and "median ms" in out
    for level in ("hard", "medium", "easy"):
        assert re.search(rf"^{level}\s+1\s+-?\d+\.\d\d\s+\[", out, re.M), out
    assert re.search(r"hard vs medium: ratio -?\d+\.\d+", out)


def test_duplicate_deals_are_the_same_cards():
    res = arena.run(["medium"] * 4, 2, seed=1)
    for deal in res["deals"]:
        # all-medium: every seating plays the same cards the same way
        assert all(r["points"] == deal[0]["points"] for r in deal)


def test_processes():
    a = arena.run(["medium", "easy", "easy"], 4, seed=2, processes=2)
    b = arena.run(["medium", "easy", "easy"], 4, seed=2, processes=1)
    assert [[r["points"] for r in d] for d in a["deals"]] == [[r["points"] for r in d] for d in b["deals"]]


def test_whole_games_and_the_statistics_of_play(capsys):
    res = arena.run_games(["medium", "easy", "easy"], 1, seed=4)
    assert len(res["games"]) == 3  # one game per seating, from the same shuffles
    for game in res["games"]:
        assert game["winners"] and max(game["scores"]) >= 100
        assert sum(len(d["points"]) for d in game["deals"]) == 3 * len(game["deals"])
    stats = arena.play_stats(res)
    assert stats["hands"] == sum(len(g["deals"]) for g in res["games"])
    assert stats["winner_score"] == sum(min(g["scores"]) for g in res["games"]) / 3
    hands = [d for g in res["games"] for d in g["deals"]]
    assert stats["moon_hands"] == sum(d["shooter"] is not None for d in hands) / len(hands)
    assert 1 <= stats["broken_in"] <= 17 and 0 <= stats["club_void_passing"] <= 1
    assert set(stats["levels"]) == {"medium", "easy"}
    code = arena.main(["--self-play", "medium", "--games", "1", "--quiet", "--rules", "players=4"])
    out = capsys.readouterr().out
    assert code == 0 and "medium at every seat" in out
    assert re.search(r"moons shot: medium \d+\.\d\d% of hands, \d+\.\d\d per game; a moon in \d+\.\d\d% of hands", out)
    assert re.search(r"could not follow the 2♣: \d+\.\d% of hands with a pass \(\d+\), \d+\.\d% of hold hands", out)
    assert re.search(r"1 games: \d+\.\d hands per game, winner's score \d+\.\d, highest score \d+\.\d", out)


def test_a_deal_tells_when_hearts_broke_and_who_could_not_follow_the_two_of_clubs():
    from games.engine import Game

    from .helpers import MOON_HANDS

    g = Game.new(Rules(passing="none"), hands=MOON_HANDS)
    res = arena._play_one_deal(g, ["medium"] * 4, 1, {}, {})
    tricks_before_a_heart = None
    replay = Game.new(Rules(passing="none"), hands=MOON_HANDS)
    while replay.deal_number == 1:
        seat = replay.to_act[0]
        if not replay.hearts_broken:
            tricks_before_a_heart = len(replay.tricks) + 1
        replay.apply(seat, arena.choose_action(replay.view(seat), "medium", seed=1 * 7919 + replay.ply))
        if replay.tricks and len(replay.tricks) == 1 and replay.deal_number == 1:
            first = replay.tricks[0]
    assert res["broken_in"] == tricks_before_a_heart
    assert res["club_void"] == any(c.suit != "C" for c in first.cards) and not res["passing"]


def test_where_the_points_come_from_adds_up_to_the_points_per_hand():
    """Each level's split by phase (moons, the queen, tricks by when) sums to its points per
    hand, in hands with a pass and hold hands alike, and a moon's points are counted as moon."""
    res = arena.run(["medium", "easy", "easy", "easy"], 8, seed=5)
    split = arena.where_points_go(res)
    for level in ("medium", "easy"):
        for kind in ("pass", "hold"):
            hands = [(r, seat) for deal in res["deals"] for r in deal for seat, lv in enumerate(r["seating"])
                     if lv == level and r["passing"] == (kind == "pass")]
            assert split[level][kind]["hands"] == len(hands) > 0
            total = sum(r["points"][seat] for r, seat in hands)
            assert abs(sum(split[level][kind][phase] for phase in arena.PHASES) * len(hands) - total) < 1e-6
            moons = sum(r["points"][seat] for r, seat in hands if r["shooter"] is not None)
            assert abs(split[level][kind]["moons"] * len(hands) - moons) < 1e-6
    assert "pass hands, last 4 tricks" in arena.format_where_points_go(res)
