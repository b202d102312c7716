"""The table's socket in the HTML format browsers use: the whole table once, then only the
parts that changed; solo tables over the same socket; presence pushed; no hidden card in
any part."""
import asyncio
import re
from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async

from games import bots, services, storage
from games.engine import Rules
from games.models import Table
from games.presenters import draw_table
from games.table.history import initial_game
from games.table.drawing import changed_parts
from live.consumers import CLOSE_FORBIDDEN, PRESENCE_EVERY_SECONDS
from tests.live.conftest import Player, seat_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PART = re.compile(r'<(?:div|span|table) id="(t-[\w-]+)"')
CARD_NAMED = re.compile(r'(?:data-card|data-face|value)="([2-9TJQKA][CDHS])"')


def parts_in(frame: str) -> set[str]:
    return set(PART.findall(frame))


def game_now(table_id):
    return storage.game_of(Table.objects.get(pk=table_id))


async def html_players(users, table_id):
    players = []
    for user in users:
        player = await Player.create(user, table_id, fmt="html")
        assert await player.connect()
        assert 'id="table"' in await player.receive(), "the whole table first"
        players.append(player)
    # Everyone's arrival is news to the others, sent at most once a second: let it all come.
    await asyncio.sleep(PRESENCE_EVERY_SECONDS * 1.5)
    for player in players:
        await player.drain()
    return players


async def frame_with(player, text, timeout=3):
    return await player.receive_until(lambda frame: isinstance(frame, str) and text in frame, timeout=timeout)


async def test_only_parts_that_differ_are_sent_and_a_new_set_of_parts_sends_the_whole_table():
    sent = {"t-a": "<div id=\"t-a\">1</div>", "t-b": "<div id=\"t-b\">2</div>"}
    assert changed_parts(sent, dict(sent)) == ""
    assert changed_parts(sent, dict(sent, **{"t-b": "<div id=\"t-b\">3</div>"})) == "<div id=\"t-b\">3</div>"
    assert changed_parts(sent, {"t-a": sent["t-a"]}) is None
    assert changed_parts({}, sent) is None


async def test_another_seats_pass_sends_its_plate_not_my_hand_and_no_part_shows_a_hidden_card(people):
    table = await sync_to_async(seat_people)(people, rules=Rules())  # deal 1 passes left
    players = await html_players(people, table.pk)
    game = await sync_to_async(game_now)(table.pk)

    # Bob passes: Ann is sent Bob's plate ("passed") and the version, not her own hand, so
    # the cards she is choosing stay ticked in her browser.
    bob_cards = [str(card) for card in game.hands[1][:3]]
    await players[1].send({"action": "pass", "cards": bob_cards, "version": table.version})
    frame = await frame_with(players[0], f'data-version="{table.version + 1}"')
    assert 'id="t-seat-1"' in frame and '<span class="plate-flag">passed</span>' in frame
    assert "t-me" not in parts_in(frame) and 'id="table"' not in frame
    assert len(frame.encode()) < 2000, len(frame.encode())
    for card in bob_cards:
        assert card not in CARD_NAMED.findall(frame), "nobody is told what Bob passed"

    for seat in (0, 2, 3):
        version = (await sync_to_async(Table.objects.get)(pk=table.pk)).version
        cards = [str(card) for card in game.hands[seat][:3]]
        await players[seat].send({"action": "pass", "cards": cards, "version": version})
        await frame_with(players[seat], f'data-version="{version + 1}"')
    for _ in range(8):  # two tricks
        game = await sync_to_async(game_now)(table.pk)
        version = (await sync_to_async(Table.objects.get)(pk=table.pk)).version
        seat = game.to_act[0]
        await players[seat].send({"action": "play", "card": str(game.legal(seat)[0]), "version": version})
        for player in players:
            await frame_with(player, f'data-version="{version + 1}"')

    final = await sync_to_async(Table.objects.get)(pk=table.pk)
    saved = await sync_to_async(storage.saved_game)(final)
    dealt = initial_game(saved).hands
    game = await sync_to_async(game_now)(table.pk)
    played = {entry["action"] for entry in saved["log"] if isinstance(entry["action"], str)}
    for number, player in enumerate(players):
        seen = set()
        for frame in player.frames:
            if isinstance(frame, str):
                seen |= set(CARD_NAMED.findall(frame))
        received = {str(card) for card in game.view(number).received or ()}
        allowed = {str(card) for card in dealt[number]} | received | played
        assert seen <= allowed, f"seat {number} was sent {sorted(seen - allowed)}"
        assert len(seen - {str(card) for card in dealt[number]}) > 0, "the check saw other seats' played cards"
    for player in players:
        await player.close()


async def test_presence_is_pushed_when_a_socket_opens_and_closes(people):
    table = await sync_to_async(seat_people)(people, rules=Rules(passing="none"))
    ann, = await html_players(people[:1], table.pk)
    bob = await Player.create(people[1], table.pk, fmt="html")
    assert await bob.connect()
    online = await frame_with(ann, 'id="t-seat-1"', timeout=2)
    assert "online" in online.split('id="t-seat-1"')[1].split("</div>\n    </div>")[0]
    assert "t-state" not in parts_in(online), "presence is not a new version"
    await bob.close()
    offline = await frame_with(ann, 'id="t-seat-1"', timeout=2)
    assert 'class="presence">offline' in offline
    await ann.close()


def solo_table(user, **rules):
    table = services.create_table(user, Rules(**rules), kind=Table.Kind.SOLO,
                                  seat_bots=[None, "easy", "easy", "easy"], seed=3)
    services.start_table(table.pk)
    table.refresh_from_db()
    return table


async def test_a_solo_table_is_played_over_its_socket_by_its_player_only(people):
    ann_user, bob_user = people[:2]
    table = await sync_to_async(solo_table)(ann_user)
    stranger = await Player.create(bob_user, table.pk, fmt="html")
    assert await stranger.connect()
    refused = await stranger.receive()
    assert 'data-code="no_seat"' in refused
    assert (await stranger.comm.receive_output(2))["code"] == CLOSE_FORBIDDEN

    ann, = await html_players([ann_user], table.pk)
    game = await sync_to_async(game_now)(table.pk)
    await ann.send({"action": "hint"})
    hinted = await frame_with(ann, 'class="hint-box"')
    assert "t-me" in parts_in(hinted), "the hinted cards are marked in the hand"
    cards = [str(card) for card in game.hands[0][:3]]
    await ann.send({"action": "pass", "cards": cards, "version": table.version})
    # the computers' passes and plays are pushed until it is Ann's turn to play
    turn = await frame_with(ann, 'data-my-turn="1" data-over="0"', timeout=10)
    assert 'id="t-hint"></div>' in "".join(f for f in ann.frames if isinstance(f, str)), "the hint went"
    assert 'data-phase="play"' in turn

    # the same move again (a double click): nothing changes and no notice is shown
    await ann.send({"action": "pass", "cards": cards, "version": table.version})
    await asyncio.sleep(0.3)
    late = [frame for frame in await ann.drain() if isinstance(frame, str)]
    assert not any("data-code=" in frame for frame in late), late
    await ann.close()


async def test_a_notice_is_cleared_by_the_next_change(people):
    table = await sync_to_async(seat_people)(people, rules=Rules(passing="none"))
    players = await html_players(people, table.pk)
    game = await sync_to_async(game_now)(table.pk)
    waiting = next(number for number in range(4) if number not in game.to_act)
    await players[waiting].send({"action": "play", "card": str(game.hands[waiting][0]), "version": table.version})
    notice = await frame_with(players[waiting], 'id="live-error"')
    assert "turn" in notice.lower()
    seat = game.to_act[0]
    await players[seat].send({"action": "play", "card": str(game.legal(seat)[0]), "version": table.version})
    cleared = await frame_with(players[waiting], f'data-version="{table.version + 1}"')
    assert '<div id="live-error" class="live-error" role="alert" hx-swap-oob="true"></div>' in cleared
    for player in players:
        await player.close()


class Element:
    """A parsed HTML element: enough of a DOM to apply a frame the way games/table.js does."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []

    def find(self, element_id):
        if self.attrs.get("id") == element_id:
            return self
        for child in self.children:
            found = child.find(element_id) if isinstance(child, Element) else None
            if found is not None:
                return found
        return None

    def remove(self, element_id) -> bool:
        """Take out the element with that id, wherever it is below this one."""
        for index, child in enumerate(self.children):
            if isinstance(child, Element):
                if child.attrs.get("id") == element_id:
                    del self.children[index]
                    return True
                if child.remove(element_id):
                    return True
        return False

    def shape(self):
        return (self.tag, sorted(self.attrs.items()),
                [child.shape() if isinstance(child, Element) else child.strip() for child in self.children
                 if isinstance(child, Element) or child.strip()])


def parse(html: str) -> Element:
    root = Element("root", {})
    stack = [root]

    class Builder(HTMLParser):
        def handle_starttag(self, tag, attrs):
            element = Element(tag, attrs)
            stack[-1].children.append(element)
            if tag not in Element.VOID:
                stack.append(element)

        def handle_endtag(self, tag):
            while stack[-1].tag != tag:
                stack.pop()
            stack.pop()

        def handle_data(self, data):
            stack[-1].children.append(data)

    Builder().feed(html)
    return root


def apply_frame(page: Element, frame: str) -> None:
    """``frame`` swapped into ``page`` as ``games/table.js`` has htmx swap it: each top element
    is an out-of-band swap of the element with its id, ``outerHTML`` unless its
    ``hx-swap-oob`` names ``beforeend`` (its children added at the end) or ``delete``."""
    for incoming in parse(frame).children:
        if not isinstance(incoming, Element):
            continue
        swap = incoming.attrs.pop("hx-swap-oob", "true")
        assert swap in ("true", "beforeend", "delete"), swap
        if swap == "delete":
            assert page.remove(incoming.attrs["id"]), f"{incoming.attrs['id']} was on the page"
            continue
        current = page.find(incoming.attrs["id"])
        if swap == "beforeend":
            current.children.extend(incoming.children)
        else:
            current.tag, current.attrs, current.children = incoming.tag, incoming.attrs, incoming.children


async def test_cards_added_to_the_trick_and_pieces_of_the_hand_and_plates_are_sent_alone_and_make_the_same_table(people):
    await sync_to_async(play_and_apply_frames)(people)


def play_and_apply_frames(people):
    table = seat_people(people, rules=Rules(passing="none"))
    drawn = draw_table(storage.load(table.pk), 0)
    page = parse(drawn.whole())
    sent = drawn.parts
    appended = pieces = 0
    for move in range(20):
        snapshot = storage.load(table.pk)
        seat = snapshot.game.to_act[0]
        action = bots.choose_action(snapshot.game.view(seat), "easy", seed=move)
        services.submit_action(table.pk, seat, action, expected_version=snapshot.version)
        drawn = draw_table(storage.load(table.pk), 0)
        frame = changed_parts(sent, drawn.parts)
        if 'hx-swap-oob="beforeend"' in frame:
            appended += 1
            assert 'id="t-centre"' not in frame, "the centre is not sent again"
        if 'id="card-' in frame or 'hx-swap-oob="delete"' in frame:
            pieces += 1
            assert 'id="t-me"' not in frame, "the hand is not sent again"
        assert not re.search(r'id="t-seat-\d"', frame), "a plate changes by its pieces alone"
        apply_frame(page, frame)
        # every part as a fresh drawing has it (#table's own attributes follow t-state: the script)
        for part, html in drawn.parts.items():
            assert page.find(part).shape() == parse(html).children[0].shape(), f"{part} after move {move + 1}"
        sent = drawn.parts
    assert appended == 15, "the second, third and fourth cards of each of the 5 tricks are sent alone"
    assert pieces >= 10, "your turn coming and going, and your cards played, change cards of the hand alone"
