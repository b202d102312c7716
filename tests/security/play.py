"""Drive games one move at a time through games.services, with computers choosing every move.

Tasks the services schedule (computer turns, timers) are held in a queue and run one by one,
so a test sees the table after every single action, as a player polling the page would."""
from games import services, storage
from games.models import Table
from hearts_site.taskrunner import task_named


def as_sent(action):
    """An engine action as a client sends it: a card code, three codes, or the moon choice."""
    if isinstance(action, (list, tuple)):
        return [str(card) for card in action]
    return str(action)


class StepDriver:
    def __init__(self, table_id: int, monkeypatch, *, level: str = "easy"):
        self.table_id = table_id
        self.level = level
        self.queue: list = []
        monkeypatch.setattr(services, "schedule", self._schedule)

    def _schedule(self, task_name, *args, countdown: float = 0.0):
        self.queue.append((task_named(task_name), args))

    def table(self) -> Table:
        return Table.objects.get(pk=self.table_id)

    def game(self):
        return storage.game_of(self.table())

    def step(self) -> bool:
        """Make the next move (a queued computer turn first, else the person to act, played
        by a computer through ``submit_action`` with their user). False once the game is over."""
        table = self.table()
        if table.status != Table.Status.PLAYING:
            return False
        version = table.version
        while self.queue and self.table().version == version:
            task, args = self.queue.pop(0)
            if task.name == "games.turn_timeout":
                continue  # no clock here: people always move in time
            task.apply(args=args, throw=True)
        table = self.table()
        if table.version != version:
            return table.status == Table.Status.PLAYING
        game = storage.game_of(table)
        seats = {seat.number: seat for seat in table.seats.select_related("user")}
        person = next(number for number in game.to_act if not seats[number].computer_plays)
        choice = services.computer_action(game.view(person), self.level, table, person)
        services.submit_action(
            table.pk, person, as_sent(choice), expected_version=table.version, user=seats[person].user
        )
        return self.table().status == Table.Status.PLAYING
