"""The card finder itself: precise, so the hidden-card tests neither miss nor cry wolf."""
from games.engine import Card
from tests.security.cards import cards_mentioned, hidden_from

QS, TH, AS, TWO_C = (Card.parse(code) for code in ("QS", "TH", "AS", "2C"))
ALL = {QS, TH, AS, TWO_C}


def test_codes_symbols_names_and_entities_are_found():
    assert cards_mentioned('<button value="QS">', ALL) == {QS}
    assert cards_mentioned("<span>10♥</span>", ALL) == {TH}
    assert cards_mentioned("<span>10H</span> and TH", ALL) == {TH}
    assert cards_mentioned("Q&spades;", ALL) == {QS}
    assert cards_mentioned("<b>A</b><i>♠</i>", ALL) == {AS}
    assert cards_mentioned('aria-label="Queen of Spades"', ALL) == {QS}
    assert cards_mentioned('{"hand": ["2C", "AS"]}', ALL) == {TWO_C, AS}
    assert cards_mentioned({"view": {"hand": ["TH"]}}, ALL) == {TH}
    assert cards_mentioned('<img src="/static/cards/QS.svg">', ALL) == {QS}


def test_lookalikes_are_not_cards():
    page = ('<div class="CLASS WITH">#2C3E50 QSX 2CC PASS10 THE ASK J♠ 3♥</div>'
            '<p>class="card" pass as the queen of spadesmen</p>')
    assert cards_mentioned(page, ALL) == set()
    assert cards_mentioned("10♠ 110♥", {Card.parse("TS")}) == {Card.parse("TS")}
    assert cards_mentioned("110♥", {TH}) == set()


def test_public_sentences_are_left_out():
    from games.engine import Rules
    from tests.security.cards import rules_sentences

    page = "<li>The holder of the 2♣ leads it to the first trick.</li><li>Bob holds the A♠</li>"
    assert cards_mentioned(page, ALL, rules_sentences(Rules())) == {AS}


def test_hidden_cards_are_the_other_hands_less_what_you_passed():
    from games.engine import Game, Rules

    game = Game.new(Rules(), seed=4)
    mine = game.legal(0)[:3]
    game.apply(0, mine)
    for seat in (1, 2, 3):
        game.apply(seat, game.legal(seat)[:3])
    hidden = hidden_from(game, 0)
    assert not hidden & set(game.hands[0])
    assert not hidden & set(mine), "seat 0 passed these and knows where they are"
    assert len(hidden) == 39 - 3


def test_the_one_pass_finder_agrees_with_each_cards_pattern():
    import random

    from games.engine import FULL_DECK
    from tests.security.cards import all_cards_in, card_pattern

    rng = random.Random(3)
    pieces = ["Q", "S", "10", "T", "H", "♠", "♥", "1", "0", "A", " ", "-", "x", "queen of spades", "ten of hearts",
              "<b>", "</b>", "#", "2C", "C", "K♣", "J", "D"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        assert all_cards_in(text) == {card for card in FULL_DECK if card_pattern(card).search(text)}, text
