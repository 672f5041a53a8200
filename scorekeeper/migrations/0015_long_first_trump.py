"""Long Ninety-Nine's own `first_trump` is the usual `none` (RULES.md §1.4: a preset whose own
trump is not `by-successes`, given it as a house rule without `first_trump`, plays the first
deal at `none`). Its sessions and saved rulesets that gave it trump by successes without a first
trump were played from ♦: they keep ♦ as a house rule, so no deal already played changes."""

from django.db import migrations

OLD_FIRST_TRUMP = "diamonds"


def _keep_diamonds(apps, schema_editor):
    for model in ("GameSession", "SavedRuleset"):
        rows = apps.get_model("scorekeeper", model).objects.filter(family="trick", ruleset="long")
        for row in rows:
            options = row.options if isinstance(row.options, dict) else {}
            if options.get("trump") == "by-successes" and "first_trump" not in options:
                row.options = {**options, "first_trump": OLD_FIRST_TRUMP}
                row.save(update_fields=["options"])


def _leave_diamonds(apps, schema_editor):
    """Back to ♦ as Long's own first trump: the ♦ restated is the preset's value again."""
    for model in ("GameSession", "SavedRuleset"):
        rows = apps.get_model("scorekeeper", model).objects.filter(family="trick", ruleset="long")
        for row in rows:
            options = row.options if isinstance(row.options, dict) else {}
            if options.get("first_trump") == OLD_FIRST_TRUMP:
                row.options = {k: v for k, v in options.items() if k != "first_trump"}
                row.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0014_notify_names_session")]

    operations = [migrations.RunPython(_keep_diamonds, _leave_diamonds, elidable=False)]
