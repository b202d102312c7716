import copy
import pickle

import pytest

from games.engine import FULL_DECK, Card, Rank, Suit, cards_to_mask, mask_to_cards, parse_cards


def test_parse_and_str():
    assert str(Card.parse("QS")) == "QS"
    assert str(Card.parse("TH")) == "TH"
    assert Card.parse("10H") is Card.parse("TH") is Card.parse("th") is Card.parse("10♥")
    assert Card.parse(" qs ") is Card.parse("Q♠")
    assert Card.parse(Card.parse("2C")) is Card.parse("2C")


def test_suit_rank_symbol():
    c = Card.parse("QS")
    assert c.suit is Suit.SPADES and c.suit == "S"
    assert c.rank is Rank.QUEEN and c.rank == 12 and c.rank == "Q" and c.rank != "K"
    assert c.symbol == "Q♠"
    assert Card.parse("TH").symbol == "10♥"
    assert Card.parse("2D").symbol == "2♦"
    assert Card.parse("AC").symbol == "A♣"
    assert c.name == "queen of spades"
    assert Card("S", 12) is c and Card(Suit.SPADES, "Q") is c and Card("s", Rank.QUEEN) is c


@pytest.mark.parametrize("bad", ["", "Q", "QX", "1S", "11H", "ZZ", "QSS", "♠Q", "0S"])
def test_invalid_raises(bad):
    with pytest.raises(ValueError, match="Not a card"):
        Card.parse(bad)


def test_invalid_types():
    with pytest.raises(ValueError):
        Card.parse(12)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Card("X", 2)
    with pytest.raises(ValueError):
        Card("S", 15)
    with pytest.raises(ValueError):
        Card.from_index(52)


def test_order_suit_then_rank():
    deck = list(FULL_DECK)
    assert len(deck) == 52 and len(set(deck)) == 52
    assert deck == sorted(deck)
    assert [c.suit for c in deck[::13]] == [Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS]
    assert str(deck[0]) == "2C" and str(deck[-1]) == "AH"
    assert Card.parse("AC") < Card.parse("2D") < Card.parse("AD") < Card.parse("2S") < Card.parse("2H")
    assert sorted(parse_cards("2H AS 3C KD")) == parse_cards("3C KD AS 2H")
    assert max(parse_cards("2H AS")) == Card.parse("2H")
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.SPADES < Suit.HEARTS


def test_hashable_immutable():
    c = Card.parse("QS")
    assert {c: 1}[Card.parse("qs")] == 1
    assert len({Card.parse("QS"), Card.parse("Q♠"), Card.parse("2C")}) == 2
    with pytest.raises(AttributeError):
        c.rank = Rank.KING  # type: ignore[misc]
    assert copy.deepcopy(c) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert c != "QS"  # a card is not a string
    assert hash(c) == c.index


def test_index_and_masks():
    for i, c in enumerate(FULL_DECK):
        assert c.index == i and Card.from_index(i) is c
        assert c.index == c.suit.index * 13 + c.rank - 2
    cards = parse_cards("QS 2C AH")
    assert mask_to_cards(cards_to_mask(cards)) == tuple(sorted(cards))


def test_mask_to_cards_equals_the_plain_sort_for_every_suit_segment():
    # mask_to_cards reads a precomputed table per suit; every entry must be the plain answer
    for suit in range(4):
        for segment in range(1 << 13):
            mask = segment << 13 * suit
            plain = tuple(sorted(c for c in FULL_DECK if mask >> c.index & 1))
            assert mask_to_cards(mask) == plain


def test_parse_cards_forms():
    assert parse_cards("2C, 3C 4c") == parse_cards(["2C", "3C", Card.parse("4C")])


def test_suit_and_rank_parse():
    assert Suit.parse("hearts") is Suit.HEARTS and Suit.parse("♣") is Suit.CLUBS
    assert str(Suit.HEARTS) == "H" and Suit.HEARTS.plural == "hearts"
    assert Rank.parse("10") is Rank.TEN and str(Rank.ACE) == "A" and f"{Rank.KING}" == "K"
    with pytest.raises(ValueError):
        Suit.parse("X")
    with pytest.raises(ValueError):
        Rank.parse("1")
