"""The app with faults on order, for tests/faults/test_faults.py.

gunicorn serves `application`. A test arms a fault by creating a file named after it
in $FAULT_DIR; the first request that reaches the fault's moment removes the file
and suffers it, so the retry that follows goes through.

- kill-mid-save: the worker dies (SIGKILL) as it inserts a deal's hands, between the
  deal's row and its hands, inside the transaction.
- kill-after-save: the worker dies after the view committed, before the response.
- drop-connection-mid-save (PostgreSQL): the database server ends this worker's
  connection at the same moment, as a restart does.
"""

import os
import signal
from pathlib import Path
from typing import Any

import psycopg
from django.core.wsgi import get_wsgi_application
from django.db.backends.signals import connection_created

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django_application = get_wsgi_application()
ARMED = Path(os.environ["FAULT_DIR"])


def fire(fault: str) -> bool:
    try:
        (ARMED / fault).unlink()
    except FileNotFoundError:
        return False
    return True


def faults(execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    if sql.startswith('INSERT INTO "scorekeeper_hand"'):
        if fire("kill-mid-save"):
            os.kill(os.getpid(), signal.SIGKILL)
        if fire("drop-connection-mid-save"):
            pid = context["connection"].connection.info.backend_pid
            with psycopg.connect(os.environ["FAULT_ADMIN_URL"], autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    return execute(sql, params, many, context)


def install(sender: Any, connection: Any, **kwargs: Any) -> None:
    connection.execute_wrappers.append(faults)


connection_created.connect(install)


def application(environ: dict[str, Any], start_response: Any) -> Any:
    response = django_application(environ, start_response)
    if environ["REQUEST_METHOD"] == "POST" and fire("kill-after-save"):
        os.kill(os.getpid(), signal.SIGKILL)
    return response
