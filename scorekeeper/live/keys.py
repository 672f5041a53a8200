"""The one spelling of what is kept for a version of a session.

What is worked out for a version stays true for good (every change raises the version), so it
is kept under the version and never taken back. It holds words, so the language is part of the
key: a French phone never takes an English phone's copy.
"""

from __future__ import annotations

from django.utils.translation import get_language


def key(kind: str, scope: str, version: int | str) -> str:
    """The cache key of `kind` ("result", "fragment", "board") for one version of a session,
    in the active language. `scope` is the session's public id, or a link's address where
    what is kept belongs to that link (its live fragment names the link's URLs)."""
    return f"{kind}:{scope}:{version}:{get_language() or ''}"
