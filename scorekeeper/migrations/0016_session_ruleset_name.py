"""A session keeps the name of the saved ruleset it started from ("Our Friday rules") as it
was then, beside the options it copied. Sessions already started from a saved ruleset that
still exists take its name now (the one they could show)."""

from django.db import migrations, models


def _names_of_saved_rulesets(apps, schema_editor):
    Session = apps.get_model("scorekeeper", "GameSession")
    for session in Session.objects.filter(saved_ruleset__isnull=False).select_related(
        "saved_ruleset"
    ):
        session.ruleset_name = session.saved_ruleset.name
        session.save(update_fields=["ruleset_name"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0015_long_first_trump")]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="ruleset_name",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.RunPython(_names_of_saved_rulesets, migrations.RunPython.noop, elidable=False),
    ]
