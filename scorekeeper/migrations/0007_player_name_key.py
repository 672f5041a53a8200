"""Player names are unique by a real case fold (bounds.name_key), held by the database.

Before, the constraint compared Lower(name), which SQLite applies to ASCII letters only, so
"Éva" and "éva" could both be on one roster, and every page of a session seating both failed.
A roster that holds such a pair keeps its first player's name; each later one gets " (2)",
" (3)" … added so that the constraint can hold, and keeps its past games.
"""

import unicodedata

from django.db import migrations, models


def _key(name: str) -> str:
    # bounds.name_key as it is today (a migration keeps its own copy of what it ran).
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def fill_keys(apps, schema_editor):  # noqa: ANN001, ANN201
    Player = apps.get_model("scorekeeper", "Player")
    taken: set[tuple[int, str]] = set()
    for player in Player.objects.order_by("owner_id", "pk"):
        name, suffix = player.name, 1
        while (player.owner_id, _key(name)) in taken:
            suffix += 1
            name = f"{player.name[: 40 - len(f' ({suffix})')]} ({suffix})"
        taken.add((player.owner_id, _key(name)))
        player.name, player.name_key = name, _key(name)
        player.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0006_rate_limits")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_per_owner"),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("owner", "name_key"), name="player_name_key_unique_per_owner"
            ),
        ),
    ]
