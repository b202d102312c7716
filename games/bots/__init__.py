"""Computer players. INTERIM: the bots engineer replaces this module (games/bots/ is theirs).

Contract used by games.services and the web UI:
    choose_action(view: PlayerView, level: str, seed: int) -> Card | list[Card] | "add" | "subtract"
    hint(view: PlayerView) -> Hint(action, reason)
"""
import random
from dataclasses import dataclass

LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Hint:
    action: object
    reason: str


def choose_action(view, level: str, seed: int = 0):
    rng = random.Random(seed)
    if view.phase == "pass":
        return sorted(view.hand, key=lambda card: (card.rank, card.suit))[-3:]
    return rng.choice(list(view.legal))


def hint(view) -> Hint:
    return Hint(choose_action(view, "medium"), "A legal choice.")
