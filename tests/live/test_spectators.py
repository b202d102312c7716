"""Watching a live game without a seat: public information only, over whole games, in both
formats; a count of those watching; no effect on the game."""
import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import services, storage
from games.engine import Rules
from games.models import Table
from live import rooms
from live.consumers import PRESENCE_EVERY_SECONDS
from tests.live.conftest import Player, play_people_until_over, session_cookie
from tests.security.cards import final_trick_cards

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

NAMED = re.compile(r'(?:data-card|data-face|value)="([2-9TJQKA][CDHS])"')
MINI = re.compile(r'<span class="mini (?:red|black)">(10|[2-9JQKA])([♣♦♠♥])</span>')
SUITS = {"♣": "C", "♦": "D", "♠": "S", "♥": "H"}
VERSION = re.compile(r'<span id="t-state" hidden data-version="(\d+)"')


def named_cards(html: str) -> set[str]:
    minis = {("T" if rank == "10" else rank) + SUITS[suit] for rank, suit in MINI.findall(html)}
    return set(NAMED.findall(html)) | minis


def public_cards(game) -> set[str]:
    """The cards played this deal, the kitty and removed cards; while no trick of a new deal
    is taken, the last trick of the deal before (it is shown while the new one begins)."""
    view = game.public_view(0)
    known = set(view.played) | set(view.kitty) | set(view.removed)
    if game.deal_number > 1 and not view.tricks:
        known |= final_trick_cards(game, game.deal_number - 1)
    return {str(card) for card in known}


def play_whole_game(table_id) -> dict[int, set[str]]:
    """People play the game to its end; returns, by table version, the cards anyone may know."""
    public = {}
    play_people_until_over(table_id, each=lambda table, game: public.__setitem__(table.version, public_cards(game)))
    return public


def start_friend_table(people):
    """A started friend room of four people (not listed: watched through its link)."""
    table = services.create_table(people[0], Rules(target=40), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4, seed=8)
    for number, person in enumerate(people[1:], start=1):
        rooms.take_seat(table.pk, person, number)
    return services.start_table(table.pk)


async def frames_of(player, quiet: float = 3 * PRESENCE_EVERY_SECONDS) -> list:
    """Every frame the socket has been sent, until ``quiet`` seconds go by without one: a few
    times the presence throttle, whose news can come up to a period after the change (a quiet
    second was once too short on a busy machine: the watcher's news came after it)."""
    frames = []
    while not await player.comm.receive_nothing(quiet):
        output = await player.comm.receive_output()
        assert output["type"] == "websocket.send", output
        frames.append(output["text"])
    return frames


async def test_spectators_are_sent_only_public_information_over_a_whole_game(people, django_user_model, subscribe):
    eve = await sync_to_async(django_user_model.objects.create_user)("eve", display_name="Eve")
    await sync_to_async(subscribe)(eve)

    table = await sync_to_async(start_friend_table)(people)
    html = await Player.create(eve, table.pk, fmt="html")
    as_json = await Player.create(eve, table.pk, fmt="json")
    assert await html.connect() and await as_json.connect()
    first = await html.receive()
    assert 'id="table"' in first and "You are watching" in first and "1 watching" in first
    # The sockets have joined (a watcher's reads the watchers' chat too) before the game is
    # played on this test's one database thread.
    await html.drain()
    await as_json.drain()
    public = await sync_to_async(play_whole_game)(table.pk)
    assert len(public) > 100, "a whole game of several deals"

    html_frames = [first] + await frames_of(html)
    json_frames = [json.loads(text) for text in await frames_of(as_json)]
    checked = []
    for frame in html_frames:
        version = VERSION.search(frame)
        if version is None:
            assert not named_cards(frame), frame[:300]
            continue
        shown = named_cards(frame)
        assert shown <= public[int(version[1])], (int(version[1]), shown - public[int(version[1])])
        checked.append(int(version[1]))
    # A socket that falls behind is sent the newest table, not every version in between: how
    # many frames come depends on the machine's speed, so it is enough that they span the game.
    assert len(checked) > 20 and max(checked) == max(public), "frames from the start of the game to its end"
    for frame in json_frames:
        state = frame.get("state")
        if not state or not state["view"]:
            continue
        view = state["view"]
        assert (view["hand"], view["legal"], view["passed"], view["received"]) == ([], [], None, None)
        played = {card for trick in view["tricks"] for _, card in trick["plays"]} | {c for _, c in view["current_trick"]}
        assert played <= public[state["version"]]
    assert json_frames[-1]["state"]["status"] == "finished"
    await html.close()
    await as_json.close()


async def test_the_lobby_lists_games_being_played_and_a_watcher_sees_the_table(people, django_user_model, subscribe):
    def pages():
        from django.test import Client

        eve = django_user_model.objects.create_user("eve", display_name="Eve")
        subscribe(eve)
        table = services.create_table(people[0], Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None, None, "easy", "easy"],
                                      listed=True)  # offered to watchers (an unlisted room is not)
        rooms.take_seat(table.pk, people[1], 1)
        services.start_table(table.pk)
        client = Client()
        client.force_login(eve)
        lobby = client.get(reverse("live:lobby")).content.decode()
        room = client.get(reverse("live:room", args=[table.code])).content.decode()
        client.force_login(people[2])  # no live access
        refused = client.get(reverse("live:room", args=[table.code])).content.decode()
        return table, lobby, room, refused

    table, lobby, room, refused = await sync_to_async(pages)()
    watch = re.search(r'<section class="live-panel" id="games-to-watch">(.*?)</section>', lobby, re.S)[1]
    assert "Ann, Bob" in watch and reverse("live:room", args=[table.code]) in watch
    assert "You are watching" in room and 'class="playing-card legal"' not in room and "Leave game" not in room
    assert "You are watching" not in refused and "started without you" in refused


async def test_a_watcher_turns_the_table_to_any_seats_place_and_still_sees_only_public_cards(
        people, django_user_model, subscribe):
    eve = await sync_to_async(django_user_model.objects.create_user)("eve", display_name="Eve")
    await sync_to_async(subscribe)(eve)

    table = await sync_to_async(start_friend_table)(people)
    html = await Player.create(eve, table.pk, fmt="html")
    as_json = await Player.create(eve, table.pk, fmt="json")
    assert await html.connect() and await as_json.connect()
    first = await html.receive()
    assert "Watch from: <strong aria-current=\"true\">Ann</strong>" in first
    assert (await as_json.receive())["state"]["view"]["seat"] == 0
    await html.send({"action": "watch", "seat": "2"})
    turned = await html.receive_until(lambda f: isinstance(f, str) and 'id="table"' in f)
    assert '<strong aria-current="true">Cat</strong>' in turned
    assert not named_cards(turned) - public_cards(await sync_to_async(storage.game_of)(table))
    await as_json.send({"action": "watch", "seat": 3})
    state = await as_json.receive_until(lambda f: f.get("type") == "state")
    assert state["state"]["view"]["seat"] == 3 and state["state"]["view"]["hand"] == []
    await as_json.send({"action": "watch", "seat": 9})
    assert (await as_json.receive_until(lambda f: f.get("type") == "error"))["code"] == "malformed"
    # A seated player has a place of their own: they cannot look from another's.
    ann = await Player.create(people[0], table.pk)
    assert await ann.connect()
    await ann.receive()
    await ann.send({"action": "watch", "seat": 1})
    assert (await ann.receive_until(lambda f: f.get("type") == "error"))["code"] == "not_watching"
    for player in (html, as_json, ann):
        await player.close()


async def test_a_watcher_opening_and_closing_a_hundred_times_costs_a_player_a_few_frames(people, django_user_model,
                                                                                         subscribe):
    eve = await sync_to_async(django_user_model.objects.create_user)("eve", display_name="Eve")
    await sync_to_async(subscribe)(eve)
    table = await sync_to_async(start_friend_table)(people)
    ann = await Player.create(people[0], table.pk, fmt="html")
    assert await ann.connect()
    await ann.receive()
    await ann.drain()
    cookie = await sync_to_async(session_cookie)(eve)
    started = asyncio.get_running_loop().time()
    for index in range(100):
        watcher = await Player.create(eve, table.pk, fmt="html", cookie=cookie)
        assert await watcher.connect()
        await watcher.receive(timeout=10)
        if index < 99:
            await watcher.comm.disconnect()  # the last one stays
    seconds = asyncio.get_running_loop().time() - started
    frames = await frames_of(ann)
    print(f"100 watcher sockets in {seconds:.1f} s: {len(frames)} frames, {sum(map(len, frames))} bytes to a player")
    assert len(frames) <= seconds / PRESENCE_EVERY_SECONDS + 3, len(frames)
    # The last news is not lost: one is watching now, then no one, and the page says so.
    # (Which of the hundred brief visits a player sees depends on when presence is read.)
    bars = [frame for frame in frames if 'id="t-bar"' in frame]
    assert bars and "1 watching" in bars[-1], "the watcher still there is shown"
    await watcher.comm.disconnect()
    bars = [frame for frame in await frames_of(ann) if 'id="t-bar"' in frame]
    assert bars and "watching" not in bars[-1], "and then no one watching"
