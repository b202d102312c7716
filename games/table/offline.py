"""Solo play in the browser, with no server: the offline table's moves and drawing.

The offline page (``solo/offline.js``) runs this module in Pyodide, over the same engine,
computer players and table drawing as the server (:mod:`games.engine`, :mod:`games.bots`,
:mod:`games.table.drawing`), so a rule, a computer's decision or a part of the table is written
once.  No Django here.

A game is kept by the browser as a plain dict (:meth:`OfflineTable.saved`): an id, the
computers' level, when it started and the engine's own saved game (``Game.to_dict``), so it
can be sent to the server later and replayed there move by move.

>>> table = OfflineTable.new("easy", seed=4, game_id="a1")
>>> table.computer_to_act, table.game.to_act
(True, (0, 1, 2, 3))
>>> '<div id="table"' in table.whole()
True
>>> table.act({"action": "pass", "cards": ["2C", "3C"], "version": 0})
'Choose exactly 3 cards to pass (you chose 2).'
>>> cards = [str(card) for card in table.game.hands[0][:3]]
>>> table.act({"action": "pass", "cards": cards, "version": 0}) is None
True
>>> while table.computer_move():
...     pass
>>> table.game.phase, table.game.ply >= 4
('play', True)
>>> 't-me' in table.changes()
True
"""
from __future__ import annotations

import json
import re

from games import bots
from games.table.drawing import Person, TableDrawing, TableFacts, changed_parts, draw, table_context
from games.engine import Game, IllegalAction, Rules
from games.table.history import game_with_history, step_of
from games.table.protocol import BadMove, parse_move, still_current

YOU = 0
"""The player's seat; the computers sit in the others."""

SAVED_FORMAT = "hearts-offline/1"


class OfflineTable:
    """One offline game against three computers, as its player sees it from seat 0."""

    def __init__(self, saved: dict) -> None:
        if not isinstance(saved, dict) or saved.get("format") != SAVED_FORMAT:
            raise ValueError("Not an offline game.")
        if saved.get("level") not in bots.LEVELS:
            raise ValueError(f"Unknown computer level {saved.get('level')!r}.")
        if not isinstance(saved.get("id"), str) or not GAME_ID.fullmatch(saved["id"]):
            raise ValueError("An offline game's id is 1 to 40 letters, digits, - or _.")
        self.id = saved["id"]
        self.level = saved["level"]
        self.started = str(saved.get("started", ""))
        self.game, self.steps = game_with_history(saved["game"])
        self.hint: bots.Hint | None = None
        self.error: str | None = None
        self._sent: TableDrawing | None = None  # the table as last drawn for the page

    @classmethod
    def new(cls, level: str, seed: int, game_id: str, started: str = "", target: int = 100) -> "OfflineTable":
        """A new game at ``level`` (``"easy"``, ``"medium"`` or ``"hard"``) dealt from ``seed``,
        to ``target`` points (:data:`TARGETS`)."""
        if target not in TARGETS:
            raise ValueError(f"An offline game is played to {' or '.join(map(str, TARGETS))} points.")
        game = Game.new(Rules(target=target), seed=seed)
        return cls({"format": SAVED_FORMAT, "id": game_id, "level": level, "started": started,
                    "game": game.to_dict()})

    def saved(self) -> dict:
        """The game as the browser keeps it (and sends it to the server)."""
        return {"format": SAVED_FORMAT, "id": self.id, "level": self.level, "started": self.started,
                "game": self.game.to_dict()}

    @property
    def over(self) -> bool:
        return self.game.phase == "over"

    @property
    def computer_to_act(self) -> bool:
        """True when a computer is to act (while the player passes, the computers pass first)."""
        return any(seat != YOU for seat in self.game.to_act)

    # ------------------------------------------------------------------ moves

    def act(self, fields: dict) -> str | None:
        """The player's move or request, as the table's forms send it (``games.table.protocol``):
        None when done, else what to tell the player.  A move made on an earlier position (a
        double click) is ignored without a word, as at the server's tables."""
        self.error = None
        if isinstance(fields, dict) and fields.get("action") == "hint":
            view = self.game.view(YOU)
            self.hint = bots.hint(view) if YOU in view.to_act else None
            return None
        try:
            action, version = parse_move(fields)
        except BadMove as problem:
            self.error = str(problem)
            return self.error
        if version is not None and version != self.game.ply and not (
                version < self.game.ply and still_current(
                    YOU, action, [(move["seat"], move["action"]) for move in self.game.log(version)])):
            return None
        try:
            self._apply(YOU, action)
        except IllegalAction as problem:
            self.error = str(problem)
            return self.error
        return None

    def computer_move(self) -> bool:
        """One computer's action, if a computer is to act (True), else False."""
        seats = [seat for seat in self.game.to_act if seat != YOU]
        if not seats:
            return False
        seat = seats[0]
        seed = bots.decision_seed(self.id, self.game.ply, seat)
        self._apply(seat, bots.choose_action(self.game.view(seat), self.level, seed=seed))
        return True

    def _apply(self, seat: int, action) -> None:
        events = self.game.apply(seat, action)
        self.steps.append(step_of(self.game.ply, self.game.log(self.game.ply - 1)[0], events))
        self.hint = None

    # ------------------------------------------------------------------ drawing

    def _drawing(self) -> TableDrawing:
        game = self.game
        people = (Person("You", "Player"),) + tuple(
            Person(bots.COMPUTER_NAMES[seat], f"{bots.LEVEL_NAMES[self.level]} computer", is_bot=True,
                   is_person=False, computer_plays=True)
            for seat in range(1, game.players)
        )
        facts = TableFacts(
            table_id=0, version=game.ply, people=people, status="finished" if self.over else "playing",
            rules_lines=tuple(game.rules.describe()), urls=OFFLINE_URLS,
        )
        context = table_context(facts, game, self.steps, game.view(YOU), hint=self.hint, error=self.error)
        return draw(context, self._sent)

    def whole(self) -> str:
        """The whole table (the page's first drawing, or after a reload)."""
        self._sent = self._drawing()
        return self._sent.whole()

    def changes(self) -> str:
        """What changed since the table was last drawn, as the socket sends it: the parts that
        changed, or the whole table when its parts are not the same set."""
        sent = self._sent
        self._sent = drawing = self._drawing()
        message = changed_parts(sent.parts, drawing.parts) if sent is not None else None
        return drawing.whole() if message is None else message


class PageTable:
    """An :class:`OfflineTable` as the offline page's script calls it: plain text and numbers
    in and out (JSON for dicts), so nothing crosses between JavaScript and Python as a proxy.

    >>> table = PageTable.new("easy", 5, "p1", "", 100)
    >>> table.passing(), table.over(), json.loads(table.saved_json())["level"]
    (True, False, 'easy')
    >>> table.act('{"action": "play", "card": "2C"}')
    'Pass exactly 3 cards.'
    """

    def __init__(self, table: OfflineTable) -> None:
        self.table = table

    @classmethod
    def new(cls, level: str, seed: int, game_id: str, started: str, target: int) -> "PageTable":
        return cls(OfflineTable.new(level, int(seed), game_id, started, int(target)))

    @classmethod
    def open(cls, saved_json: str) -> "PageTable":
        return cls(OfflineTable(json.loads(saved_json)))

    def whole(self) -> str:
        return self.table.whole()

    def changes(self) -> str:
        return self.table.changes()

    def saved_json(self) -> str:
        return json.dumps(self.table.saved())

    def act(self, fields_json: str) -> "str | None":
        return self.table.act(json.loads(fields_json))

    def computer_move(self) -> bool:
        return self.table.computer_move()

    def computer_to_act(self) -> bool:
        return self.table.computer_to_act

    def passing(self) -> bool:
        return self.table.game.phase == "pass"

    def over(self) -> bool:
        return self.table.over


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")

SECONDS_A_CARD = 1.0
"""The longest a computer may think over a card on this device for its level to be offered."""

SEARCH_SLOWDOWN = 2.5
"""How many times longer Expert's slowest cards (the 95th percentile) take than its card
plays would at :func:`games.bots.hard.plays_per_second`'s rate (the probe's position is
cheaper a play than many a real decision's). Measured on one machine: Expert's CPU time a
card in ``python -m games.bots.arena --players expert,hard,expert,hard`` (95th percentile
810 ms for 140,000 plays: 173,000 a second) beside ``plays_per_second()`` (400,000 to
440,000 a second)."""


def levels_offered(plays_per_second: float) -> tuple[str, ...]:
    """The computers' levels the offline page offers on a device whose search makes
    ``plays_per_second``: all of them, but Expert only where its slowest cards take at most
    :data:`SECONDS_A_CARD` (Hard is offered everywhere, marked slower on a phone).

    >>> levels_offered(10_000_000)
    ('easy', 'medium', 'hard', 'expert')
    >>> levels_offered(100_000)
    ('easy', 'medium', 'hard')
    """
    expert_seconds = bots.SEARCHES["expert"].play * SEARCH_SLOWDOWN / plays_per_second
    return tuple(level for level in bots.LEVELS if level != "expert" or expert_seconds <= SECONDS_A_CARD)


def levels_here() -> str:
    """:func:`levels_offered` on the device running this (a search timed now), as a JSON list
    for the offline page."""
    return json.dumps(levels_offered(bots.hard.plays_per_second()))


TARGETS = (100, 50)
"""What an offline game is played to: the standard game, or a short one (the rules are
otherwise the standard ones)."""

CHECKED_LEVELS = ("easy", "medium")
"""The levels whose every decision the server decides again when a game is sent to it
(:func:`checked_replay`). Hard's search is too slow to repeat a whole game's of it (and
its time-bounded search need not choose again what it chose): a game against Hard is kept
as not verified (:func:`verified`), and left out of statistics."""


def verified(level: str) -> bool:
    """Whether a kept offline game against ``level`` had every computer move checked."""
    return level in CHECKED_LEVELS


def _as_logged(action) -> "str | list[str]":
    if isinstance(action, (list, tuple)):
        return sorted(str(card) for card in action)
    return str(action)


def checked_replay(saved: dict, *, finished: bool = True) -> OfflineTable:
    """An offline game sent to the server, replayed through the engine move by move: every
    move must be legal, the game finished, with the rules offline games are dealt with, and
    each Easy or Medium computer's move the one it makes from that position.  Raises
    ``ValueError`` saying what is wrong.  (``finished=False``: a game still being played.)

    >>> table = OfflineTable.new("medium", seed=3, game_id="x")
    >>> while not table.over:
    ...     if not table.computer_move():
    ...         view = table.game.view(YOU)
    ...         action = bots.choose_action(view, "easy", seed=table.game.ply)
    ...         table._apply(YOU, action)
    >>> checked_replay(table.saved()).game.phase
    'over'
    >>> forged = table.saved()
    >>> mine = next(entry for entry in forged["game"]["log"] if entry["seat"] == YOU)
    >>> mine["action"] = ["2C", "2C", "2C"]
    >>> checked_replay(forged)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: This game does not replay: move ... (seat 0) is not legal: Pass exactly 3 different cards.
    """
    stored = saved.get("game") if isinstance(saved, dict) else None
    if not isinstance(stored, dict) or not isinstance(stored.get("log"), list):
        raise ValueError("This is not an offline game: it has no game with a list of moves.")
    try:
        if not isinstance(stored.get("rules"), dict):
            raise TypeError("not an object")
        rules = Rules.from_dict(stored["rules"])
    except (TypeError, ValueError, AttributeError) as problem:
        raise ValueError(f"This is not an offline game: its rules are not rules ({problem}).") from None
    if rules not in [Rules(target=target) for target in TARGETS]:
        raise ValueError("Offline games are played with the standard rules, to 100 or 50 points.")
    seed = stored.get("seed")
    if type(seed) is not int or not 0 <= seed < 2**62:
        raise ValueError("An offline game's seed is a whole number below 2**62.")
    # The deal is the seed's, from nothing: no other hands, scores, dealer or deal number.
    dealt = Game.new(rules, seed=seed).to_dict()
    if stored.get("format") != dealt["format"] or stored.get("setup") != dealt["setup"]:
        raise ValueError("This game does not start as its seed deals it (the hands, the dealer, "
                         "the deal number, and no points yet).")
    try:
        table = OfflineTable({**saved, "game": {**dealt, "log": []}})
        log = list(stored["log"])
    except (KeyError, TypeError, IllegalAction, ValueError) as problem:
        raise ValueError(f"This is not an offline game: {problem}") from None
    for ply, entry in enumerate(log, start=1):
        if not isinstance(entry, dict) or "seat" not in entry or "action" not in entry:
            raise ValueError(f"This game does not replay: move {ply} is not a move.")
        seat, action = entry["seat"], entry["action"]
        if seat != YOU and table.level in CHECKED_LEVELS:
            expected = bots.choose_action(table.game.view(seat), table.level,
                                          seed=bots.decision_seed(table.id, table.game.ply, seat))
            if _as_logged(expected) != _as_logged(action):
                raise ValueError(f"This game does not replay: move {ply} is not what the computer in seat {seat} plays.")
        try:
            table._apply(seat, action)
        except (IllegalAction, TypeError, ValueError) as problem:
            raise ValueError(f"This game does not replay: move {ply} (seat {seat}) is not legal: {problem}") from None
    if finished and not table.over:
        raise ValueError("This game is not finished yet: it is sent when it ends.")
    return table


PAGE_URL = "/play-offline/"
"""The offline page's address (``solo:offline``; a test checks they agree)."""

OFFLINE_URLS = {
    "page_url": PAGE_URL, "action_url": PAGE_URL, "replay_url": "", "new_game_url": PAGE_URL,
    "learn_url": "", "my_games_url": PAGE_URL, "lobby_url": "", "resign_url": "", "new_room_url": "",
}
"""Where the offline table's links go: back to the offline page, which keeps the games (no
replay: that is the server's, once the game is kept there)."""
