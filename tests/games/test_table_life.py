"""The table's life (``games.table.conduct.step``) as a state machine: hypothesis drives a table
through moves, timeouts, drops, returns, leaving and outages in any order, and after every step
the rules of conduct must hold."""
from dataclasses import replace

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from games.table import conduct
from games.table.conduct import (
    Began, CameBack, GraceOver, Moved, OutageNoticed, Presence, Resigned, SeatState, SocketOpened,
    SocketsClosed, TableLife, Timing, private_seat, step,
)

PEOPLE = {0: 70, 1: 71, 2: 72}  # seat 3 is a computer's
TIMING = Timing(turn=30, arrival_grace=20, reconnect_grace=15)


class TableLifeMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        seats = tuple(SeatState(number, PEOPLE.get(number), connected=False) for number in range(4))
        self.now = 1000.0
        self.life = TableLife(seats, timing=TIMING)
        self.left: set[int] = set()
        self.timeouts = {number: 0 for number in PEOPLE}
        self.apply(Began(to_act=(0, 1, 2, 3), passing=True, ply=0))

    def apply(self, command):
        before = self.life
        result = step(before, command, self.now)
        if not conduct.needs_who_acts(before, command):  # the server then does not read the game
            blind = step(replace(before, to_act=(), passing=not before.passing), command, self.now)
            assert replace(blind.life, to_act=before.to_act, passing=before.passing) == result.life
            assert (blind.events, blind.deadlines) == (result.events, result.deadlines)
        for deadline in result.deadlines:
            assert deadline.at >= self.now, "never woken in the past"
            if deadline.kind == "turn":
                assert deadline.at == result.life.deadline, "the clock scheduled is the clock kept"
            else:
                seat = result.life.seat(deadline.seat)
                assert deadline.at == seat.gone_since + TIMING.reconnect_grace
        for old, new in zip(before.seats, result.life.seats):
            assert (old.person, old.number) == (new.person, new.number), "nobody changes seats"
            if old.presence is Presence.AWAY and new.presence is Presence.PRESENT:
                assert new.timeouts_in_a_row == 0, "a seat given back starts a fresh count of turns run out"
                self.timeouts[new.number] = 0
            if old.presence is Presence.LEFT:
                assert new.presence is Presence.LEFT, "leaving is for good"
        self.life = result.life
        return result

    @rule(seconds=st.floats(min_value=0, max_value=90))
    def time_passes(self, seconds):
        self.now += seconds

    @rule(data=st.data(), passing=st.booleans(), how_many=st.integers(1, 3))
    def someone_moves(self, data, passing, how_many):
        to_act = self.life.to_act or (0,)
        seat = data.draw(st.sampled_from(to_act))
        state = self.life.seat(seat)
        if state.person is None:
            actor = "bot"
        elif state.presence is not Presence.PRESENT:
            actor = "standin"
        else:
            timed_out = self.life.deadline is not None and self.now >= self.life.deadline
            actor = data.draw(st.sampled_from(["person", "timeout"] if timed_out else ["person"]))
        next_to_act = tuple(sorted(data.draw(st.sets(st.integers(0, 3), min_size=1, max_size=how_many))))
        result = self.apply(Moved(seat, actor, to_act=next_to_act, passing=passing, ply=self.life.ply + 1))
        if state.person is not None:
            self.timeouts[seat] = self.timeouts[seat] + 1 if actor == "timeout" else (0 if actor == "person" else self.timeouts[seat])
            after = result.life.seat(seat)
            if actor == "timeout" and self.timeouts[seat] >= conduct.AWAY_AFTER_TIMEOUTS and state.presence is Presence.PRESENT:
                assert after.presence is Presence.AWAY, "two turns run out in a row: away"
            if actor == "person" and state.presence is Presence.AWAY:
                assert after.presence is Presence.PRESENT, "playing again is coming back"

    @rule(seat=st.sampled_from(sorted(PEOPLE)))
    def a_socket_opens(self, seat):
        was = self.life.seat(seat)
        result = self.apply(SocketOpened(seat))
        now = result.life.seat(seat)
        assert now.connected and now.gone_since is None
        if was.presence is Presence.AWAY:
            assert now.presence is Presence.PRESENT and {"type": "seat_reclaimed", "seat": seat} in result.events

    @rule(seat=st.sampled_from(sorted(PEOPLE)))
    def the_last_socket_closes(self, seat):
        was = self.life.seat(seat)
        result = self.apply(SocketsClosed(seat))
        if was.connected and was.presence is Presence.PRESENT:
            assert [d.kind for d in result.deadlines] == ["grace"], "the grace period starts"

    @rule(seat=st.sampled_from(sorted(PEOPLE)), early=st.floats(min_value=0, max_value=30))
    def a_grace_period_ends(self, seat, early):
        state = self.life.seat(seat)
        if state.gone_since is None:
            return
        at = self.now
        self.now = max(self.now, state.gone_since + TIMING.reconnect_grace - early)
        result = self.apply(GraceOver(seat, since=state.gone_since))
        inside = self.now - state.gone_since < TIMING.reconnect_grace - conduct.GRACE_SLACK_SECONDS
        if inside or state.connected:
            assert result.life.seat(seat).presence is state.presence, "nobody is stood in for inside their grace"
        assert self.now >= at

    @rule(seat=st.sampled_from(sorted(PEOPLE)))
    def an_away_person_comes_back(self, seat):
        was = self.life.seat(seat)
        result = self.apply(CameBack(seat))
        if was.presence is Presence.AWAY:
            assert result.life.seat(seat).presence is Presence.PRESENT

    @rule(seat=st.sampled_from(sorted(PEOPLE)))
    def someone_leaves(self, seat):
        self.apply(Resigned(seat))
        self.left.add(seat)
        assert self.life.seat(seat).presence is Presence.LEFT

    @precondition(lambda self: self.life.deadline is not None)
    @rule()
    def an_outage_is_noticed(self):
        self.apply(OutageNoticed())
        assert self.life.deadline == self.now + TIMING.turn + TIMING.arrival_grace, (
            "the clock starts again whole, with the time to reconnect: no clock fires inside it"
        )

    @invariant()
    def a_clock_runs_only_for_a_person_who_plays_their_seat(self):
        people = [n for n in self.life.to_act if self.life.seat(n).person_plays]
        assert (self.life.deadline is not None) == bool(people), "an away seat never waits for a clock"

    @invariant()
    def a_private_view_goes_only_to_the_person_holding_the_seat(self):
        for seat, person in PEOPLE.items():
            expected = None if seat in self.left else seat
            assert private_seat(self.life.seats, person) == expected
        assert private_seat(self.life.seats, 99) is None

    @invariant()
    def left_seats_stay_left(self):
        assert all(self.life.seat(seat).presence is Presence.LEFT for seat in self.left)


TestTableLife = TableLifeMachine.TestCase
TestTableLife.settings = settings(max_examples=300, stateful_step_count=40, deadline=None)


def test_a_step_changes_nothing_for_a_computers_seat():
    life = TableLife((SeatState(0, 7), SeatState(1)), to_act=(1,), timing=TIMING)
    for command in (SocketOpened(1), SocketsClosed(1), GraceOver(1, 0.0), CameBack(1), Resigned(1)):
        assert step(life, command, 10.0).life == life


def test_the_first_clock_waits_for_people_on_their_way_and_starts_whole_when_the_last_arrives():
    seats = (SeatState(0, 7, connected=False), SeatState(1, 8, connected=True))
    life = step(TableLife(seats, timing=TIMING), Began(to_act=(0, 1), passing=True), now=0).life
    assert life.deadline == TIMING.turn + TIMING.arrival_grace
    arrived = step(life, SocketOpened(0), now=5)
    assert arrived.events == ({"type": "clock_started"},) and arrived.life.deadline == 5 + TIMING.turn
    solo = step(replace(TableLife(seats, timing=TIMING), live=False), Began(to_act=(0,)), now=0).life
    assert solo.deadline == TIMING.turn, "only a live game's first clock waits"
