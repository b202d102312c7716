"""The conduct of a table (``games.table.conduct``): its rules as properties over generated tables and
histories, and a state machine of a table's seats checking its invariants after every command."""
import ast
from pathlib import Path

from hypothesis import given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from games.table import conduct
from games.table.conduct import Presence, SeatState

ACTORS = st.sampled_from(["person", "bot", "timeout", "standin", "forced"])
SCORES = st.lists(st.integers(min_value=0, max_value=150), min_size=3, max_size=6)


def test_the_module_is_pure():
    """No Django and nothing of the project's: it runs wherever the engine does."""
    tree = ast.parse(Path(conduct.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"__future__", "collections", "dataclasses", "enum"}, imported


@given(SCORES, st.data())
def test_whoever_left_never_wins_and_ranks_below_everyone_who_stayed(scores, data):
    left = data.draw(st.sets(st.integers(0, len(scores) - 1)))
    result = conduct.standings(scores, left)
    assert not set(result.winners) & left
    stayed = [seat for seat in range(len(scores)) if seat not in left]
    if stayed:
        best = min(scores[seat] for seat in stayed)
        assert set(result.winners) == {seat for seat in stayed if scores[seat] == best}
        assert all(result.places[a] < result.places[b] for a in stayed for b in left)
        # Among those who stayed, places follow the scores, equal scores sharing one.
        for a in stayed:
            for b in stayed:
                assert (result.places[a] < result.places[b]) == (scores[a] < scores[b])
    else:
        assert result.winners == ()


@given(SCORES)
def test_with_nobody_left_the_result_is_the_lowest_score(scores):
    result = conduct.standings(scores)
    assert result.winners == tuple(seat for seat, score in enumerate(scores) if score == min(scores))


@given(st.lists(ACTORS, max_size=40))
def test_away_after_two_timeouts_in_a_row_only(actors):
    count, away = 0, False
    for actor in actors:
        count, away = conduct.after_turn(count, actor)
    expected = len(actors) >= 2 and actors[-1] == actors[-2] == "timeout"
    assert away == expected


@given(st.lists(ACTORS, max_size=60), st.sampled_from(list(Presence)))
def test_counted_as_left_when_gone_at_the_end_or_played_mostly_by_a_computer(actors, presence):
    by_computer = sum(actor in ("timeout", "standin") for actor in actors)
    expected = presence is not Presence.PRESENT or 2 * by_computer > len(actors)
    assert conduct.counts_as_left(presence, actors) == expected


class TableOfPeople(RuleBasedStateMachine):
    """People at a live table sit, play, run out of time, drop, come back and leave; the rules
    decide, after every step, who sees which seat's cards and what the result would be."""

    def __init__(self):
        super().__init__()
        self.seats: list[SeatState] = []
        self.actors: dict[int, list[str]] = {}
        self.timeouts: dict[int, int] = {}  # in a row, as the seat row counts them

    @precondition(lambda self: len(self.seats) < 6)
    @rule(person=st.booleans())
    def sit(self, person):
        number = len(self.seats)
        self.seats.append(SeatState(number, person=100 + number if person else None))
        self.actors[number] = []
        self.timeouts[number] = 0

    def _seat(self, data):
        return data.draw(st.sampled_from(self.seats))

    def _set(self, seat, presence):
        self.seats[seat.number] = SeatState(seat.number, seat.person, presence)

    @precondition(lambda self: self.seats)
    @rule(data=st.data())
    def move(self, data):
        """The seat's turn: its person plays if present; else a computer (a bot's own seat, a
        stand-in); a present person's turn may run out instead."""
        seat = self._seat(data)
        if seat.person is None:
            self.actors[seat.number].append("bot")
        elif seat.presence is not Presence.PRESENT:
            self.actors[seat.number].append("standin")
        else:
            actor = "person" if data.draw(st.booleans()) else "timeout"
            self.actors[seat.number].append(actor)
            self.timeouts[seat.number], away = conduct.after_turn(self.timeouts[seat.number], actor)
            if away:
                self._set(seat, Presence.AWAY)

    @precondition(lambda self: any(s.person is not None and s.presence is Presence.PRESENT for s in self.seats))
    @rule(data=st.data())
    def drop_past_the_grace(self, data):
        seat = data.draw(st.sampled_from([s for s in self.seats if s.person is not None and s.presence is Presence.PRESENT]))
        self._set(seat, Presence.AWAY)

    @precondition(lambda self: any(s.presence is Presence.AWAY for s in self.seats))
    @rule(data=st.data())
    def come_back(self, data):
        seat = data.draw(st.sampled_from([s for s in self.seats if s.presence is Presence.AWAY]))
        self._set(seat, Presence.PRESENT)
        self.timeouts[seat.number] = 0  # live.presence.reclaim_seat

    @precondition(lambda self: any(s.person is not None for s in self.seats))
    @rule(data=st.data())
    def leave(self, data):
        seat = data.draw(st.sampled_from([s for s in self.seats if s.person is not None]))
        self._set(seat, Presence.LEFT)

    @invariant()
    def a_seats_cards_go_only_to_its_present_occupant(self):
        for seat in self.seats:
            if seat.person is not None:
                shown = conduct.private_seat(self.seats, seat.person)
                assert shown == (None if seat.presence is Presence.LEFT else seat.number)
        assert conduct.private_seat(self.seats, 999) is None and conduct.private_seat(self.seats, None) is None

    @invariant()
    def an_idle_person_is_away_and_one_back_gets_whole_turns_again(self):
        for seat in self.seats:
            if seat.person is None or seat.presence is not Presence.PRESENT:
                continue
            since_back = self.timeouts[seat.number]
            assert since_back < conduct.AWAY_AFTER_TIMEOUTS, "timeouts in a row and still waited for"
            tail = self.actors[seat.number][len(self.actors[seat.number]) - since_back:] if since_back else []
            assert tail == ["timeout"] * since_back

    @invariant()
    def the_result_never_crowns_a_leaver(self):
        if not self.seats:
            return
        left = {seat.number for seat in self.seats
                if seat.person is not None and conduct.counts_as_left(seat.presence, self.actors[seat.number])}
        assert all(self.seats[number].presence is not Presence.PRESENT or self.actors[number] for number in left)
        result = conduct.standings([seat.number * 7 % 5 for seat in self.seats], left)
        assert not set(result.winners) & left


TableOfPeople.TestCase.settings = settings(max_examples=200, stateful_step_count=40, deadline=None)
test_a_table_of_people = TableOfPeople.TestCase


@given(players=st.integers(3, 6), first=st.integers(0, 5), data=st.data())
def test_a_rematch_keeps_distinct_places_for_those_who_stayed_the_opener_first(players, first, data):
    first %= players
    people = data.draw(st.lists(st.booleans(), min_size=players, max_size=players))
    left = data.draw(st.lists(st.booleans(), min_size=players, max_size=players))
    people[first], left[first] = True, False  # the one who opens the rematch stayed
    kept = [conduct.rematch_place(seat, first, players, person=people[seat], left=left[seat]) for seat in range(players)]
    places = [place for place in kept if place is not None]
    assert len(places) == len(set(places)) and all(0 <= place < players for place in places)
    assert kept[first] == 0
    assert [place is not None for place in kept] == [people[s] and not left[s] for s in range(players)]


@given(seated=st.booleans(), left=st.booleans(), status=st.sampled_from(["waiting", "playing", "finished", "abandoned"]))
def test_chat_goes_to_the_players_or_the_watchers_never_both(seated, left, status):
    audience = conduct.chat_audience(seated, left and seated, status)
    assert audience in ("players", "watchers", None)
    if seated and left and status == "playing":
        assert audience == "watchers", "someone who left a game in play talks with the watchers"
    if not seated:
        assert audience == (None if status == "waiting" else "watchers")
