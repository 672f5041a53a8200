"""What the server's log may say: never a link's token.

A link's token is the whole of its key: whoever reads it in a log line ("Not Found:
/w/<token>/" for a link turned off, say, or "Forbidden (CSRF cookie not set.): /t/<token>/")
could open the link with it. Every record the console handler writes goes through
`HideLinkTokens` (settings.LOGGING).
"""

from __future__ import annotations

import logging
import re

# The first path segment of every link that carries a token (scorekeeper/urls.py): a
# session's watch and scorer links, a night's link, a table's card and a season's link.
# tests/test_logs.py walks the URLs so that a new kind of link cannot be left out.
LINK_PREFIXES = ("w", "s", "n", "t", "g")
_LINK = re.compile(rf"(/(?:{'|'.join(LINK_PREFIXES)})/)[^/\s?#\"']+")


class HideLinkTokens(logging.Filter):
    """Writes each link's token in a record's message as "…"."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = _LINK.sub(r"\1…", message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True
