"""Seats before the start and the rematch after the game as commands of the table's life
(``games.table.conduct.step``, rules 9 and 10): examples, and hypothesis driving a room and a
finished game through any order of them."""
from dataclasses import replace

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from games.table import conduct
from games.table.conduct import (
    REMATCH_SECONDS, Presence, Refused, Rematch, RematchAnswered, RematchDue, Sat, SeatState, Stood,
    TableLife, kept_places, stayed_to_the_end, step,
)

HOST = 1


def room(*seats: SeatState, **changes) -> TableLife:
    return TableLife(seats, playing=False, waiting=True, host=HOST, **changes)


def empty(number: int) -> SeatState:
    return SeatState(number, empty=True)


def refusal(life: TableLife, command) -> str:
    with pytest.raises(Refused) as refused:
        step(life, command, 0)
    assert str(refused.value), "a refusal tells the person why"
    return refused.value.code


# --------------------------------------------------------------------------- seats


def test_a_person_sits_where_they_chose_or_in_the_first_empty_seat_then_a_computers():
    life = room(SeatState(0, HOST), SeatState(1), empty(2), empty(3))
    taken = step(life, Sat(5, connected=True), 0)
    assert taken.life.seat(2) == SeatState(2, 5)
    assert taken.events == ({"type": "seat_taken", "seat": 2},)
    assert step(life, Sat(5, seat=1), 0).life.seat(1).person == 5, "a computer's seat can be chosen"
    full = room(SeatState(0, HOST), SeatState(1), SeatState(2, 8), SeatState(3, 9))
    assert step(full, Sat(5), 0).life.seat(1).person == 5, "with no empty seat, a computer's"


def test_sitting_again_gives_back_the_seat_held_and_changes_nothing():
    life = room(SeatState(0, HOST), SeatState(1, 5), empty(2))
    again = step(life, Sat(5, seat=2), 0)
    assert again.life == life and again.events == ()


@pytest.mark.parametrize("life, command, code", [
    (room(SeatState(0, HOST), SeatState(1, 5)), Sat(6, seat=1), "seat_taken"),
    (room(SeatState(0, HOST), empty(1)), Sat(6, seat=7), "seat_taken"),
    (room(SeatState(0, HOST), SeatState(1, 5)), Sat(6), "table_full"),
    (room(SeatState(0, HOST), empty(1)), Sat(6, elsewhere=True), "in_game"),
    (replace(room(SeatState(0, HOST), empty(1)), waiting=False, playing=True), Sat(6), "already_started"),
    (room(SeatState(0, HOST), empty(1), kept=((HOST, 0), (7, 1))), Sat(6), "seat_kept"),
    (room(SeatState(0, HOST), SeatState(1, 5)), Stood(HOST), "host_stays"),
    (replace(room(SeatState(0, HOST), SeatState(1, 5)), waiting=False, playing=True), Stood(5), "already_started"),
])
def test_what_the_rules_refuse_before_the_start(life, command, code):
    assert refusal(life, command) == code


def test_a_game_elsewhere_does_not_matter_at_a_solo_table():
    life = replace(room(empty(0), SeatState(1)), live=False)
    assert step(life, Sat(6, elsewhere=True), 0).life.seat(0).person == 6


def test_a_kept_seat_goes_to_its_person_whatever_they_chose():
    life = room(empty(0), empty(1), empty(2), kept=((7, 2), (8, 0)))
    assert step(life, Sat(7, seat=0), 0).life.seat(2).person == 7


def test_standing_up_empties_the_seat_and_a_stranger_standing_up_changes_nothing():
    life = room(SeatState(0, HOST), SeatState(1, 5))
    stood = step(life, Stood(5), 0)
    assert stood.life.seat(1) == SeatState(1, None, connected=False, empty=True)
    assert stood.events == ({"type": "seat_left", "seat": 1},)
    assert step(life, Stood(99), 0) == conduct.Step(life)


# --------------------------------------------------------------------------- the rematch


def finished(*seats: SeatState, rematch: Rematch | None = None) -> TableLife:
    return TableLife(seats, playing=False, finished=True, rematch=rematch)


GAME = finished(SeatState(0, 7), SeatState(1, 8), SeatState(2), SeatState(3, 9, Presence.LEFT))


def test_the_first_yes_opens_the_rematch_with_its_deadline_and_all_yeses_start_it():
    opened = step(GAME, RematchAnswered(8, yes=True), 100)
    assert opened.life.rematch == Rematch(first=1, until=100 + REMATCH_SECONDS, answers=((8, "yes"),))
    assert opened.deadlines == (conduct.Deadline("rematch", 100 + REMATCH_SECONDS),)
    assert opened.events == ({"type": "rematch", "state": "open"},)
    assert kept_places(opened.life) == {7: 3, 8: 0}, "turned so that its opener sits first; a leaver gets no place"
    started = step(opened.life, RematchAnswered(7, yes=True), 110)
    assert started.life.rematch.state == "started" and started.deadlines == ()
    assert kept_places(started.life) is None


def test_a_no_closes_it_and_declining_what_was_never_offered_changes_nothing():
    assert step(GAME, RematchAnswered(7, yes=False), 0) == conduct.Step(GAME)
    opened = step(GAME, RematchAnswered(7, yes=True), 0).life
    closed = step(opened, RematchAnswered(8, yes=False), 5)
    assert closed.life.rematch.state == "closed" and closed.life.rematch.answer_of(8) == "no"
    assert refusal(closed.life, RematchAnswered(7, yes=True)) == "rematch_settled"


def test_its_time_running_out_marks_who_did_not_answer_late_and_not_before():
    opened = step(GAME, RematchAnswered(7, yes=True), 0).life
    assert step(opened, RematchDue(), REMATCH_SECONDS - 1) == conduct.Step(opened), "not before its time"
    due = step(opened, RematchDue(), REMATCH_SECONDS)
    assert dict(due.life.rematch.answers) == {7: "yes", 8: "late"}
    assert due.life.rematch.state == "closed"


@pytest.mark.parametrize("life, person, code", [
    (GAME, 9, "no_seat"),  # left the game
    (GAME, 99, "no_seat"),  # never played it
    (replace(GAME, finished=False, playing=True), 7, "not_over"),
    (replace(GAME, finished=False), 7, "not_over"),  # given up, not played to the end
    (replace(GAME, live=False), 7, "not_over"),
])
def test_what_the_rules_refuse_after_the_game(life, person, code):
    assert refusal(life, RematchAnswered(person, yes=True)) == code


# --------------------------------------------------------------------------- in any order

PEOPLE = (HOST, 11, 12, 13, 14, 15)


class RoomMachine(RuleBasedStateMachine):
    """A room of four seats (one a computer's) that people sit in and stand up from."""

    def __init__(self):
        super().__init__()
        self.life = room(SeatState(0, HOST), empty(1), SeatState(2), empty(3))

    def apply(self, command):
        try:
            result = step(self.life, command, 0)
        except Refused:
            return None
        self.life = result.life
        return result

    @rule(person=st.sampled_from(PEOPLE), seat=st.none() | st.integers(-1, 4), elsewhere=st.booleans())
    def someone_sits(self, person, seat, elsewhere):
        held = self.life.seat_of(person)
        free_before = [s.number for s in self.life.seats if s.person is None]
        result = self.apply(Sat(person, seat, elsewhere=elsewhere))
        if held is not None:
            assert result is not None and result.life.seat_of(person) == held and not result.events
        elif result is None:
            assert elsewhere or not free_before or seat is not None
        else:
            assert not elsewhere, "nobody sits while playing another live game"
            assert result.life.seat_of(person).number in free_before
            if seat is not None:
                assert result.life.seat_of(person).number == seat

    @rule(person=st.sampled_from(PEOPLE))
    def someone_stands_up(self, person):
        result = self.apply(Stood(person))
        if person == HOST:
            assert result is None, "the host keeps their seat"
        else:
            assert self.life.seat_of(person) is None

    @invariant()
    def each_person_holds_one_seat_at_most_and_the_host_keeps_theirs(self):
        people = [seat.person for seat in self.life.seats if seat.person is not None]
        assert len(people) == len(set(people))
        assert self.life.seat(0).person == HOST
        assert not any(seat.empty and seat.person is not None for seat in self.life.seats)


class RematchMachine(RuleBasedStateMachine):
    """A finished live game of three people (one of whom left) and a computer, answered in any
    order, with time passing."""

    def __init__(self):
        super().__init__()
        self.life = finished(SeatState(0, 21), SeatState(1, 22), SeatState(2, 23, Presence.LEFT), SeatState(3))
        self.now = 0.0
        self.states = ["none"]

    def apply(self, command):
        try:
            result = step(self.life, command, self.now)
        except Refused as refused:
            assert refused.code in ("no_seat", "rematch_settled")
            return None
        for deadline in result.deadlines:
            assert deadline.kind == "rematch" and deadline.at == result.life.rematch.until >= self.now
        self.life = result.life
        offer = self.life.rematch
        self.states.append(offer.state if offer else "none")
        return result

    @rule(seconds=st.floats(0, 40))
    def time_passes(self, seconds):
        self.now += seconds

    @rule(person=st.sampled_from((21, 22, 23, 99)), yes=st.booleans())
    def someone_answers(self, person, yes):
        self.apply(RematchAnswered(person, yes))

    @rule()
    def the_time_to_answer_runs_out(self):
        self.apply(RematchDue())

    @invariant()
    def a_settled_rematch_stays_settled(self):
        settled = [state for state in self.states if state in ("started", "closed")]
        assert len(set(settled)) <= 1
        if settled:
            assert self.states[-1] == settled[0]

    @invariant()
    def it_starts_only_when_everyone_who_stayed_said_yes_in_time(self):
        offer = self.life.rematch
        if offer is None:
            return
        assert {person for person, _ in offer.answers} <= set(stayed_to_the_end(self.life.seats))
        if offer.state == "started":
            assert all(offer.answer_of(person) == "yes" for person in (21, 22))
        if offer.state == "open":
            assert self.now <= offer.until or not any(answer == "late" for _, answer in offer.answers)
            assert set(kept_places(self.life).values()) <= {0, 1, 2, 3}


TestRoom = RoomMachine.TestCase
TestRematch = RematchMachine.TestCase
