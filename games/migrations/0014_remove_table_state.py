from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0013_game_stored_once"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="table",
            name="state",
        ),
    ]
