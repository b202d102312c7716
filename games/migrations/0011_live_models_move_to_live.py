"""Live play's models (QueueEntry, LiveServer, TableConnection, ChatMessage) moved to the live
app. Only Django's idea of which app owns them changes: their tables stay as they are (the live
models keep the names with ``db_table``), so nothing is copied and no row is lost. The live
app's first migration takes them over."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_table_watchers'),
    ]

    operations = [
        migrations.AlterField(
            model_name='table',
            name='rematch',
            field=models.JSONField(blank=True, help_text="After a live game: the rematch offered (live.rooms.answer_rematch): the new room's code, its state (open, started, closed), each person's answer (yes, no, late) and until when it is open.", null=True),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='chatmessage',
                    name='reported_by',
                ),
                migrations.RemoveField(
                    model_name='chatmessage',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='chatmessage',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='LiveServer',
                ),
                migrations.RemoveField(
                    model_name='queueentry',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='queueentry',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='tableconnection',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='tableconnection',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='ChatMessage',
                ),
                migrations.DeleteModel(
                    name='QueueEntry',
                ),
                migrations.DeleteModel(
                    name='TableConnection',
                ),
            ],
            database_operations=[],
        ),
    ]
