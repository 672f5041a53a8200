"""The live wing: everything that hangs on a session's version, behind one entrance.

Every change to what a session shows raises its version by one, through `bump` alone. What
is worked out for a version stays true for good, so it is kept by version and never taken
back (`keys.key` spells every kept copy):
- the result the rules compute from the entries (`result`, `keep_result`);
- a read-only link's live fragment, standings board and page, rendered once per version
  (`fragment`, `board`, `page`).
Phones poll with the version (`etag`, `not_modified`, `live_headers`; a link's unchanged
poll is answered before the rest of the stack: `polled`, `http.UnchangedPollMiddleware`) and
hear of a new one by push (`streams`). Views call these functions; they never spell a key or
write a version.
"""

from scorekeeper.live.http import etag, link_version, live_headers, not_modified, polled
from scorekeeper.live.pages import board, fragment, page
from scorekeeper.live.results import forget_all, result
from scorekeeper.live.results import keep as keep_result
from scorekeeper.live.versions import bump, bump_night, bump_season

__all__ = [
    "board", "bump", "bump_night", "bump_season", "etag", "forget_all", "fragment",
    "keep_result", "link_version", "live_headers", "not_modified", "page", "polled", "result",
]  # fmt: skip
