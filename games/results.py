"""What a finished game leaves behind: ratings (rated games) and statistics."""


def record_finished_game(table, game) -> None:
    """Called inside the transaction that marks ``table`` finished."""
    return None


def record_abandoned_game(table, game) -> None:
    """Called inside the transaction that marks ``table`` abandoned."""
    return None
