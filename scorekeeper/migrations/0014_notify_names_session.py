"""The trigger's NOTIFY names the session that changed (its id), so that each app server's
event streams read only the sessions named, not every open stream's (scorekeeper/live/streams.py),
and a session deleted for good is heard of too. SQLite has no NOTIFY: nothing to do there."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION scorekeeper_version_notify() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('scorekeeper_versions', OLD.id::text);
    ELSE
        PERFORM pg_notify('scorekeeper_versions', NEW.id::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER scorekeeper_deleted_notify
    AFTER DELETE ON scorekeeper_gamesession
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_version_notify();
"""
# Back to migration 0012's trigger: an empty payload, on which every open stream is read.
DROP = """
DROP TRIGGER IF EXISTS scorekeeper_deleted_notify ON scorekeeper_gamesession;
CREATE OR REPLACE FUNCTION scorekeeper_version_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('scorekeeper_versions', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0013_account_language")]

    operations = [migrations.RunPython(create, drop)]
