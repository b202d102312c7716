"""What must hold for every stored table, whatever was thrown at it."""
from collections import Counter

from games import storage
from games.engine import FULL_DECK, Game, Rules
from games.models import Action, Table


def check_table(table: Table, *, extra_version_bumps: int = 0) -> Game | None:
    """Assert the stored table is sound; return its game. ``extra_version_bumps`` counts the
    version changes that are not moves (seats taken, stand-ins, abandon...)."""
    actions = list(Action.objects.filter(table=table).order_by("ply"))
    if not table.has_game:
        assert not actions and table.version == extra_version_bumps and table.ply == 0
        return None
    game = storage.game_from_log(table)  # replays the log; raises if it is not a game, or not table.ply long
    assert [action.ply for action in actions] == list(range(1, game.ply + 1)), f"table {table.pk}: plies not 1..n"
    assert table.version == len(actions) + 1 + extra_version_bumps, (
        f"table {table.pk}: version {table.version} != {len(actions)} actions + 1 start + {extra_version_bumps}"
    )
    versions = [action.version for action in actions]
    assert versions == sorted(set(versions)) and all(1 < version <= table.version for version in versions)
    assert [(action.deal, action.seat, action.action) for action in actions] == [
        (entry["deal"], entry["seat"], entry["action"]) for entry in game.log()
    ]
    assert (table.deal_number, table.scores, table.winners) == (
        game.deal_number, list(game.scores), list(game.winners)
    ), f"table {table.pk}: its summary is not its game's"
    check_cards(game)
    check_deal_points(game.to_dict())
    if table.status == Table.Status.FINISHED:
        assert game.is_over
    if table.status == Table.Status.PLAYING:
        assert not game.is_over
    return game


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
