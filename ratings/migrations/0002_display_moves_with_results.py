"""The shown rating becomes the skill estimate itself (``ratings.skill``): every rating and
every recorded change is shown again on the new scale, from the ``mu`` kept beside it."""
from django.db import migrations, models

BASE, SCALE, INITIAL_MU = 1500.0, 24.0, 25.0  # ratings.skill as of this migration


def shown(mu: float) -> int:
    return round(BASE + SCALE * (mu - INITIAL_MU))


def show_again(apps, schema_editor):
    Rating = apps.get_model("ratings", "Rating")
    RatingChange = apps.get_model("ratings", "RatingChange")
    for rating in Rating.objects.all().only("mu", "display"):
        rating.display = shown(rating.mu)
        rating.save(update_fields=["display"])
    for change in RatingChange.objects.all().only("mu_before", "mu_after"):
        change.display_before, change.display_after = shown(change.mu_before), shown(change.mu_after)
        change.save(update_fields=["display_before", "display_after"])


def show_as_before(apps, schema_editor):
    Rating = apps.get_model("ratings", "Rating")
    RatingChange = apps.get_model("ratings", "RatingChange")
    for rating in Rating.objects.all().only("mu", "sigma", "display"):
        rating.display = round(1200 + 24 * (rating.mu - 3 * rating.sigma))
        rating.save(update_fields=["display"])
    for change in RatingChange.objects.all():
        change.display_before = round(1200 + 24 * (change.mu_before - 3 * change.sigma_before))
        change.display_after = round(1200 + 24 * (change.mu_after - 3 * change.sigma_after))
        change.save(update_fields=["display_before", "display_after"])


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="rating",
            name="display",
            field=models.IntegerField(default=1500, help_text="round(1500 + 24 × (mu − 25)): what players see (ratings.skill)."),
        ),
        migrations.RunPython(show_again, show_as_before),
    ]
