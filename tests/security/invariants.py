"""What must hold for every stored table, whatever was thrown at it."""
from collections import Counter

from games.engine import FULL_DECK, Card, Game, Rules
from games.models import Action, Table


def check_table(table: Table, *, extra_version_bumps: int = 0) -> Game | None:
    """Assert the stored table is sound; return its game. ``extra_version_bumps`` counts the
    version changes that are not moves (seats taken, stand-ins, abandon...)."""
    actions = list(Action.objects.filter(table=table).order_by("ply"))
    if table.state is None:
        assert not actions and table.version == extra_version_bumps
        return None
    game = Game.from_dict(table.state)  # replays the log; raises if state and log disagree
    assert game.to_dict() == table.state
    assert game.ply == len(actions), f"table {table.pk}: engine ply {game.ply} != {len(actions)} logged actions"
    assert table.version == len(actions) + 1 + extra_version_bumps, (
        f"table {table.pk}: version {table.version} != {len(actions)} actions + 1 start + {extra_version_bumps}"
    )
    plies = [action.ply for action in actions]
    assert plies == sorted(set(plies)) and all(1 < ply <= table.version for ply in plies)
    for entry, action in zip(game.log(), actions):
        assert (entry["seat"], _same_order(entry["action"])) == (action.seat, _same_order(action.action)), (
            f"table {table.pk}: log entry {entry} but Action row seat {action.seat} {action.action}"
        )
    check_cards(game)
    check_deal_points(table.state)
    if table.status == Table.Status.FINISHED:
        assert game.is_over
    if table.status == Table.Status.PLAYING:
        assert not game.is_over
    return game


def _same_order(action):
    """A pass is logged sorted by the engine; the Action row keeps the order it was sent in."""
    if isinstance(action, list):
        return sorted(Card.parse(card) for card in action)
    return action


def check_cards(game: Game) -> None:
    """Every card of the deck exactly once: hands, passes on their way, the trick, the tricks
    taken, the kitty, the cards removed for this table size."""
    cards = []
    for hand in game.hands:
        cards += hand
    if game.phase == "pass":
        for seat in range(game.players):
            cards += game.view(seat).passed or ()
    cards += [card for _, card in game.current_trick]
    for trick in game.tricks:
        cards += trick.cards
    cards += game.kitty
    cards += game.rules.removed
    counts = Counter(cards)
    duplicated = [str(card) for card, count in counts.items() if count > 1]
    assert not duplicated, f"cards held twice: {duplicated}"
    if game.phase == "over":
        return
    assert set(counts) == set(FULL_DECK), f"cards missing: {sorted(map(str, set(FULL_DECK) - set(counts)))}"


def check_deal_points(state: dict) -> None:
    """Each scored deal hands out the deal's points: 26 (43 with Black Maria; the jack of
    diamonds −10 on top), or the moon's."""
    rules = Rules.from_dict(state["rules"])
    total = 26 + (17 if rules.black_maria else 0) - (10 if rules.jack_of_diamonds else 0)
    for game in _scored_deals(state):
        points, shooter = game
        if shooter is None:
            assert sum(points) == total, f"a deal scored {points}, total {sum(points)} != {total}"
        else:
            assert sum(points) != 0 or rules.moon == "off"


def _scored_deals(state: dict):
    game = Game._initial(state)
    for entry in state.get("log", ()):
        for event in game.apply(entry["seat"], entry["action"]):
            if event["type"] == "deal_scored":
                yield event["points"], event["moon_shooter"]
