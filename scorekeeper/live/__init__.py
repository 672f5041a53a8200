"""The live wing: everything that hangs on a session's version, behind one entrance.

Every change to what a session shows raises its version by one, through `bump` alone. What
is worked out for a version stays true for good, so it is kept by version and never taken
back (`keys.key` spells every kept copy):
- the result the rules compute from the entries (`result`, `keep_result`);
- a read-only link's live fragment, standings board and page, rendered once per version
  (`fragment`, `board`, `page`).
Phones without an open event stream poll with the version (`etag`, `not_modified`,
`live_headers`) and the others hear of a new one by push (`streams`). Views call these
functions; they never spell a key or write a version.
"""

from scorekeeper.live.http import etag, live_headers, not_modified
from scorekeeper.live.pages import board, fragment, page
from scorekeeper.live.results import forget_all, result
from scorekeeper.live.results import keep as keep_result
from scorekeeper.live.versions import bump, bump_night, bump_season

__all__ = [
    "board", "bump", "bump_night", "bump_season", "etag", "forget_all", "fragment",
    "keep_result", "live_headers", "not_modified", "page", "result",
]  # fmt: skip
