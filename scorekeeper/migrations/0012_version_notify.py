"""On PostgreSQL, a trigger that says (NOTIFY) whenever a session's version changes, so that the
event streams of every app server hear of it at once (scorekeeper/live/streams.py). SQLite has no
NOTIFY: the streams there read the versions every quarter of a second instead."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION scorekeeper_version_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('scorekeeper_versions', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER scorekeeper_version_notify
    AFTER UPDATE OF version, watch_token, scorer_token, deleted ON scorekeeper_gamesession
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_version_notify();
"""
DROP = """
DROP TRIGGER IF EXISTS scorekeeper_version_notify ON scorekeeper_gamesession;
DROP FUNCTION IF EXISTS scorekeeper_version_notify();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0011_session_counter")]

    operations = [migrations.RunPython(create, drop)]
