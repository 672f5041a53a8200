"""Who deals first is kept as a seat of the session (0 is seat 1), so that the seats stay in
the order the table sits. Every session started before this one had its seats turned round
so that its first dealer sat in seat 1: seat 1 it is, so each deals as it did."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0016_session_ruleset_name")]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="first_dealer",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddConstraint(
            model_name="gamesession",
            constraint=models.CheckConstraint(
                condition=models.Q(("first_dealer__lt", 10)), name="session_first_dealer_range"
            ),
        ),
    ]
