"""What a client sends to a table, read in one place: a move (play, pass, moon choice) with
the table version it was made against, from an HTTP form or a websocket JSON frame alike,
and the small numbers pages take (a seat, a version to poll since).

Anything else a client sends is refused here with a message saying what is allowed; nothing
here can raise anything but :class:`BadMove` (or return None for a number).

>>> parse_move({"action": "play", "card": "QS", "version": "17"})
(Card.parse('QS'), 17)
>>> parse_move({"action": "pass", "cards": ["2C", "3C", "4C"], "version": 3})
([Card.parse('2C'), Card.parse('3C'), Card.parse('4C')], 3)
>>> parse_move({"action": "moon", "choice": "add"})
('add', None)
>>> parse_move({"action": "play", "card": "ZZ"})
Traceback (most recent call last):
...
games.table.protocol.BadMove: 'ZZ' is not a card. Cards look like QS, TH or 2C.
>>> whole_number("12"), whole_number("²"), whole_number("-1"), whole_number(True)
(12, None, None, None)
"""
from games.engine import MOON_OPTIONS, Card


MOVE_KINDS = ("play", "pass", "moon")

LARGEST_NUMBER = 10**9
"""Versions, seats and plies are far below this; a larger number is not one of ours."""


def still_current(seat: int, action, moves_since) -> bool:
    """Whether a move made on an earlier position of the table stands, given the moves made
    since (``(seat, action)`` pairs): only when nothing was, or when it is a pass and every move
    since was another seat's pass, because passing is simultaneous: the player chose from the
    hand they still hold. A second copy of the seat's own pass stays stale.

    >>> still_current(0, ["2C", "3C", "4C"], [(1, ["AS", "KS", "QS"])])
    True
    >>> still_current(0, ["2C", "3C", "4C"], [(0, ["2C", "3C", "4C"])]), still_current(0, "2C", [(1, "3C")])
    (False, False)
    """
    moves_since = list(moves_since)
    return not moves_since or (isinstance(action, list) and all(
        isinstance(move, list) and other != seat for other, move in moves_since))


class BadMove(ValueError):
    """What a client sent does not make a move. ``str()`` says what is allowed."""


def whole_number(value) -> int | None:
    """``value`` as a number from 0 to :data:`LARGEST_NUMBER` written in ASCII digits (or an
    int); None for anything else ("²" and "-1" included: ``str.isdigit`` takes the first)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < LARGEST_NUMBER else None
    if isinstance(value, str):
        text = value.strip()
        if text and len(text) < 10 and text.isascii() and text.isdigit():
            return int(text)
    return None


def _values(data, name) -> list:
    """Every value of field ``name``: a form's list, or a JSON value (a list taken as is)."""
    if hasattr(data, "getlist"):
        return data.getlist(name)
    value = data.get(name)
    return [] if value is None else value if isinstance(value, list) else [value]


def _words(data, name) -> list[str]:
    """The field's text values, split on commas and spaces ("2C 3C,4C"); other JSON values
    (numbers, objects) are ignored."""
    out = []
    for value in _values(data, name):
        if isinstance(value, str):
            out.extend(value.replace(",", " ").split())
    return out


def _one(data, name) -> str | None:
    """The field's one non-blank text value (a form may send a hidden field and a button of
    the same name, holding the same value); None if there is none. Raises :class:`BadMove`
    when it holds different ones."""
    values = {value.strip() for value in _values(data, name) if isinstance(value, str) and value.strip()}
    if len(values) > 1:
        raise BadMove(f"Send one {name}, not several.")
    return values.pop() if values else None


def parse_move(data) -> tuple[object, int | None]:
    """The move in a client's fields (an HTTP POST's QueryDict or a websocket frame's dict).

    Returns ``(action, version)`` for :func:`games.services.submit_action`: the engine's action
    (a :class:`~games.engine.Card`, a list of three, or ``"add"``/``"subtract"``) and the
    version it was made against (None when not given). Raises :class:`BadMove`. Whether the
    move is legal is the engine's question.
    """
    if not hasattr(data, "get"):
        raise BadMove('Send a JSON object like {"action": "play", "card": "QS", "version": 12}.')
    given = [value for value in _values(data, "version") if not (isinstance(value, str) and not value.strip())]
    version = None
    if given:
        version = whole_number(given[-1])
        if version is None:
            raise BadMove("The table version must be a whole number, like 12.")
    kind = _one(data, "action")
    if kind == "play":
        card = _one(data, "card")
        if not card:
            raise BadMove("Choose a card to play.")
        return _card(card), version
    if kind == "pass":
        cards = _words(data, "cards")
        if len(cards) != 3:
            raise BadMove(f"Choose exactly 3 cards to pass (you chose {len(cards)}).")
        return [_card(card) for card in cards], version
    if kind == "moon":
        choice = _one(data, "choice")
        if choice not in MOON_OPTIONS:
            raise BadMove("Choose to subtract the moon's points from your score or add them to everyone else's.")
        return choice, version
    raise BadMove("Play a card, pass 3 cards or choose how to score the moon.")


def _card(text: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError:
        raise BadMove(f"{text[:10]!r} is not a card. Cards look like QS, TH or 2C.") from None


PACES = {"slow": 1.75, "normal": 1.0, "fast": 0.45, "instant": 0.0}
"""A solo table's pace: the pause before each computer's card, times ``BOT_DELAY_SECONDS``."""


def parse_pace(data) -> str:
    """The pace of ``{"action": "pace", "pace": ...}``, one of :data:`PACES`. Raises
    :class:`BadMove` otherwise.

    >>> parse_pace({"pace": "fast"})
    'fast'
    >>> parse_pace({"pace": "ludicrous"})
    Traceback (most recent call last):
    ...
    games.table.protocol.BadMove: Choose a pace: slow, normal, fast or instant.
    """
    pace = _one(data, "pace")
    if pace not in PACES:
        raise BadMove("Choose a pace: slow, normal, fast or instant.")
    return pace


TABLE_SOCKET_ROUTE = "ws/table/<int:table_id>/"
"""Where a table's websocket listens (:mod:`live.routing`); one per table, solo or live."""


CHAT_MAX_CHARACTERS = 200
QUICK_PHRASES = ("Good game!", "Well played!", "Nice move.", "Oops!", "Thanks!", "Good luck!")


def parse_chat(data) -> str:
    """The text of a chat message (``{"action": "chat", "text": ...}``): one line of at most
    :data:`CHAT_MAX_CHARACTERS` characters, without control characters. Raises
    :class:`BadMove` otherwise.

    >>> parse_chat({"text": "  good   game  "})
    'good game'
    >>> parse_chat({"text": "x" * 201})
    Traceback (most recent call last):
    ...
    games.table.protocol.BadMove: A chat message is at most 200 characters.
    """
    text = _one(data, "text")
    if text is None:
        raise BadMove("Write something to send.")
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if not text:
        raise BadMove("Write something to send.")
    if len(text) > CHAT_MAX_CHARACTERS:
        raise BadMove(f"A chat message is at most {CHAT_MAX_CHARACTERS} characters.")
    return text


def table_socket_path(table_id: int) -> str:
    """The path a page connects to for ``table_id``'s socket.

    >>> table_socket_path(12)
    '/ws/table/12/'
    """
    return "/" + TABLE_SOCKET_ROUTE.replace("<int:table_id>", str(table_id))
