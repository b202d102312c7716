"""Finding card mentions in text precisely: "QS" inside "QSX" or "AS" inside "CLASS" is not a
card, "Q♠" inside "10♠"... is not the queen, and a card can be written several ways
("QS", "Q♠", "Q&spades;", "queen of spades", "10H" for "TH")."""
import html
import json
import re
from functools import lru_cache

from games.engine import Card

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


def texts_of(content: str) -> list[str]:
    """The forms of a page worth searching: as sent, entities decoded, and its text with tags
    removed (a face drawn as <b>Q</b><i>♠</i> reads "Q♠")."""
    decoded = html.unescape(content)
    stripped = html.unescape(_TAG.sub("", content))
    return [content, decoded, stripped]


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


def cards_mentioned(content, cards) -> set:
    """Which of ``cards`` appear in ``content`` (HTML/text, or a parsed JSON value)."""
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    if isinstance(content, str):
        texts = texts_of(content)
        try:
            parsed = json.loads(content)
        except ValueError:
            parsed = None
        if isinstance(parsed, (dict, list)):
            texts += [text for s in json_strings(parsed) for text in texts_of(s)]
    else:
        texts = [text for s in json_strings(content) for text in texts_of(s)]
    return {card for card in cards if any(card_pattern(card).search(text) for text in texts)}


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
