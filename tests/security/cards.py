"""Finding card mentions in text precisely: "QS" inside "QSX" or "AS" inside "CLASS" is not a
card, "Q♠" inside "10♠"... is not the queen, and a card can be written several ways
("QS", "Q♠", "Q&spades;", "queen of spades", "10H" for "TH")."""
import html
import json
import re
from functools import lru_cache
from html.parser import HTMLParser

from games.engine import Card
from games.table.history import game_with_history

_TAG = re.compile(r"<[^>]*>")


@lru_cache(maxsize=None)
def card_pattern(card: Card) -> re.Pattern:
    code = str(card)
    forms = [re.escape(code)]
    if card.rank == 10:
        forms.append(re.escape("10" + card.suit.value))
    codes = "|".join(forms)
    # Codes: not glued to other letters or digits ("QS" in "QSX", "TH" in "WITH", "2C" in "#2C3E50").
    by_code = rf"(?<![A-Za-z0-9])(?:{codes})(?![A-Za-z0-9])"
    # Symbols: "Q♠"; "10♠" must not match "0♠" preceded by a 1 of another card, so no digit before.
    by_symbol = rf"(?<![A-Za-z0-9]){re.escape(card.symbol)}"
    by_name = rf"(?i:\b{re.escape(card.name)}\b)"
    return re.compile(f"{by_code}|{by_symbol}|{by_name}")


# Sentences that name a card without saying where it is: rules and teaching text. Each one was
# read and judged generic; a sentence that tells where a hidden card is must never be added.
GENERIC_PHRASES = [
    re.compile(pattern) for pattern in (
        r"Each heart is 1 point, the Q♠ is 13\.",
        r"Black Maria: K♠ 10, A♠ 7",
        r"Omnibus: jack of diamonds is −10",
        # learn-to-play notes (games/table/learn.py)
        r"nobody may play a heart or the Q♠ on it, unless they hold nothing else\.",
        r"Every heart you take is 1 point and the Q♠ 13;",
        r"take every heart and the Q♠ in one hand",
        r"Pass the cards you least want: the Q♠, the A♠ and K♠ \(they can end up taking the queen\)",
        r"a great chance to get rid of the Q♠ or a high heart",
        # hints (games/bots/hints.py): the queen is still out, which everyone can tell
        r"but stay below the queen of spades",
    )
]


def texts_of(content: str, public=()) -> list[str]:
    """The forms of a page worth searching: entities decoded, and its text with tags removed
    (a face drawn as <b>Q</b><i>♠</i> reads "Q♠"); ``public`` sentences (the table's rules)
    and :data:`GENERIC_PHRASES` taken out."""
    decoded = html.unescape(content)
    stripped = html.unescape(_TAG.sub("", content))
    out = []
    for text in (decoded, stripped):
        for sentence in public:
            text = text.replace(sentence, " ")
        for phrase in GENERIC_PHRASES:
            text = phrase.sub(" ", text)
        out.append(text)
    return out


def json_strings(value) -> list[str]:
    """Every string in a JSON document (keys too), and the document itself."""
    out = []

    def walk(item):
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                out.append(str(key))
                walk(inner)
        elif isinstance(item, (list, tuple)):
            for inner in item:
                walk(inner)

    walk(value)
    return out


def _all_texts(content, public=()) -> list[str]:
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    if isinstance(content, str):
        texts = texts_of(content, public)
        try:
            parsed = json.loads(content)
        except ValueError:
            parsed = None
        if isinstance(parsed, (dict, list)):
            texts += [text for s in json_strings(parsed) for text in texts_of(s, public)]
        return texts
    return [text for s in json_strings(content) for text in texts_of(s, public)]


_RANKS = "23456789TJQKA"
_SUITS = "CDSH"
_SYMBOLS = "♣♦♠♥"
_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_SUIT_WORDS = ("clubs", "diamonds", "spades", "hearts")
# The same rules as card_pattern, for every card at once (one pass over a page).
_ANY_CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([CDSH])(?![A-Za-z0-9])")
_ANY_SYMBOL = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([♣♦♠♥])")
_ANY_NAME = re.compile(rf"(?i)\b({'|'.join(_WORDS)}) of ({'|'.join(_SUIT_WORDS)})\b")


def _card(rank: str, suit: str) -> Card:
    return Card.parse(("T" if rank == "10" else rank) + suit)


def all_cards_in(text: str) -> set:
    found = {_card(m.group(1), m.group(2)) for m in _ANY_CODE.finditer(text)}
    found |= {_card(m.group(1), _SUITS[_SYMBOLS.index(m.group(2))]) for m in _ANY_SYMBOL.finditer(text)}
    found |= {
        _card(_RANKS[_WORDS.index(m.group(1).lower())], _SUITS[_SUIT_WORDS.index(m.group(2).lower())])
        for m in _ANY_NAME.finditer(text)
    }
    return found


def cards_mentioned(content, cards, public=()) -> set:
    """Which of ``cards`` appear in ``content`` (HTML/text, or a parsed JSON value), leaving
    out the ``public`` sentences."""
    found = set()
    for text in _all_texts(content, public):
        found |= all_cards_in(text)
    return found & set(cards)


def rules_sentences(rules) -> list[str]:
    """The table's rules as the engine words them (shown on table pages; name no hand)."""
    from games.engine import Rules

    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    return sorted(rules.describe(), key=len, reverse=True)


def mention_contexts(content, cards, public=(), width=60) -> list[str]:
    """Where each of ``cards`` is mentioned, with some text around it (for failure messages)."""
    out = []
    for text in _all_texts(content, public):
        for card in cards:
            for match in card_pattern(card).finditer(text):
                out.append(f"{card}: …{text[max(match.start() - width, 0):match.end() + width]}…")
    return sorted(set(out))


def hidden_from(game, seat: int) -> set:
    """Cards ``seat`` must not see now: every other seat's hand (less the cards this seat passed
    to them this deal, which it knows) and a kitty nobody has taken yet."""
    view = game.view(seat)
    hidden = set()
    for other, hand in enumerate(game.hands):
        if other != seat:
            hidden |= set(hand)
    hidden -= set(view.passed or ())
    if game.kitty_taker is None:
        hidden |= set(game.kitty)
    return hidden


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _DealEndedSplitter(HTMLParser):
    """Separates the elements marked ``data-deal-ended`` (the last trick of the deal before,
    shown while the next begins) from the rest of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.rest, self.ended, self.depth = [], [], 0

    def _out(self):
        return self.ended if self.depth else self.rest

    def handle_starttag(self, tag, attrs):
        if self.depth == 0 and any(name == "data-deal-ended" for name, _ in attrs):
            self.depth = 1
        elif self.depth and tag not in _VOID:
            self.depth += 1
        self._out().append(self.get_starttag_text())

    def handle_startendtag(self, tag, attrs):
        self._out().append(self.get_starttag_text())

    def handle_endtag(self, tag):
        self._out().append(f"</{tag}>")
        if self.depth and tag not in _VOID:
            self.depth -= 1

    def handle_data(self, data):
        self._out().append(data)

    def handle_entityref(self, name):
        self._out().append(f"&{name};")

    def handle_charref(self, name):
        self._out().append(f"&#{name};")


def split_deal_ended(content) -> tuple[str, str]:
    """``(rest, ended)``: the page without its ``data-deal-ended`` elements, and those elements.
    The cards of a deal's last trick are public, yet after the next deal is dealt they are in
    hands again: the checks take them from where they are shown and look at them on their own."""
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    splitter = _DealEndedSplitter()
    splitter.feed(content)
    splitter.close()
    return "".join(splitter.rest), "".join(splitter.ended)


def final_trick_cards(game, deal: int) -> set:
    """The cards of ``deal``'s last trick (public), from the game's log."""
    steps = game_with_history(game.to_dict())[1]
    cards, trick = set(), []
    for step in steps:
        if step.deal == deal and step.kind == "play":
            trick.append(Card.parse(step.card))
            if any(event["type"] == "trick_won" for event in step.events):
                cards, trick = set(trick), []
    return cards
