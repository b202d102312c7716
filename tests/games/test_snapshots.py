"""games.storage (snapshots): a table's game is worked out once per process and version, moves start
from it without reading the stored log, and it is never trusted for a row that changed."""
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import presenters, services, storage
from games.engine import Game, Rules
from games.models import Action, Table
from games.table.history import game_with_history
from live import rooms


@pytest.fixture
def four(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("ann", "bob", "cat", "dan")]


def people_table(users, seed=11, **rules):
    table = services.create_table(users[0], Rules(**rules), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4, seed=seed)
    for number, user in enumerate(users[1:], start=1):
        rooms.take_seat(table.pk, user, number)
    services.start_table(table.pk)
    return Table.objects.get(pk=table.pk)


def play_moves(table_id, count, rng):
    """Random legal moves through the one code path; returns the table afterwards."""
    for _ in range(count):
        table = Table.objects.get(pk=table_id)
        game = storage.game_from_log(table)
        seat = game.to_act[0]
        legal = game.legal(seat)
        if game.phase == "pass":
            move = [str(card) for card in rng.sample(legal, 3)]
        elif game.phase == "moon_choice":
            move = "add"
        else:
            move = str(rng.choice(legal))
        services.submit_action(table_id, seat, move, expected_version=table.version)
    return Table.objects.get(pk=table_id)


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_move_from_a_kept_snapshot_does_not_read_the_stored_game(four):
    table = play_moves(people_table(four).pk, 6, random.Random(1))
    game = storage.game_from_log(table)
    seat = game.to_act[0]
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(table.pk, seat, str(game.legal(seat)[0]), expected_version=table.version)
    reads_of_log = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"games_action"' in q["sql"]]
    assert reads_of_log == [], "the locked row's game came from the snapshot"
    statements = [sql.split()[0] for q in queries for sql in q["sql"].split(";")]  # some sent together
    statements = [word for word in statements if word not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]
    assert statements == ["SELECT", "SELECT", "INSERT", "UPDATE"], statements  # table, seats, log, table


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_move_reads_of_each_person_only_what_the_table_shows(four):
    table = play_moves(people_table(four, passing="none").pk, 2, random.Random(1))
    game = storage.game_from_log(table)
    seat = game.to_act[0]
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(table.pk, seat, str(game.legal(seat)[0]), expected_version=table.version)
    (seats_query,) = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"games_seat"' in q["sql"]]
    assert '"accounts_user"."display_name"' in seats_query
    for column in ("password", "email", "last_login", "date_joined"):
        assert f'"accounts_user"."{column}"' not in seats_query
    assert "JOIN \"games_table\"" not in seats_query, "the seats of one table need no join to order them"
    names = [seat.user.public_name for seat in storage.cached(table.pk).seats]
    assert names == [user.public_name for user in four]


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_snapshots_along_a_game_equal_a_replay_of_the_stored_log(four):
    rng = random.Random(2)
    table = people_table(four, passing="standard")
    snapshot = storage.load(table.pk)
    assert snapshot.steps == [], "no move yet"
    for _ in range(5):
        table = play_moves(table.pk, 17, rng)
        snapshot = storage.load(table.pk)
        replayed, steps = game_with_history(storage.saved_game(table))
        assert snapshot.version == table.version
        assert snapshot.game.to_dict() == replayed.to_dict() == storage.game_from_log(table).to_dict()
        assert snapshot.steps == steps


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_table_moved_on_elsewhere_is_brought_up_to_date_from_its_log(four):
    rng = random.Random(3)
    table = play_moves(people_table(four).pk, 5, rng)
    old = storage.load(table.pk)
    old.steps  # worked out, so the newer steps are added to them
    table = play_moves(table.pk, 9, rng)
    storage.forget(table.pk)
    storage.remember(old)  # as if the nine moves were made by another process
    assert storage.cached(table.pk).version == old.version
    with CaptureQueriesContext(connection) as queries:
        newer = storage.load(table.pk)
    (log_read,) = [q["sql"] for q in queries if '"games_action"' in q["sql"]]
    assert '"games_action"."ply" > 4' in log_read, "only the moves the kept game has not seen (and its last)"
    assert newer.version == table.version
    assert newer.game.to_dict() == storage.game_from_log(table).to_dict()
    assert newer.steps == game_with_history(storage.saved_game(table))[1]


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_row_saved_behind_the_snapshots_back_is_read_again(four):
    table = play_moves(people_table(four).pk, 3, random.Random(4))
    assert storage.load(table.pk).game.ply == 3
    # An operator rewinds the game one move in a database shell: same version, new updated_at.
    Action.objects.filter(table=table, ply=3).delete()
    table.ply = 2
    table.save()
    assert storage.load(table.pk).game.ply == 2
    assert storage.game_of(Table.objects.get(pk=table.pk)).ply == 2


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_rejected_move_leaves_the_kept_snapshot_whole(four):
    table = play_moves(people_table(four, passing="none").pk, 1, random.Random(5))  # 2♣ led
    kept = storage.load(table.pk)
    game = storage.game_from_log(table)
    seat = game.to_act[0]
    wrong = next(card for card in game.hands[seat] if card.suit != "C")
    with pytest.raises(services.ActionRejected):
        services.submit_action(table.pk, seat, str(wrong), expected_version=table.version)
    assert storage.cached(table.pk) is kept
    assert kept.table.version == kept.version == table.version
    assert kept.game.to_dict() == storage.game_from_log(table).to_dict()


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_every_seat_is_drawn_from_one_snapshot_without_replaying(four, monkeypatch):
    table = play_moves(people_table(four).pk, 30, random.Random(6))
    snapshot = storage.load(table.pk)
    snapshot.steps
    replays = []
    monkeypatch.setattr(Game, "from_dict", classmethod(lambda cls, d: replays.append(d)))
    monkeypatch.setattr(storage, "game_with_history", lambda state: replays.append(state))
    with CaptureQueriesContext(connection) as queries:
        pages = [presenters.render_table(snapshot, seat) for seat in range(4)]
    assert replays == [] and len(queries) == 0
    assert all('id="table"' in page for page in pages)


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_move_reuses_the_kept_seats_until_a_seat_changes(four):
    from games.models import Seat

    table = play_moves(people_table(four, passing="none").pk, 2, random.Random(7))
    kept = storage.cached(table.pk)
    table = play_moves(table.pk, 1, random.Random(7))
    after = storage.cached(table.pk)
    assert after.version == kept.version + 1
    assert all(new is old for new, old in zip(after.seats, kept.seats)), "no seat changed: no new seat objects"

    # A socket opens: a seat changes without a new version; the next move sees it.
    assert after.seats[2].connected is False
    Seat.objects.filter(table=table, number=2).update(connected=True)
    table = play_moves(table.pk, 1, random.Random(7))
    changed = storage.cached(table.pk)
    assert changed.seats[2] is not after.seats[2] and changed.seats[2].connected is True

    # A person renames themselves: the table shows the new name at the next move.
    four[1].display_name = "Bobby <b>"
    four[1].save()
    table = play_moves(table.pk, 1, random.Random(7))
    renamed = storage.cached(table.pk)
    assert renamed.seats[1].user.public_name == "Bobby <b>"
    assert "Bobby &lt;b&gt;" in presenters.render_table(renamed, 0)


@pytest.mark.django_db
def test_the_seat_columns_compared_are_every_column_of_a_seat_and_what_the_name_shown_is_made_of(four):
    from games.models import Seat

    table = people_table(four)
    seats = storage.read_seats(table)
    assert [seat.number for seat in seats] == [0, 1, 2, 3]
    columns = [field.attname for field in Seat._meta.concrete_fields] + ["username", "display_name", "is_guest"]
    assert [len(row) for row in seats.rows] == [len(columns)] * 4
    first = dict(zip(columns, seats.rows[0]))
    assert (first["id"], first["table_id"], first["number"], first["username"], first["is_guest"]) == (seats[0].pk, table.pk, 0, "ann", False)


@pytest.mark.django_db(transaction=True)  # snapshots are kept when a move commits
def test_a_move_locks_the_table_row_for_update_and_reads_its_seats_and_writes_in_two_exchanges(four):
    if not connection.features.has_select_for_update:
        pytest.skip(f"{connection.vendor} has no SELECT ... FOR UPDATE (a write locks the whole database)")
    table = play_moves(people_table(four, passing="none").pk, 1, random.Random(8))
    game = storage.game_from_log(table)
    seat = game.to_act[0]
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(table.pk, seat, str(game.legal(seat)[0]), expected_version=table.version)
    sent = [query["sql"] for query in queries if query["sql"] not in ("BEGIN", "COMMIT")]
    assert sent[0].startswith("SELECT") and '"games_table"' in sent[0] and "FOR UPDATE" in sent[0], sent[0]
    # Sent together (games.storage.statements.run_together): the lock and the seats, then the action
    # and the row, besides BEGIN and COMMIT.
    assert sent[0].count(";") == 1 and '"games_seat"' in sent[0].split(";")[1], sent[0]
    assert sent[1].startswith('INSERT INTO "games_action"') and 'UPDATE "games_table"' in sent[1], sent[1]


@pytest.mark.django_db
@pytest.mark.parametrize("refusal", ["game_over", "stale", "not_your_seat"])
def test_a_refused_move_never_works_out_the_game(four, monkeypatch, refusal):
    """A move is checked against the locked row and seats first: one refused there does not
    replay the stored game under the lock (here no process has the table cached)."""
    table = play_moves(people_table(four).pk, 3, random.Random(2))
    game = storage.game_from_log(table)
    seat = game.to_act[0]
    version, user = table.version, four[seat]
    if refusal == "game_over":
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    elif refusal == "stale":
        version -= 2
    else:
        user = four[(seat + 1) % 4]
    storage.forget(table.pk)

    def replay(table):
        raise AssertionError("the stored game was replayed for a refused move")

    monkeypatch.setattr(storage, "game_from_log", replay)
    with pytest.raises(services.ActionRejected) as refused:
        services.submit_action(table.pk, seat, str(game.legal(seat)[0]), expected_version=version, user=user)
    assert refused.value.code == refusal


@pytest.mark.django_db
def test_locking_a_table_that_is_not_there_says_so():
    from django.db import transaction

    with transaction.atomic(), pytest.raises(Table.DoesNotExist, match="no table 424242"):
        storage.lock_row(424242)


@pytest.mark.django_db
def test_seats_written_while_they_are_read_are_not_reused_later(four, monkeypatch):
    from games.models import Seat

    table = people_table(four)
    storage.forget(table.pk)
    query = storage._seats_query

    def written_meanwhile(table_id):
        Seat.objects.filter(table_id=table_id, number=2).update(connected=True)  # a socket opens
        return query(table_id)

    monkeypatch.setattr(storage, "_seats_query", written_meanwhile)
    seats = storage.read_seats(table)
    assert seats[2].connected is True
    assert seats.rows is None, "the columns read first are older than these objects"
    monkeypatch.setattr(storage, "_seats_query", query)

    storage.of_row(table, seats)  # kept with nothing to compare
    Seat.objects.filter(table_id=table.pk, number=2).update(connected=False)  # back as first read
    assert storage.read_seats(table)[2].connected is False


@pytest.mark.django_db
def test_a_row_read_just_before_moves_still_makes_the_game_it_stood_for(four):
    """A page reads the row, computers move, then the page reads the log: it draws the game
    of the row it read (the newer actions are the next rows'), not an error."""
    table = play_moves(people_table(four).pk, 5, random.Random(9))
    read = Table.objects.get(pk=table.pk)
    newer = play_moves(table.pk, 3, random.Random(9))
    assert (read.ply, newer.ply) == (5, 8)
    assert storage.game_from_log(read).to_dict() == Game.from_dict(dict(storage.saved_game(newer), log=storage.log_of(newer)[:5], ply=5)).to_dict()
    storage.forget()
    assert storage.of_row(read).game.ply == 5
