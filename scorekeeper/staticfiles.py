"""The static files as production serves them: WhiteNoise's compressed files with hashed names,
each file's URL looked up once per process.

A page names several static files (its styles, scripts and icons), and the manifest storage
works out each name's URL anew on every `{% static %}`. The manifest does not change while the
process runs (collectstatic writes it before the server starts), so neither do the URLs: each
is worked out once (BENCHMARKS.md's register: static URL memo).
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if name is None or force:
            return super().url(name, force)
        found = self._urls.get(name)
        if found is None:
            found = self._urls[name] = super().url(name)
        return found
