"""The table websocket with several people at one table (JSON format unless said)."""
import json

import pytest
from asgiref.sync import sync_to_async

from games import services, storage
from games.models import Action, Table
from tests.live.conftest import Player, connect_all, seat_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def table_row(table_id):
    return Table.objects.get(pk=table_id)


async def current(table_id):
    table = await sync_to_async(table_row)(table_id)
    return table, await sync_to_async(storage.game_of)(table)


async def test_each_seat_gets_full_state_on_connect_with_only_its_own_hand(people):
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    _, game = await current(table.pk)
    for number, player in enumerate(players):
        frame = await player.receive()
        assert frame["type"] == "state"
        assert frame["version"] == table.version
        state = frame["state"]
        assert state["seat"] == number and state["version"] == table.version
        assert state["view"]["hand"] == [str(card) for card in game.hands[number]]
        # nobody else's cards anywhere in what this seat received
        others = {str(card) for seat, hand in enumerate(game.hands) if seat != number for card in hand}
        assert not others & set(json.dumps(frame).replace('"', " ").replace(",", " ").split())
        assert [s["name"] for s in state["seats"]] == ["Ann", "Bob", "Cat", "Dan"]
    for player in players:
        await player.close()


async def test_a_move_is_broadcast_to_every_seat_with_the_new_version(people):
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
    _, game = await current(table.pk)
    seat = game.to_act[0]
    card = str(game.legal(seat)[0])
    await players[seat].send({"action": "play", "card": card, "version": table.version})
    for number, player in enumerate(players):
        frame = await player.receive_until(lambda f: f["type"] == "update")
        assert frame["version"] == table.version + 1
        assert frame["events"][0] == {"type": "card_played", "seat": seat, "card": card, "deal": 1, "trick": 1}
        view = frame["state"]["view"]
        assert view["current_trick"] == [[seat, card]]
        assert view["to_act"] == [(seat + 1) % 4]
        if number == seat:
            assert card not in view["hand"]
    assert {"type": "ack", "version": table.version + 1} in players[seat].frames
    for player in players:
        assert await player.drain() == [], "exactly one update per change"
    for player in players:
        await player.close()


async def test_duplicate_and_stale_moves_are_rejected_and_change_nothing(people):
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
    _, game = await current(table.pk)
    seat = game.to_act[0]
    card = str(game.legal(seat)[0])
    move = {"action": "play", "card": card, "version": table.version}
    await players[seat].send(move)
    await players[seat].receive_until(lambda f: f["type"] == "ack")
    after, _ = await current(table.pk)
    await players[seat].send(move)  # the same frame again (a double click, a resend)
    error = await players[seat].receive_until(lambda f: f["type"] == "error")
    assert error["code"] == "stale"
    assert "earlier position" in error["message"]
    state = await players[seat].receive_until(lambda f: f["type"] == "state")
    assert state["version"] == after.version, "the rejected client gets the current table"
    # the next player moves against an old version: rejected too
    nxt = (seat + 1) % 4
    _, game = await current(table.pk)
    await players[nxt].send({"action": "play", "card": str(game.legal(nxt)[0]), "version": table.version})
    error = await players[nxt].receive_until(lambda f: f["type"] == "error")
    assert error["code"] == "stale"
    again, _ = await current(table.pk)
    assert (again.version, again.ply) == (after.version, after.ply)
    assert await sync_to_async(Action.objects.filter(table_id=table.pk).count)() == 1
    for player in players:
        await player.close()


async def test_two_simultaneous_moves_never_both_apply(people):
    """The same person in two tabs sends the same pass at the same moment: one applies."""
    import asyncio

    table = await sync_to_async(seat_people)(people, rules=services.Rules())  # a passing deal
    tab1, tab2 = await connect_all([people[0], people[0]], table.pk)
    for tab in (tab1, tab2):
        await tab.receive()
    _, game = await current(table.pk)
    move = {"action": "pass", "cards": [str(card) for card in game.hands[0][:3]], "version": table.version}
    await asyncio.gather(tab1.send(move), tab2.send(move))
    frames = await tab1.drain(0.5) + await tab2.drain(0.5)
    assert [f["type"] for f in frames].count("ack") == 1
    assert [f.get("code") for f in frames if f["type"] == "error"] == ["stale"]
    assert await sync_to_async(Action.objects.filter(table_id=table.pk).count)() == 1
    for tab in (tab1, tab2):
        await tab.close()


@pytest.mark.parametrize(
    "frame, code",
    [
        ("this is not json", "malformed"),
        ("[1, 2, 3]", "malformed"),
        ({"action": "dance"}, "unknown_action"),
        ({}, "unknown_action"),
        ({"action": "play", "card": "ZZ", "version": None}, "malformed"),
        ({"action": "play", "version": "{v}"}, "malformed"),
        ({"action": "play", "card": "ZZ", "version": "{v}"}, "malformed"),
        ({"action": "play", "card": ["QS", "2C"], "version": "{v}"}, "malformed"),
        ({"action": "pass", "cards": {"a": 1}, "version": "{v}"}, "malformed"),
        ({"action": "play", "card": "{card}", "version": "{v}", "seat": "{other}"}, "not_your_seat"),
        ({"action": "play", "card": "{card}", "version": "{v}", "as": "{other}", "who": "other"}, "not_your_turn"),
        ({"action": "play", "card": "{card}", "version": "{v}", "blob": "x" * 5000}, "too_large"),
    ],
)
async def test_bad_frames_get_a_clear_error_and_change_nothing(people, frame, code):
    table = await sync_to_async(seat_people)(people)
    _, game = await current(table.pk)
    seat = game.to_act[0]
    other = (seat + 1) % 4
    sender = other if code == "not_your_turn" else seat
    players = await connect_all([people[seat], people[other]], table.pk)
    for player in players:
        await player.receive()
    if isinstance(frame, dict):
        text = json.dumps(frame)
        text = text.replace('"{v}"', str(table.version)).replace('"{other}"', str(other))
        text = text.replace("{card}", str(game.legal(seat)[0]) if code != "not_your_turn" else str(game.hands[other][0]))
    else:
        text = frame
    player = players[0] if sender == seat else players[1]
    await player.send(text)
    error = await player.receive_until(lambda f: f["type"] == "error")
    assert error["code"] in ({code, "illegal"} if code == "not_your_turn" else {code})
    assert 10 < len(error["message"]) < 200
    if code == "not_your_turn":
        assert "turn" in error["message"].lower()
    after, _ = await current(table.pk)
    assert (after.version, after.ply) == (table.version, table.ply)
    for p in players:
        assert [f for f in await p.drain(0.2) if f["type"] == "update"] == []
        await p.close()


async def test_binary_frames_are_refused(people):
    table = await sync_to_async(seat_people)(people)
    player = await Player.create(people[0], table.pk)
    assert await player.connect()
    await player.receive()
    await player.comm.send_to(bytes_data=b"\x00\x01")
    error = await player.receive()
    assert error["type"] == "error" and error["code"] == "malformed"
    await player.close()


async def test_a_reconnecting_player_gets_the_full_state_then_updates(people):
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
    _, game = await current(table.pk)
    seat = game.to_act[0]
    await players[(seat + 2) % 4].close()  # someone drops
    await players[seat].send({"action": "play", "card": str(game.legal(seat)[0]), "version": table.version})
    await players[seat].receive_until(lambda f: f["type"] == "ack")
    back = await Player.create(people[(seat + 2) % 4], table.pk)
    assert await back.connect()
    state = await back.receive()
    assert state["type"] == "state" and state["version"] == table.version + 1
    assert len(state["state"]["view"]["current_trick"]) == 1, "the move made while away is in the state"
    # then deltas: the next move reaches the returning player as an update
    _, game = await current(table.pk)
    nxt = game.to_act[0]
    await players[nxt].send({"action": "play", "card": str(game.legal(nxt)[0]), "version": table.version + 1})
    update = await back.receive_until(lambda f: f["type"] == "update")
    assert update["version"] == table.version + 2
    # and a client that suspects a gap asks for the full state
    await back.send({"action": "sync"})
    state = await back.receive_until(lambda f: f["type"] == "state")
    assert state["version"] == table.version + 2
    for player in players + [back]:
        await player.close()


async def test_computers_moves_reach_every_person(people):
    """Two people and two computers: after a person's move the computers answer, and each
    of their moves is an update with the next version."""
    table = await sync_to_async(seat_people)(people[:2], bots={2: "easy", 3: "easy"})
    players = await connect_all(people[:2], table.pk)
    for player in players:
        await player.receive()
    table, game = await current(table.pk)
    before = table
    for _move in range(4):  # people play until a computer has answered
        seat = game.to_act[0]
        assert seat in (0, 1), "computers have played up to a person"
        await players[seat].send({"action": "play", "card": str(game.legal(seat)[0]), "version": table.version})
        await players[seat].receive_until(lambda f: f["type"] == "ack")
        after, game = await current(table.pk)
        if after.version > table.version + 1:
            break
        table = after
    assert after.version > table.version + 1, "computers answered"
    table = before
    for player in players:
        frames = [f for f in player.frames[1:] + await player.drain(0.5) if f["type"] == "update"]
        assert [f["version"] for f in frames] == list(range(table.version + 1, after.version + 1))
        assert all(e["type"] != "cards_passed" for f in frames for e in f["events"])
    for player in players:
        await player.close()


async def test_html_format_sends_the_table_fragment_for_htmx(people):
    table = await sync_to_async(seat_people)(people)
    player = await Player.create(people[0], table.pk, fmt="html")
    assert await player.connect()
    html = await player.receive()
    assert isinstance(html, str) and 'id="table"' in html
    _, game = await current(table.pk)
    for card in game.hands[0]:
        assert str(card) in html
    for card in game.hands[1]:
        assert f'value="{card}"' not in html
    # htmx's ws-send posts the form fields plus HEADERS; strings for numbers
    seat = game.to_act[0]
    if seat == 0:
        # the solo table's form: a hidden "card" field plus the pressed button named "card"
        await player.send({"action": "play", "card": ["", str(game.legal(0)[0])], "version": str(table.version),
                           "HEADERS": {"HX-Request": "true"}})
        html = await player.receive()
        assert f'data-version="{table.version + 1}"' in html
    else:
        await player.send({"action": "play", "card": str(game.hands[0][0]), "version": str(table.version),
                           "HEADERS": {"HX-Request": "true"}})
        html = await player.receive()
        assert 'id="live-error"' in html and "turn" in html.lower()
    await player.close()


async def test_websocket_needs_a_logged_in_user_and_the_sites_origin(people):
    table = await sync_to_async(seat_people)(people)
    anonymous = await Player.create(None, table.pk)
    assert await anonymous.connect()
    error = await anonymous.receive()
    assert error["code"] == "login_required"
    closed = await anonymous.comm.receive_output(2)
    assert closed == {"type": "websocket.close", "code": 4401}
    foreign = await Player.create(people[0], table.pk, origin="http://evil.example")
    assert await foreign.connect() is False


async def test_a_person_without_a_seat_cannot_watch_a_game_in_progress(people, django_user_model):
    table = await sync_to_async(seat_people)(people)
    eve = await sync_to_async(django_user_model.objects.create_user)("eve")
    player = await Player.create(eve, table.pk)
    assert await player.connect()
    error = await player.receive()
    assert error["code"] == "no_seat"
    assert (await player.comm.receive_output(2))["code"] == 4403


async def test_no_table_here(people):
    player = await Player.create(people[0], 999999)
    assert await player.connect()
    assert (await player.receive())["code"] == "no_table"
