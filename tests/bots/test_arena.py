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
