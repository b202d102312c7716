"""Fuzz: thousands of random actions (random seats, strings, card lists, stale versions, users)
against live tables through games.services; every rejection is clean and changes nothing, and
every stored game stays valid (see tests.security.invariants)."""
import random
import time

import pytest

from games import services, storage
from games.engine import FULL_DECK, Rules
from games.models import Seat, Table
from games.services import ActionRejected
from tests.security.invariants import check_table

pytestmark = pytest.mark.django_db

CODES = {"malformed", "illegal", "stale", "not_your_seat", "no_seat", "game_over", "not_started", "unavailable"}
CARD_CODES = [str(card) for card in FULL_DECK]
JUNK = ["", " ", "ZZ", "1X", "QSQS", "10H", "10", "Q♠", "q♠", "qs", " QS ", "\x00", "add", "subtract", "ADD", "moon",
        "sync", "💥", "ＱＳ", "<script>alert(1)</script>", "QS; DROP TABLE games_table;", "%s%s%s", "{}", "[]", "null"]


def random_action(rng: random.Random, game, seat, legal_share=0.2):
    roll = rng.random()
    if roll < legal_share and seat is not None and game is not None:
        legal = game.legal(seat) if isinstance(seat, int) and 0 <= seat < game.players else []
        if legal:
            if game.phase == "pass":
                return [str(card) for card in rng.sample(legal, min(3, len(legal)))]
            return str(rng.choice(legal))  # a card, or the moon choice
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(CARD_CODES)
    if roll < 0.45:
        return [rng.choice(CARD_CODES + JUNK) for _ in range(rng.choice([0, 1, 2, 3, 3, 3, 4, 13, 14, 40]))]
    if roll < 0.7:
        return rng.choice(JUNK)
    if roll < 0.8:
        return "".join(rng.choice("QSTHAJK23456789CD♠♥ ,") for _ in range(rng.randint(0, 5000)))
    return rng.choice([None, 0, 17, -1, 3.5, True, {"card": "QS"}, ["QS", ["3C"]], [None, None, None], b"QS",
                       {"action": "play"}, 10**40, float("nan")])


def random_version(rng, table):
    return rng.choice([table.version, table.version, table.version, None, table.version - 1, table.version + 1, 0,
                       -5, rng.randint(0, 10**6), 10**30])


def new_tables(people, stranger):
    ann, bob, cat, dan = people
    specs = [
        (Rules(target=50), [None, None, "easy", "medium"], {1: bob}),
        (Rules(players=3, odd_cards="kitty", moon="choose", target=40), [None, None, None], {1: bob, 2: cat}),
        (Rules(players=5, passing="none", target=30, jack_of_diamonds=True), [None, "easy", None, "easy", None],
         {2: cat, 4: dan}),
    ]
    tables = []
    for rules, bots, seated in specs:
        table = services.create_table(ann, rules, kind=Table.Kind.FRIENDS, seat_bots=bots, seed=len(tables) + 1)
        for number, user in seated.items():
            Seat.objects.filter(table=table, number=number).update(user=user)
        services.start_table(table.pk)
        tables.append(table.pk)
    # and one that has not started: every move there is "not_started"
    waiting = services.create_table(ann, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None, None, None, None])
    tables.append(waiting.pk)
    return tables


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("ann", "bob", "cat", "dan")]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_actions_through_services_leave_every_game_valid(people, django_user_model, seed):
    rng = random.Random(seed)
    stranger = django_user_model.objects.create_user("eve")
    tables = new_tables(people, stranger)
    users = people + [stranger]
    counts = {"accepted": 0, **{code: 0 for code in CODES}}
    started = time.monotonic()
    calls = int(__import__("os").environ.get("FUZZ_CALLS", 1000))
    for call in range(calls):
        table = Table.objects.get(pk=rng.choice(tables))
        game = storage.game_of(table) if table.has_game else None
        seats = {seat.number: seat for seat in table.seats.all()}
        if rng.random() < 0.3 and game is not None and game.to_act:
            # a person making a real move, sometimes on an old version of the table
            seat = rng.choice(game.to_act)
            user = seats[seat].user or rng.choice(users)
            action = random_action(rng, game, seat, legal_share=1.0)
            version = table.version if rng.random() < 0.85 else table.version - rng.randint(1, 3)
        else:
            if rng.random() < 0.5 and game is not None and game.to_act:
                seat = rng.choice(game.to_act)
            else:
                seat = rng.choice([0, 1, 2, 3, 4, 5, 6, -1, 99, None, "0", True, 2.0])
            seat_user = seats[seat].user if isinstance(seat, int) and not isinstance(seat, bool) and seat in seats else None
            user = seat_user if (seat_user is not None and rng.random() < 0.6) else rng.choice(users)
            action = random_action(rng, game, seat)
            version = random_version(rng, table)
        before = (table.version, table.ply, table.status)
        try:
            outcome = services.submit_action(table.pk, seat, action, expected_version=version, user=user)
        except ActionRejected as rejected:
            assert rejected.code in CODES, rejected.code
            message = str(rejected)
            assert message and len(message) < 300, message
            counts[rejected.code] += 1
            table.refresh_from_db()
            assert (table.version, table.ply, table.status) == before, f"call {call}: a rejected action changed the table"
        else:
            counts["accepted"] += 1
            assert outcome.version > before[0]
        if call % 250 == 0:
            for pk in tables:
                check_table(Table.objects.get(pk=pk))
    for pk in tables:
        check_table(Table.objects.get(pk=pk))
    elapsed = time.monotonic() - started
    print(f"fuzz seed={seed}: {calls} actions in {elapsed:.1f}s: {counts}")
    assert counts["accepted"] > 100, counts
    # "malformed" is the client protocol's refusal (games.table.protocol): the services take the
    # engine's actions, and the engine refuses anything else as illegal.
    for code in ("illegal", "stale", "not_your_seat", "no_seat", "not_started"):
        assert counts[code] > 0, (code, counts)
