import pytest
from django.utils import timezone

from games import services, storage
from games.engine import Rules
from games.models import Action, Seat, Table
from games.services import ActionRejected
from tests.security.invariants import check_table


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("ann", password="pw-long-enough-1")


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user("bob", password="pw-long-enough-1")


def solo_table(host, **rules):
    table = services.create_table(host, Rules(**rules), seat_bots=[None, "easy", "easy", "easy"], seed=7)
    return services.start_table(table.pk)


@pytest.mark.django_db
def test_start_deals_and_computers_pass_at_once(player):
    table = solo_table(player)
    table.refresh_from_db()
    game = storage.game_of(table)
    assert table.status == Table.Status.PLAYING
    assert game.phase == "pass"
    assert game.to_act == (0,), "the three computers passed straight away"
    assert Action.objects.filter(table=table, actor=Action.Actor.BOT).count() == 3


@pytest.mark.django_db
def test_person_move_goes_through_engine_and_computers_answer(player):
    table = solo_table(player)
    table.refresh_from_db()
    game = storage.game_of(table)
    services.submit_action(table.pk, 0, [str(c) for c in game.legal(0)[:3]], user=player, expected_version=table.version)
    table.refresh_from_db()
    game = storage.game_of(table)
    assert game.phase == "play"
    assert game.to_act == (0,) or game.is_over is False
    # computers play until the person must act
    assert 0 in game.to_act


@pytest.mark.django_db
def test_illegal_move_is_rejected_with_the_engine_message_and_changes_nothing(player):
    rules = Rules(passing="none")
    table = services.create_table(player, rules, seat_bots=[None, "easy", "easy", "easy"], seed=1)
    table = services.start_table(table.pk)
    table.refresh_from_db()
    game = storage.game_of(table)
    assert game.to_act == (0,), "the computers play until the person must act"
    before = (table.version, table.ply)
    wrong = next(card for card in game.hands[0] if card not in game.legal(0))
    with pytest.raises(ActionRejected) as error:
        services.submit_action(table.pk, 0, str(wrong), user=player)
    assert error.value.code == "illegal"
    assert str(error.value) == game.why_illegal(0, wrong)
    table.refresh_from_db()
    assert (table.version, table.ply) == before


@pytest.mark.django_db
def test_stale_and_duplicate_moves_are_rejected(player):
    table = solo_table(player)
    table.refresh_from_db()
    game = storage.game_of(table)
    cards = [str(c) for c in game.legal(0)[:3]]
    version = table.version
    services.submit_action(table.pk, 0, cards, user=player, expected_version=version)
    table.refresh_from_db()
    after = (table.version, table.ply)
    with pytest.raises(ActionRejected) as error:
        services.submit_action(table.pk, 0, cards, user=player, expected_version=version)
    assert error.value.code == "stale"
    table.refresh_from_db()
    assert (table.version, table.ply) == after


@pytest.mark.django_db
def test_cannot_play_for_another_seat(player, other):
    table = solo_table(player)
    with pytest.raises(ActionRejected) as error:
        services.submit_action(table.pk, 0, ["2C", "3C", "4C"], user=other)
    assert error.value.code == "not_your_seat"


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["ZZ", "", 17, None, {"card": "QS"}, ["QS"] * 40, "x" * 10000])
def test_malformed_actions_get_a_clear_error(player, action):
    table = solo_table(player)
    with pytest.raises(ActionRejected) as error:
        services.submit_action(table.pk, 0, action, user=player)
    assert error.value.code == "illegal"
    assert len(str(error.value)) < 200


@pytest.mark.django_db
def test_a_computer_standing_in_plays_a_whole_game_to_the_end(player):
    table = services.create_table(player, Rules(target=30), seat_bots=[None, "easy", "easy", "easy"], seed=3)
    Seat.objects.filter(table=table, number=0).update(standing_in=True)
    services.start_table(table.pk)
    table.refresh_from_db()
    game = storage.game_of(table)
    assert table.status == Table.Status.FINISHED
    assert game.phase == "over" and game.winners
    assert Action.objects.filter(table=table).count() == table.version - 1
    assert Action.objects.filter(table=table, actor=Action.Actor.STANDIN).exists()
    check_table(table)  # the stored log replays to the game, and the row's summary is its
    assert (table.ply, table.scores, table.winners) == (game.ply, list(game.scores), list(game.winners))


@pytest.mark.django_db
def test_turn_timer_plays_for_a_person_who_runs_out_of_time(player):
    table = services.create_table(
        player, Rules(passing="none"), seat_bots=[None, "easy", "easy", "easy"], seed=11, turn_timer_seconds=30
    )
    services.start_table(table.pk)
    table.refresh_from_db()
    game = storage.game_of(table)
    seat = game.to_act[0]
    Seat.objects.filter(table=table).exclude(number=seat).update(bot_level="easy", user=None)
    Seat.objects.filter(table=table, number=seat).update(user=player, bot_level="")
    assert table.turn_deadline is not None
    remaining = (table.turn_deadline - timezone.now()).total_seconds()
    assert 25 < remaining <= 30
    deadline = table.turn_deadline.isoformat()
    # too early: nothing happens (the eagerly run timer task already found that out)
    assert services.turn_timed_out(table.pk, deadline) == 0
    past = table.turn_deadline - timezone.timedelta(seconds=31)
    Table.objects.filter(pk=table.pk).update(turn_deadline=past)
    assert services.turn_timed_out(table.pk, past.isoformat()) == 1
    assert Action.objects.filter(table=table, actor=Action.Actor.TIMEOUT, seat=seat).count() == 1
    # an old timer for a turn already played is ignored
    assert services.turn_timed_out(table.pk, past.isoformat()) == 0


@pytest.mark.django_db
def test_staff_can_abandon_a_game(player):
    table = solo_table(player)
    assert services.abandon_table(table.pk, "stuck") is True
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert services.abandon_table(table.pk, "again") is False
    with pytest.raises(ActionRejected):
        services.submit_action(table.pk, 0, ["2C", "3C", "4C"], user=player)


@pytest.mark.django_db
def test_rejected_actions_are_logged_without_cards(player, caplog):
    table = solo_table(player)
    with caplog.at_level("INFO", logger="games.services"):
        with pytest.raises(ActionRejected):
            services.submit_action(table.pk, 0, ["AS", "KS", "QS", "JS"], user=player)
    record = next(r for r in caplog.records if "action_rejected" in r.getMessage())
    message = record.getMessage()
    assert f"table={table.pk}" in message and "code=illegal" in message
    for card in ("AS", "KS", "QS", "JS"):
        assert card not in message


def broker(monkeypatch, task, up: bool, sent: list):
    """``task``'s sends reach a broker that is ``up`` (kept in ``sent``) or down."""
    from kombu.exceptions import OperationalError

    def send(*args, **kwargs):
        if not up:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append(kwargs)

    monkeypatch.setattr(task, "apply_async", send)


@pytest.fixture
def no_unsent_tasks():
    from hearts_site import taskrunner

    taskrunner._unsent.clear()
    yield
    taskrunner._unsent.clear()


@pytest.mark.django_db
def test_a_move_made_while_the_broker_is_down_keeps_its_computer_turn_until_the_broker_is_back(
    player, settings, monkeypatch, django_capture_on_commit_callbacks, no_unsent_tasks, caplog,
):
    from games.tasks import play_computer_turns_task
    from hearts_site import taskrunner

    table = solo_table(player)
    table.refresh_from_db()
    cards = [str(c) for c in storage.game_of(table).legal(0)[:3]]
    settings.TASK_RUNNER = "celery"
    sent = []
    broker(monkeypatch, play_computer_turns_task, up=False, sent=sent)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.submit_action(table.pk, 0, cards, user=player, expected_version=table.version)
    table.refresh_from_db()
    assert table.version == outcome.version and Action.objects.filter(table=table, seat=0).exists(), "the move stands"
    assert taskrunner.unsent() == 1 and not sent
    assert any("task_not_sent task=games.play_computer_turns" in r.getMessage() for r in caplog.records)

    assert taskrunner.resend_unsent() == 1, "still down: it waits"
    broker(monkeypatch, play_computer_turns_task, up=True, sent=sent)
    assert taskrunner.resend_unsent() == 0
    assert [message["args"] for message in sent] == [(table.pk, table.version)]
    assert abs((sent[0]["eta"] - timezone.now()).total_seconds()) < 5, "due when it was planned"


@pytest.mark.django_db(transaction=True)
def test_after_a_failed_send_the_next_tasks_wait_in_line_instead_of_each_trying_the_broker(
    settings, monkeypatch, no_unsent_tasks,
):
    from games.tasks import play_computer_turns_task
    from hearts_site import taskrunner

    settings.TASK_RUNNER = "celery"
    tries = []

    def down(*args, **kwargs):
        tries.append(kwargs["args"])
        raise ConnectionError("refused")

    monkeypatch.setattr(play_computer_turns_task, "apply_async", down)
    for version in range(5):
        taskrunner.schedule("games.play_computer_turns", 1, version)  # outside a transaction: sent at once
    assert tries == [(1, 0)], "one try, then the others wait their turn behind it"
    assert taskrunner.unsent() == 5
    monkeypatch.setattr(taskrunner, "_next_try", 0.0)
    sent = []
    monkeypatch.setattr(play_computer_turns_task, "apply_async", lambda **kwargs: sent.append(kwargs["args"]))
    taskrunner.schedule("games.play_computer_turns", 1, 5)
    assert sent == [(1, version) for version in range(6)], "in the order they were planned"
    assert taskrunner.unsent() == 0


@pytest.mark.django_db
def test_a_task_is_sent_only_once_its_transaction_commits_and_never_for_one_rolled_back(
    settings, monkeypatch, django_capture_on_commit_callbacks, no_unsent_tasks,
):
    from django.db import transaction

    from games.tasks import play_forced_card_task
    from hearts_site import taskrunner

    settings.TASK_RUNNER = "celery"
    sent = []
    broker(monkeypatch, play_forced_card_task, up=True, sent=sent)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            taskrunner.schedule("games.play_forced_card", 7, 3, countdown=2)
            assert sent == [], "not before the commit"
    assert [message["args"] for message in sent] == [(7, 3)]
    assert 1 < (sent[0]["eta"] - timezone.now()).total_seconds() <= 2

    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                taskrunner.schedule("games.play_forced_card", 7, 4)
                raise RuntimeError("the move failed")
    assert len(sent) == 1, "nothing sent for a transaction rolled back"


@pytest.mark.django_db
def test_a_pass_is_not_stale_because_others_passed_meanwhile(player, other):
    table = services.create_table(player, Rules(), seat_bots=[None, None, "easy", "easy"], seed=4)
    Seat.objects.filter(table=table, number=1).update(user=other)
    services.start_table(table.pk)
    table.refresh_from_db()
    seen = table.version  # both people look at the table now; the computers have passed
    game = storage.game_of(table)
    services.submit_action(table.pk, 1, [str(c) for c in game.legal(1)[:3]], user=other, expected_version=seen)
    services.submit_action(table.pk, 0, [str(c) for c in game.legal(0)[:3]], user=player, expected_version=seen)
    table.refresh_from_db()
    assert storage.game_of(table).phase == "play"
    # but a card played on a version from before those passes is stale
    with pytest.raises(ActionRejected) as error:
        seat = storage.game_of(table).to_act[0]
        services.submit_action(table.pk, seat, "2C", expected_version=seen)
    assert error.value.code == "stale"
