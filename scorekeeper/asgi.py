import contextlib
import os
import resource

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ["SCOREKEEPER_ASGI"] = "1"  # settings.ASGI_VARIABLE: PostgreSQL's connections pooled
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from scorekeeper.bodylimit import BodyLimit  # noqa: E402
from scorekeeper.disconnects import DisconnectAfterStart  # noqa: E402
from scorekeeper.live.streams import Gate  # noqa: E402 (needs the settings and apps loaded above)
from scorekeeper.shedding import Shed  # noqa: E402
from scorekeeper.warm import warm  # noqa: E402


def open_more_files() -> None:
    """Raise the open-files limit to the most the system allows this process: each phone's
    connection, and each open event stream, holds one (many systems start processes at 1,024,
    and allow far more when asked)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 10_240  # macOS's most per process
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    # Where the system refuses, the limit stays, and the streams' share follows it.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


open_more_files()
# Django's own handler, behind: the event streams' gate (their limits and their one shared
# thread); a phone's leaving told once its answer has begun; the bound on a request's body,
# which Django would otherwise read to its end, to a temporary file, before any check; and
# before all of them, the requests taken in turns, and the live regions' polls shed while the
# process is past its capacity.
application = Shed(
    BodyLimit(DisconnectAfterStart(Gate(ASGIHandler())), settings.MAX_REQUEST_BODY),
    settings.REQUESTS_AT_ONCE,
)
warm()
