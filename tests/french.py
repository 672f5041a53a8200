"""The compiled French catalogue the French tests read (scripts/_setup.sh compiles it), and the
mark that skips them, saying why, where it has not been compiled."""

from pathlib import Path

import pytest

CATALOGUE = Path(__file__).resolve().parents[1] / "scorekeeper/locale/fr/LC_MESSAGES/django.mo"

needs_french = pytest.mark.skipif(
    not CATALOGUE.exists(),
    reason="the French catalogue is not compiled (scripts/_setup.sh runs compilemessages)",
)
