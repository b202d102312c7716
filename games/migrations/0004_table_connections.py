"""Socket rows belong to the person at a table, not to a seat (a person who left or changed
seats kept a row on the old seat, so its next occupant never looked disconnected).

The old rows are dropped: every seat counted connected starts its reconnect grace period now,
and sockets still open record themselves again when their clients reconnect (restart every
daphne after migrating)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def start_grace_periods(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(connected=True).update(connected=False, left_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0003_live_servers'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.DeleteModel(name='SeatConnection'),
        migrations.RunPython(start_grace_periods, migrations.RunPython.noop),
        migrations.CreateModel(
            name='TableConnection',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('channel_name', models.CharField(max_length=200, unique=True)),
                ('server', models.CharField(blank=True, db_index=True, default='', help_text='LiveServer.name of the process holding the socket (no row, or a stale one: closed)', max_length=200)),
                ('opened_at', models.DateTimeField(auto_now_add=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='connections', to='games.table')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_connections', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['table', 'user'], name='games_table_table_i_5577d5_idx')],
            },
        ),
    ]
