"""A game is stored once: its action rows are its log, and ``Table.state`` (a copy of the whole
game beside them) goes (in 0014, once this has committed: PostgreSQL alters no table with
checks of new rows' foreign keys pending). The table keeps how the game began (``setup``) and
a summary; each action gets the game's own ply, keeping the table version it made in
``version``."""
from django.db import migrations, models

from games.engine import Game


def state_to_log(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Action = apps.get_model("games", "Action")
    for table in Table.objects.exclude(state=None).iterator():
        state = table.state
        log = state.get("log", [])
        summary = state.get("state") or {}
        table.setup = state["setup"]
        table.ply = len(log)
        table.deal_number = summary.get("deal_number", 1)
        table.scores = summary.get("scores", [0] * int(table.rules["players"]))
        table.winners = summary.get("winners", [])
        table.save(update_fields=["setup", "ply", "deal_number", "scores", "winners"])
        rows = list(Action.objects.filter(table=table).order_by("ply"))
        if len(rows) != len(log):  # not seen, but the log is what the game is: keep it whole
            actors = [row.actor for row in rows]
            Action.objects.filter(table=table).delete()
            rows = [
                Action(table=table, ply=index, seat=entry["seat"], action=entry["action"],
                       actor=actors[index - 1] if index <= len(actors) else "person")
                for index, entry in enumerate(log, start=1)
            ]
            for row in rows:
                row.version = row.ply
                row.deal = log[row.ply - 1]["deal"]
            Action.objects.bulk_create(rows)
            continue
        # Ascending: each new ply is below every old one still to be renumbered (old plies
        # were table versions, which run ahead of the log), so the unique (table, ply) holds.
        for index, (row, entry) in enumerate(zip(rows, log), start=1):
            row.version = row.ply
            row.ply = index
            row.deal = entry["deal"]
            row.save(update_fields=["version", "ply", "deal"])


def log_to_state(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Action = apps.get_model("games", "Action")
    for table in Table.objects.exclude(setup=None).iterator():
        rows = list(Action.objects.filter(table=table).order_by("-ply"))
        log = [{"deal": row.deal, "seat": row.seat, "action": row.action} for row in reversed(rows)]
        saved = {"format": Game.FORMAT, "rules": table.rules, "seed": table.seed, "setup": table.setup, "log": log}
        table.state = Game.from_dict(saved).to_dict()
        table.save(update_fields=["state"])
        for row in rows:  # descending: old plies (versions) are above every new one
            row.ply = row.version
            row.save(update_fields=["ply"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_table_offline_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="setup",
            field=models.JSONField(blank=True, help_text="How the game began (the engine's setup: dealer, scores, fixed hands); empty until it starts.", null=True),
        ),
        migrations.AddField(
            model_name="table",
            name="ply",
            field=models.PositiveIntegerField(default=0, help_text="Actions in the game's log (its action rows)."),
        ),
        migrations.AddField(
            model_name="table",
            name="deal_number",
            field=models.PositiveSmallIntegerField(default=0, help_text="The deal being played (0 before the start)."),
        ),
        migrations.AddField(
            model_name="table",
            name="scores",
            field=models.JSONField(blank=True, default=list, help_text="Each seat's total, after the deals scored so far."),
        ),
        migrations.AddField(
            model_name="table",
            name="winners",
            field=models.JSONField(blank=True, default=list, help_text="The winning seats, once the game is over."),
        ),
        migrations.AlterField(
            model_name="table",
            name="version",
            field=models.PositiveIntegerField(default=0, help_text="Changes of the table so far (moves, seats changing hands); every update carries it."),
        ),
        migrations.AddField(
            model_name="action",
            name="version",
            field=models.PositiveIntegerField(default=0, help_text="The table's version after this action."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="action",
            name="deal",
            field=models.PositiveSmallIntegerField(default=0, help_text="The deal the action belongs to."),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="action",
            name="ply",
            field=models.PositiveIntegerField(help_text="The game's ply after this action: 1 for its first."),
        ),
        migrations.AlterField(
            model_name="action",
            name="action",
            field=models.JSONField(help_text='A card ("QS"), three passed cards, or "add"/"subtract" for a moon.'),
        ),
        migrations.RunPython(state_to_log, log_to_state),
    ]
