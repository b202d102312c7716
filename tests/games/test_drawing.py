"""games.drawing, games.history and games.templating: the table is drawn from plain facts,
with no Django, so the browser's offline table draws it with the same code."""
import doctest
import importlib
import random
import subprocess
import sys

import pytest

from games import drawing
from games.engine import Game, Rules
from games.history import game_with_history

PURE = ["games.drawing", "games.history", "games.templating", "games.offline"]


@pytest.mark.parametrize("name", PURE)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and result.failed == 0


def test_the_table_is_drawn_without_django():
    code = (
        "import sys\n"
        f"for name in {PURE!r}: __import__(name)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'channels', 'celery'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_whole_game_is_drawn_for_every_seat_from_its_own_view_only():
    rules = Rules()
    game = Game.new(rules, seed=11)
    people = tuple(drawing.Person(name) for name in ("Sam", "Ada", "Ben", "Cleo"))
    facts = drawing.TableFacts(table_id=1, version=0, people=people)
    rng = random.Random(3)
    while game.phase != "over" and game.ply < 60:
        seat = game.to_act[0]
        legal = game.legal(seat)
        game.apply(seat, rng.sample(legal, 3) if game.phase == "pass" else rng.choice(legal))
    replayed, steps = game_with_history(game.to_dict())
    for seat in range(4):
        whole = drawing.draw(drawing.table_context(facts, replayed, steps, replayed.view(seat))).whole()
        hidden = {str(card) for other in range(4) if other != seat for card in game.hands[other]}
        shown = {code for code in hidden if f'data-card="{code}"' in whole}
        assert not shown, f"seat {seat} was shown another seat's cards: {shown}"
        assert all(f'data-card="{card}"' in whole for card in game.hands[seat])
