"""What the server's log may say: never a watch or scorer link's token.

A link's token is the whole of its key: whoever reads it in a log line ("Not Found:
/w/<token>/" for a link turned off, say) could open the link. Every record the console handler
writes goes through `HideLinkTokens` (settings.LOGGING).
"""

from __future__ import annotations

import logging
import re

# /w/<token>/… and /s/<token>/…: the watch and scorer links (scorekeeper/urls.py).
_LINK = re.compile(r"(/[ws]/)[^/\s?#\"']+")


class HideLinkTokens(logging.Filter):
    """Writes each link's token in a record's message as "…"."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = _LINK.sub(r"\1…", message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True
