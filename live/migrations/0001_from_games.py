"""Live play's models, taken over from the games app with the tables they already have
(``db_table``; see games.0011). The content types are renamed rather than made anew, so the
admin's permissions and history of these models stay with them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ["queueentry", "liveserver", "tableconnection", "chatmessage"]


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="games", model__in=MODELS).update(app_label="live")


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="live", model__in=MODELS).update(app_label="games")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_live_models_move_to_live'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(move_content_types, move_content_types_back, elidable=True),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='LiveServer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(help_text='host:pid:random, new at every start', max_length=200, unique=True)),
                        ('started_at', models.DateTimeField(auto_now_add=True)),
                        ('heartbeat_at', models.DateTimeField(db_index=True)),
                    ],
                    options={
                        'db_table': 'games_liveserver',
                        'ordering': ['-heartbeat_at'],
                    },
                ),
                migrations.CreateModel(
                    name='ChatMessage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('text', models.CharField(max_length=200)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('reported_at', models.DateTimeField(blank=True, null=True)),
                        ('reported_by', models.ForeignKey(blank=True, help_text='A player at the table who reported this message to the staff.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to='games.table')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'games_chatmessage',
                        'ordering': ['created_at', 'pk'],
                        'indexes': [models.Index(fields=['table', 'user', 'created_at'], name='games_chatm_table_i_262aa5_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='QueueEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('table_size', models.PositiveSmallIntegerField()),
                        ('rating', models.IntegerField()),
                        ('joined_at', models.DateTimeField()),
                        ('last_seen', models.DateTimeField(help_text='The waiting page polls; a player who stopped polling has left.')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='queue_entries', to='games.table')),
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='queue_entry', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'queue entries',
                        'db_table': 'games_queueentry',
                        'ordering': ['joined_at', 'pk'],
                        'indexes': [models.Index(fields=['table_size', 'table', 'joined_at'], name='games_queue_table_s_dfee32_idx')],
                    },
                ),
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
                        'db_table': 'games_tableconnection',
                        'indexes': [models.Index(fields=['table', 'user'], name='games_table_table_i_5577d5_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
