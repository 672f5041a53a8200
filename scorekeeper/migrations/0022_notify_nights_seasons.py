"""A club night's and a season's changes are heard like a session's: a trigger sends a NOTIFY
naming the night ("n<id>") or the season ("g<id>") whenever its version or its link changes, or
it is deleted, so that each app server's event streams read only what was named
(scorekeeper/live/streams.py). SQLite has no NOTIFY: nothing to do there."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION scorekeeper_watched_notify() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('scorekeeper_versions', TG_ARGV[0] || OLD.id::text);
    ELSE
        PERFORM pg_notify('scorekeeper_versions', TG_ARGV[0] || NEW.id::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER scorekeeper_night_notify
    AFTER UPDATE OF version, watch_token ON scorekeeper_night
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_watched_notify('n');
CREATE TRIGGER scorekeeper_night_deleted_notify
    AFTER DELETE ON scorekeeper_night
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_watched_notify('n');
CREATE TRIGGER scorekeeper_season_notify
    AFTER UPDATE OF version, watch_token ON scorekeeper_season
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_watched_notify('g');
CREATE TRIGGER scorekeeper_season_deleted_notify
    AFTER DELETE ON scorekeeper_season
    FOR EACH ROW EXECUTE FUNCTION scorekeeper_watched_notify('g');
"""
DROP = """
DROP TRIGGER IF EXISTS scorekeeper_night_notify ON scorekeeper_night;
DROP TRIGGER IF EXISTS scorekeeper_night_deleted_notify ON scorekeeper_night;
DROP TRIGGER IF EXISTS scorekeeper_season_notify ON scorekeeper_season;
DROP TRIGGER IF EXISTS scorekeeper_season_deleted_notify ON scorekeeper_season;
DROP FUNCTION IF EXISTS scorekeeper_watched_notify();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0021_stored_above_tables")]

    operations = [migrations.RunPython(create, drop)]
