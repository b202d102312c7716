"""Leaving a live game for good (``live.rooms.resign``): the leaver sees nothing more of the
seat's cards (games.table.conduct, rule 1), and the result ranks them last everywhere it is told
(rules 3 and 4): the game-over panel, My games, the stored winners and the ratings."""
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import presenters, services, storage
from games.engine import Game, Rules
from games.models import Action, Table
from live import chat, rooms
from ratings.models import RatingChange
from tests.live.conftest import Player, play_people_until_over, seat_people
from tests.live.test_spectators import VERSION, frames_of, named_cards, public_cards


def public_cards_by_version(table_id):
    """``public(version)``: the cards anyone may know at that version of the table (replayed
    from its stored log; a version no action made, such as a seat changing hands, is the
    position of the action before it)."""
    table = Table.objects.get(pk=table_id)
    versions = list(Action.objects.filter(table=table).order_by("ply").values_list("version", flat=True))
    positions = list(Game.replay(storage.saved_game(table)))
    known = [(0, public_cards(positions[0]))] + [
        (version, public_cards(position)) for version, position in zip(versions, positions[1:])]

    def public(version):
        return [cards for made, cards in known if made <= version][-1]
    return public


def leaver_of(table_id) -> int:
    """The seat whose person is to act now (it is their turn)."""
    return storage.game_of(Table.objects.get(pk=table_id)).to_act[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_leaver_is_sent_only_public_information_for_the_rest_of_the_game(people):
    # Passing on: the computer passes for the leaver and receives cards the leaver must not see.
    table = await sync_to_async(seat_people)(people, rules=Rules(target=40), seed=8)
    leaver = await sync_to_async(leaver_of)(table.pk)
    person = people[leaver]
    as_json = await Player.create(person, table.pk, fmt="json")
    as_html = await Player.create(person, table.pk, fmt="html")
    assert await as_json.connect() and await as_html.connect()
    first = await as_json.receive()
    assert len(first["state"]["view"]["hand"]) == 13, "before leaving, the seat's own hand"
    first_html = await as_html.receive()
    assert len(named_cards(first_html)) >= 13
    await as_json.drain()
    await as_html.drain()

    assert await sync_to_async(rooms.resign)(table.pk, person)
    await sync_to_async(play_people_until_over)(table.pk)
    public = await sync_to_async(public_cards_by_version)(table.pk)

    json_frames = [json.loads(text) for text in await frames_of(as_json)]
    states = [frame["state"] for frame in json_frames if "state" in frame]
    assert len(states) > 50, "the leaver may go on looking at the table"
    for state in states:
        view = state["view"]
        assert state["seat"] is None and view["seat"] == leaver, "from their old place, with no seat to play"
        assert view["hand"] == [] and view["legal"] == [] and view["passed"] is None and view["received"] is None
    html_frames = await frames_of(as_html)
    checked = 0
    for frame in html_frames:
        version = VERSION.search(frame)
        if version is None:
            assert not named_cards(frame), frame[:300]
            continue
        assert named_cards(frame) <= public(int(version[1]))
        checked += 1
    assert checked > 50
    await as_json.close()
    await as_html.close()


@pytest.mark.django_db(transaction=True)
def test_a_leavers_room_page_shows_no_hidden_card_and_they_chat_with_the_watchers(people):
    table = seat_people(people, rules=Rules(target=40), seed=8)
    leaver = leaver_of(table.pk)
    person = people[leaver]
    client = Client()
    client.force_login(person)
    hand = {str(card) for card in storage.game_of(Table.objects.get(pk=table.pk)).hands[leaver]}
    page = client.get(reverse("live:room", args=[table.code])).content.decode()
    assert hand <= named_cards(page), "seated: their own hand"
    rooms.resign(table.pk, person)
    page = client.get(reverse("live:room", args=[table.code])).content.decode()
    assert not named_cards(page) & hand, "left: none of the seat's cards"
    assert "Watchers' chat" in page, "they watch now: the players' chat is not theirs any more"
    assert chat.post_chat(table.pk, person, "hello").watchers
    assert not chat.chat_lines(table.pk), "the players do not see it"


def play_to_the_last_trick_of_the_game(table_id):
    """People play (as the Medium computer would) until the last trick of the deal that ends
    the game is about to be led, every card of it forced; returns the final scores then."""
    for _ in range(3000):
        table = Table.objects.get(pk=table_id)
        game = storage.game_of(table)
        assert table.status == Table.Status.PLAYING
        if game.phase == "play" and not game.view(0).current_trick and all(
                size == 1 for size in game.view(0).hand_sizes):
            rest = game.copy()
            while rest.phase not in ("over",) and rest.deal_number == game.deal_number:
                seat = rest.to_act[0]
                rest.apply(seat, "add" if rest.phase == "moon_choice" else rest.legal(seat)[0])
            if rest.phase == "over":
                return list(rest.scores)
        number = game.to_act[0]
        seat = table.seats.get(number=number)
        action = services.computer_action(game.view(number), "medium", table, number)
        services.submit_action(table_id, number, action, expected_version=table.version, user=seat.user)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_a_leaver_with_the_lowest_score_is_not_the_winner_anywhere(people):
    table = services.create_table(people[0], Rules(target=30, passing="none", ties="share"),
                                  kind=Table.Kind.FRIENDS, seat_bots=[None] * 4, rated=True, seed=4)
    for number, person in enumerate(people[1:], start=1):
        rooms.take_seat(table.pk, person, number)
    services.start_table(table.pk)
    final = play_to_the_last_trick_of_the_game(table.pk)
    leaver = final.index(min(final))  # they would win: they leave before the last trick
    rooms.resign(table.pk, people[leaver])
    table = play_people_until_over(table.pk)
    assert table.status == Table.Status.FINISHED and table.scores == final

    stayed = [seat for seat in range(4) if seat != leaver]
    best = min(final[seat] for seat in stayed)
    winners = [seat for seat in stayed if final[seat] == best]
    assert table.winners == winners
    assert table.seats.get(number=leaver).counted_as_left

    snapshot = storage.load(table.pk)
    for seat in range(4):
        over = presenters.table_context(snapshot, seat)["game_over"]
        assert over["winners"] == [("You" if s == seat else people[s].display_name) for s in winners]
        assert people[leaver].display_name not in over["winners_text"]
        last = over["standings"][-1]
        assert last["left"] and last["place"] == 4 and not last["won"]
    assert presenters.table_context(snapshot, leaver)["game_over"]["winners_text"] != "You win!"
    html = presenters.render_table(snapshot, winners[0])
    assert "· left the game" in html

    ranks = {change.user_id: change.rank for change in RatingChange.objects.all()}
    assert ranks[people[leaver].pk] == 4
    assert all(ranks[people[seat].pk] == 1 for seat in winners)

    client = Client()
    client.force_login(people[leaver])
    assert "You won" not in client.get(reverse("solo:my_games")).content.decode()
    client.force_login(people[winners[0]])
    assert "You won" in client.get(reverse("solo:my_games")).content.decode()
