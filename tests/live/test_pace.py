"""A solo table's speed governs its computers: the pause before each computer card follows the
pace the player chose (slow, normal, fast, instant: ``games.table.protocol.PACES``), and a click asks
the computers to play at once. Live tables keep one pace for everyone."""
import pytest
from asgiref.sync import sync_to_async

from games import services, storage
from games.engine import Rules
from games.models import Table
from games.table.protocol import PACES
from tests.live.conftest import Player, seat_people

pytestmark = pytest.mark.django_db(transaction=True)


def solo_table(user, **kwargs):
    table = services.create_table(user, Rules(passing="none"), seat_bots=[None, "easy", "easy", "easy"], seed=4)
    return services.start_table(table.pk)


@pytest.fixture
def planned(monkeypatch):
    """The computer turns planned (task, countdown), instead of being run."""
    calls = []
    monkeypatch.setattr(services, "schedule", lambda name, *args, countdown=0, **kw: calls.append((name, countdown)))
    return calls


@pytest.mark.parametrize("pace", list(PACES))
def test_the_pause_before_a_computer_card_follows_the_pace(people, settings, planned, pace):
    settings.BOT_DELAY_SECONDS = 0.8
    table = solo_table(people[0])
    Table.objects.filter(pk=table.pk).update(pace=pace)
    table.refresh_from_db()
    game = storage.game_of(table)
    assert game.phase == "play" and game.to_act != (0,), "a computer leads (seed 4)"
    planned.clear()
    services.plan_next(table, game)
    pauses = [countdown for name, countdown in planned if name == "games.play_computer_turns"]
    assert pauses == [pytest.approx(0.8 * PACES[pace])]


async def test_the_player_sets_the_pace_over_the_socket_and_bad_paces_are_refused(people):
    ann = people[0]
    table = await sync_to_async(solo_table)(ann)
    player = await Player.create(ann, table.pk)
    assert await player.connect()
    await player.receive()
    await player.send({"action": "pace", "pace": "instant"})
    await player.send({"action": "pace", "pace": "warp"})
    refused = await player.receive()
    assert refused["type"] == "error" and "slow, normal, fast or instant" in refused["message"]
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).pace == "instant"
    await player.comm.disconnect()


def test_live_tables_keep_one_pace_and_strangers_cannot_set_one(people):
    live = seat_people(people)
    with pytest.raises(services.ActionRejected, match="one pace for everyone"):
        services.set_pace(live.pk, people[0], "fast")
    table = solo_table(people[0])
    with pytest.raises(services.ActionRejected):
        services.set_pace(table.pk, people[1], "fast")
    assert Table.objects.get(pk=table.pk).pace == "normal"


def test_hurry_plays_the_computers_to_act_at_once(people, settings, planned):
    settings.BOT_DELAY_SECONDS = 0.8
    table = solo_table(people[0])
    planned.clear()
    assert services.hurry(table.pk, people[0])
    assert planned == [("games.play_computer_turns", 0)]
    assert not services.hurry(table.pk, people[1]), "only the table's player"
